"""Génération du C++ d'une instruction asm analysée (voir parse.py).

Forme produite, sur les lignes mêmes de l'instruction d'origine :

    do { __label__ étiquettes; opérandes et registres déclarés;   ← ligne du mot-clé asm
         une instruction C++ par instruction PTX, sur sa ligne;
         recopie des sorties; } while (0)                          ← ligne de la parenthèse

Les opérandes de l'asm deviennent des registres locaux (``simt_aN``) : conteneurs de bits
de la taille de la contrainte (``"f"`` : ``uint32_t``), initialisés par ``::simt::ptx::in``
pour les entrées et les ``+``, recopiés par ``::simt::ptx::out`` à la fin pour les sorties.
Les ``.reg`` deviennent des variables (``simt_rK_nom`` ; K numérote la portée ``{ }``, qui
peut masquer un nom). Toutes les déclarations précèdent la première instruction, si bien
qu'un ``goto`` ne saute jamais une initialisation ; les étiquettes sont locales au bloc
(``__label__``), si bien qu'un enrobage inliné deux fois ne se heurte pas à lui-même.
"""

from __future__ import annotations

import re

from . import registry
from .parse import (AsmStatement, Declaration, Instruction, Label, Operand, PtxError, Scope, parse_asm,
                    parse_ptx, CONSTRAINT_LETTERS)

# Type PTX → (bits, type C++ de la valeur)
PTX_TYPES = {
    "b8": (8, "std::uint8_t"), "u8": (8, "std::uint8_t"), "s8": (8, "std::int8_t"),
    "b16": (16, "std::uint16_t"), "u16": (16, "std::uint16_t"), "s16": (16, "std::int16_t"),
    "f16": (16, "std::uint16_t"), "bf16": (16, "std::uint16_t"),
    "b32": (32, "std::uint32_t"), "u32": (32, "std::uint32_t"), "s32": (32, "std::int32_t"),
    "f32": (32, "float"), "f16x2": (32, "std::uint32_t"), "bf16x2": (32, "std::uint32_t"),
    "tf32": (32, "std::uint32_t"),
    "b64": (64, "std::uint64_t"), "u64": (64, "std::uint64_t"), "s64": (64, "std::int64_t"),
    "f64": (64, "double"),
    "pred": (1, "bool"),
}
CONTAINERS = {1: "bool", 8: "std::uint8_t", 16: "std::uint16_t", 32: "std::uint32_t", 64: "std::uint64_t"}


def cpp_type(ptx_type: str) -> str:
    return PTX_TYPES[ptx_type][1]


def bits_of(ptx_type: str) -> int:
    return PTX_TYPES[ptx_type][0]


