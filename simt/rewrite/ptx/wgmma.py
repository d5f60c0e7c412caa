"""Hopper (sm_90a), instructions de groupe de warps : wgmma (fence, mma_async, commit_group,
wait_group), setmaxnreg, elect.sync. C++ : simt/include/simt/ptx/wgmma.hpp, simt/src/wgmma.cpp
et simt/src/warpgroup.cpp.

Les accumulateurs d'un wgmma.mma_async sont écrits au wgmma.wait_group, pas à la fin de
l'instruction asm : la traduction passe donc à simt l'adresse de l'expression C++ de chaque
opérande ``"+f"`` (``&simt_oN``), puis recopie sa valeur dans le registre de l'asm, pour que la
recopie des sorties de fin d'instruction n'y remette pas l'ancienne valeur.
"""

from __future__ import annotations

from .parse import CONSTRAINT_LETTERS
from .registry import instruction, wait_group, without_operand

INPUT_TYPES = {"bf16": "bf16", "f16": "f16"}


without_operand(r"wgmma\.fence\.sync\.aligned", "wgmma_fence")
without_operand(r"wgmma\.commit_group\.sync\.aligned", "wgmma_commit_group")
wait_group(r"wgmma\.wait_group\.sync\.aligned", "wgmma_wait_group", "u32")


def _accumulators(ctx, operand, count):
    """Adresses C++ des accumulateurs et recopies qui suivent l'appel."""
    pointers, copies = [], []
    for item in ctx.vector(operand, count):
        asm = ctx.asm_operand(item.index) if item.kind == "asm" else None
        if asm is None or not asm.output or asm.letter != "f":
            raise ctx.error(f"les accumulateurs de wgmma.mma_async doivent être des opérandes \"+f\" de "
                            f"l'instruction asm (trouvé « {item} »)")
        container = CONSTRAINT_LETTERS[asm.letter][1]
        pointers.append(f"&simt_o{item.index}")
        copies.append(f"simt_a{item.index} = ::simt::ptx::in<{container}>(simt_o{item.index});")
    return pointers, copies


@instruction(r"wgmma\.mma_async\.sync\.aligned\.m64n(?P<n>\d+)k(?P<k>\d+)\.(?P<d>\w+)\.(?P<a>\w+)\.(?P<b>\w+)")
def wgmma_mma_async(ins, ctx, match):
    n, k = int(match["n"]), int(match["k"])
    kinds = (match["d"], match["a"], match["b"])
    if k != 16 or match["d"] != "f32" or match["a"] != match["b"] or match["a"] not in INPUT_TYPES:
        raise ctx.error(f"instruction PTX « {ins.opcode} » non émulée par le processeur (formes émulées : "
                        f"wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16 et .f32.f16.f16)")
    if n % 8 != 0 or not 8 <= n <= 256:
        raise ctx.error(f"{ins.opcode} : N = {n}, N doit être un multiple de 8 de 8 à 256")
    del kinds
    operands = ins.operands
    a_in_registers = len(operands) == 7 and operands[1].kind == "vector"
    if len(operands) != (7 if a_in_registers else 8):
        raise ctx.error(f"{ins.opcode} attend d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b, "
                        f"imm-trans-a, imm-trans-b (ou, A en registres, d, {{a0, a1, a2, a3}}, b-desc, "
                        f"scale-d, imm-scale-a, imm-scale-b, imm-trans-b)")
    pointers, copies = _accumulators(ctx, operands[0], n // 2)
    kind = f"::simt::ptx::WgmmaInput::{INPUT_TYPES[match['a']]}"
    d_list = "{" + ", ".join(pointers) + "}"
    desc_b = ctx.value(operands[2], "b64")
    scale_d = ctx.value(operands[3], "pred")
    scale_a = ctx.value(operands[4], "s32")
    scale_b = ctx.value(operands[5], "s32")
    if a_in_registers:
        a_regs = ", ".join(ctx.value(r, "b32") for r in ctx.vector(operands[1], 4))
        call = (f"::simt::ptx::wgmma_mma_async_rs({n}u, {kind}, {d_list}, {a_regs}, {desc_b}, {scale_d}, "
                f"{scale_a}, {scale_b}, {ctx.value(operands[6], 's32')});")
    else:
        desc_a = ctx.value(operands[1], "b64")
        call = (f"::simt::ptx::wgmma_mma_async({n}u, {kind}, {d_list}, {desc_a}, {desc_b}, {scale_d}, "
                f"{scale_a}, {scale_b}, {ctx.value(operands[6], 's32')}, {ctx.value(operands[7], 's32')});")
    return " ".join([call] + copies)


@instruction(r"setmaxnreg\.(?P<direction>inc|dec)\.sync\.aligned\.u32")
def setmaxnreg(ins, ctx, match):
    if len(ins.operands) != 1 or ins.operands[0].kind not in ("imm", "asm"):
        raise ctx.error(f"{ins.opcode} attend un entier immédiat (le nombre de registres)")
    increase = "true" if match["direction"] == "inc" else "false"
    return f"::simt::ptx::setmaxnreg({increase}, {ctx.value(ins.operands[0], 'u32')});"


@instruction(r"elect\.sync")
def elect_sync(ins, ctx, match):
    if len(ins.operands) != 2 or ins.operands[0].kind != "pair":
        raise ctx.error(f"{ins.opcode} attend d|p, membermask")
    lane, predicate = ins.operands[0].items
    mask = ctx.value(ins.operands[1], "b32")
    lane_register = ctx.register(lane, 32)
    predicate_register = ctx.register(predicate, 1)
    return (f"{{ std::uint32_t simt_leader = 0; const bool simt_elected = ::simt::ptx::elect_sync({mask}, "
            f"&simt_leader); ::simt::ptx::put({lane_register}, simt_leader); "
            f"::simt::ptx::put({predicate_register}, simt_elected); }}")
