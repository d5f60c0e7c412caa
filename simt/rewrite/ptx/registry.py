"""Registre des instructions PTX connues de simt.

Une famille déclare chaque instruction par le décorateur ``instruction(motif)`` : le motif
(expression régulière) doit reconnaître l'opcode entier, qualificatifs compris
(``mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32``) ; la fonction reçoit l'instruction
analysée (``parse.Instruction``), le contexte de traduction (``translate.Context``) et le
résultat de la reconnaissance, et rend l'instruction C++ (terminée par « ; »). Elle lève
``ctx.error(…)`` pour une forme qu'elle refuse.

Les registres spéciaux (``%laneid``, ``%tid.x``…) se déclarent de même dans
``SPECIAL_REGISTERS`` : nom → (expression C++, type PTX).
"""

from __future__ import annotations

import re
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
