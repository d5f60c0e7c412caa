"""Lecture du manifeste des exemples écrit par CMake (build/noyaux-exemples.tsv) : le seul
lecteur Python, pour le site, les tests et ci/gpu-check.

En ligne de commande, liste les programmes d'exemple d'un arbre de construction :

    python3 -m noyaux_outils.manifeste --programmes build-gpu/noyaux-exemples.tsv

écrit « partie.NN-slug<TAB>chemin du programme » par exemple (ci/gpu-check s'en sert)."""
from __future__ import annotations

import argparse
import csv
import sys
from dataclasses import dataclass
from pathlib import Path

COLUMNS = ["partie", "slug", "dossier", "nom", "backends", "tests", "benchmark"]


@dataclass(frozen=True)
class Example:
    part: str
    slug: str
    directory: str  # relatif à la racine du dépôt
    name: str
    backends: tuple[str, ...]
    tests: tuple[str, ...]
    benchmark: str

    @property
    def ctest_regex(self) -> str:
        return rf"'^{self.part}\.{self.slug}\.'"

    @property
    def page(self) -> str:
        """Page du catalogue générée pour l'exemple."""
        return f"exemples/{self.part}/{self.slug}.md"


class ManifestError(Exception):
    pass


def read_manifest(path: Path) -> dict[str, Example]:
    """Exemples indexés par dossier (ex. « examples/ressources/01-boucle-grid-stride »)."""
    if not path.is_file():
        raise ManifestError(
            f"manifeste des exemples introuvable : {path} ; configurez d'abord la construction "
            "(cmake --preset default) ou passez par ./ci/site")
    with path.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.reader(stream, delimiter="\t"))
    if not rows or rows[0] != COLUMNS:
        raise ManifestError(f"{path} : en-tête inattendu {rows[0] if rows else '(vide)'}")
    examples = {}
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(COLUMNS):
            raise ManifestError(f"{path}:{number} : {len(row)} colonnes au lieu de {len(COLUMNS)}")
        part, slug, directory, name, backends, tests, benchmark = row
        examples[directory] = Example(part, slug, directory, name,
                                      tuple(filter(None, backends.split(","))),
                                      tuple(filter(None, tests.split(","))), benchmark)
    return examples


def main() -> int:
    parser = argparse.ArgumentParser(description="Programmes d'exemple d'un arbre de construction.")
    parser.add_argument("--programmes", type=Path, required=True, metavar="MANIFESTE",
                        help="build*/noyaux-exemples.tsv ; les programmes sont à côté de lui")
    args = parser.parse_args()
    try:
        examples = read_manifest(args.programmes)
    except ManifestError as error:
        print(f"manifeste : {error}", file=sys.stderr)
        return 2
    build = args.programmes.parent
    for example in examples.values():
        print(f"{example.part}.{example.slug}\t{build / example.directory / example.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
