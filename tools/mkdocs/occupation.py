"""Occupation d'un noyau sur un SM, calculée depuis la construction (jamais recopiée).

Une page demande l'occupation d'un noyau par un commentaire HTML :

    <!-- noyaux:occupation examples/gemm/05-tuilage-2d sgemm_2d_blocktiling sm_90a -->

Le commentaire est remplacé par un tableau : pour chaque ressource du SM (registres, mémoire
partagée, warps, blocs), la consommation du noyau, la limite du SM et le nombre de blocs
qu'elle laisse résider ; le plus petit nombre fait l'occupation, et la ressource qui le
donne est le facteur limitant. Viennent ensuite deux bornes que le modèle tire de la boucle
principale du code machine : la part des FFMA dans les instructions émises, et les passes de
mémoire partagée par FFMA.

Ce que lit le calcul, dans le programme construit (cuobjdump) :
- les registres par thread et la mémoire partagée statique (`-res-usage`) ;
- les threads par bloc : la borne `__launch_bounds__` du noyau (attribut EIATTR_MAX_THREADS
  de `-elf`), que le lanceur de chaque étape utilise telle quelle ; un noyau sans cette
  borne est refusé, faute de taille de bloc lisible ;
- la mémoire partagée dynamique, que le programme ne contient pas : nulle, sauf si le marqueur
  donne celle que demande le lanceur (`dynamique=73728`, en octets ; l'exemple vérifie ce nombre
  dans ses tests).

Les limites et la règle de calcul sont celles du calculateur d'occupation de NVIDIA
(`cuda_occupancy.h`, livré avec le toolkit CUDA 13.0 : `cudaOccMaxActiveBlocksPerMultiprocessor`)
et de la table des capacités de calcul du guide de programmation CUDA, pour la capacité 9.0.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import sass
from mesures import french_number
from noyaux_outils.code_machine import CodeMachineError, run_tool

MARKER = re.compile(r"<!--\s*noyaux:occupation\s+(\S+)\s+(\S+)\s+(sm_\w+)(?:\s+dynamique=(\d+))?\s*-->")
# Dans « cuobjdump -elf », chaque noyau a sa section .nv.info.<nom décoré> d'attributs.
INFO_SECTION = re.compile(r"^\.nv\.info\.(\S+)")
MAX_THREADS = re.compile(r"^\s*Value:\s*(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)")


class OccupationError(Exception):
    pass


@dataclass(frozen=True)
class Architecture:
    """Les ressources d'un SM et leurs règles d'allocation."""
    name: str
    registers_per_sm: int          # registres de 32 bits du SM
    registers_per_block: int       # registres qu'un bloc peut recevoir
    max_registers_per_thread: int
    register_granularity: int      # les registres d'un warp s'allouent par multiples de ce nombre
    sub_partitions: int            # le fichier de registres est réparti en autant de quarts de SM
    shared_per_sm: int             # octets de mémoire partagée du SM (configuration maximale)
    shared_per_block: int          # octets qu'un bloc peut demander (sur option au-delà de 48 Kio)
    shared_reserved_per_block: int # octets que le pilote réserve à chaque bloc
    shared_granularity: int        # la mémoire partagée d'un bloc s'alloue par multiples de ce nombre
    max_threads_per_block: int
    max_warps_per_sm: int
    max_blocks_per_sm: int
    warp_size: int = 32
    # Sur sm_90, la section de mémoire partagée d'un noyau commence par le Kio réservé
    # (le compilateur place les tableaux à partir de 0x400) : cuobjdump le compte déjà.
    reserved_in_static_section: bool = False


# Capacité 9.0 (H100, H200) : guide de programmation CUDA, table des capacités de calcul ;
# granularités, quarts de SM et réserve par bloc : cuda_occupancy.h (CUDA 13.0).
SM_90 = Architecture(
    name="sm_90", registers_per_sm=65536, registers_per_block=65536, max_registers_per_thread=255,
    register_granularity=256, sub_partitions=4, shared_per_sm=228 * 1024,
    shared_per_block=227 * 1024, shared_reserved_per_block=1024, shared_granularity=128,
    max_threads_per_block=1024, max_warps_per_sm=64, max_blocks_per_sm=32,
    reserved_in_static_section=True)

ARCHITECTURES = {"sm_90": SM_90, "sm_90a": SM_90}

# Noms des ressources, dans l'ordre du tableau.
REGISTERS, SHARED, WARPS, BLOCKS = "registres", "mémoire partagée", "warps", "blocs"


@dataclass(frozen=True)
class Usage:
    """Ce qu'un bloc du noyau consomme."""
    threads: int           # threads par bloc
    registers: int         # registres par thread
    shared_static: int     # octets de mémoire partagée déclarés par le noyau (sans la réserve)
    shared_dynamic: int = 0


