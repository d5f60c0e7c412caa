"""Occupation sur les pages : calcul des blocs résidents par SM (sm_90), cas calculés à la main."""
import sys
import unittest
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path[:0] = [str(TOOLS / "mkdocs"), str(TOOLS / "python")]

import occupation  # noqa: E402
import sass  # noqa: E402
from occupation import BLOCKS, REGISTERS, SHARED, SM_90, WARPS, Usage  # noqa: E402


def blocks(threads, registers, shared=0):
    return occupation.occupancy(Usage(threads=threads, registers=registers, shared_static=shared), SM_90)


class Limits(unittest.TestCase):
    def test_warp_tiling_is_register_bound(self):
        # 168 × 32 = 5 376 registres par warp (déjà multiple de 256) ; 16 384 par quart de SM
        # → 3 warps par quart, 12 par SM, 3 blocs de 4 warps. Mémoire partagée :
        # 16 384 + 1 024 = 17 408 octets → 233 472 // 17 408 = 13 blocs.
        r = blocks(128, 168, 16384)
        self.assertEqual(r.limits, {REGISTERS: 3, SHARED: 13, WARPS: 16, BLOCKS: 32})
        self.assertEqual((r.blocks, r.limiting, r.warps), (3, [REGISTERS], 12))
        self.assertAlmostEqual(r.fraction, 12 / 64)

    def test_register_granularity(self):
        # 33 × 32 = 1 056, arrondi à 1 280 : 16 384 // 1 280 = 12 warps par quart, 48 par SM,
        # 6 blocs de 8 warps. Sans l'arrondi, 65 536 // 1 056 = 62 warps donneraient 7 blocs.
        r = blocks(256, 33)
        self.assertEqual(r.registers_per_warp, 1280)
        self.assertEqual(r.limits[REGISTERS], 6)

    def test_registers_are_split_in_quarters(self):
        # 115 × 32 = 3 680, arrondi à 3 840 : 16 384 // 3 840 = 4 warps par quart, 16 par SM.
        # Le SM entier en logerait 65 536 // 3 840 = 17 : le quart de SM arrondit en dessous.
        self.assertEqual(blocks(32, 115).limits[REGISTERS], 16)

    def test_shared_memory_granularity_and_reserve(self):
        # 10 000 + 1 024 réservés = 11 024, arrondi à 11 136 : 233 472 // 11 136 = 20 blocs
        # (sans la réserve : 10 112 octets et 23 blocs).
        r = blocks(64, 16, 10000)
        self.assertEqual(r.shared_per_block, 11136)
        self.assertEqual(r.limits, {REGISTERS: 64, SHARED: 20, WARPS: 32, BLOCKS: 32})
        self.assertEqual((r.blocks, r.limiting), (20, [SHARED]))

    def test_block_count_cap(self):
        # Un warp par bloc, peu de registres, pas de mémoire partagée : 64 blocs par les warps,
        # mais au plus 32 blocs par SM.
        r = blocks(32, 16)
        self.assertEqual((r.blocks, r.limiting, r.warps), (32, [BLOCKS], 32))

    def test_ties_name_every_limiting_resource(self):
        # 32 registres : 1 024 par warp, 64 warps par SM ; 1 024 threads : 2 blocs par les warps.
        r = blocks(1024, 32)
        self.assertEqual((r.blocks, r.limiting), (2, [REGISTERS, WARPS]))
        self.assertEqual(r.fraction, 1.0)

    def test_partial_warp_counts_as_a_warp(self):
        self.assertEqual(blocks(48, 16).warps_per_block, 2)


class Refusals(unittest.TestCase):
    def test_bad_block_sizes(self):
        for threads in (0, 1025):
            with self.assertRaisesRegex(occupation.OccupationError, "threads par bloc"):
                blocks(threads, 32)

    def test_too_many_registers(self):
        with self.assertRaisesRegex(occupation.OccupationError, "registres par thread"):
            blocks(128, 256)
        # 255 registres : 8 192 par warp × 32 warps, bien plus que les 65 536 d'un bloc.
        with self.assertRaisesRegex(occupation.OccupationError, "lancement impossible"):
            blocks(1024, 255)

    def test_too_much_shared_memory(self):
        with self.assertRaisesRegex(occupation.OccupationError, "mémoire partagée"):
            blocks(128, 32, 227 * 1024 + 4)


