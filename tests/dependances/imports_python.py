#!/usr/bin/env python3
"""Vérifie que le Python du dépôt (outils, crochets MkDocs, tests, scripts de ci/) n'importe
rien que l'environnement .venv, créé par ci/setup depuis ci/requirements.txt, ne fournisse pas.

Chaque import de premier niveau (`import x`, `from x import y`) doit être : un module de la
bibliothèque standard, un module du dépôt, ou un module installé dans .venv par une
distribution nommée dans ci/requirements.txt. Les extensions Markdown, plugins et thème que
nomme mkdocs.yml sont des imports eux aussi : MkDocs les charge par leur nom.

À lancer avec le Python de .venv : c'est son contenu qu'on interroge.
"""
from __future__ import annotations

import argparse
import ast
import functools
import importlib.metadata
import importlib.util
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

# Dossiers du dépôt qui ne sont pas du code du projet (.deps : paquets Debian que ci/gpu-deps
# télécharge et que ci/gpu-check décompresse, sources de GoogleTest comprises).
SKIPPED_DIRS = {".git", ".venv", ".deps", "node_modules", "__pycache__"}


class SetupError(Exception):
    """Entrée absente ou illisible : le test ne peut pas conclure."""


@dataclass(frozen=True)
class Import:
    module: str      # nom de premier niveau : « yaml » pour « import yaml.constructor »
    where: str       # fichier:ligne


def normalize(name: str) -> str:
    """Nom de distribution normalisé (PEP 503) : « PyYAML » et « pyyaml » se valent."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_requirements(path: Path) -> set[str]:
    if not path.is_file():
        raise SetupError(f"{path} absent")
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(normalize(re.split(r"[<>=!~;\[ ]", line, maxsplit=1)[0]))
    return names


def python_files(root: Path, skipped: set[Path]) -> list[Path]:
    """Fichiers .py du dépôt, sans descendre dans les dossiers de construction (ceux qui ont
    un CMakeCache.txt), ni dans .venv et consorts."""
    found = []
    for folder, subfolders, names in os.walk(root):
        here = Path(folder)
        subfolders[:] = sorted(name for name in subfolders
                               if name not in SKIPPED_DIRS and here / name not in skipped
                               and not (here / name / "CMakeCache.txt").exists())
        found += [here / name for name in sorted(names) if name.endswith(".py")]
    return found


def imports_of(path: Path, root: Path) -> list[Import]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError as error:
        raise SetupError(f"{path}:{error.lineno} : syntaxe Python invalide") from error
    found = []
    where = lambda node: f"{path.relative_to(root)}:{node.lineno}"  # noqa: E731
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(alias.name.split(".")[0], where(node)) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(Import(node.module.split(".")[0], where(node)))
    return found


def mkdocs_imports(config: Path, root: Path) -> list[Import]:
    """Modules que MkDocs chargera d'après mkdocs.yml : extensions Markdown (pymdownx.x),
    thème et plugins (fournis par des distributions : material, mkdocs)."""
    found = []
    lines = config.read_text(encoding="utf-8").splitlines()
    section = None
    for number, line in enumerate(lines, 1):
        if re.match(r"^[a-z_]+:", line):
            section = line.split(":", 1)[0]
            continue
        item = re.match(r"^\s+-\s+([A-Za-z_][\w.]*)\s*:?\s*$", line)
        if section == "markdown_extensions" and item:
            name = item[1]
            # « toc », « tables »… : extensions livrées avec Python-Markdown.
            if "." not in name and importlib.util.find_spec("markdown") is not None \
                    and importlib.util.find_spec(f"markdown.extensions.{name}") is not None:
                name = "markdown"
            found.append(Import(name.split(".")[0], f"{config.relative_to(root)}:{number}"))
        theme = re.match(r"^\s+name:\s*(\w+)\s*$", line)
        if section == "theme" and theme:
            found.append(Import(theme[1], f"{config.relative_to(root)}:{number}"))
    return found


def local_modules(root: Path, files: list[Path]) -> set[str]:
    """Modules du dépôt : chaque fichier .py et chaque dossier de paquet (avec __init__.py)."""
    names = {path.stem for path in files}
    names |= {path.parent.name for path in files if path.name == "__init__.py"}
    return names


@functools.cache
def installed_modules() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()


def providers(module: str) -> list[str] | None:
    """Distributions de .venv qui fournissent @p module ; None s'il est introuvable."""
    distributions = installed_modules().get(module)
    if distributions:
        return [normalize(name) for name in distributions]
    return [] if importlib.util.find_spec(module) is not None else None


def check(root: Path, requirements: Path, skipped: set[Path]) -> tuple[list[str], int]:
    wanted = read_requirements(requirements)
    files = python_files(root, skipped)
    if not files:
        raise SetupError(f"aucun fichier Python sous {root}")
    imports = [item for path in files for item in imports_of(path, root)]
    if (root / "mkdocs.yml").is_file():
        imports += mkdocs_imports(root / "mkdocs.yml", root)
    local = local_modules(root, files)
    problems = []
    for item in imports:
        if item.module in sys.stdlib_module_names or item.module in local:
            continue
        dists = providers(item.module)
        if dists is None:
            problems.append(f"{item.where} : le module « {item.module} » n'est pas installé dans "
                            f"l'environnement (.venv) ; ajoutez à {requirements} le paquet PyPI "
                            "qui le fournit, avec sa version figée (nom==version)")
        elif dists and not set(dists) & wanted:
            problems.append(f"{item.where} : le module « {item.module} » vient de "
                            f"{', '.join(sorted(set(dists)))}, absent de {requirements} ; "
                            f"ajoutez la ligne « {dists[0]}==VERSION » (version figée)")
        elif not dists:
            problems.append(f"{item.where} : le module « {item.module} » n'appartient à aucune "
                            f"distribution de {requirements} (installé hors de ci/setup ?)")
    return problems, len(imports)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racine", type=Path, required=True, help="racine du dépôt")
    parser.add_argument("--requirements", type=Path, required=True, help="ci/requirements.txt")
    parser.add_argument("--ignorer", type=Path, nargs="*", default=[],
                        help="dossiers à ne pas examiner (dossiers de construction)")
    args = parser.parse_args(argv)
    root = args.racine.resolve()
    try:
        problems, count = check(root, args.requirements,
                                {path.resolve() for path in args.ignorer})
    except SetupError as error:
        print(f"imports : {error}", file=sys.stderr)
        return 2
    if problems:
        print(f"imports : {len(problems)} import(s) que .venv ne fournit pas depuis "
              f"{args.requirements} :", *problems, sep="\n  ", file=sys.stderr)
        return 1
    print(f"imports : {count} imports examinés, tous fournis par la bibliothèque standard, "
          f"le dépôt ou {args.requirements.name}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
