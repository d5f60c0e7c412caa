#!/usr/bin/env python3
"""Vérifie des faits sur le code machine (SASS) d'un noyau, pour chaque architecture.

Le binaire est désassemblé par cuobjdump (roue PyPI nvidia-cuda-cuobjdump) ; les
attentes sont déclarées par l'exemple dans son CMakeLists.txt :

    contient MOTIF       au moins une instruction dont le code opération est MOTIF
                         ou commence par « MOTIF. » (LDG.E couvre LDG.E.128)
    absent MOTIF         aucune instruction de ce genre
    toutes-128 MOTIF     au moins une instruction de ce genre, et toutes de 128 bits (un
                         « .128 » dans le code opération ; « LTC128B », indice de cache, ne
                         compte pas) : « toutes-128 LDGSTS » refuse la moindre copie
                         asynchrone de 4 octets (LDGSTS.E), que « contient » laisse passer
    predique MOTIF       au moins une instruction de ce genre gardée par un prédicat
                         (@P0, @!P1…) : la branche est devenue de la prédication
    sans-debordement     ni LDL ni STL, et aucune mémoire locale (pas de spill)
    registres<=N         au plus N registres par thread
    registres==N         exactement N registres par thread : avec setmaxnreg, la réserve du
                         bloc (threads × registres à l'entrée) doit couvrir ce que les groupes
                         de warps se redistribuent ; un ptxas qui en donnerait moins ferait
                         attendre setmaxnreg.inc pour toujours sur GPU
    wgmma-enchaines      au moins une HGMMA sans « gsb0 » : des wgmma partent l'un après
                         l'autre sans attendre le précédent. Quand ptxas les sérialise (note
                         C7515, par ex. si du code ordinaire redéfinit un accumulateur pendant
                         le pipeline), chaque HGMMA porte gsb0 et est suivie d'une attente
    entrees==N           exactement N noyaux (points d'entrée) de ce nom dans le binaire,
                         pour chaque architecture : un megakernel en compte un seul
    part-ffma>=P         la boucle principale (celle qui a le plus de FFMA, comme sur les
                         pages) est la boucle sur les tuiles de K (elle contient la barrière
                         BAR.SYNC : aucune boucle interne n'est restée roulée) et au moins P %
                         de ses instructions sont des FFMA
    warps-par-sm>=N      au moins N warps résidents par SM selon le calcul d'occupation des
                         pages (registres, mémoire partagée, __launch_bounds__ lus dans la
                         construction) ; architectures du modèle seulement (sm_90, sm_90a).
                         « warps-par-sm>=N dynamique=OCTETS » ajoute la mémoire partagée
                         dynamique que demande le lanceur, comme le marqueur noyaux:occupation
                         des pages

Une attente peut être limitée à une architecture : « sm_90a: contient HGMMA ».
En cas d'échec, le message montre l'extrait de code machine en cause.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

# Point d'entrée : la racine d'importation des modules Python de tools/ (le lecteur de code
# machine y est partagé avec le site).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "python"))
# La boucle principale et l'occupation : les calculs mêmes qui rendent les pages (tools/mkdocs).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "mkdocs"))

from noyaux_outils.code_machine import (  # noqa: E402
    CodeMachineError, Kernel, kernels_named, matches, opcode, run_tool)

import occupation  # noqa: E402
import sass  # noqa: E402

EXCERPT_LINES = 40
WARPS = re.compile(r"warps-par-sm>=(\d+)(?: dynamique=(\d+))?")


def excerpt(kernel: Kernel, highlight: str | Callable[[str], bool] | None = None) -> str:
    """Les instructions du noyau (sans les NOP de remplissage), les fautives marquées : celles
    du genre @p highlight, ou celles que @p highlight désigne s'il est une fonction."""
    if isinstance(highlight, str):
        pattern = highlight
        highlight = lambda text: matches(text, pattern)  # noqa: E731
    lines = []
    for address, text in kernel.instructions:
        if opcode(text) == "NOP":
            continue
        mark = ">>" if highlight and highlight(text) else "  "
        lines.append(f"    {mark} /*{address}*/ {text}")
    if highlight:
        marked = [i for i, line in enumerate(lines) if line.startswith("    >>")]
        if marked:
            start, stop = max(0, marked[0] - 3), min(len(lines), marked[-1] + 4)
            lines = lines[start:stop]
    if len(lines) > EXCERPT_LINES:
        lines = lines[:EXCERPT_LINES] + [f"    … ({len(lines) - EXCERPT_LINES} lignes de plus)"]
    return "\n".join(lines)


