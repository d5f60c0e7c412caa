"""Analyse d'une instruction ``asm`` de GNU C (telle que nvcc l'accepte) et du PTX qu'elle
contient.

L'instruction : ``asm [volatile] ( modèle [: sorties [: entrées [: clobbers]]] )``. Le modèle
est une suite de chaînes littérales concaténées ; chaque opérande s'écrit
``[nom] "contrainte" (expression)`` ; dans le modèle, ``%N`` ou ``%[nom]`` désigne un
opérande, ``%%`` un « % » littéral et ``%=`` un nombre propre à cette instruction (pour des
étiquettes uniques). Sans aucun « : » (asm de base), le modèle est pris tel quel.

Chaque caractère du modèle garde le numéro de la ligne du fichier d'où il vient : la
traduction place le C++ de chaque instruction PTX sur la ligne de celle-ci.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class PtxError(Exception):
    """Construction refusée, à la ligne ``line`` du fichier."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


# --------------------------------------------------------------------------------------
# L'instruction asm
# --------------------------------------------------------------------------------------

CONSTRAINT_LETTERS = {
    # lettre : (bits du registre, type C++ du conteneur)
    "h": (16, "std::uint16_t"),
    "r": (32, "std::uint32_t"),
    "l": (64, "std::uint64_t"),
    "f": (32, "std::uint32_t"),
    "d": (64, "std::uint64_t"),
    "c": (8, "std::uint8_t"),
    "n": (64, "long long"),
}


@dataclass
class AsmOperand:
    index: int
    name: str | None
    modifier: str  # "=", "+" ou ""
    letter: str
    expression: str
    line: int

    @property
    def output(self) -> bool:
        return self.modifier in ("=", "+")


@dataclass
class AsmStatement:
    start: int  # position du mot-clé asm
    end: int  # position qui suit la parenthèse fermante
    line: int  # ligne du mot-clé
    basic: bool
    template: str  # modèle concaténé, %N remplacés par des jetons d'opérande
    lines: list[int]  # ligne d'origine de chaque caractère de template
    operands: list[AsmOperand] = field(default_factory=list)


