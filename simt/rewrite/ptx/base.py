"""Le petit PTX des fonctions d'enrobage : mov, setp, selp, bra, cvt, cvta, ld/st et
l'arithmétique entière. C++ : simt/include/simt/ptx/base.hpp."""

from __future__ import annotations

from .registry import instruction, operands, special_register
from .translate import bits_of, cpp_type

INT = r"(?P<type>[bus](?:8|16|32|64))"
TYPED = r"(?P<type>[bus](?:16|32|64)|f32|f64|pred)"

for axis, letter in enumerate("xyz"):
    special_register(f"tid.{letter}", f"::simt::ptx::sreg_tid({axis})", "u32")
    special_register(f"ntid.{letter}", f"::simt::ptx::sreg_ntid({axis})", "u32")
    special_register(f"ctaid.{letter}", f"::simt::ptx::sreg_ctaid({axis})", "u32")
    special_register(f"nctaid.{letter}", f"::simt::ptx::sreg_nctaid({axis})", "u32")
special_register("laneid", "::simt::ptx::sreg_laneid()", "u32")
special_register("warpid", "::simt::ptx::sreg_warpid()", "u32")
for kind, name in enumerate(("eq", "lt", "le", "gt", "ge")):
    special_register(f"lanemask_{name}", f"::simt::ptx::sreg_lanemask({kind})", "u32")
special_register("clock64", "::simt::ptx::sreg_clock64()", "u64")
special_register("clock", "static_cast<std::uint32_t>(::simt::ptx::sreg_clock64())", "u32")


