"""Traduction du PTX en ligne des familles mbarrier et TMA (simt/rewrite/ptx/mbarrier.py, tma.py) :
forme du C++ produit, nombre de lignes conservé, refus de ce qui n'est pas émulé."""

import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from simt_rewrite import rewrite_source  # noqa: E402


def rewrite(body: str):
    source = "__device__ void f(unsigned a, unsigned b, unsigned long long m, int x, int y) {\n" + body + "\n}\n"
    output, diagnostics = rewrite_source(source, "k.cu")
    return source, output, diagnostics


class MbarrierTranslation(unittest.TestCase):
    def test_wait_loop_with_labels(self):
        source, output, diagnostics = rewrite(
            '    asm volatile("{\\n.reg .pred P1;\\nLAB_WAIT:\\n"\n'
            '                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\\n"\n'
            '                 "@P1 bra.uni DONE;\\nbra.uni LAB_WAIT;\\nDONE:\\n}" :: "r"(a), "r"(b));')
        self.assertEqual(diagnostics, [])
        self.assertIn("::simt::ptx::mbarrier_try_wait_parity(", output)
        self.assertEqual(output.count("\n"), source.count("\n") + 1)  # + la directive #line

    def test_arrive_forms(self):
        _, output, diagnostics = rewrite(
            '    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" :: "r"(a), "r"(b));\n'
            '    unsigned long long s;\n'
            '    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], 2;" : "=l"(s) : "r"(a));\n'
            '    asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], 1;" : "=l"(s) : "r"(a));')
        self.assertEqual(diagnostics, [])
        for call in ("mbarrier_arrive_expect_tx(", "mbarrier_arrive(", "mbarrier_arrive_no_complete("):
            self.assertIn("::simt::ptx::" + call, output)

    def test_unknown_operation_is_refused(self):
        _, _, diagnostics = rewrite('    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(a) : "l"(m));')
        self.assertEqual(len(diagnostics), 1)
        self.assertIn("k.cu:2:", diagnostics[0])
        self.assertIn("mbarrier.pending_count.b64", diagnostics[0])


class TmaTranslation(unittest.TestCase):
    def test_tensor_load_and_store(self):
        _, output, diagnostics = rewrite(
            '    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"\n'
            '                 " [%0], [%1, {%3, %4}], [%2];" :: "r"(a), "l"(m), "r"(b), "r"(x), "r"(y) : "memory");\n'
            '    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %3}], [%1];"\n'
            '                 :: "l"(m), "r"(a), "r"(x), "r"(y));\n'
            '    asm volatile("cp.async.bulk.commit_group;");\n'
            '    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");\n'
            '    asm volatile("fence.proxy.async.shared::cta;");\n'
            '    asm volatile("prefetch.tensormap [%0];" :: "l"(m));')
        self.assertEqual(diagnostics, [])
        for call in ("cp_async_bulk_tensor_load(", "cp_async_bulk_tensor_store(", "cp_async_bulk_commit_group(",
                     "cp_async_bulk_wait_group(", "fence_proxy_async(", "prefetch_tensormap("):
            self.assertIn("::simt::ptx::" + call, output)

    def test_multicast(self):
        _, output, diagnostics = rewrite(
            '    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes'
            '.multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;"\n'
            '                 :: "r"(a), "l"(m), "r"(b), "r"(x), "r"(y), "h"((unsigned short)3));')
        self.assertEqual(diagnostics, [])
        self.assertIn("::simt::ptx::cp_async_bulk_tensor_load_multicast(", output)

    def test_multicast_without_mask_is_refused(self):
        _, _, diagnostics = rewrite(
            '    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes'
            '.multicast::cluster [%0], [%1, {%3, %4}], [%2];" :: "r"(a), "l"(m), "r"(b), "r"(x), "r"(y));')
        self.assertEqual(len(diagnostics), 1)
        self.assertIn("k.cu:2:", diagnostics[0])
        self.assertIn("ctaMask", diagnostics[0])

    def test_wrong_coordinate_count_is_refused(self):
        _, _, diagnostics = rewrite(
            '    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes'
            ' [%0], [%1, {%3, %4}], [%2];" :: "r"(a), "l"(m), "r"(b), "r"(x), "r"(y));')
        self.assertEqual(len(diagnostics), 1)
        self.assertIn("k.cu:2:", diagnostics[0])


class SharedAlignment(unittest.TestCase):
    def test_alignas_moves_before_shared(self):
        # g++ refuse alignas entre « static thread_local » (le __shared__ du prélude) et le type.
        output, diagnostics = rewrite_source(
            "__global__ void k() {\n    __shared__ alignas(128) float tile[64];\n"
            "    __shared__  alignas(sizeof(double)) double d;\n}\n", "k.cu")
        self.assertEqual(diagnostics, [])
        self.assertIn("    alignas(128) __shared__ float tile[64];\n", output)
        self.assertIn("    alignas(sizeof(double))  __shared__ double d;\n", output)


if __name__ == "__main__":
    unittest.main()
