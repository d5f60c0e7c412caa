#!/usr/bin/env python3
"""Vérifie des faits sur le code machine (SASS) d'un noyau, pour chaque architecture.

Le binaire est désassemblé par cuobjdump (roue PyPI nvidia-cuda-cuobjdump) ; les
attentes sont déclarées par l'exemple dans son CMakeLists.txt :

    contient MOTIF       au moins une instruction dont le code opération est MOTIF
                         ou commence par « MOTIF. » (LDG.E couvre LDG.E.128)
    absent MOTIF         aucune instruction de ce genre
    sans-debordement     ni LDL ni STL, et aucune mémoire locale (pas de spill)
    registres<=N         au plus N registres par thread

Une attente peut être limitée à une architecture : « sm_90a: contient HGMMA ».
En cas d'échec, le message montre l'extrait de code machine en cause.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
FUNCTION = re.compile(r"^\s*Function : (\S+)")
RESOURCES = re.compile(r"REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)")
EXCERPT_LINES = 40


@dataclass
class Kernel:
    mangled: str
    name: str = ""
    instructions: list[tuple[str, str]] = field(default_factory=list)  # (adresse, texte)
    registers: int | None = None
    stack: int | None = None
    shared: int | None = None  # mémoire partagée statique, en octets
    local: int | None = None


def run(command: list[str]) -> str:
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        sys.exit(f"verifier_sass : outil introuvable : {command[0]} (lancez ./ci/setup)")
    if result.returncode != 0:
        sys.exit(f"verifier_sass : échec de « {' '.join(command)} » :\n{result.stderr}")
    return result.stdout


def demangle(names: list[str]) -> list[str]:
    output = run(["c++filt", *names]) if names else ""
    return output.splitlines()


def opcode(text: str) -> str:
    """Code opération d'une instruction, sans son prédicat (@P0, @!PT…)."""
    words = text.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else ""


def read_kernels(tools: Path, binary: Path, arch: str) -> dict[str, Kernel]:
    kernels: dict[str, Kernel] = {}
    current: Kernel | None = None
    for line in run([str(tools / "cuobjdump"), "-sass", "-arch", arch, str(binary)]).splitlines():
        if match := FUNCTION.match(line):
            current = kernels.setdefault(match.group(1), Kernel(match.group(1)))
        elif current is not None and (match := INSTRUCTION.match(line)):
            current.instructions.append((match.group(1), match.group(2)))
    current = None
    for line in run([str(tools / "cuobjdump"), "-res-usage", "-arch", arch, str(binary)]).splitlines():
        if line.strip().startswith("Function "):
            current = kernels.get(line.strip()[len("Function "):].rstrip(":"))
        elif current is not None and (match := RESOURCES.search(line)):
            current.registers, current.stack, current.shared, current.local = map(int, match.groups())
    for kernel, name in zip(kernels.values(), demangle(list(kernels))):
        kernel.name = name
    return kernels


def matches(instruction: str, pattern: str) -> bool:
    code = opcode(instruction)
    return code == pattern or code.startswith(pattern + ".")


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
    return ((len(words) == 2 and words[0] in ("contient", "absent"))
            or expectation == "sans-debordement"
            or re.fullmatch(r"registres<=\d+", expectation) is not None)


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
                  "contient MOTIF, absent MOTIF, sans-debordement, registres<=N", file=sys.stderr)
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
        kernels = [k for k in read_kernels(args.outils, args.binaire, arch).values()
                   if re.search(rf"\b{re.escape(args.noyau)}\b", k.name)]
        if not kernels:
            print(f"ÉCHEC {arch} : aucun noyau « {args.noyau} » dans {args.binaire.name}")
            failures += 1
            continue
        for kernel in kernels:
            for only_arch, expectation in expectations:
                if only_arch and only_arch != arch:
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
