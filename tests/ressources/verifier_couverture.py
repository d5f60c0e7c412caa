#!/usr/bin/env python3
"""Vérifie que la couverture de la liste de lecture ne peut pas prendre de retard : chaque
entrée du document d'origine a sa ligne dans docs/ressources/couverture.yml, une page et une
ancre qui existent dans le site construit, et un exemple déclaré à CMake ou la raison de son
absence. Usage : couverture.py --racine DÉPÔT --site SITE --manifeste MANIFESTE"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tools" / "mkdocs"), str(ROOT / "tools" / "python")]

from couverture import read_coverage, read_entries  # noqa: E402
from noyaux_outils.manifeste import ManifestError, read_manifest  # noqa: E402


def problems(entries_file: Path, coverage_file: Path, site: Path, manifest: Path) -> list[str]:
    found = []
    entries = [name for _, name in read_entries(entries_file)]
    coverage = read_coverage(coverage_file)
    examples = read_manifest(manifest)
    for name in entries:
        if name not in coverage:
            found.append(f"entrée non couverte : « {name} » (ajoutez-la à {coverage_file.name})")
    for name, item in coverage.items():
        if name not in entries:
            found.append(f"« {name} » : absente de la liste du document d'origine")
            continue
        target = item.get("page", "")
        page, _, anchor = target.partition("#")
        html = site / Path(page).with_suffix(".html")
        if not page or not html.is_file():
            found.append(f"« {name} » : page « {page} » absente du site construit")
        elif anchor and not re.search(rf'id="{re.escape(anchor)}"', html.read_text(encoding="utf-8")):
            found.append(f"« {name} » : ancre « #{anchor} » absente de {page}")
        example = item.get("exemple")
        reason = item.get("sans_equivalent") or item.get("a_venir")
        if example and reason:
            found.append(f"« {name} » : « exemple » et une raison (« sans_equivalent », « a_venir ») s'excluent")
        elif example and example not in examples:
            found.append(f"« {name} » : exemple « {example} » absent du manifeste")
        elif not example and not (reason and str(reason).strip()):
            found.append(f"« {name} » : ni exemple ni raison (« sans_equivalent » ou « a_venir »)")
    generated = site / "ressources" / "couverture.html"
    if not generated.is_file():
        found.append("page de couverture absente du site construit")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racine", type=Path, default=ROOT)
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--manifeste", type=Path, required=True)
    parser.add_argument("--couverture", type=Path, help="par défaut docs/ressources/couverture.yml")
    args = parser.parse_args()
    coverage = args.couverture or args.racine / "docs" / "ressources" / "couverture.yml"
    try:
        found = problems(args.racine / "tests" / "ressources" / "entrees-du-document.txt",
                         coverage, args.site, args.manifeste)
    except (OSError, ManifestError) as error:
        print(f"couverture : {error}", file=sys.stderr)
        return 2
    for problem in found:
        print(f"couverture : {problem}")
    if found:
        print(f"couverture : {len(found)} problème(s)")
        return 1
    print(f"couverture : {len(read_coverage(coverage))} entrées couvertes, toutes vérifiées")
    return 0


if __name__ == "__main__":
    sys.exit(main())
