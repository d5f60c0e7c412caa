"""Ampere (sm_80) : mma.sync, ldmatrix, cp.async. C++ : simt/include/simt/ptx/ampere.hpp,
simt/src/ptx_ampere.cpp (dispositions des fragments du PTX ISA)."""

from __future__ import annotations

from .registry import instruction, operands, wait_group, without_operand

MMA_FORMS = {
    "m16n8k16.row.col.f32.bf16.bf16.f32": ("m16n8k16_f32_bf16", 4),
    "m16n8k16.row.col.f32.f16.f16.f32": ("m16n8k16_f32_f16", 4),
    "m16n8k16.row.col.f16.f16.f16.f16": ("m16n8k16_f16_f16", 2),
    "m16n8k8.row.col.f32.tf32.tf32.f32": ("m16n8k8_f32_tf32", 4),
}


@instruction(r"mma\.sync\.aligned\.(?P<form>m16n8k(?:16|8)\.row\.col\.[a-z0-9]+\.[a-z0-9]+\.[a-z0-9]+\.[a-z0-9]+)")
def mma(ins, ctx, match):
    form = MMA_FORMS.get(match["form"])
    if form is None:
        raise ctx.error(f"instruction PTX « {ins.opcode} » non émulée par le processeur "
                        f"(formes émulées : {', '.join('mma.sync.aligned.' + f for f in MMA_FORMS)})")
    kind, accumulators = form
    d, a, b, c = operands(ins, ctx, 4, "4 vecteurs d'opérandes (d, a, b, c)")
    d_regs = [ctx.register(r, 32) for r in ctx.vector(d, accumulators)]
    a_regs = [ctx.value(r, "b32") for r in ctx.vector(a, 4)]
    b_regs = [ctx.value(r, "b32") for r in ctx.vector(b, 2)]
    c_regs = [ctx.value(r, "b32") for r in ctx.vector(c, accumulators)]
    d_list = ", ".join([f"&{r}" for r in d_regs] + ["nullptr"] * (4 - accumulators))
    c_list = ", ".join(c_regs + ["0u"] * (4 - accumulators))
    return (f"::simt::ptx::mma_sync(::simt::ptx::Mma::{kind}, {{{d_list}}}, {{{', '.join(a_regs)}}}, "
            f"{{{', '.join(b_regs)}}}, {{{c_list}}});")


@instruction(r"ldmatrix\.sync\.aligned\.m8n8\.x(?P<count>[124])(?P<trans>\.trans)?\.shared(?:::cta)?\.b16")
def ldmatrix(ins, ctx, match):
    count = int(match["count"])
    d, address = operands(ins, ctx, 2, "2 opérandes (d, [adresse])")
    registers = [ctx.register(r, 32) for r in ctx.vector(d, count)]
    targets = ", ".join([f"&{r}" for r in registers] + ["nullptr"] * (4 - count))
    transpose = "true" if match["trans"] else "false"
    return (f"::simt::ptx::ldmatrix({count}, {transpose}, {{{targets}}}, "
            f"{ctx.shared_address(address)});")


@instruction(r"cp\.async\.(?P<cache>ca|cg)\.shared(?:::cta)?\.global(?:\.L2::(?:64|128|256)B)?")
def cp_async(ins, ctx, match):
    operands(ins, ctx, (3, 4), "[dst], [src], cp-size et, au plus, src-size (l'indication de cache "
                               ".L2::cache_hint n'est pas émulée)")
    destination, source, size = ins.operands[:3]
    if size.kind == "imm":
        value = int(size.text.rstrip("U"), 0)
        allowed = (16,) if match["cache"] == "cg" else (4, 8, 16)
        if value not in allowed:
            raise ctx.error(f"{ins.opcode} : cp-size {value} invalide ({' ou '.join(map(str, allowed))} pour "
                            f".{match['cache']})")
    copy_size = ctx.value(size, "u64")
    source_size = copy_size
    if len(ins.operands) == 4:
        extra = ins.operands[3]
        bits = ctx.container_bits(extra) if extra.kind in ("asm", "name") else None
        if bits == 1 or extra.kind == "not":  # ignore-src : prédicat vrai → zéros
            source_size = f"({ctx.value(extra, 'pred')} ? 0ull : {copy_size})"
        else:
            source_size = ctx.value(extra, "u64")
    return (f"::simt::ptx::cp_async({ctx.shared_address(destination)}, {ctx.generic_address(source)}, "
            f"{copy_size}, {source_size});")


without_operand(r"cp\.async\.commit_group", "cp_async_commit_group")
wait_group(r"cp\.async\.wait_group", "cp_async_wait_group", "u64")
without_operand(r"cp\.async\.wait_all", "cp_async_wait_all")
