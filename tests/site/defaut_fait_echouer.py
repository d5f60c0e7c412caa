#!/usr/bin/env python3
"""Montre que des défauts d'une page font échouer la construction stricte du site.

Le site réel (mkdocs.yml, docs/, crochets) est copié dans un dossier temporaire, les défauts
demandés y sont injectés dans une page, et la construction doit échouer avec le message de
chacun. Défauts : lien vers une page absente, ancre absente, section d'extrait de code
absente. Que la copie intacte se construise, le test site.construction.docs le montre déjà
(ctest ne lance celui-ci qu'après lui) : chaque construction du site coûte une minute, on
n'en refait pas une intacte ici. Plusieurs défauts signalés comme avertissements tiennent
dans une seule construction, puisque MkDocs les rapporte tous avant d'abandonner.
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
    parser.add_argument("defauts", nargs="+", choices=sorted(DEFECTS))
    parser.add_argument("--construction", type=Path, required=True,
                        help="dossier de construction CMake (manifeste, Doxygen)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="noyaux-defaut-") as temporary:
        workdir = Path(temporary)
        copy_site(workdir)
        page = workdir / TARGET_PAGE
        snippets = "\n\n".join(DEFECTS[name][0] for name in args.defauts)
        page.write_text(page.read_text(encoding="utf-8") + "\n" + snippets + "\n", encoding="utf-8")
        broken = build(workdir, args.construction.resolve())

    output = broken.stdout + broken.stderr
    names = " et ".join(f"« {name} »" for name in args.defauts)
    if broken.returncode == 0:
        print(f"ÉCHEC : {names} n'ont pas fait échouer la construction.")
        return 1
    missing = [DEFECTS[name][1] for name in args.defauts if DEFECTS[name][1] not in output]
    if missing:
        print("ÉCHEC : la construction a échoué, mais sans le message attendu "
              + ", ".join(f"« {message} »" for message in missing) + f" :\n{output}")
        return 1
    for name in args.defauts:
        print(f"ok : le défaut « {name} » fait échouer la construction stricte ({DEFECTS[name][1]}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
