"""Code machine affiché sur les pages, tiré de la construction (jamais recopié).

Une page demande le code machine d'un noyau par un commentaire HTML :

    <!-- noyaux:sass examples/gemm/05-tuilage-2d sgemm_2d_blocktiling sm_90a -->

Le commentaire est remplacé par le nombre de registres, la boucle principale (celle qui
contient le plus de FFMA) et sa composition, lus par cuobjdump dans le programme construit.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from noyaux_outils.code_machine import CodeMachineError, Kernel, kernels_named, opcode

MARKER = re.compile(r"<!--\s*noyaux:sass\s+(\S+)\s+(\S+)\s+(sm_\w+)\s*-->")
BRANCH_TARGET = re.compile(r"\bBRA\b.*?(0x[0-9a-f]+)")
MAX_LINES = 160


class SassError(Exception):
    pass


# Instructions des Tensor Cores : une boucle qui en contient calcule, comme une boucle de FFMA.
TENSOR_OPS = ("HMMA", "HGMMA", "IMMA", "DMMA", "UTCHMMA", "UTCQMMA")


def _computes(text: str) -> bool:
    op = opcode(text)
    return op.startswith("FFMA") or op.split(".")[0] in TENSOR_OPS


def main_loop(kernel: Kernel) -> list[tuple[str, str]]:
    """La boucle (branchement arrière) qui contient le plus d'instructions des Tensor Cores, ou, à
    défaut, de FFMA ; la plus courte à égalité. Les Tensor Cores d'abord : un branchement arrière
    placé en fin de noyau (la reprise d'une attente de mbarrier) embrasse la boucle et
    l'épilogue, dont les FFMA ne calculent pas le produit."""
    addresses = [int(address, 16) for address, _ in kernel.instructions]
    best: list[tuple[str, str]] = []
    best_key = (-1, -1, 0)
    for index, (address, text) in enumerate(kernel.instructions):
        match = BRANCH_TARGET.search(text)
        if not match or int(match.group(1), 16) >= int(address, 16):
            continue
        start = addresses.index(int(match.group(1), 16)) if int(match.group(1), 16) in addresses else None
        if start is None:
            continue
        body = kernel.instructions[start:index + 1]
        tensor = sum(opcode(t).split(".")[0] in TENSOR_OPS for _, t in body)
        ffma = sum(_computes(t) for _, t in body)
        key = (tensor, ffma if tensor == 0 else 0, -len(body))
        if key > best_key:
            best, best_key = body, key
    return best


def describe(kernel: Kernel, arch: str) -> str:
    loop = main_loop(kernel)
    families = Counter(opcode(text).split(".")[0] for _, text in loop)
    lines = [f"Code machine de `{kernel.name.split('(')[0]}` pour {arch}, lu par cuobjdump dans "
             f"le programme construit : **{kernel.registers} registres** par thread, "
             f"{kernel.local or 0} octet(s) de mémoire locale."]
    if not loop:
        lines.append("Aucune boucle dans ce noyau.")
        return "\n\n".join(lines)
    count = len(loop)
    ffma = families.get("FFMA", 0)
    tensor = sum(families.get(op, 0) for op in TENSOR_OPS)
    tensor_text = f", {tensor} instructions des Tensor Cores" if tensor else ""
    lines.append(
        f"Boucle principale : {count} instructions, dont {ffma} FFMA "
        f"({100 * ffma / count:.0f} %){tensor_text}, {families.get('LDS', 0)} chargements depuis la mémoire "
        f"partagée (LDS), {families.get('LDG', 0)} depuis la mémoire globale (LDG), "
        f"{families.get('STS', 0)} écritures en mémoire partagée (STS) et "
        f"{families.get('BAR', 0)} barrières (BAR).".replace(" %", "\u202f%"))
    shown = [f"/*{address}*/ {text}" for address, text in loop]
    if len(shown) > MAX_LINES:
        hidden = len(shown) - MAX_LINES
        shown = shown[:MAX_LINES // 2] + [f"… ({hidden} instructions non affichées)"] + shown[-MAX_LINES // 2:]
    lines.append("```text\n" + "\n".join(shown) + "\n```")
    return "\n\n".join(lines)


def find_kernel(tools: Path, binary: Path, name: str, arch: str) -> Kernel:
    """Le noyau @p name du programme construit @p binary, lu par cuobjdump pour @p arch."""
    if not binary.is_file():
        raise SassError(f"programme absent : {binary} ; construisez d'abord les exemples "
                        "(cmake --build build)")
    try:
        kernels = kernels_named(tools, binary, arch, name)
    except CodeMachineError as error:
        raise SassError(str(error)) from error
    if not kernels:
        raise SassError(f"aucun noyau « {name} » pour {arch} dans {binary}")
    return kernels[0]


def render(markdown: str, binary_for, tools: Path) -> str:
    """Remplace chaque marqueur ; @p binary_for(dossier) donne le programme construit."""
    def replace(match: re.Match) -> str:
        directory, name, arch = match.groups()
        return describe(find_kernel(tools, binary_for(directory), name, arch), arch)
    return MARKER.sub(replace, markdown)
