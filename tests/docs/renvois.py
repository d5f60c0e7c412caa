#!/usr/bin/env python3
"""Vérifie que le README de chaque exemple renvoie aux pages du site qui l'utilisent.

    renvois.py --racine DÉPÔT

Une page nomme ses exemples dans l'en-tête `exemples:` ; le README de chacun de ces exemples
doit contenir un lien relatif vers cette page (« ../../../docs/… .md »), et chaque lien d'un
README vers docs/ doit mener à une page qui existe.
Codes de sortie : 0 tout est relié, 1 renvois manquants ou cassés, 2 vérification impossible.
"""

import argparse
import collections
import pathlib
import posixpath
import re
import sys

FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
NAMED_EXAMPLE = re.compile(r"^\s*-\s*(examples/\S+?)/?\s*$", re.M)
EXAMPLES_KEY = re.compile(r"^exemples:\s*$", re.M)
LINK = re.compile(r"\]\(([^)\s#]+\.md)(?:#[^)\s]*)?\)")


def pages_by_example(root):
    """Pour chaque dossier d'exemple, les pages (relatives au dépôt) qui le nomment."""
    found = collections.defaultdict(list)
    for page in sorted((root / "docs").rglob("*.md")):
        header = FRONT_MATTER.match(page.read_text(encoding="utf-8"))
        if not header or not EXAMPLES_KEY.search(header.group(1)):
            continue
        for directory in NAMED_EXAMPLE.findall(header.group(1)):
            found[directory].append(page.relative_to(root).as_posix())
    return found


def readme_targets(readme, root):
    """Pages (relatives au dépôt) visées par les liens relatifs du README."""
    folder = readme.parent.relative_to(root).as_posix()
    return [posixpath.normpath(posixpath.join(folder, link))
            for link in LINK.findall(readme.read_text(encoding="utf-8"))
            if not re.match(r"[a-z][a-z0-9+.-]*:", link)]


def problems(root):
    root = pathlib.Path(root)
    if not (root / "docs").is_dir() or not (root / "examples").is_dir():
        raise FileNotFoundError(f"{root} n'a pas de dossiers docs/ et examples/ : est-ce la racine "
                                "du dépôt ?")
    found = []
    for directory, pages in sorted(pages_by_example(root).items()):
        readme = root / directory / "README.md"
        if not readme.is_file():
            found.append(f"{directory} : nommé par {', '.join(pages)}, mais sans README.md")
            continue
        targets = set(readme_targets(readme, root))
        for page in pages:
            if page not in targets:
                link = posixpath.relpath(page, directory)
                found.append(f"{directory}/README.md : aucun lien vers {page}, qui nomme cet "
                             f"exemple (attendu : « ]({link}) »)")
    for readme in sorted(root.glob("examples/*/*/README.md")):
        for target in readme_targets(readme, root):
            if target.startswith("docs/") and not (root / target).is_file():
                found.append(f"{readme.relative_to(root)} : lien vers {target}, page absente")
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Vérifie que chaque README d'exemple renvoie aux pages qui l'utilisent.")
    parser.add_argument("--racine", required=True, type=pathlib.Path, help="racine du dépôt")
    arguments = parser.parse_args(argv)
    try:
        found = problems(arguments.racine)
    except (FileNotFoundError, UnicodeDecodeError) as error:
        print(f"renvois : {error}", file=sys.stderr)
        return 2
    for problem in found:
        print(problem)
    if found:
        print(f"renvois : {len(found)} renvoi{'s' if len(found) > 1 else ''} manquant"
              f"{'s' if len(found) > 1 else ''} ou cassé{'s' if len(found) > 1 else ''}",
              file=sys.stderr)
        return 1
    print("renvois : chaque README d'exemple renvoie aux pages qui le nomment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