class Context:
    """Ce que voit la traduction d'une instruction : opérandes, registres, étiquettes."""

    def __init__(self, statement: AsmStatement, labels: set[str]):
        self.statement = statement
        self.labels = labels
        self.scopes: list[dict[str, tuple[str, int]]] = [{}]  # nom PTX → (nom C++, bits)
        self.scope_count = 0
        self.declarations: list[str] = []
        self.line = statement.line
        self.uses_sink: dict[int, str] = {}

    # ---- diagnostics ----
    def error(self, message: str) -> PtxError:
        return PtxError(self.line, message)

    # ---- registres ----
    def declare(self, name: str, ptx_type: str) -> None:
        if ptx_type not in PTX_TYPES:
            raise self.error(f"type de registre .{ptx_type} non émulé")
        bits = bits_of(ptx_type)
        cpp = f"simt_r{self.scope_count}_{name.replace('$', '_S_')}"
        self.scopes[-1][name] = (cpp, bits)
        self.declarations.append(f"[[maybe_unused]] {CONTAINERS[bits]} {cpp}{{}};")

    def lookup(self, name: str) -> tuple[str, int] | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def asm_operand(self, index: int):
        return self.statement.operands[index]

    def container_bits(self, operand: Operand) -> int | None:
        """Bits du conteneur d'un registre (None pour un immédiat)."""
        if operand.kind == "asm":
            letter = self.asm_operand(operand.index).letter
            return None if letter == "n" else CONSTRAINT_LETTERS[letter][0]
        if operand.kind == "name":
            found = self.lookup(operand.text)
            if found is None:
                raise self.error(f"registre PTX « {operand.text} » non déclaré (.reg)")
            return found[1]
        if operand.kind == "special":
            return bits_of(self.special(operand)[1])
        return None

    def special(self, operand: Operand) -> tuple[str, str]:
        found = registry.SPECIAL_REGISTERS.get(operand.text)
        if found is None:
            raise self.error(f"registre spécial %{operand.text} non émulé par le processeur")
        return found

    def raw(self, operand: Operand) -> str:
        """Expression C++ du conteneur (ou de l'immédiat) tel quel."""
        if operand.kind == "asm":
            return f"simt_a{operand.index}"
        if operand.kind == "name":
            if self.lookup(operand.text) is None:
                raise self.error(f"registre PTX « {operand.text} » non déclaré (.reg)")
            return self.lookup(operand.text)[0]
        if operand.kind == "special":
            return self.special(operand)[0]
        if operand.kind == "imm":
            return self.immediate(operand.text, "b64")
        raise self.error(f"opérande « {operand} » inattendu ici")

    def immediate(self, text: str, ptx_type: str) -> str:
        t = text.rstrip("U")
        negative = t.startswith("-")
        body = t[1:] if negative else t
        if re.fullmatch(r"0[fF][0-9a-fA-F]{8}", body):
            value = f"::simt::ptx::f32_bits(0x{body[2:]}u)"
        elif re.fullmatch(r"0[dD][0-9a-fA-F]{16}", body):
            value = f"::simt::ptx::f64_bits(0x{body[2:]}ull)"
        elif re.fullmatch(r"\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+", body):
            value = body if ptx_type == "f64" else body + ("f" if "." in body or "e" in body.lower() else "")
        else:
            number = int(body, 8) if re.fullmatch(r"0[0-7]+", body) else int(body, 0)
            value = f"{number}ull"
        return f"(-{value})" if negative else value

    def value(self, operand: Operand, ptx_type: str) -> str:
        """Expression C++ de la valeur de l'opérande, dans le type PTX donné."""
        if operand.kind == "imm":
            return f"::simt::ptx::get<{cpp_type(ptx_type)}>({self.immediate(operand.text, ptx_type)})"
        if operand.kind == "not":
            return f"!{self.value(operand.items[0], 'pred')}"
        if operand.kind in ("asm", "name", "special"):
            return f"::simt::ptx::get<{cpp_type(ptx_type)}>({self.raw(operand)})"
        raise self.error(f"opérande « {operand} » inattendu : une valeur était attendue")

    def register(self, operand: Operand, bits: int | None = None) -> str:
        """Nom C++ du conteneur d'un registre de destination (de ``bits`` bits si donné)."""
        if operand.kind == "sink":
            key = bits or 64
            if key not in self.uses_sink:
                name = f"simt_sink{key}"
                self.uses_sink[key] = name
                self.declarations.append(f"[[maybe_unused]] {CONTAINERS[key]} {name}{{}};")
            return self.uses_sink[key]
        if operand.kind == "asm":
            asm = self.asm_operand(operand.index)
            if not asm.output:
                raise self.error(f"l'opérande %{operand.index} est écrit mais déclaré en entrée")
        elif operand.kind != "name":
            raise self.error(f"« {operand} » n'est pas un registre de destination")
        actual = self.container_bits(operand)
        if bits is not None and actual is not None and actual != bits and not (bits == 1 and actual == 1):
            raise self.error(f"le registre « {operand} » fait {actual} bits, l'instruction en écrit {bits}")
        return self.raw(operand)

    def vector(self, operand: Operand, count: int | tuple[int, ...]) -> list[Operand]:
        counts = (count,) if isinstance(count, int) else count
        items = operand.items if operand.kind == "vector" else [operand]
        if len(items) not in counts:
            raise self.error(f"vecteur de {len(items)} registre(s) : {' ou '.join(map(str, counts))} attendu(s)")
        return items

    def label(self, operand: Operand) -> str:
        if operand.kind != "name" or operand.text not in self.labels:
            raise self.error(f"étiquette « {operand} » introuvable dans l'instruction asm")
        return label_name(operand.text)

    def address(self, operand: Operand) -> tuple[str, int]:
        """(expression C++ de la base en bits, décalage) d'un opérande [base+décalage]."""
        if operand.kind != "address":
            raise self.error(f"« {operand} » : une adresse [registre] était attendue")
        base = "0ull" if operand.base is None else self.raw(operand.base)
        return base, operand.offset

    def shared_address(self, operand: Operand) -> str:
        base, offset = self.address(operand)
        return f"::simt::ptx::shared_operand({base}, {offset})"

    def generic_address(self, operand: Operand) -> str:
        base, offset = self.address(operand)
        return f"::simt::ptx::generic_operand({base}, {offset})"


def label_name(name: str) -> str:
    return "simt_l_" + name.replace("$", "_S_")