def ffma_share(kernel: Kernel, minimum: float) -> str | None:
    """La boucle principale est celle des tuiles de K et compte au moins @p minimum % de FFMA."""
    loop = sass.main_loop(kernel)
    if not loop:
        return f"aucune boucle dans le noyau ; code machine :\n{excerpt(kernel)}"
    ffma = sum(opcode(text).split(".")[0] == "FFMA" for _, text in loop)
    share = 100 * ffma / len(loop)
    shown = "\n".join(f"       /*{address}*/ {text}" for address, text in loop[:EXCERPT_LINES])
    if not any(matches(text, "BAR") for _, text in loop):
        return (f"la boucle la plus riche en FFMA ({ffma} FFMA sur {len(loop)} instructions, "
                f"{share:.1f} %) ne contient pas la barrière de fin de tuile : c'est une boucle "
                "interne restée roulée (la boucle kk, à dérouler avec #pragma unroll), qui "
                f"s'exécute plusieurs fois par tuile de K :\n{shown}")
    if share < minimum:
        return (f"la boucle sur les tuiles de K compte {ffma} FFMA sur {len(loop)} instructions, "
                f"soit {share:.1f} % ; attendu au moins {minimum:g} % :\n{shown}")
    return None


def resident_warps(kernel: Kernel, arch: str, elf: str, minimum: int, dynamic: int = 0) -> str | None:
    """Au moins @p minimum warps résidents par SM, selon le calcul d'occupation des pages ;
    @p dynamic : octets de mémoire partagée dynamique par bloc, que le binaire ne dit pas."""
    threads = occupation.max_threads(elf, kernel.mangled)
    if threads is None:
        return "pas de borne __launch_bounds__ : la taille de bloc n'est pas lisible"
    try:
        result = occupation.occupancy(
            occupation.Usage(threads=threads, registers=kernel.registers or 0,
                             shared_static=occupation.declared_shared(kernel.shared or 0,
                                                                      occupation.ARCHITECTURES[arch]),
                             shared_dynamic=dynamic),
            occupation.ARCHITECTURES[arch])
    except occupation.OccupationError as error:
        return str(error)
    if result.warps < minimum:
        shared = f", {dynamic} octets de mémoire partagée dynamique" if dynamic else ""
        return (f"{result.warps} warps résidents par SM ({result.blocks} bloc(s) de {threads} threads, "
                f"{kernel.registers} registres par thread{shared}, facteur limitant : "
                f"{' et '.join(result.limiting)}) ; attendu au moins {minimum}")
    return None


