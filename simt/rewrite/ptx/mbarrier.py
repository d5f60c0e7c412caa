"""mbarrier (sm_80, transactions sm_90). C++ : simt/include/simt/ptx/mbarrier.hpp,
simt/src/mbarrier.cpp (PTX ISA, « Parallel Synchronization and Communication Instructions:
mbarrier »)."""

from __future__ import annotations

from .registry import instruction, operands

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


def operation(pattern: str, shape: str) -> None:
    """Déclare « mbarrier.<op> [adresse]{, valeur} » (``shape`` : ses opérandes), traduite par
    l'appel ``::simt::ptx::mbarrier_<op>(mot, valeur .u32)``."""
    def translate(ins, ctx, match):
        address, *values = operands(ins, ctx, shape.count(",") + 1, shape)
        arguments = [barrier(ins, ctx, match, address)] + [ctx.value(value, "u32") for value in values]
        return f"::simt::ptx::mbarrier_{match['op']}({', '.join(arguments)});"

    instruction(r"mbarrier\.(?P<op>" + pattern + ")" + QUALIFIERS)(translate)


operation("init", "[adresse], compte")
operation("inval", "[adresse]")
operation("expect_tx|complete_tx", "[adresse], octets")


@instruction(r"mbarrier\.arrive(?P<kind>\.expect_tx|\.noComplete)?" + QUALIFIERS)
def arrive(ins, ctx, match):
    kind = match["kind"]
    if kind == ".expect_tx":
        state, address, tx = operands(ins, ctx, 3, "état, [adresse], octets")
        call = (f"::simt::ptx::mbarrier_arrive_expect_tx({barrier(ins, ctx, match, address)}, "
                f"{ctx.value(tx, 'u32')})")
    elif kind == ".noComplete":
        state, address, count = operands(ins, ctx, 3, "état, [adresse], compte")
        call = (f"::simt::ptx::mbarrier_arrive_no_complete({barrier(ins, ctx, match, address)}, "
                f"{ctx.value(count, 'u32')})")
    else:
        state, address = operands(ins, ctx, (2, 3), "état, [adresse] et, au plus, un compte")[:2]
        count = ctx.value(ins.operands[2], "u32") if len(ins.operands) == 3 else "1u"
        call = f"::simt::ptx::mbarrier_arrive({barrier(ins, ctx, match, address)}, {count})"
    return f"{ctx.register(state, 64)} = {call};"


@instruction(r"mbarrier\.(?P<op>test_wait|try_wait)(?P<parity>\.parity)?" + QUALIFIERS)
def wait(ins, ctx, match):
    blocking = match["op"] == "try_wait"
    done, address, phase = operands(ins, ctx, (3, 4) if blocking else 3,
                                    "résultat, [adresse], " + ("parité" if match["parity"] else "état") +
                                    (" et, au plus, une durée" if blocking else ""))[:3]
    name = f"mbarrier_{match['op']}{'_parity' if match['parity'] else ''}"
    arguments = [barrier(ins, ctx, match, address), ctx.value(phase, "u32" if match["parity"] else "u64")]
    if blocking:
        arguments.append(ctx.value(ins.operands[3], "u32") if len(ins.operands) == 4 else "0u")
    return f"{ctx.register(done, 1)} = ::simt::ptx::{name}({', '.join(arguments)});"
