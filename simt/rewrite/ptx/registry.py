"""Registre des instructions PTX connues de simt.

Une famille déclare chaque instruction par le décorateur ``instruction(motif)`` : le motif
(expression régulière) doit reconnaître l'opcode entier, qualificatifs compris
(``mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32``) ; la fonction reçoit l'instruction
analysée (``parse.Instruction``), le contexte de traduction (``translate.Context``) et le
résultat de la reconnaissance, et rend l'instruction C++ (terminée par « ; »). Elle lève
``ctx.error(…)`` pour une forme qu'elle refuse ; ``operands(…)`` vérifie le nombre d'opérandes.

Les instructions de même forme se déclarent par une fabrique : ``without_operand`` (un appel
sans argument : barrières, clôtures, commit_group) et ``wait_group`` (un entier N).

Les registres spéciaux (``%laneid``, ``%tid.x``…) se déclarent de même dans
``SPECIAL_REGISTERS`` : nom → (expression C++, type PTX).
"""

from __future__ import annotations

import re
import sys
from typing import Callable, NamedTuple


class Entry(NamedTuple):
    pattern: re.Pattern
    handler: Callable
    family: str


INSTRUCTIONS: list[Entry] = []
SPECIAL_REGISTERS: dict[str, tuple[str, str]] = {}


def instruction(pattern: str):
    """Décorateur : enregistre la traduction des opcodes que reconnaît ``pattern``."""
    compiled = re.compile(pattern)

    def register(handler):
        INSTRUCTIONS.append(Entry(compiled, handler, handler.__module__.rsplit(".", 1)[-1]))
        return handler

    return register


def operands(ins, ctx, counts: int | tuple[int, ...], shape: str | None = None) -> list:
    """Les opérandes de ``ins`` si leur nombre est l'un de ``counts`` ; sinon le refus
    « <opcode> attend <shape> » (par défaut « N opérande(s) »), avec le nombre donné."""
    if len(ins.operands) not in ((counts,) if isinstance(counts, int) else counts):
        shape = shape or f"{counts} opérande(s)"
        raise ctx.error(f"{ins.opcode} attend {shape} ; {len(ins.operands)} opérande(s) donné(s)")
    return ins.operands


def _declare(pattern: str, handler: Callable) -> None:
    # La famille est le module qui appelle la fabrique, pas registry.
    handler.__module__ = sys._getframe(2).f_globals["__name__"]
    instruction(pattern)(handler)


def without_operand(pattern: str, function: str) -> None:
    """Déclare une instruction sans opérande, traduite par l'appel ``::simt::ptx::function()``."""
    def translate(ins, ctx, match):
        if ins.operands:
            raise ctx.error(f"{ins.opcode} n'a pas d'opérande")
        return f"::simt::ptx::{function}();"

    _declare(pattern, translate)


def wait_group(pattern: str, function: str, ptx_type: str, immediate: bool = True) -> None:
    """Déclare une attente « <opcode> N » traduite par ``::simt::ptx::function(N)`` (N de type
    ``ptx_type`` ; une constante de compilation si ``immediate``, comme l'exige le PTX ISA)."""
    def translate(ins, ctx, match):
        if immediate and (len(ins.operands) != 1 or ins.operands[0].kind not in ("imm", "asm")):
            raise ctx.error(f"{ins.opcode} attend un entier immédiat (N)")
        (count,) = operands(ins, ctx, 1, "un entier (N)")
        return f"::simt::ptx::{function}({ctx.value(count, ptx_type)});"

    _declare(pattern, translate)


def special_register(name: str, expression: str, ptx_type: str) -> None:
    """Enregistre un registre spécial : ``%name`` se lit par ``expression`` (type ``ptx_type``)."""
    SPECIAL_REGISTERS[name] = (expression, ptx_type)


def find(opcode: str):
    """(traduction, reconnaissance) de l'opcode, ou None s'il est inconnu."""
    from . import families  # noqa: F401  (enregistre les familles au premier usage)
    for entry in INSTRUCTIONS:
        match = entry.pattern.fullmatch(opcode)
        if match:
            return entry.handler, match
    return None
