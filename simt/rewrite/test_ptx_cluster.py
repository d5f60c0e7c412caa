"""Traduction du PTX des clusters (ptx/cluster.py) : formes reconnues, refus nommés."""

import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from simt_rewrite import rewrite_source  # noqa: E402


def translate(asm: str) -> tuple[str, list[str]]:
    output, diagnostics = rewrite_source(f"__device__ void f(unsigned a, unsigned r, unsigned d) {{ {asm} }}\n",
                                         "k.cu")
    return output.splitlines()[1], diagnostics


class ClusterPtx(unittest.TestCase):
    def test_barrier_arrive_and_wait_with_their_qualifiers(self):
        for opcode, call in [("barrier.cluster.arrive", "barrier_cluster_arrive"),
                             ("barrier.cluster.arrive.release.aligned", "barrier_cluster_arrive"),
                             ("barrier.cluster.arrive.relaxed", "barrier_cluster_arrive"),
                             ("barrier.cluster.wait.acquire.aligned", "barrier_cluster_wait")]:
            line, diagnostics = translate(f'asm volatile("{opcode};" ::: "memory");')
            self.assertEqual(diagnostics, [], opcode)
            self.assertIn(f"::simt::ptx::{call}();", line)

    def test_mapa_and_shared_cluster_accesses(self):
        line, diagnostics = translate('asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(r));')
        self.assertEqual(diagnostics, [])
        self.assertIn("::simt::ptx::mapa_shared(", line)
        line, _ = translate('asm("st.shared::cluster.v2.u32 [%0+8], {%1, %2};" :: "r"(a), "r"(r), "r"(d));')
        self.assertIn("::simt::ptx::store<std::uint32_t>(::simt::ptx::cluster_operand(simt_a0, 8, 8)", line)
        line, _ = translate('asm("ld.shared::cluster.f32 %0, [%1];" : "=f"(*(float*)&d) : "r"(a));')
        self.assertIn("::simt::ptx::load<float>(::simt::ptx::cluster_operand(", line)

    def test_special_registers(self):
        for register, call in [("cluster_ctarank", "sreg_cluster_ctarank()"), ("clusterid.y", "sreg_clusterid(1)"),
                               ("nclusterid.z", "sreg_nclusterid(2)"), ("cluster_ctaid.x", "sreg_cluster_ctaid(0)"),
                               ("cluster_nctaid.y", "sreg_cluster_nctaid(1)"),
                               ("cluster_nctarank", "sreg_cluster_nctarank()")]:
            line, diagnostics = translate(f'asm("mov.u32 %0, %%{register};" : "=r"(d));')
            self.assertEqual(diagnostics, [], register)
            self.assertIn(f"::simt::ptx::{call}", line)

    def test_refusals_name_the_instruction(self):
        _, diagnostics = translate('asm("mapa.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(r));')
        self.assertEqual(len(diagnostics), 1)
        self.assertIn("une adresse générique fait 64 bits", diagnostics[0])
        _, diagnostics = translate('asm("atom.shared::cluster.add.u32 %0, [%1], 1;" : "=r"(d) : "r"(a));')
        self.assertEqual(len(diagnostics), 1)
        self.assertRegex(diagnostics[0], r"^k\.cu:1: simt : .*atom\.shared::cluster\.add\.u32")


if __name__ == "__main__":
    unittest.main()
