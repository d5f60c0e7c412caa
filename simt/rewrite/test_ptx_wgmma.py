"""Traduction des instructions de groupe de warps (ptx/wgmma.py) : formes acceptées, même
nombre de lignes, refus avec la ligne et le nom de l'instruction."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simt_rewrite import rewrite_source  # noqa: E402


def wrapper(body: str) -> str:
    return "__device__ void f(float (&d)[4], unsigned long long a, unsigned long long b) {\n" + body + "\n}\n"


MMA_M64N8 = wrapper(
    '    asm volatile(\n'
    '        "{\\n.reg .pred p;\\nsetp.ne.b32 p, %6, 0;\\n"\n'
    '        "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, 1, -1, 0, 1;\\n}\\n"\n'
    '        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])\n'
    '        : "l"(a), "l"(b), "r"(1));')


class WgmmaTranslation(unittest.TestCase):
    def test_mma_async_passes_the_accumulators_addresses(self):
        output, diagnostics = rewrite_source(MMA_M64N8, "k.cu")
        self.assertEqual(diagnostics, [])
        self.assertEqual(output.count("\n"), MMA_M64N8.count("\n") + 1)  # + la directive #line
        self.assertIn("::simt::ptx::wgmma_mma_async(8u, ::simt::ptx::WgmmaInput::bf16, "
                      "{&simt_o0, &simt_o1, &simt_o2, &simt_o3}", output)
        # Les accumulateurs sont écrits au wait_group : la recopie de fin d'asm ne doit pas y
        # remettre l'ancienne valeur.
        self.assertIn("simt_a3 = ::simt::ptx::in<std::uint32_t>(simt_o3);", output)

    def test_fence_commit_wait_setmaxnreg_elect(self):
        source = wrapper(
            '    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");\n'
            '    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");\n'
            '    asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(1) : "memory");\n'
            '    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");\n'
            '    unsigned lane;\n'
            '    asm volatile("{\\n.reg .pred P;\\nelect.sync %0|P, 0xffffffff;\\n}" : "=r"(lane));\n'
            '    asm volatile("{\\n.reg .pred P;\\nelect.sync _|P, %0;\\n}" :: "r"(lane));')
        output, diagnostics = rewrite_source(source, "k.cu")
        self.assertEqual(diagnostics, [])
        for call in ("wgmma_fence();", "wgmma_commit_group();", "wgmma_wait_group(", "setmaxnreg(false,",
                     "elect_sync("):
            self.assertIn("::simt::ptx::" + call, output)

    def test_refused_forms_name_line_and_instruction(self):
        cases = {
            "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16": "non émulée",
            "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3": "non émulée",
            "wgmma.mma_async.sync.aligned.m64n12k16.f32.bf16.bf16": "N = 12",
            "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.bf16.bf16": "non émulée",
        }
        for opcode, expected in cases.items():
            source = MMA_M64N8.replace("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16", opcode)
            _, diagnostics = rewrite_source(source, "k.cu")
            self.assertEqual(len(diagnostics), 1, opcode)
            self.assertTrue(diagnostics[0].startswith("k.cu:4: simt : "), diagnostics[0])
            self.assertIn(expected, diagnostics[0])

    def test_accumulators_must_be_asm_operands(self):
        source = MMA_M64N8.replace('"+f"(d[0])', '"+r"(d[0])')
        _, diagnostics = rewrite_source(source, "k.cu")
        self.assertEqual(len(diagnostics), 1)
        self.assertIn("doivent être des opérandes", diagnostics[0])


if __name__ == "__main__":
    unittest.main()
