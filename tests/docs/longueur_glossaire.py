#!/usr/bin/env python3
"""Longueur des fiches du glossaire : environ 200 mots en médiane, davantage pour une notion
centrale, jamais un article.

    longueur_glossaire.py [--dossier glossary] [--mediane 210] [--plafond 400]

Compte les mots du corps de chaque fiche (hors en-tête YAML, commentaires HTML et blocs de
code ; la cible d'un lien ne compte pas, son texte si). Échoue, en nommant les fiches en
cause, si la médiane dépasse --mediane ou si une fiche dépasse --plafond.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
COMMENT = re.compile(r"<!--.*?-->", re.S)
CODE_BLOCK = re.compile(r"^```.*?^```", re.S | re.M)
LINK_TARGET = re.compile(r"\]\([^)]*\)")
WORD = re.compile(r"[\w'’]+")


def word_count(markdown: str) -> int:
    body = FRONT_MATTER.sub("", markdown, count=1)
    for pattern, replacement in ((COMMENT, " "), (CODE_BLOCK, " "), (LINK_TARGET, "]")):
        body = pattern.sub(replacement, body)
    return len(WORD.findall(body))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dossier", type=Path, default=ROOT / "glossary")
    parser.add_argument("--mediane", type=int, default=210, help="médiane maximale (mots)")
    parser.add_argument("--plafond", type=int, default=400, help="longueur maximale d'une fiche")
    options = parser.parse_args(argv)
    counts = {path.name: word_count(path.read_text(encoding="utf-8"))
              for path in sorted(options.dossier.glob("*.md"))}
    if not counts:
        print(f"longueur_glossaire : aucune fiche dans {options.dossier}", file=sys.stderr)
        return 2
    median = statistics.median(counts.values())
    too_long = sorted((n, name) for name, n in counts.items() if n > options.plafond)
    print(f"{len(counts)} fiches, médiane {median:g} mots (au plus {options.mediane}), "
          f"la plus longue {max(counts.values())} (au plus {options.plafond})")
    failed = False
    if median > options.mediane:
        longest = sorted(counts.items(), key=lambda item: -item[1])[:10]
        print(f"ÉCHEC : médiane de {median:g} mots ; les plus longues : "
              + ", ".join(f"{name} ({n})" for name, n in longest))
        failed = True
    for n, name in too_long:
        print(f"ÉCHEC : {name} compte {n} mots (plafond {options.plafond})")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