@dataclass
class Occupancy:
    usage: Usage
    arch: Architecture
    warps_per_block: int
    registers_per_warp: int      # après arrondi à la granularité
    shared_per_block: int        # réserve comprise, après arrondi à la granularité
    limits: dict[str, int] = field(default_factory=dict)  # blocs par SM, par ressource

    @property
    def blocks(self) -> int:
        return min(self.limits.values())

    @property
    def limiting(self) -> list[str]:
        """Les ressources qui donnent le plus petit nombre de blocs (plusieurs à égalité)."""
        return [name for name, blocks in self.limits.items() if blocks == self.blocks]

    @property
    def warps(self) -> int:
        return self.blocks * self.warps_per_block

    @property
    def fraction(self) -> float:
        return self.warps / self.arch.max_warps_per_sm


def round_up(value: int, step: int) -> int:
    return -(-value // step) * step


def occupancy(usage: Usage, arch: Architecture) -> Occupancy:
    """Blocs résidents par SM, ressource par ressource (règles de cuda_occupancy.h)."""
    if not 0 < usage.threads <= arch.max_threads_per_block:
        raise OccupationError(f"{usage.threads} threads par bloc : hors de 1 à "
                              f"{arch.max_threads_per_block} sur {arch.name}")
    if not 0 <= usage.registers <= arch.max_registers_per_thread:
        raise OccupationError(f"{usage.registers} registres par thread : hors de 0 à "
                              f"{arch.max_registers_per_thread} sur {arch.name}")
    warps_per_block = -(-usage.threads // arch.warp_size)

    # Registres : alloués par warp, arrondis à la granularité, dans chacun des quarts de SM.
    per_warp = round_up(usage.registers * arch.warp_size, arch.register_granularity)
    if per_warp * round_up(warps_per_block, arch.sub_partitions) > arch.registers_per_block:
        raise OccupationError(f"{usage.registers} registres × {usage.threads} threads dépassent "
                              f"les {arch.registers_per_block} registres d'un bloc : lancement impossible")
    if per_warp:
        warps_per_quarter = arch.registers_per_sm // arch.sub_partitions // per_warp
        by_registers = warps_per_quarter * arch.sub_partitions // warps_per_block
    else:
        by_registers = arch.max_blocks_per_sm

    # Mémoire partagée : statique + dynamique + réserve du pilote, arrondie à la granularité.
    requested = usage.shared_static + usage.shared_dynamic
    if requested > arch.shared_per_block:
        raise OccupationError(f"{requested} octets de mémoire partagée par bloc : plus que les "
                              f"{arch.shared_per_block} permis sur {arch.name}")
    shared = round_up(requested + arch.shared_reserved_per_block, arch.shared_granularity)
    by_shared = arch.shared_per_sm // shared if shared else arch.max_blocks_per_sm

    result = Occupancy(usage, arch, warps_per_block, per_warp, shared)
    result.limits = {
        REGISTERS: by_registers,
        SHARED: by_shared,
        WARPS: arch.max_warps_per_sm // warps_per_block,
        BLOCKS: arch.max_blocks_per_sm,
    }
    return result


def declared_shared(section_bytes: int, arch: Architecture) -> int:
    """Mémoire partagée déclarée par le noyau, d'après la taille que donne cuobjdump."""
    if not arch.reserved_in_static_section or section_bytes == 0:
        return section_bytes
    if section_bytes < arch.shared_reserved_per_block:
        raise OccupationError(f"{section_bytes} octets de mémoire partagée statique sur {arch.name} : "
                              f"la section devrait commencer par les {arch.shared_reserved_per_block} "
                              "octets réservés ; le compilateur a changé de disposition")
    return section_bytes - arch.shared_reserved_per_block


def max_threads(elf_listing: str, mangled: str) -> int | None:
    """Borne __launch_bounds__ du noyau @p mangled (produit des trois dimensions), ou None."""
    section = None
    lines = elf_listing.splitlines()
    for index, line in enumerate(lines):
        if match := INFO_SECTION.match(line):
            section = match.group(1)
        elif section == mangled and "EIATTR_MAX_THREADS" in line:
            for value_line in lines[index + 1:index + 4]:
                if match := MAX_THREADS.match(value_line):
                    x, y, z = (int(v, 16) for v in match.groups())
                    return x * y * z
    return None


# Mots de 32 bits qu'un accès d'un warp transfère : une passe en sert 32 (un par banc).
_WIDTH_PASSES = {"64": 2, "128": 4}


def shared_passes(loop: list[tuple[str, str]]) -> int:
    """Passes de mémoire partagée d'une boucle, au mieux : une par accès de 32 bits d'un warp,
    deux par accès de 64 bits, quatre par accès de 128 bits, sans conflit (modèle de l'étape 7)."""
    total = 0
    for _, text in loop:
        parts = sass.opcode(text).split(".")
        if parts[0] in ("LDS", "STS", "LDGSTS"):
            total += max((_WIDTH_PASSES.get(p, 1) for p in parts[1:]), default=1)
    return total


def percent(fraction: float, decimals: int = 2) -> str:
    """Pourcentage à @p decimals décimales au plus, sans zéro inutile : 100 %, 18,75 %."""
    text = french_number(100 * fraction, decimals)
    if "," in text:
        text = text.rstrip("0").rstrip(",")
    return f"{text}\u202f%"


def _bytes(value: int) -> str:
    return f"{french_number(value, 0)} o"


def table(result: Occupancy) -> str:
    usage, arch = result.usage, result.arch
    limiting = result.limiting
    declared = usage.shared_static + usage.shared_dynamic
    rows = [
        (REGISTERS,
         f"{usage.registers} par thread → {french_number(result.registers_per_warp, 0)} par warp "
         f"(multiple de {arch.register_granularity}) × {result.warps_per_block} warps",
         f"{french_number(arch.registers_per_sm, 0)} ({arch.sub_partitions} quarts de "
         f"{french_number(arch.registers_per_sm // arch.sub_partitions, 0)})"),
        (SHARED,
         f"{_bytes(declared)} déclarés + {_bytes(arch.shared_reserved_per_block)} réservés → "
         f"{_bytes(result.shared_per_block)} (multiple de {arch.shared_granularity})",
         f"{_bytes(arch.shared_per_sm)} ({arch.shared_per_sm // 1024} Kio)"),
        (WARPS, f"{result.warps_per_block} ({french_number(usage.threads, 0)} threads)",
         str(arch.max_warps_per_sm)),
        (BLOCKS, "1", str(arch.max_blocks_per_sm)),
    ]
    lines = ["| ressource | consommation d'un bloc | limite du SM | blocs par SM | facteur limitant |",
             "| --- | --- | ---: | ---: | :---: |"]
    for name, consumption, limit in rows:
        blocks = result.limits[name]
        mark = "**oui**" if name in limiting else ""
        shown = f"**{blocks}**" if name in limiting else str(blocks)
        lines.append(f"| {name} | {consumption} | {limit} | {shown} | {mark} |")
    factors = " et ".join(limiting)
    lines.append("")
    lines.append(f"Occupation : **{result.blocks} bloc{'s' if result.blocks > 1 else ''} de "
                 f"{french_number(usage.threads, 0)} threads par SM, soit {result.warps} warps sur "
                 f"{arch.max_warps_per_sm} ({percent(result.fraction)})** ; facteur limitant : "
                 f"{factors}.")
    return "\n".join(lines)


def loop_bounds(loop: list[tuple[str, str]]) -> str:
    """Les deux bornes que le modèle tire de la boucle principale, en une liste."""
    if not loop:
        return "Aucune boucle dans ce noyau : pas de borne tirée du code machine."
    families = Counter(sass.opcode(text).split(".")[0] for _, text in loop)
    ffma = families.get("FFMA", 0)
    if not ffma:
        return "La boucle principale ne contient aucune FFMA : pas de borne tirée du code machine."
    issue = ffma / len(loop)
    lines = [f"- **Émission** : chaque quart de SM émet au plus une instruction de warp par cycle, "
             f"et la boucle principale compte {ffma} FFMA sur {len(loop)} instructions : au mieux "
             f"{percent(issue, 0)} du débit fp32 maximal."]
    passes = shared_passes(loop)
    if passes:
        ratio = passes / ffma
        bound = min(1.0, 0.25 / ratio)
        verdict = (f"elle borne le débit à {percent(bound, 0)} du maximum" if bound < 1
                   else "elle ne borne pas le débit")
        lines.append(
            f"- **Mémoire partagée** : selon le modèle de passes de l'étape 7 (une passe par accès "
            "de 32 bits d'un warp, quatre par accès de 128 bits, sans conflit), ses accès "
            f"demandent {passes} passes pour {ffma} FFMA, soit {french_number(ratio, 2)} passe par "
            "FFMA de warp. Un SM sert une passe par cycle et exécute quatre FFMA de warp par "
            "cycle : au-delà de 0,25 passe par FFMA, la mémoire partagée ralentit le calcul ; ici, "
            f"{verdict}.")
    else:
        lines.append("- **Mémoire partagée** : la boucle principale n'y accède pas.")
    return "\n".join(lines)


def describe(kernel: sass.Kernel, threads: int, arch_name: str, dynamic: int = 0) -> str:
    arch = ARCHITECTURES.get(arch_name)
    if arch is None:
        raise OccupationError(f"architecture sans modèle d'occupation : {arch_name} "
                              f"(connues : {', '.join(sorted(ARCHITECTURES))})")
    usage = Usage(threads=threads, registers=kernel.registers or 0,
                  shared_static=declared_shared(kernel.shared or 0, arch), shared_dynamic=dynamic)
    result = occupancy(usage, arch)
    name = kernel.short_name
    intro = (f"Occupation de `{name}` sur un SM du H200 (capacité 9.0), calculée à la construction "
             f"depuis le programme compilé pour {arch_name} : registres et mémoire partagée lus par "
             "cuobjdump, threads par bloc lus dans la borne `__launch_bounds__`, celle qu'emploie "
             "le lanceur ; " + (f"{_bytes(dynamic)} de mémoire partagée dynamique, ceux que demande "
                                "le lanceur." if dynamic else "aucune mémoire partagée dynamique."))
    bounds = ("Bornes prédites par le modèle pour la boucle principale (celle du code machine "
              "ci-dessus) :\n\n" + loop_bounds(sass.main_loop(kernel)))
    return "\n\n".join([intro, table(result), bounds])


def render(markdown: str, binary_for, tools: Path) -> str:
    """Remplace chaque marqueur ; @p binary_for(dossier) donne le programme construit."""
    def replace(match: re.Match) -> str:
        directory, name, arch, dynamic = match.groups()
        binary = binary_for(directory)
        kernel = sass.find_kernel(tools, binary, name, arch)
        elf = run_tool([str(tools / "cuobjdump"), "-elf", "-arch", arch, str(binary)])
        threads = max_threads(elf, kernel.mangled)
        if threads is None:
            raise OccupationError(f"« {name} » n'a pas de borne __launch_bounds__ dans {binary} : "
                                  "la taille de bloc n'est pas lisible dans le programme")
        return describe(kernel, threads, arch, int(dynamic or 0))
    try:
        return MARKER.sub(replace, markdown)
    except (sass.SassError, CodeMachineError) as error:
        raise OccupationError(str(error)) from error
