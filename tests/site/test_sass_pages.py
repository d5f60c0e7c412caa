"""Code machine sur les pages : choix de la boucle principale et description."""
import sys
import unittest
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path[:0] = [str(TOOLS / "mkdocs"), str(TOOLS / "python")]

import sass  # noqa: E402
from noyaux_outils.code_machine import Kernel  # noqa: E402


def kernel(lines):
    k = Kernel("_Z1kv", "k()", [(f"{4 * i * 16:04x}", text) for i, text in enumerate(lines)])
    k.registers, k.local = 40, 0
    return k


class MainLoop(unittest.TestCase):
    def test_picks_the_backward_branch_with_most_ffma(self):
        k = kernel(["MOV R1, R2", "FFMA R1, R2, R3, R1", "@P0 BRA 0x0040",   # 1 FFMA
                    "LDS R4, [R5]", "FFMA R1, R4, R3, R1", "FFMA R1, R4, R3, R1",
                    "@P1 BRA 0x00c0", "EXIT"])
        loop = sass.main_loop(k)
        self.assertEqual([text for _, text in loop],
                         ["LDS R4, [R5]", "FFMA R1, R4, R3, R1", "FFMA R1, R4, R3, R1", "@P1 BRA 0x00c0"])

    def test_a_tensor_core_loop_is_the_main_loop(self):
        # Sans FFMA, la boucle de copie (courte) ne doit pas passer devant celle des HMMA.
        k = kernel(["LDG.E.128 R4, [R2]", "STS.128 [R6], R4", "@P0 BRA 0x0000",
                    "LD.E R8, [R10]", "MOVM.16.MT88 R9, R9", "HMMA.16816.F32.BF16 R12, R8, R9, R12",
                    "@P1 BRA 0x00c0", "EXIT"])
        loop = sass.main_loop(k)
        self.assertIn("HMMA.16816.F32.BF16 R12, R8, R9, R12", [text for _, text in loop])
        self.assertIn("1 instructions des Tensor Cores", sass.describe(k, "sm_90a"))

    def test_epilogue_ffma_do_not_pull_a_wider_branch_ahead_of_the_tensor_core_loop(self):
        # La reprise d'une attente de mbarrier, placée après l'épilogue, saute en arrière dans
        # la boucle des HGMMA : ce branchement embrasse les FFMA de l'épilogue, pas le calcul.
        k = kernel(["MOV R1, R2",
                    "SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR4], R3", "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR8], R24",
                    "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], R24", "@P1 BRA 0x0040",
                    "FFMA R24, R24, R2, RZ", "FFMA R25, R25, R2, RZ", "STG.E.64 [R4], R24",
                    "@!P0 BRA 0x0040", "EXIT"])
        loop = [text for _, text in sass.main_loop(k)]
        self.assertEqual(loop[-1], "@P1 BRA 0x0040")
        self.assertNotIn("FFMA R24, R24, R2, RZ", loop)

    def test_describes_registers_and_loop_mix(self):
        k = kernel(["LDS R4, [R5]", "FFMA R1, R4, R3, R1", "BAR.SYNC.DEFER_BLOCKING 0x0", "@P1 BRA 0x0000"])
        text = sass.describe(k, "sm_90a")
        self.assertIn("**40 registres**", text)
        self.assertIn("4 instructions, dont 1 FFMA (25\u202f%), 1 chargements depuis la mémoire partagée", text)
        self.assertIn("1 barrières (BAR)", text)

    def test_kernel_without_loop(self):
        self.assertIn("Aucune boucle", sass.describe(kernel(["FFMA R1, R2, R3, R4", "EXIT"]), "sm_80"))


if __name__ == "__main__":
    unittest.main()