ASM_KEYWORD = re.compile(r"\b(?:asm|__asm__|__asm)\b")
QUALIFIERS = {"volatile", "__volatile__", "__volatile", "inline", "__inline__", "goto"}
OPERAND_TOKEN = "\x01"  # %N devient \x01N\x01 dans le modèle


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def matching_bracket(code: str, open_pos: int) -> int:
    """Position du fermant apparié à l'ouvrant '(', '[' ou '{' situé en open_pos (-1 sinon)."""
    depth = 0
    for i in range(open_pos, len(code)):
        if code[i] in "([{":
            depth += 1
        elif code[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _split_top(code: str, start: int, end: int, separator: str) -> list[tuple[int, int]]:
    """Plages [début, fin) séparées par ``separator`` hors de toute parenthèse."""
    pieces, depth, begin = [], 0, start
    for i in range(start, end):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == separator and depth == 0:
            pieces.append((begin, i))
            begin = i + 1
    pieces.append((begin, end))
    return pieces


_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "?": "?",
                   "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def _string_literals(text: str, code: str, start: int, end: int) -> list[tuple[str, int]]:
    """Caractères (et leur ligne) des chaînes littérales concaténées de [start, end) ; lève
    PtxError si autre chose que des chaînes s'y trouve (macro, expression)."""
    chars: list[tuple[str, int]] = []
    i = start
    while i < end:
        ch = text[i]
        if code[i].isspace() and text[i] != '"':  # blanc, ou commentaire effacé dans code
            i += 1
            continue
        if text.startswith("\\\n", i) or text.startswith("\\\r\n", i):  # ligne prolongée (#define)
            i += 2 if text[i + 1] == "\n" else 3
            continue
        if ch != '"':
            raise PtxError(_line_of(text, i),
                           "le modèle d'une instruction asm doit être fait de chaînes littérales "
                           "(une macro ou une expression n'est pas traduite)")
        j = i + 1
        while j < len(text) and text[j] != '"':
            line = _line_of(text, j)
            if text[j] == "\\":
                nxt = text[j + 1]
                if nxt == "\n":
                    j += 2
                    continue
                if nxt in _SIMPLE_ESCAPES:
                    chars.append((_SIMPLE_ESCAPES[nxt], line))
                    j += 2
                elif nxt in "01234567":
                    digits = re.match(r"[0-7]{1,3}", text[j + 1:j + 4]).group()
                    chars.append((chr(int(digits, 8)), line))
                    j += 1 + len(digits)
                elif nxt == "x":
                    digits = re.match(r"[0-9a-fA-F]+", text[j + 2:]).group()
                    chars.append((chr(int(digits, 16)), line))
                    j += 2 + len(digits)
                else:
                    raise PtxError(line, f"séquence d'échappement \\{nxt} inconnue dans le modèle d'asm")
            else:
                chars.append((text[j], line))
                j += 1
        i = j + 1
    return chars


_OPERAND_ITEM = re.compile(r'\s*(?:\[\s*(?P<name>\w+)\s*\])?\s*"(?P<constraint>[^"]*)"\s*\((?P<expression>.*)\)\s*\Z',
                           re.S)


def _one_line(expression: str) -> str:
    """L'expression sur une ligne (la traduction la place sur la ligne du mot-clé asm) :
    commentaires retirés (hors chaînes), sauts de ligne et prolongements de #define effacés."""
    if '"' not in expression and "'" not in expression:
        expression = re.sub(r"/\*.*?\*/|//[^\n]*", " ", expression, flags=re.S)
    return re.sub(r"\s*\\?\r?\n\s*", " ", expression).strip()


def _operands(text: str, code: str, start: int, end: int, first_index: int, output: bool) -> list[AsmOperand]:
    operands = []
    if not text[start:end].strip():
        return operands
    for begin, finish in _split_top(code, start, end, ","):
        item = text[begin:finish]
        line = _line_of(text, begin + len(item) - len(item.lstrip()))
        match = _OPERAND_ITEM.match(item)
        if match is None:
            raise PtxError(line, f"opérande d'asm illisible : {item.strip()!r}")
        constraint = match["constraint"]
        modifier = constraint[0] if constraint[:1] in ("=", "+") else ""
        letters = constraint[len(modifier):].lstrip("&")
        if output and not modifier:
            raise PtxError(line, f"opérande de sortie sans « = » ni « + » : \"{constraint}\"")
        if not output and modifier:
            raise PtxError(line, f"opérande d'entrée marqué « {modifier} » : \"{constraint}\"")
        if letters not in CONSTRAINT_LETTERS or (letters == "n" and output):
            raise PtxError(line, f"contrainte d'opérande « {constraint} » non traduite par simt "
                                 f"(attendu h, r, l, f, d, c, ou n pour une entrée)")
        operands.append(AsmOperand(first_index + len(operands), match["name"], modifier, letters,
                                   _one_line(match["expression"]), line))
    return operands


def _substitute(chars: list[tuple[str, int]], operands: list[AsmOperand], unique: int,
                line: int) -> tuple[str, list[int]]:
    """%% → %, %= → nombre unique, %N et %[nom] → jeton d'opérande."""
    names = {op.name: op.index for op in operands if op.name}
    out, lines = [], []
    i = 0
    while i < len(chars):
        ch, where = chars[i]
        if ch != "%":
            out.append(ch)
            lines.append(where)
            i += 1
            continue
        nxt = chars[i + 1][0] if i + 1 < len(chars) else ""
        if nxt == "%":
            out.append("%")
            lines.append(where)
            i += 2
        elif nxt == "=":
            for digit in str(unique):
                out.append(digit)
                lines.append(where)
            i += 2
        elif nxt.isdigit():
            j = i + 1
            while j < len(chars) and chars[j][0].isdigit():
                j += 1
            index = int("".join(c for c, _ in chars[i + 1:j]))
            if index >= len(operands):
                raise PtxError(where, f"l'opérande %{index} n'existe pas ({len(operands)} opérande(s))")
            token = f"{OPERAND_TOKEN}{index}{OPERAND_TOKEN}"
            out.extend(token)
            lines.extend([where] * len(token))
            i = j
        elif nxt == "[":
            j = i + 2
            while j < len(chars) and chars[j][0] != "]":
                j += 1
            name = "".join(c for c, _ in chars[i + 2:j])
            if name not in names:
                raise PtxError(where, f"l'opérande %[{name}] n'existe pas")
            token = f"{OPERAND_TOKEN}{names[name]}{OPERAND_TOKEN}"
            out.extend(token)
            lines.extend([where] * len(token))
            i = j + 1
        else:
            raise PtxError(where, f"« %{nxt} » dans le modèle d'asm : écrire %% pour un registre "
                                  f"spécial (%%laneid), %N pour un opérande")
    return "".join(out), lines


def parse_asm(text: str, code: str, keyword_start: int, keyword_end: int, unique: int) -> AsmStatement:
    """Analyse l'instruction asm dont le mot-clé occupe [keyword_start, keyword_end)."""
    line = _line_of(text, keyword_start)
    i = keyword_end
    while True:
        while i < len(code) and code[i].isspace():
            i += 1
        word = re.match(r"\w+", code[i:])
        if word is None or word.group() not in QUALIFIERS:
            break
        if word.group() == "goto":
            raise PtxError(line, "asm goto n'est pas traduit par simt")
        i += len(word.group())
    if i >= len(code) or code[i] != "(":
        raise PtxError(line, "instruction asm sans parenthèse ouvrante")
    close = matching_bracket(code, i)
    if close < 0:
        raise PtxError(line, "parenthèse fermante de l'instruction asm introuvable")
    sections = _split_top(code, i + 1, close, ":")
    basic = len(sections) == 1
    chars = _string_literals(text, code, *sections[0])
    operands: list[AsmOperand] = []
    if len(sections) > 1:
        operands += _operands(text, code, *sections[1], 0, True)
    if len(sections) > 2:
        operands += _operands(text, code, *sections[2], len(operands), False)
    if len(sections) > 4:
        raise PtxError(line, "asm goto (liste d'étiquettes) n'est pas traduit par simt")
    if basic:
        template, lines = "".join(c for c, _ in chars), [w for _, w in chars]
    else:
        template, lines = _substitute(chars, operands, unique, line)
    return AsmStatement(keyword_start, close + 1, line, basic, template, lines, operands)


# --------------------------------------------------------------------------------------
# Le PTX
# --------------------------------------------------------------------------------------


@dataclass
class Operand:
    """Un opérande PTX.

    kind : "asm" (opérande %N de l'instruction asm, ``index``), "name" (registre ou étiquette,
    ``text``), "special" (registre spécial, ``text`` sans le %), "imm" (immédiat, ``text``),
    "vector" (``items``), "address" (``base`` : Operand ou None, ``offset`` ; ``items`` : ce
    qui suit la base après une virgule, comme les coordonnées de ``[carte, {x, y}]``),
    "sink" (_), "not" (``items[0]`` nié : !p), "pair" (``items`` : a|b).
    """
    kind: str
    text: str = ""
    index: int = -1
    items: list["Operand"] = field(default_factory=list)
    base: "Operand | None" = None
    offset: int = 0

    def __str__(self) -> str:
        if self.kind == "asm":
            return f"%{self.index}"
        if self.kind == "special":
            return f"%{self.text}"
        if self.kind == "vector":
            return "{" + ", ".join(map(str, self.items)) + "}"
        if self.kind == "address" and self.items:
            return "[" + ", ".join(map(str, [self.base, *self.items])) + "]"
        if self.kind == "address":
            if self.base is None:
                return f"[{self.offset}]"
            return f"[{self.base}{self.offset:+d}]" if self.offset else f"[{self.base}]"
        if self.kind == "not":
            return f"!{self.items[0]}"
        if self.kind == "pair":
            return f"{self.items[0]}|{self.items[1]}"
        return self.text


@dataclass
class Instruction:
    line: int
    opcode: str
    operands: list[Operand]
    guard: Operand | None = None  # prédicat @p (kind "name" ou "asm"), ou "not"
    unterminated: bool = False  # sans « ; » final (refusé, après l'opcode)


@dataclass
class Declaration:
    line: int
    ptx_type: str
    names: list[str]


@dataclass
class Label:
    line: int
    name: str


@dataclass
class Scope:
    line: int
    open: bool


IDENTIFIER = r"[A-Za-z_$][\w$]*"
_OPERAND_RE = re.compile(rf"{OPERAND_TOKEN}(\d+){OPERAND_TOKEN}")


def _strip_comments(template: str, lines: list[int]) -> tuple[str, list[int]]:
    out, kept = [], []
    i = 0
    while i < len(template):
        if template.startswith("//", i):
            while i < len(template) and template[i] != "\n":
                i += 1
        elif template.startswith("/*", i):
            end = template.find("*/", i + 2)
            end = len(template) if end < 0 else end + 2
            out.append(" ")
            kept.append(lines[i])
            i = end
        else:
            out.append(template[i])
            kept.append(lines[i])
            i += 1
    return "".join(out), kept


def _split_operands(text: str) -> list[str]:
    pieces, depth, begin = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        elif ch == "," and depth == 0:
            pieces.append(text[begin:i])
            begin = i + 1
    pieces.append(text[begin:])
    return [p.strip() for p in pieces] if text.strip() else []


_INTEGER = r"-?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9]\d*)U?"
_FLOAT = r"-?(?:0[fF][0-9a-fA-F]{8}|0[dD][0-9a-fA-F]{16}|\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)"


def parse_operand(text: str, line: int) -> Operand:
    text = text.strip()
    if not text:
        raise PtxError(line, "opérande PTX vide")
    match = _OPERAND_RE.fullmatch(text)
    if match:
        return Operand("asm", index=int(match.group(1)))
    if text == "_":
        return Operand("sink", text)
    if text.startswith("!"):
        return Operand("not", items=[parse_operand(text[1:], line)])
    if text.startswith("{") and text.endswith("}"):
        return Operand("vector", items=[parse_operand(p, line) for p in _split_operands(text[1:-1])])
    if "|" in text and not text.startswith(("[", "{")):  # deux destinations : setp p|q, elect.sync r|p
        return Operand("pair", items=[parse_operand(p, line) for p in text.split("|", 1)])
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        pieces = _split_operands(inner)
        if len(pieces) > 1:  # [tensorMap, {x, y}] de cp.async.bulk.tensor : base et coordonnées
            return Operand("address", base=parse_operand(pieces[0], line),
                           items=[parse_operand(p, line) for p in pieces[1:]])
        match = re.fullmatch(r"(.*?)\s*([+-])\s*(" + _INTEGER + r")", inner)
        if match and match.group(1):
            offset = int(match.group(3).rstrip("U"), 0)
            return Operand("address", base=parse_operand(match.group(1), line),
                           offset=-offset if match.group(2) == "-" else offset)
        if re.fullmatch(_INTEGER, inner):
            return Operand("address", offset=int(inner.rstrip("U"), 0))
        return Operand("address", base=parse_operand(inner, line))
    if text.startswith("%"):
        if re.fullmatch(r"%\w+(?:\.[xyz])?", text):
            return Operand("special", text[1:])
        raise PtxError(line, f"opérande PTX illisible : {text}")
    if re.fullmatch(_FLOAT, text) or re.fullmatch(_INTEGER, text):
        return Operand("imm", text)
    if re.fullmatch(IDENTIFIER, text):
        return Operand("name", text)
    raise PtxError(line, f"opérande PTX illisible : {text}")


def parse_ptx(template: str, lines: list[int], default_line: int) -> list:
    """Suite d'éléments : Instruction, Declaration, Label, Scope."""
    template, lines = _strip_comments(template, lines)
    items: list = []
    i, n = 0, len(template)

    def line_at(pos: int) -> int:
        return lines[pos] if pos < len(lines) else (lines[-1] if lines else default_line)

    while i < n:
        ch = template[i]
        if ch.isspace() or ch == ";":
            i += 1
            continue
        if ch in "{}":
            items.append(Scope(line_at(i), ch == "{"))
            i += 1
            continue
        label = re.compile(rf"({IDENTIFIER})\s*:(?!:)").match(template, i)
        if label:
            items.append(Label(line_at(i), label.group(1)))
            i = label.end()
            continue
        # Une instruction ou une directive, jusqu'au « ; » (les accolades de vecteurs sont dedans).
        depth, j = 0, i
        while j < n and not (template[j] == ";" and depth == 0):
            if template[j] in "{[":
                depth += 1
            elif template[j] in "}]":
                depth -= 1
            j += 1
        statement = template[i:j].strip()
        line = line_at(i)
        i = j + 1
        item = _statement(statement, line)
        if j >= n and isinstance(item, Instruction):
            item.unterminated = True
        elif j >= n:
            raise PtxError(line, f"directive PTX sans « ; » final : {statement}")
        items.append(item)
    return items


def _statement(statement: str, line: int):
    if statement.startswith("."):
        match = re.fullmatch(r"\.reg\s+\.(\w+)\s+(.+)", statement, re.S)
        if match is None:
            directive = statement.split()[0]
            raise PtxError(line, f"directive PTX « {directive} » non émulée par le processeur")
        names = []
        for piece in match.group(2).split(","):
            piece = piece.strip()
            counted = re.fullmatch(rf"(%?{IDENTIFIER})\s*<\s*(\d+)\s*>", piece)
            if counted:
                names += [f"{counted.group(1)}{k}" for k in range(int(counted.group(2)))]
            elif re.fullmatch(rf"%?{IDENTIFIER}", piece):  # %%rx de CUTLASS : un nom en %
                names.append(piece)
            else:
                raise PtxError(line, f"déclaration de registre illisible : {piece}")
        return Declaration(line, match.group(1), names)
    guard = None
    match = re.match(r"@\s*(!?)\s*([^\s]+)\s+", statement)
    if match:
        guard = parse_operand(match.group(2), line)
        if match.group(1):
            guard = Operand("not", items=[guard])
        statement = statement[match.end():]
    match = re.match(r"[A-Za-z_][\w.:]*", statement)
    if match is None:
        raise PtxError(line, f"instruction PTX illisible : {statement}")
    opcode = match.group()
    operands = [parse_operand(p, line) for p in _split_operands(statement[match.end():])]
    return Instruction(line, opcode, operands, guard)
