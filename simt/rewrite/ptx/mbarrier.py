"""mbarrier (sm_80, transactions sm_90). C++ : simt/include/simt/ptx/mbarrier.hpp,
simt/src/mbarrier.cpp (PTX ISA, « Parallel Synchronization and Communication Instructions:
mbarrier »)."""

from __future__ import annotations

from .registry import instruction

# mbarrier.<opération>{.sem}{.scope}{.espace}.b64 — qualificatifs dans l'ordre du PTX ISA.
QUALIFIERS = (r"(?P<sem>\.(?:release|acquire|relaxed))?(?P<scope>\.(?:cta|cluster))?"
              r"(?P<space>\.shared(?:::cta|::cluster)?)?\.b64")


def barrier(ins, ctx, match, operand) -> str:
    """Pointeur C++ du mot de 64 bits désigné par ``operand`` ([adresse])."""
    if match["space"] is None:  # adressage générique
        return f"static_cast<std::uint64_t*>({ctx.generic_address(operand)})"
    if match["space"] == ".shared::cluster":
        # Adresse de la fenêtre du cluster : celle du bloc lui-même, ou celle d'un autre bloc
        # fabriquée par mapa (simt/cluster_window.hpp).
        return f"static_cast<std::uint64_t*>(::simt::cluster_shared_pointer({ctx.shared_address(operand)}, 8))"
    return f"static_cast<std::uint64_t*>(::simt::shared_pointer({ctx.shared_address(operand)}, 8))"


def expect(ins, ctx, counts: tuple[int, ...], shape: str) -> None:
    if len(ins.operands) not in counts:
        raise ctx.error(f"{ins.opcode} attend {shape}")


@instruction(r"mbarrier\.init" + QUALIFIERS)
def init(ins, ctx, match):
    expect(ins, ctx, (2,), "[adresse], compte")
    address, count = ins.operands
    return f"::simt::ptx::mbarrier_init({barrier(ins, ctx, match, address)}, {ctx.value(count, 'u32')});"


@instruction(r"mbarrier\.inval" + QUALIFIERS)
def inval(ins, ctx, match):
    expect(ins, ctx, (1,), "[adresse]")
    return f"::simt::ptx::mbarrier_inval({barrier(ins, ctx, match, ins.operands[0])});"


@instruction(r"mbarrier\.arrive(?P<kind>\.expect_tx|\.noComplete)?" + QUALIFIERS)
def arrive(ins, ctx, match):
    kind = match["kind"]
    if kind == ".expect_tx":
        expect(ins, ctx, (3,), "état, [adresse], octets")
        state, address, tx = ins.operands
        call = (f"::simt::ptx::mbarrier_arrive_expect_tx({barrier(ins, ctx, match, address)}, "
                f"{ctx.value(tx, 'u32')})")
    elif kind == ".noComplete":
        expect(ins, ctx, (3,), "état, [adresse], compte")
        state, address, count = ins.operands
        call = (f"::simt::ptx::mbarrier_arrive_no_complete({barrier(ins, ctx, match, address)}, "
                f"{ctx.value(count, 'u32')})")
    else:
        expect(ins, ctx, (2, 3), "état, [adresse] et, au plus, un compte")
        state, address = ins.operands[:2]
        count = ctx.value(ins.operands[2], "u32") if len(ins.operands) == 3 else "1u"
        call = f"::simt::ptx::mbarrier_arrive({barrier(ins, ctx, match, address)}, {count})"
    return f"{ctx.register(state, 64)} = {call};"


@instruction(r"mbarrier\.(?P<op>expect_tx|complete_tx)" + QUALIFIERS)
def transactions(ins, ctx, match):
    expect(ins, ctx, (2,), "[adresse], octets")
    address, tx = ins.operands
    return f"::simt::ptx::mbarrier_{match['op']}({barrier(ins, ctx, match, address)}, {ctx.value(tx, 'u32')});"


@instruction(r"mbarrier\.(?P<op>test_wait|try_wait)(?P<parity>\.parity)?" + QUALIFIERS)
def wait(ins, ctx, match):
    blocking = match["op"] == "try_wait"
    expect(ins, ctx, (3, 4) if blocking else (3,),
           "résultat, [adresse], " + ("parité" if match["parity"] else "état") +
           (" et, au plus, une durée" if blocking else ""))
    done, address, phase = ins.operands[:3]
    name = f"mbarrier_{match['op']}{'_parity' if match['parity'] else ''}"
    arguments = [barrier(ins, ctx, match, address), ctx.value(phase, "u32" if match["parity"] else "u64")]
    if blocking:
        arguments.append(ctx.value(ins.operands[3], "u32") if len(ins.operands) == 4 else "0u")
    return f"{ctx.register(done, 1)} = ::simt::ptx::{name}({', '.join(arguments)});"
