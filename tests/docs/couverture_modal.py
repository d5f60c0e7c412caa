#!/usr/bin/env python3
"""Couverture du glossaire : au moins 110 fiches, dont une pour chacun des 78 termes du GPU
Glossary de Modal, le glossaire de référence que l'issue du glossaire demande de couvrir.

    couverture_modal.py [--table tests/docs/termes-modal.tsv] [--dossier glossary] [--minimum 110]

La table donne, terme par terme, la fiche de Noyaux qui le couvre. Échoue, en nommant les
lignes en cause, si la table n'a pas 78 termes distincts, si une fiche nommée n'existe pas ou
si le glossaire compte moins de --minimum fiches.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODAL_TERMS = 78  # quatre sections : matériel, logiciel côté GPU, logiciel côté hôte, performance


def problems_in(table: Path, folder: Path, minimum: int) -> list[str]:
    problems: list[str] = []
    seen: dict[str, int] = {}
    rows = 0
    for number, line in enumerate(table.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            problems.append(f"{table.name}:{number} : 4 colonnes attendues, {len(fields)} trouvées")
            continue
        rows += 1
        section, modal_id, modal_term, entry = fields
        if modal_id in seen:
            problems.append(f"{table.name}:{number} : « {modal_id} » déjà à la ligne {seen[modal_id]}")
        seen.setdefault(modal_id, number)
        if not (folder / f"{entry}.md").is_file():
            problems.append(f"{table.name}:{number} : « {modal_term} » ({section}) renvoie à {entry}.md, "
                            f"absente de {folder.name}/")
    if rows != MODAL_TERMS:
        problems.append(f"{table.name} : {rows} termes de Modal au lieu de {MODAL_TERMS}")
    entries = len(list(folder.glob("*.md")))
    if entries < minimum:
        problems.append(f"{folder.name}/ : {entries} fiches, moins que les {minimum} demandées")
    return problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", type=Path, default=ROOT / "tests" / "docs" / "termes-modal.tsv")
    parser.add_argument("--dossier", type=Path, default=ROOT / "glossary")
    parser.add_argument("--minimum", type=int, default=110, help="nombre minimal de fiches")
    options = parser.parse_args(argv)
    problems = problems_in(options.table, options.dossier, options.minimum)
    for problem in problems:
        print(f"ÉCHEC : {problem}")
    if problems:
        return 1
    print(f"couverture : les {MODAL_TERMS} termes de Modal ont chacun leur fiche ; "
          f"{len(list(options.dossier.glob('*.md')))} fiches en tout")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
