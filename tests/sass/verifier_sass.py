#!/usr/bin/env python3
"""Vérifie des faits sur le code machine (SASS) d'un noyau, pour chaque architecture.

Le binaire est désassemblé par cuobjdump (roue PyPI nvidia-cuda-cuobjdump) ; les
attentes sont déclarées par l'exemple dans son CMakeLists.txt :

    contient MOTIF       au moins une instruction dont le code opération est MOTIF
                         ou commence par « MOTIF. » (LDG.E couvre LDG.E.128)
    absent MOTIF         aucune instruction de ce genre
    predique MOTIF       au moins une instruction de ce genre gardée par un prédicat
                         (@P0, @!P1…) : la branche est devenue de la prédication
    sans-debordement     ni LDL ni STL, et aucune mémoire locale (pas de spill)
    registres<=N         au plus N registres par thread
    entrees==N           exactement N noyaux (points d'entrée) de ce nom dans le binaire,
                         pour chaque architecture : un megakernel en compte un seul

Une attente peut être limitée à une architecture : « sm_90a: contient HGMMA ».
En cas d'échec, le message montre l'extrait de code machine en cause.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

# Point d'entrée : la racine d'importation des modules Python de tools/ (le lecteur de code
# machine y est partagé avec le site).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "python"))

from noyaux_outils.code_machine import (  # noqa: E402
    CodeMachineError, Kernel, kernels_named, matches, opcode)

EXCERPT_LINES = 40


def excerpt(kernel: Kernel, highlight: str | None = None) -> str:
    """Les instructions du noyau (sans les NOP de remplissage), les fautives marquées."""
    lines = []
    for address, text in kernel.instructions:
        if opcode(text) == "NOP":
            continue
        mark = ">>" if highlight and matches(text, highlight) else "  "
        lines.append(f"    {mark} /*{address}*/ {text}")
    if highlight:
        marked = [i for i, line in enumerate(lines) if line.startswith("    >>")]
        if marked:
            start, stop = max(0, marked[0] - 3), min(len(lines), marked[-1] + 4)
            lines = lines[start:stop]
    if len(lines) > EXCERPT_LINES:
        lines = lines[:EXCERPT_LINES] + [f"    … ({len(lines) - EXCERPT_LINES} lignes de plus)"]
    return "\n".join(lines)


def check(kernel: Kernel, expectation: str) -> str | None:
    """Renvoie None si l'attente est tenue, sinon le message d'échec en français."""
    words = expectation.split()
    if len(words) == 2 and words[0] == "predique":
        if any(text.split()[0].startswith("@") and matches(text, words[1]) for _, text in kernel.instructions):
            return None
        return f"aucune instruction {words[1]} gardée par un prédicat ; code machine du noyau :\n{excerpt(kernel)}"
    if len(words) == 2 and words[0] in ("contient", "absent"):
        verb, pattern = words
        found = any(matches(text, pattern) for _, text in kernel.instructions)
        if verb == "contient" and not found:
            return f"aucune instruction {pattern} ; code machine du noyau :\n{excerpt(kernel)}"
        if verb == "absent" and found:
            return f"instruction {pattern} présente (>>) :\n{excerpt(kernel, pattern)}"
        return None
    if expectation == "sans-debordement":
        spills = [text for _, text in kernel.instructions if opcode(text).split(".")[0] in ("LDL", "STL")]
        if spills or kernel.local:
            return (f"débordement de registres : {kernel.local} octets de mémoire locale, "
                    f"{len(spills)} accès LDL/STL :\n{excerpt(kernel, 'STL') or excerpt(kernel, 'LDL')}")
        return None
    if match := re.fullmatch(r"registres<=(\d+)", expectation):
        limit = int(match.group(1))
        if kernel.registers is None:
            return "nombre de registres introuvable dans « cuobjdump -res-usage »"
        if kernel.registers > limit:
            return f"{kernel.registers} registres par thread, attendu au plus {limit}"
        return None
    raise ValueError(expectation)


def parse_expectation(text: str) -> tuple[str | None, str]:
    arch, _, rest = text.partition(":")
    if rest and re.fullmatch(r"sm_\d+[af]?", arch.strip()):
        return arch.strip(), rest.strip()
    return None, text.strip()


def valid(expectation: str) -> bool:
    words = expectation.split()
    return ((len(words) == 2 and words[0] in ("contient", "absent", "predique"))
            or expectation == "sans-debordement"
            or re.fullmatch(r"registres<=\d+", expectation) is not None
            or re.fullmatch(r"entrees==\d+", expectation) is not None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outils", type=Path, required=True, help="dossier de cuobjdump")
    parser.add_argument("--binaire", type=Path, required=True)
    parser.add_argument("--archs", required=True, help="liste CMake, ex. « 80;90a »")
    parser.add_argument("--noyau", required=True, help="nom (ou partie du nom démanglé) du noyau")
    parser.add_argument("--attendu", action="append", default=[], help="attente, répétable")
    args = parser.parse_args()

    expectations = [parse_expectation(text) for text in args.attendu]
    for _, expectation in expectations:
        if not valid(expectation):
            print(f"verifier_sass : attente invalide « {expectation} » ; formes admises : "
                  "contient MOTIF, absent MOTIF, predique MOTIF, sans-debordement, registres<=N, entrees==N",
                  file=sys.stderr)
            return 2
    if not args.binaire.is_file():
        print(f"verifier_sass : binaire introuvable : {args.binaire}", file=sys.stderr)
        return 2
    archs = [f"sm_{a}" for a in args.archs.replace(",", ";").split(";") if a.strip()]
    if not archs or any(not re.fullmatch(r"sm_\d+[af]?", a) for a in archs):
        print(f"verifier_sass : architectures inutilisables « {args.archs} » (ex. « 80;90a » ; "
              "« native » ou « all » ne disent pas quoi vérifier)", file=sys.stderr)
        return 2

    failures = 0
    for arch in archs:
        try:
            kernels = kernels_named(args.outils, args.binaire, arch, args.noyau)
        except CodeMachineError as error:
            print(f"verifier_sass : {error}", file=sys.stderr)
            return 2
        if not kernels:
            print(f"ÉCHEC {arch} : aucun noyau « {args.noyau} » dans {args.binaire.name}")
            failures += 1
            continue
        for only_arch, expectation in expectations:
            if (match := re.fullmatch(r"entrees==(\d+)", expectation)) and only_arch in (None, arch):
                if len(kernels) != int(match.group(1)):
                    names = ", ".join(k.name for k in kernels)
                    print(f"ÉCHEC {arch} : attendu « {expectation} » : {len(kernels)} noyaux « {args.noyau} » "
                          f"({names})")
                    failures += 1
                else:
                    print(f"ok    {arch} {args.noyau} : {expectation}")
        for kernel in kernels:
            for only_arch, expectation in expectations:
                if only_arch and only_arch != arch:
                    continue
                if expectation.startswith("entrees=="):
                    continue
                problem = check(kernel, expectation)
                if problem:
                    print(f"ÉCHEC {arch} {kernel.name} : attendu « {expectation} » : {problem}")
                    failures += 1
                else:
                    print(f"ok    {arch} {kernel.name} : {expectation}")
    if failures:
        print(f"verifier_sass : {failures} attente(s) non tenue(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
