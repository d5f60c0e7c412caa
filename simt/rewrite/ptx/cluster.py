"""Clusters de blocs (sm_90) : barrier.cluster, mapa, ld/st.shared::cluster, fence.*.cluster
et les registres spéciaux des clusters. C++ : simt/include/simt/ptx/cluster.hpp,
simt/src/cluster.cpp (PTX ISA, « barrier.cluster », « mapa », registres spéciaux %cluster_*)."""

from __future__ import annotations

from .registry import instruction, operands, special_register, without_operand
from .translate import bits_of, cpp_type

special_register("cluster_ctarank", "::simt::ptx::sreg_cluster_ctarank()", "u32")
special_register("cluster_nctarank", "::simt::ptx::sreg_cluster_nctarank()", "u32")
special_register("is_explicit_cluster", "::simt::ptx::sreg_is_explicit_cluster()", "pred")
for axis, letter in enumerate("xyz"):
    special_register(f"clusterid.{letter}", f"::simt::ptx::sreg_clusterid({axis})", "u32")
    special_register(f"nclusterid.{letter}", f"::simt::ptx::sreg_nclusterid({axis})", "u32")
    special_register(f"cluster_ctaid.{letter}", f"::simt::ptx::sreg_cluster_ctaid({axis})", "u32")
    special_register(f"cluster_nctaid.{letter}", f"::simt::ptx::sreg_cluster_nctaid({axis})", "u32")


without_operand(r"barrier\.cluster\.arrive(?:\.release|\.relaxed)?(?:\.aligned)?", "barrier_cluster_arrive")
without_operand(r"barrier\.cluster\.wait(?:\.acquire)?(?:\.aligned)?", "barrier_cluster_wait")
without_operand(r"fence\.(?:sc|acq_rel)\.cluster|fence\.mbarrier_init\.release\.cluster", "fence_cluster")


@instruction(r"mapa(?P<space>\.shared::cluster)?\.(?P<type>u32|u64)")
def mapa(ins, ctx, match):
    d, a, rank = operands(ins, ctx, 3, "3 opérandes (d, adresse, rang)")
    bits = bits_of(match["type"])
    if match["space"]:
        return (f"::simt::ptx::mapa_shared({ctx.register(d, bits)}, {ctx.value(a, match['type'])}, "
                f"{ctx.value(rank, 'u32')});")
    if bits != 64:
        raise ctx.error(f"{ins.opcode} : une adresse générique fait 64 bits (mapa.u64)")
    return f"::simt::ptx::mapa_generic({ctx.register(d, 64)}, {ctx.value(a, 'u64')}, {ctx.value(rank, 'u32')});"


@instruction(r"(?P<op>ld|st)\.shared::cluster(?:\.v(?P<count>[24]))?\.(?P<type>[bus](?:16|32|64)|f32|f64)")
def load_store_cluster(ins, ctx, match):
    ptx_type = match["type"]
    count = int(match["count"] or 1)
    bits = bits_of(ptx_type)
    first, second = operands(ins, ctx, 2, "2 opérandes")
    address, data = (second, first) if match["op"] == "ld" else (first, second)
    registers = ctx.vector(data, count)
    base, offset = ctx.address(address)
    pointer = f"::simt::ptx::cluster_operand({base}, {offset}, {count * bits // 8})"
    t = cpp_type(ptx_type)
    if match["op"] == "ld":
        return f"::simt::ptx::load<{t}>({pointer}, {', '.join(ctx.register(r, bits) for r in registers)});"
    return f"::simt::ptx::store<{t}>({pointer}, {', '.join(ctx.value(r, ptx_type) for r in registers)});"