class ReadFromTheBuild(unittest.TestCase):
    def test_sm90_section_starts_with_the_reserved_kib(self):
        self.assertEqual(occupation.declared_shared(9216, SM_90), 8192)
        self.assertEqual(occupation.declared_shared(0, SM_90), 0)
        with self.assertRaisesRegex(occupation.OccupationError, "disposition"):
            occupation.declared_shared(512, SM_90)

    ELF = """
.nv.info._Z5otherv
\tAttribute:\tEIATTR_MAX_THREADS
\tFormat:\tEIFMT_SVAL
\tValue:\t0x40 0x1 0x1
.nv.info._Z6kernelv
\tAttribute:\tEIATTR_NUM_BARRIERS
\tFormat:\tEIFMT_BVAL
\tValue:\t0x1
\t<0x15>
\tAttribute:\tEIATTR_MAX_THREADS
\tFormat:\tEIFMT_SVAL
\tValue:\t0x20 0x20 0x1
.nv.info._Z7nolimitv
\tAttribute:\tEIATTR_MAXREG_COUNT
\tValue:\t0xff
"""

    def test_launch_bound_of_the_named_kernel(self):
        self.assertEqual(occupation.max_threads(self.ELF, "_Z6kernelv"), 1024)
        self.assertEqual(occupation.max_threads(self.ELF, "_Z5otherv"), 64)
        self.assertIsNone(occupation.max_threads(self.ELF, "_Z7nolimitv"))

    def test_shared_passes_by_access_width(self):
        loop = [("0000", t) for t in ["LDS R1, [R2]", "LDS.128 R4, [R5]", "@P0 STS.128 [R1], R4",
                                      "LDS.U.64 R6, [R7]", "STS [R1], R2", "FFMA R1, R2, R3, R1",
                                      "LDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64]"]]
        self.assertEqual(occupation.shared_passes(loop), 1 + 4 + 4 + 2 + 1 + 4)


class Rendering(unittest.TestCase):
    def kernel(self, registers, shared, lines):
        k = sass.Kernel("_Z1kv", "k()", [(f"{16 * i:04x}", text) for i, text in enumerate(lines)])
        k.registers, k.shared, k.local = registers, shared, 0
        return k

    def test_table_names_the_limiting_factor(self):
        loop = ["LDS.128 R4, [R5]", "LDS R3, [R6]", "FFMA R1, R4, R3, R1", "FFMA R2, R4, R3, R2",
                "@P1 BRA 0x0000"]
        text = occupation.describe(self.kernel(168, 17408, loop), 128, "sm_90a")
        self.assertIn("| registres | 168 par thread → 5\u202f376 par warp", text)
        self.assertIn("| **3** | **oui** |", text)
        self.assertIn("soit 12 warps sur 64 (18,75\u202f%)** ; facteur limitant : registres.", text)
        self.assertIn("16\u202f384 o déclarés + 1\u202f024 o réservés → 17\u202f408 o", text)
        # 2 FFMA sur 5 instructions ; 4 + 1 passes pour 2 FFMA : 2,5 passes par FFMA, 0,25 / 2,5.
        self.assertIn("2 FFMA sur 5 instructions : au mieux 40\u202f%", text)
        self.assertIn("5 passes pour 2 FFMA, soit 2,50 passe par FFMA", text)
        self.assertIn("elle borne le débit à 10\u202f% du maximum", text)

    def test_dynamic_shared_memory_from_the_marker(self):
        # Étape 11 : 72 Kio dynamiques + 1 Kio réservé = 74 752 o → 233 472 // 74 752 = 3 blocs,
        # autant que les registres (167 → 5 376 par warp, 12 warps) : deux facteurs limitants.
        loop = ["FFMA R1, R4, R3, R1", "@P1 BRA 0x0000"]
        text = occupation.describe(self.kernel(167, 0, loop), 128, "sm_90a", dynamic=73728)
        self.assertIn("73\u202f728 o de mémoire partagée dynamique", text)
        self.assertIn("73\u202f728 o déclarés + 1\u202f024 o réservés → 74\u202f752 o", text)
        self.assertIn("facteur limitant : registres et mémoire partagée.", text)
        match = occupation.MARKER.search(
            "<!-- noyaux:occupation examples/gemm/11-au-dela-de-boehm sgemm_beyond_boehm sm_90a "
            "dynamique=73728 -->")
        self.assertEqual(match.group(4), "73728")

    def test_unknown_architecture_is_refused(self):
        with self.assertRaisesRegex(occupation.OccupationError, "sans modèle"):
            occupation.describe(self.kernel(32, 0, ["EXIT"]), 128, "sm_80")


if __name__ == "__main__":
    unittest.main()
