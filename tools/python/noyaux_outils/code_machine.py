"""Lecture du code machine (SASS) d'un programme construit, par cuobjdump.

Chaque noyau du programme, pour une architecture donnée : son nom démanglé, ses
instructions (adresse, texte) et ses ressources (registres, pile, mémoire locale). Le
lecteur sert au site (code machine affiché sur les pages) et aux tests « sass » (attentes
déclarées par les exemples)."""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
FUNCTION = re.compile(r"^\s*Function : (\S+)")
RESOURCES = re.compile(r"REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)")


class CodeMachineError(Exception):
    """Outil introuvable ou en échec ; le message est en français."""


@dataclass
class Kernel:
    mangled: str
    name: str = ""
    instructions: list[tuple[str, str]] = field(default_factory=list)  # (adresse, texte)
    registers: int | None = None
    stack: int | None = None
    shared: int | None = None  # mémoire partagée statique, en octets
    local: int | None = None

    @property
    def short_name(self) -> str:
        """Le nom démanglé sans sa liste de paramètres : celle qui ferme le nom, pas une
        parenthèse des arguments de modèle (« f<(Order)1>(int) » donne « f<(Order)1> »)."""
        name = self.name
        if not name.endswith(")"):
            return name
        depth = 0
        for index in range(len(name) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(name[index], 0)
            if depth == 0:
                return name[:index]
        return name


def run_tool(command: list[str]) -> str:
    """Sortie d'un outil du toolkit (cuobjdump…) ; CodeMachineError s'il manque ou échoue."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except FileNotFoundError as error:
        raise CodeMachineError(f"outil introuvable : {command[0]} (lancez ./ci/setup)") from error
    if result.returncode != 0:
        raise CodeMachineError(f"échec de « {' '.join(command)} » :\n{result.stderr}")
    return result.stdout


def _demangle(names: list[str]) -> list[str]:
    return run_tool(["c++filt", *names]).splitlines() if names else []


def opcode(text: str) -> str:
    """Code opération d'une instruction, sans son prédicat (@P0, @!PT…)."""
    words = text.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else ""


def matches(instruction: str, pattern: str) -> bool:
    """L'instruction a le code opération @p pattern, ou une de ses variantes (LDG.E couvre LDG.E.128)."""
    code = opcode(instruction)
    return code == pattern or code.startswith(pattern + ".")


def read_kernels(tools: Path, binary: Path, arch: str) -> dict[str, Kernel]:
    """Les noyaux de @p binary pour @p arch (ex. sm_90a), indexés par nom manglé ;
    @p tools est le dossier de cuobjdump."""
    kernels: dict[str, Kernel] = {}
    current: Kernel | None = None
    for line in run_tool([str(tools / "cuobjdump"), "-sass", "-arch", arch, str(binary)]).splitlines():
        if match := FUNCTION.match(line):
            current = kernels.setdefault(match.group(1), Kernel(match.group(1)))
        elif current is not None and (match := INSTRUCTION.match(line)):
            current.instructions.append((match.group(1), match.group(2)))
    current = None
    for line in run_tool([str(tools / "cuobjdump"), "-res-usage", "-arch", arch, str(binary)]).splitlines():
        if line.strip().startswith("Function "):
            current = kernels.get(line.strip()[len("Function "):].rstrip(":"))
        elif current is not None and (match := RESOURCES.search(line)):
            current.registers, current.stack, current.shared, current.local = map(int, match.groups())
    for kernel, name in zip(kernels.values(), _demangle(list(kernels))):
        kernel.name = name
    return kernels


def kernels_named(tools: Path, binary: Path, arch: str, name: str) -> list[Kernel]:
    """Les noyaux dont le nom démanglé contient le mot @p name (sgemm_naive, pas sgemm_naive2)."""
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    return [k for k in read_kernels(tools, binary, arch).values() if pattern.search(k.name)]
