"""TMA (sm_90) : cp.async.bulk.tensor, cp.async.bulk, leurs groupes, fence.proxy.async,
prefetch.tensormap. C++ : simt/include/simt/ptx/tma.hpp, simt/src/tma.cpp (PTX ISA,
« cp.async.bulk.tensor », « Tensor copy »)."""

from __future__ import annotations

from .registry import instruction, operands, wait_group, without_operand

CACHE_HINT = r"(?P<hint>\.L2::cache_hint)?"


def shared(ctx, operand, size: str = "1") -> str:
    return f"::simt::shared_pointer({ctx.shared_address(operand)}, {size})"


def cluster(ctx, operand, size: str = "1") -> str:
    """Pointeur d'une adresse .shared::cluster (celle du bloc lui-même, ou d'un autre bloc)."""
    return f"::simt::cluster_shared_pointer({ctx.shared_address(operand)}, {size})"


def tensor(ins, ctx, operand, dims: int) -> tuple[str, str]:
    """(pointeur de la carte, liste des coordonnées) d'un opérande [carte, {c0, …}]."""
    if operand.kind != "address" or not operand.items or operand.items[0].kind != "vector":
        raise ctx.error(f"{ins.opcode} : opérande de tenseur [carte, {{coordonnées}}] attendu")
    coordinates = [ctx.value(c, "s32") for c in ctx.vector(operand.items[0], dims)]
    base = operand.base
    map_pointer = f"::simt::ptx::generic_operand({ctx.raw(base)}, 0)"
    return map_pointer, "{" + ", ".join(coordinates) + "}"


@instruction(r"cp\.async\.bulk\.tensor\.(?P<dims>[1-5])d\.shared::cluster\.global(?:\.tile)?"
             r"\.mbarrier::complete_tx::bytes(?P<multicast>\.multicast::cluster)?" + CACHE_HINT)
def tensor_load(ins, ctx, match):
    extra = (["ctaMask"] if match["multicast"] else []) + (["politique de cache"] if match["hint"] else [])
    operands(ins, ctx, 3 + len(extra),
                ", ".join(["[destination], [carte, {coordonnées}], [mbarrier]"] + extra))
    destination, source, bar = ins.operands[:3]
    map_pointer, coordinates = tensor(ins, ctx, source, int(match["dims"]))
    if match["multicast"]:
        return (f"::simt::ptx::cp_async_bulk_tensor_load_multicast({ctx.shared_address(destination)}, {map_pointer}, "
                f"{ctx.shared_address(bar)}, {coordinates}, {ctx.value(ins.operands[3], 'u16')});")
    return (f"::simt::ptx::cp_async_bulk_tensor_load({cluster(ctx, destination)}, {map_pointer}, "
            f"static_cast<std::uint64_t*>({cluster(ctx, bar, '8')}), {coordinates});")


@instruction(r"cp\.async\.bulk\.tensor\.(?P<dims>[1-5])d\.global\.shared::cta(?:\.tile)?\.bulk_group" + CACHE_HINT)
def tensor_store(ins, ctx, match):
    operands(ins, ctx, 3 if match["hint"] else 2,
                "[carte, {coordonnées}], [source]" + (", politique de cache" if match["hint"] else ""))
    target, source = ins.operands[:2]
    map_pointer, coordinates = tensor(ins, ctx, target, int(match["dims"]))
    return f"::simt::ptx::cp_async_bulk_tensor_store({map_pointer}, {coordinates}, {shared(ctx, source)});"


@instruction(r"cp\.async\.bulk\.shared::cluster\.global\.mbarrier::complete_tx::bytes" + CACHE_HINT)
def bulk_load(ins, ctx, match):
    operands(ins, ctx, 5 if match["hint"] else 4, "[destination], [source], octets, [mbarrier]")
    destination, source, size, bar = ins.operands[:4]
    return (f"::simt::ptx::cp_async_bulk_load({cluster(ctx, destination)}, {ctx.generic_address(source)}, "
            f"{ctx.value(size, 'u32')}, static_cast<std::uint64_t*>({cluster(ctx, bar, '8')}));")


@instruction(r"cp\.async\.bulk\.global\.shared::cta\.bulk_group" + CACHE_HINT)
def bulk_store(ins, ctx, match):
    operands(ins, ctx, 4 if match["hint"] else 3, "[destination], [source], octets")
    destination, source, size = ins.operands[:3]
    return (f"::simt::ptx::cp_async_bulk_store({ctx.generic_address(destination)}, {shared(ctx, source)}, "
            f"{ctx.value(size, 'u32')});")


without_operand(r"cp\.async\.bulk\.commit_group", "cp_async_bulk_commit_group")
wait_group(r"cp\.async\.bulk\.wait_group(?:\.read)?", "cp_async_bulk_wait_group", "u32", immediate=False)
without_operand(r"fence\.proxy\.async(?:\.shared::cta|\.shared::cluster|\.global)?", "fence_proxy_async")


@instruction(r"prefetch(?:\.(?:const|param))?\.tensormap")
def prefetch_tensormap(ins, ctx, match):
    operands(ins, ctx, 1, "[carte]")
    return f"::simt::ptx::prefetch_tensormap({ctx.generic_address(ins.operands[0])});"
