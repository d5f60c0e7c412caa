#!/usr/bin/env python3
"""Montre qu'un défaut d'une page fait échouer la construction stricte du site.

Le site réel (mkdocs.yml, docs/, crochets) est copié dans un dossier temporaire ; la copie
intacte doit se construire, puis la même copie avec un seul défaut injecté doit échouer
avec le message attendu. Défauts : lien vers une page absente, ancre absente, section
d'extrait de code absente.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGET_PAGE = Path("docs/ressources/boucle-grid-stride.md")
DEFECTS = {
    "lien-casse": ("Voir [une page absente](page-absente.md).",
                   "'ressources/page-absente.md' is not found"),
    "ancre-cassee": ("Voir [une section absente](#section-absente).",
                     "there is no such anchor on this page"),
    "extrait-manquant": ('```cuda\n--8<-- "examples/ressources/01-boucle-grid-stride/'
                         'boucle-grid-stride.cuh:section-absente"\n```',
                         "Snippet section 'section-absente' could not be located"),
}


def build(workdir: Path, build_dir: Path) -> subprocess.CompletedProcess:
    environment = dict(os.environ, NOYAUX_BUILD_DIR=str(build_dir), NO_MKDOCS_2_WARNING="1")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(workdir / "site")],
        cwd=workdir, env=environment, capture_output=True, text=True, check=False)


def copy_site(workdir: Path) -> None:
    shutil.copy(ROOT / "mkdocs.yml", workdir)
    shutil.copytree(ROOT / "docs", workdir / "docs")
    # Lus seulement : des liens suffisent.
    for name in ("tools", "examples", "glossary"):
        (workdir / name).symlink_to(ROOT / name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("defaut", choices=sorted(DEFECTS))
    parser.add_argument("--construction", type=Path, required=True,
                        help="dossier de construction CMake (manifeste, Doxygen)")
    args = parser.parse_args()
    snippet, expected = DEFECTS[args.defaut]

    with tempfile.TemporaryDirectory(prefix="noyaux-defaut-") as temporary:
        workdir = Path(temporary)
        copy_site(workdir)
        clean = build(workdir, args.construction.resolve())
        if clean.returncode != 0:
            print(f"ÉCHEC : la copie intacte du site ne se construit pas :\n{clean.stderr}")
            return 1
        page = workdir / TARGET_PAGE
        page.write_text(page.read_text(encoding="utf-8") + "\n" + snippet + "\n", encoding="utf-8")
        broken = build(workdir, args.construction.resolve())

    output = broken.stdout + broken.stderr
    if broken.returncode == 0:
        print(f"ÉCHEC : le défaut « {args.defaut} » n'a pas fait échouer la construction.")
        return 1
    if expected not in output:
        print(f"ÉCHEC : la construction a échoué, mais sans le message attendu « {expected} » :\n{output}")
        return 1
    print(f"ok : le défaut « {args.defaut} » fait échouer la construction stricte ({expected}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