@instruction(r"mov\." + TYPED)
def mov(ins, ctx, match):
    ptx_type = match["type"]
    d, a = operands(ins, ctx, 2)
    bits = bits_of(ptx_type)
    t = cpp_type(ptx_type)
    if a.kind == "vector":  # assemblage : mov.b32 d, {a, b} (moitiés basses d'abord)
        part = {2: bits // 2, 4: bits // 4}.get(len(a.items))
        if part is None or part < 8 or ptx_type.startswith(("f", "s", "pred")):
            raise ctx.error(f"{ins.opcode} : assemblage de {len(a.items)} parties non émulé")
        parts = ", ".join(ctx.value(item, f"b{part}") for item in a.items)
        return f"::simt::ptx::mov_pack<{t}, {part}>({ctx.register(d, bits)}, {parts});"
    if d.kind == "vector":  # désassemblage : mov.b64 {a, b}, d
        part = {2: bits // 2, 4: bits // 4}.get(len(d.items))
        if part is None or part < 8 or ptx_type.startswith(("f", "s", "pred")):
            raise ctx.error(f"{ins.opcode} : désassemblage en {len(d.items)} parties non émulé")
        parts = ", ".join(ctx.register(item, part) for item in d.items)
        return f"::simt::ptx::mov_unpack<{t}, {part}>({ctx.value(a, ptx_type)}, {parts});"
    if a.kind == "address":
        raise ctx.error(f"{ins.opcode} : l'adresse d'une variable n'est pas émulée")
    return f"::simt::ptx::put({ctx.register(d, bits)}, {ctx.value(a, ptx_type)});"


COMPARISONS = {"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge",
               "lo": "lt", "ls": "le", "hi": "gt", "hs": "ge"}


@instruction(r"setp\.(?P<cmp>eq|ne|lt|le|gt|ge|lo|ls|hi|hs)\.(?P<type>[bus](?:16|32|64)|f32|f64)")
def setp(ins, ctx, match):
    ptx_type = match["type"]
    if match["cmp"] in ("lo", "ls", "hi", "hs") and not ptx_type.startswith(("u", "b")):
        raise ctx.error(f"{ins.opcode} : comparaison non signée sur un type signé")
    if ins.operands and ins.operands[0].kind == "pair":
        raise ctx.error(f"{ins.opcode} : deux prédicats de destination (p|q) non émulés")
    p, a, b = operands(ins, ctx, 3)
    comparison = COMPARISONS[match["cmp"]]
    return (f"::simt::ptx::put({ctx.register(p, 1)}, ::simt::ptx::compare_{comparison}"
            f"({ctx.value(a, ptx_type)}, {ctx.value(b, ptx_type)}));")


@instruction(r"selp\." + TYPED)
def selp(ins, ctx, match):
    ptx_type = match["type"]
    d, a, b, c = operands(ins, ctx, 4)
    return (f"::simt::ptx::put({ctx.register(d, bits_of(ptx_type))}, {ctx.value(c, 'pred')} ? "
            f"{ctx.value(a, ptx_type)} : {ctx.value(b, ptx_type)});")


@instruction(r"bra(?:\.uni)?")
def bra(ins, ctx, match):
    (target,) = operands(ins, ctx, 1)
    return f"goto {ctx.label(target)};"


@instruction(r"cvta\.(?P<to>to\.)?(?P<space>shared|global)(?:::cta)?\.(?P<type>u32|u64)")
def cvta(ins, ctx, match):
    d, a = operands(ins, ctx, 2)
    bits = bits_of(match["type"])
    if match["space"] == "global":  # la mémoire « globale » de simt est celle du processus
        return f"::simt::ptx::put({ctx.register(d, bits)}, {ctx.value(a, match['type'])});"
    function = "cvta_to_shared" if match["to"] else "cvta_shared"
    return f"::simt::ptx::{function}({ctx.register(d, bits)}, {ctx.raw(a)});"


@instruction(r"cvt\.(?P<dst>[us](?:8|16|32|64))\.(?P<src>[us](?:8|16|32|64))")
def cvt_integer(ins, ctx, match):
    d, a = operands(ins, ctx, 2)
    # Le registre de destination peut être plus large que le type (.u8 dans un registre de
    # 16 bits, PTX ISA, cvt) : put étend la valeur, avec son signe pour .s.
    return f"::simt::ptx::put({ctx.register(d)}, static_cast<{cpp_type(match['dst'])}>({ctx.value(a, match['src'])}));"


@instruction(r"cvt\.(?P<mode>rn|rna)\.(?P<dst>f16|bf16|tf32)\.f32")
def cvt_narrow(ins, ctx, match):
    d, a = operands(ins, ctx, 2)
    function = {("rn", "f16"): "f32_to_f16_rn", ("rn", "bf16"): "f32_to_bf16_rn",
                ("rna", "tf32"): "f32_to_tf32_rna"}.get((match["mode"], match["dst"]))
    if function is None:
        raise ctx.error(f"conversion {ins.opcode} non émulée")
    bits = 32 if match["dst"] == "tf32" else 16
    return f"::simt::ptx::put({ctx.register(d, bits)}, ::simt::ptx::{function}({ctx.value(a, 'f32')}));"


@instruction(r"cvt\.rn\.(?P<dst>f16x2|bf16x2)\.f32")
def cvt_pair(ins, ctx, match):
    # PTX ISA, cvt : d = {cvt(a), cvt(b)} ; a va dans la moitié haute, b dans la basse.
    d, a, b = operands(ins, ctx, 3)
    function = "f32_to_f16_rn" if match["dst"] == "f16x2" else "f32_to_bf16_rn"
    return (f"::simt::ptx::put({ctx.register(d, 32)}, static_cast<std::uint32_t>("
            f"::simt::ptx::{function}({ctx.value(b, 'f32')})) | static_cast<std::uint32_t>("
            f"::simt::ptx::{function}({ctx.value(a, 'f32')})) << 16);")


@instruction(r"cvt\.f32\.(?P<src>f16|bf16)")
def cvt_widen(ins, ctx, match):
    d, a = operands(ins, ctx, 2)
    function = "f16_to_f32" if match["src"] == "f16" else "bf16_to_f32"
    return f"::simt::ptx::put({ctx.register(d, 32)}, ::simt::ptx::{function}({ctx.value(a, 'b16')}));"


ARITHMETIC = {"add": "add", "sub": "sub", "mul.lo": "mul", "and": "bit_and", "or": "bit_or",
              "xor": "bit_xor", "shl": "shl", "shr": "shr"}


@instruction(r"(?P<op>add|sub|mul\.lo|and|or|xor|shl|shr)\." + INT)
def integer_arithmetic(ins, ctx, match):
    ptx_type = match["type"]
    if match["op"] in ("and", "or", "xor") and ptx_type[0] != "b":
        raise ctx.error(f"{ins.opcode} : PTX n'accepte que les types .b pour {match['op']}")
    if match["op"] in ("shl",) and ptx_type[0] != "b":
        raise ctx.error(f"{ins.opcode} : PTX n'accepte que les types .b pour shl")
    d, a, b = operands(ins, ctx, 3)
    if ptx_type.endswith("8"):
        raise ctx.error(f"{ins.opcode} : type de 8 bits non émulé")
    shift = match["op"] in ("shl", "shr")
    t = cpp_type(ptx_type)
    return (f"::simt::ptx::{ARITHMETIC[match['op']]}<{t}>({ctx.register(d, bits_of(ptx_type))}, "
            f"{ctx.raw(a) if a.kind != 'imm' else ctx.value(a, ptx_type)}, "
            f"{ctx.value(b, 'u32') if shift else (ctx.raw(b) if b.kind != 'imm' else ctx.value(b, ptx_type))});")


@instruction(r"not\.(?P<type>b16|b32|b64|pred)")
def bit_not(ins, ctx, match):
    d, a = operands(ins, ctx, 2)
    if match["type"] == "pred":
        return f"::simt::ptx::put({ctx.register(d, 1)}, !{ctx.value(a, 'pred')});"
    return f"::simt::ptx::bit_not<{cpp_type(match['type'])}>({ctx.register(d, bits_of(match['type']))}, {ctx.raw(a)});"


@instruction(r"(?P<op>add|sub|mul)(?:\.rn)?\.f32")
def float_arithmetic(ins, ctx, match):
    d, a, b = operands(ins, ctx, 3)
    function = {"add": "add", "sub": "sub", "mul": "mul"}[match["op"]]
    return (f"::simt::ptx::{function}<float>({ctx.register(d, 32)}, {ctx.value(a, 'f32')}, "
            f"{ctx.value(b, 'f32')});")


@instruction(r"(?P<op>ld|st)(?P<space>\.shared(?:::cta)?|\.global|)(?:\.v(?P<count>[24]))?\."
             r"(?P<type>[bus](?:16|32|64)|f32|f64)")
def load_store(ins, ctx, match):
    ptx_type = match["type"]
    count = int(match["count"] or 1)
    t = cpp_type(ptx_type)
    bits = bits_of(ptx_type)
    if match["op"] == "ld":
        d, a = operands(ins, ctx, 2)
        registers, address = ctx.vector(d, count), a
    else:
        a, s = operands(ins, ctx, 2)
        registers, address = ctx.vector(s, count), a
    if match["space"].startswith(".shared"):
        pointer = f"::simt::shared_pointer({ctx.shared_address(address)}, {count * bits // 8})"
    else:
        pointer = ctx.generic_address(address)
    if match["op"] == "ld":
        targets = ", ".join(ctx.register(r, bits) for r in registers)
        return f"::simt::ptx::load<{t}>({pointer}, {targets});"
    values = ", ".join(ctx.value(r, ptx_type) for r in registers)
    return f"::simt::ptx::store<{t}>({pointer}, {values});"