def check(kernel: Kernel, expectation: str) -> str | None:
    """Renvoie None si l'attente est tenue, sinon le message d'échec en français."""
    words = expectation.split()
    if match := re.fullmatch(r"part-ffma>=(\d+(?:\.\d+)?)", expectation):
        return ffma_share(kernel, float(match.group(1)))
    if len(words) == 2 and words[0] == "predique":
        if any(text.split()[0].startswith("@") and matches(text, words[1]) for _, text in kernel.instructions):
            return None
        return f"aucune instruction {words[1]} gardée par un prédicat ; code machine du noyau :\n{excerpt(kernel)}"
    if len(words) == 2 and words[0] == "toutes-128":
        family = [text for _, text in kernel.instructions if matches(text, words[1])]
        if not family:
            return f"aucune instruction {words[1]} ; code machine du noyau :\n{excerpt(kernel)}"

        def narrow(text: str) -> bool:
            return matches(text, words[1]) and "128" not in opcode(text).split(".")
        if narrow_ones := [text for text in family if narrow(text)]:
            return (f"{len(narrow_ones)} instruction(s) {words[1]} sur {len(family)} sans « .128 », "
                    f"par ex. « {opcode(narrow_ones[0])} » (>>) :\n{excerpt(kernel, narrow)}")
        return None
    if len(words) == 2 and words[0] in ("contient", "absent"):
        verb, pattern = words
        found = any(matches(text, pattern) for _, text in kernel.instructions)
        if verb == "contient" and not found:
            return f"aucune instruction {pattern} ; code machine du noyau :\n{excerpt(kernel)}"
        if verb == "absent" and found:
            return f"instruction {pattern} présente (>>) :\n{excerpt(kernel, pattern)}"
        return None
    if expectation == "wgmma-enchaines":
        hgmma = [text for _, text in kernel.instructions if matches(text, "HGMMA")]
        if any(not re.search(r"\bgsb0\b", text) for text in hgmma):
            return None
        return (f"wgmma sérialisés par ptxas : les {len(hgmma)} HGMMA attendent chacune la fin de la précédente "
                f"(gsb0, puis WARPGROUP.DEPBAR) ; code machine du noyau :\n{excerpt(kernel, 'HGMMA')}")
    if expectation == "sans-debordement":
        spills = [text for _, text in kernel.instructions if opcode(text).split(".")[0] in ("LDL", "STL")]
        if spills or kernel.local:
            return (f"débordement de registres : {kernel.local} octets de mémoire locale, "
                    f"{len(spills)} accès LDL/STL :\n{excerpt(kernel, 'STL') or excerpt(kernel, 'LDL')}")
        return None
    if match := re.fullmatch(r"registres(<=|==)(\d+)", expectation):
        relation, limit = match.group(1), int(match.group(2))
        if kernel.registers is None:
            return "nombre de registres introuvable dans « cuobjdump -res-usage »"
        if relation == "<=" and kernel.registers > limit:
            return f"{kernel.registers} registres par thread, attendu au plus {limit}"
        if relation == "==" and kernel.registers != limit:
            return f"{kernel.registers} registres par thread, attendu exactement {limit}"
        return None
    raise ValueError(expectation)


def parse_expectation(text: str) -> tuple[str | None, str]:
    arch, _, rest = text.partition(":")
    if rest and re.fullmatch(r"sm_\d+[af]?", arch.strip()):
        return arch.strip(), rest.strip()
    return None, text.strip()


def valid(expectation: str) -> bool:
    words = expectation.split()
    return ((len(words) == 2 and words[0] in ("contient", "absent", "predique", "toutes-128"))
            or expectation in ("sans-debordement", "wgmma-enchaines")
            or re.fullmatch(r"registres(<=|==)\d+", expectation) is not None
            or re.fullmatch(r"entrees==\d+", expectation) is not None
            or re.fullmatch(r"part-ffma>=\d+(\.\d+)?", expectation) is not None
            or WARPS.fullmatch(expectation) is not None)


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
                  "contient MOTIF, absent MOTIF, toutes-128 MOTIF, predique MOTIF, sans-debordement, "
                  "wgmma-enchaines, registres<=N, registres==N, entrees==N, part-ffma>=P, "
                  "warps-par-sm>=N [dynamique=OCTETS]",
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
                if match := WARPS.fullmatch(expectation):
                    if arch not in occupation.ARCHITECTURES:
                        print(f"verifier_sass : « {expectation} » : pas de modèle d'occupation pour {arch} "
                              f"(connues : {', '.join(sorted(occupation.ARCHITECTURES))}) ; "
                              f"préfixez l'attente par « sm_90a: »", file=sys.stderr)
                        return 2
                    elf = run_tool([str(args.outils / "cuobjdump"), "-elf", "-arch", arch, str(args.binaire)])
                    problem = resident_warps(kernel, arch, elf, int(match.group(1)), int(match.group(2) or 0))
                else:
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