def _translate_items(items: list, ctx: Context) -> list[tuple[int, str]]:
    """(ligne, C++) de chaque élément du PTX."""
    out = []
    for item in items:
        ctx.line = item.line
        if isinstance(item, Scope):
            if item.open:
                ctx.scope_count += 1
                ctx.scopes.append({})
            elif len(ctx.scopes) == 1:
                raise ctx.error("« } » sans « { » dans le PTX")
            else:
                ctx.scopes.pop()
            continue
        if isinstance(item, Declaration):
            for name in item.names:
                ctx.declare(name, item.ptx_type)
            continue
        if isinstance(item, Label):
            out.append((item.line, f"{label_name(item.name)}: __attribute__((unused));"))
            continue
        found = registry.find(item.opcode)
        if found is None:
            raise ctx.error(f"instruction PTX « {item.opcode} » non émulée par le processeur")
        handler, match = found
        if item.unterminated:
            raise ctx.error(f"instruction PTX sans « ; » final : {item.opcode}")
        code = handler(item, ctx, match)
        if item.guard is not None:
            code = f"if ({ctx.value(item.guard, 'pred')}) {{ {code} }}"
        out.append((item.line, code))
    if len(ctx.scopes) != 1:
        raise ctx.error("« { » sans « } » dans le PTX")
    return out


def translate(statement: AsmStatement) -> tuple[dict[int, str], str]:
    """(C++ par ligne d'origine, fermeture à placer sur la dernière ligne)."""
    items = parse_ptx(statement.template, statement.lines, statement.line)
    labels = {item.name for item in items if isinstance(item, Label)}
    ctx = Context(statement, labels)
    head = []
    for op in statement.operands:
        container = CONSTRAINT_LETTERS[op.letter][1]
        if op.letter == "n":
            head.append(f"[[maybe_unused]] const long long simt_a{op.index} = ({op.expression});")
        elif op.output:
            head.append(f"auto&& simt_o{op.index} = ({op.expression});")
            initial = f"::simt::ptx::in<{container}>(simt_o{op.index})" if op.modifier == "+" else ""
            head.append(f"[[maybe_unused]] {container} simt_a{op.index}{{{initial}}};")
        else:
            head.append(f"[[maybe_unused]] const {container} simt_a{op.index} = "
                        f"::simt::ptx::in<{container}>({op.expression});")
    body = _translate_items(items, ctx)
    tail = [f"::simt::ptx::out(simt_o{op.index}, simt_a{op.index});" for op in statement.operands if op.output]
    first = "do { "
    if labels:
        first += "__label__ " + ", ".join(label_name(name) for name in sorted(labels)) + "; "
    first += " ".join(head + ctx.declarations)
    by_line: dict[int, list[str]] = {statement.line: [first]}
    for line, code in body:
        by_line.setdefault(line, []).append(code)
    return {line: " ".join(codes) for line, codes in by_line.items()}, " ".join(tail + ["} while (0)"])


def replacement(text: str, statement: AsmStatement) -> str:
    """Texte qui remplace text[statement.start:statement.end], sauts de ligne conservés."""
    per_line, closing = translate(statement)
    original = text[statement.start:statement.end]
    pieces = re.split(r"(\\?\r?\n)", original)  # lignes et leurs fins (avec \ de macro)
    lines = pieces[0::2]
    ends = pieces[1::2]
    out = []
    for k in range(len(lines)):
        code = per_line.get(statement.line + k, "")
        if k == len(lines) - 1:
            code = (code + " " + closing).strip()
        out.append(code)
        if k < len(ends):
            out.append((" " if code and ends[k].startswith("\\") else "") + ends[k])
    return "".join(out)


def _in_directive(code: str, pos: int) -> bool:
    """Vrai si pos est dans une directive du préprocesseur (#define prolongé par des \\)."""
    start = code.rfind("\n", 0, pos) + 1
    while start > 1 and code[start - 2] == "\\":
        start = code.rfind("\n", 0, start - 1) + 1
    return code[start:pos].lstrip().startswith("#")


def asm_edits(text: str, code: str, hidden: list[tuple[int, int]], at_file_scope):
    """(réécritures (début, fin, texte), diagnostics (ligne, message)) des instructions asm du
    texte, hors des plages cachées ; ``at_file_scope(pos)`` dit si pos est hors de toute fonction."""
    from .parse import ASM_KEYWORD
    edits, diagnostics = [], []
    for number, match in enumerate(ASM_KEYWORD.finditer(code)):
        if any(start <= match.start() < end for start, end in hidden):
            continue
        try:
            if not _in_directive(code, match.start()) and at_file_scope(match.start()):
                raise PtxError(text.count("\n", 0, match.start()) + 1,
                               "l'assembleur au niveau du fichier (hors d'une fonction) n'est pas émulé")
            statement = parse_asm(text, code, match.start(), match.end(), number)
            edits.append((statement.start, statement.end, replacement(text, statement)))
        except PtxError as error:
            diagnostics.append((error.line, f"{error} ; {ADVICE}"))
    return edits, diagnostics


ADVICE = "cet exemple est réservé au GPU (BACKENDS gpu), ou l'instruction est à ajouter à simt (simt/README.md, « PTX en ligne »)"
