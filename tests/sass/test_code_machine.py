"""Lecteur de code machine (tools/python/noyaux_outils/code_machine.py), sur une sortie de
cuobjdump simulée : noyaux, instructions, ressources, recherche par nom, outils en échec ; et
les attentes « part-ffma », « wgmma-enchaines », « toutes-128 » et « warps-par-sm » de
verifier_sass.py sur des noyaux écrits à la main."""
import shutil
import stat
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "python"))

from noyaux_outils import code_machine  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verifier_sass  # noqa: E402

# Deux noyaux : sgemm_naive et sgemm_naive2 (qu'une recherche de « sgemm_naive » doit écarter).
SASS = """
	code for sm_90a
		Function : _Z11sgemm_naivePf
	.headerflags	@"EF_CUDA_SM90"
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/              @P0  FFMA R2, R3, R4, R2 ;
        /*0020*/                   EXIT ;
		Function : _Z12sgemm_naive2Pf
        /*0000*/                   STL [R1], R2 ;
        /*0010*/                   EXIT ;
"""
RESOURCES = """
Resource usage:
 Common:
  GLOBAL:0
 Function _Z11sgemm_naivePf:
  REG:40 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:900 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _Z12sgemm_naive2Pf:
  REG:12 STACK:8 SHARED:0 LOCAL:8 CONSTANT[0]:900 TEXTURE:0 SURFACE:0 SAMPLER:0
"""


class Reader(unittest.TestCase):
    def setUp(self):
        self.folder = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.folder)
        self.binary = self.folder / "programme"
        self.binary.write_bytes(b"")

    def fake_cuobjdump(self, script: str) -> None:
        tool = self.folder / "cuobjdump"
        tool.write_text("#!/bin/sh\n" + textwrap.dedent(script))
        tool.chmod(tool.stat().st_mode | stat.S_IEXEC)

    def use_canned_output(self) -> None:
        (self.folder / "sass.txt").write_text(SASS)
        (self.folder / "res.txt").write_text(RESOURCES)
        self.fake_cuobjdump(f"""\
            case "$1" in
              -sass) cat {self.folder}/sass.txt ;;
              -res-usage) cat {self.folder}/res.txt ;;
            esac
            """)

    def test_reads_instructions_resources_and_demangled_names(self):
        self.use_canned_output()
        kernels = code_machine.read_kernels(self.folder, self.binary, "sm_90a")
        naive = kernels["_Z11sgemm_naivePf"]
        self.assertEqual(naive.name, "sgemm_naive(float*)")
        self.assertEqual(naive.instructions, [("0000", "LDC R1, c[0x0][0x28]"),
                                              ("0010", "@P0  FFMA R2, R3, R4, R2"),
                                              ("0020", "EXIT")])
        self.assertEqual((naive.registers, naive.local), (40, 0))
        self.assertEqual((kernels["_Z12sgemm_naive2Pf"].registers,
                          kernels["_Z12sgemm_naive2Pf"].local), (12, 8))

    def test_kernels_named_matches_whole_words_only(self):
        self.use_canned_output()
        found = code_machine.kernels_named(self.folder, self.binary, "sm_90a", "sgemm_naive")
        self.assertEqual([k.name for k in found], ["sgemm_naive(float*)"])

    def test_short_name_drops_the_parameters_but_not_the_template_arguments(self):
        kernel = code_machine.Kernel("_Z1f", "void f<(Order)1>(CUtensorMap_st, int)")
        self.assertEqual(kernel.short_name, "void f<(Order)1>")
        self.assertEqual(code_machine.Kernel("_Z1g", "g(int, float*)").short_name, "g")
        self.assertEqual(code_machine.Kernel("_Z1h", "h").short_name, "h")

    def test_opcode_ignores_the_predicate_and_matches_variants(self):
        self.assertEqual(code_machine.opcode("@!PT LDG.E.128 R4, [R2.64]"), "LDG.E.128")
        self.assertTrue(code_machine.matches("LDG.E.128 R4, [R2.64]", "LDG.E"))
        self.assertFalse(code_machine.matches("LDGSTS R4, [R2]", "LDG"))

    def test_failing_tool_is_a_french_error(self):
        self.fake_cuobjdump("echo 'cuobjdump fatal' >&2\nexit 1\n")
        with self.assertRaisesRegex(code_machine.CodeMachineError, "(?s)échec de .*cuobjdump fatal"):
            code_machine.read_kernels(self.folder, self.binary, "sm_90a")

    def test_missing_tool_is_a_french_error(self):
        with self.assertRaisesRegex(code_machine.CodeMachineError, "outil introuvable"):
            code_machine.read_kernels(self.folder / "absent", self.binary, "sm_90a")


def loop_kernel(body: list[str], inner_loop: bool = False) -> code_machine.Kernel:
    """Un noyau dont la boucle sur K (fermée par BAR.SYNC puis BRA) contient @p body ; avec
    @p inner_loop, @p body forme en plus une boucle interne, roulée."""
    lines = ["LDS.128 R4, [R2]"] + body
    instructions = [(f"{16 * i:04x}", text) for i, text in enumerate(lines)]
    if inner_loop:
        instructions.append((f"{16 * len(instructions):04x}", "@P0 BRA 0x10"))
    instructions.append((f"{16 * len(instructions):04x}", "BAR.SYNC.DEFER_BLOCKING 0x0"))
    instructions.append((f"{16 * len(instructions):04x}", "@P1 BRA 0x0"))
    instructions.append((f"{16 * len(instructions):04x}", "EXIT"))
    return code_machine.Kernel("_Z1kv", "k()", instructions, registers=32, local=0)


class FfmaShare(unittest.TestCase):
    def test_share_of_the_k_tile_loop(self):
        kernel = loop_kernel(["FFMA R1, R2, R3, R1"] * 18)  # 18 FFMA sur 21 instructions
        self.assertIsNone(verifier_sass.check(kernel, "part-ffma>=85"))
        message = verifier_sass.check(kernel, "part-ffma>=90")
        self.assertRegex(message, r"18 FFMA sur 21 instructions, soit 85\.7 % ; attendu au moins 90 %")

    def test_rolled_inner_loop_is_refused_whatever_its_share(self):
        kernel = loop_kernel(["FFMA R1, R2, R3, R1"] * 30, inner_loop=True)
        message = verifier_sass.check(kernel, "part-ffma>=50")
        self.assertRegex(message, "ne contient pas la barrière de fin de tuile.*boucle kk")

    def test_expectations_are_validated(self):
        self.assertTrue(verifier_sass.valid("part-ffma>=90"))
        self.assertTrue(verifier_sass.valid("warps-par-sm>=12"))
        self.assertFalse(verifier_sass.valid("part-ffma>90"))


def hgmma_kernel(lines: list[str]) -> code_machine.Kernel:
    """Un noyau fait des instructions @p lines, dans l'ordre."""
    instructions = [(f"{16 * i:04x}", text) for i, text in enumerate(lines + ["EXIT"])]
    return code_machine.Kernel("_Z1kv", "k()", instructions, registers=168, local=0)


class ChainedWgmma(unittest.TestCase):
    def test_chained_wgmma_pass(self):
        kernel = hgmma_kernel(["WARPGROUP.ARRIVE",
                               "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12].tnspB, R24",
                               "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR16].tnspB, R24, gsb0",
                               "WARPGROUP.DEPBAR.LE gsb0, 0x1"])
        self.assertIsNone(verifier_sass.check(kernel, "wgmma-enchaines"))

    def test_serialized_wgmma_fail(self):
        # Ce que ptxas produit après la note C7515 : une attente complète après chaque HGMMA.
        kernel = hgmma_kernel(["WARPGROUP.ARRIVE",
                               "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12].tnspB, R24, gsb0",
                               "WARPGROUP.DEPBAR.LE gsb0, 0x0",
                               "WARPGROUP.ARRIVE",
                               "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR16].tnspB, R24, gsb0",
                               "WARPGROUP.DEPBAR.LE gsb0, 0x0"])
        self.assertRegex(verifier_sass.check(kernel, "wgmma-enchaines"), "sérialisés par ptxas : les 2 HGMMA")
        self.assertTrue(verifier_sass.valid("wgmma-enchaines"))


class AllWide(unittest.TestCase):
    """« toutes-128 » : des copies de 16 octets partout, là où « contient » prend les variantes."""

    def test_only_128_bit_copies_pass(self):
        kernel = hgmma_kernel(["LDGSTS.E.BYPASS.128 [R3], desc[UR4][R4.64]",
                               # Copie à remplissage de zéros : la même instruction, sans source (!PT).
                               "@!P0 LDGSTS.E.BYPASS.128 [R3+0x10], desc[UR4][R6.64], !PT"])
        self.assertIsNone(verifier_sass.check(kernel, "toutes-128 LDGSTS"))

    def test_one_four_byte_copy_is_refused_and_marked(self):
        kernel = hgmma_kernel(["LDGSTS.E.BYPASS.128 [R3], desc[UR4][R4.64]",
                               "LDGSTS.E [R5], desc[UR4][R8.64]",
                               # LTC128B : un indice de préchargement dans le L2, pas une largeur.
                               "LDGSTS.E.LTC128B [R5+0x4], desc[UR4][R8.64+0x4]"])
        self.assertIsNone(verifier_sass.check(kernel, "contient LDGSTS"))  # ce que l'audit a relevé
        message = verifier_sass.check(kernel, "toutes-128 LDGSTS")
        self.assertRegex(message, r"2 instruction\(s\) LDGSTS sur 3 sans « \.128 », par ex\. « LDGSTS\.E »")
        marked = [line for line in message.splitlines() if line.lstrip().startswith(">>")]
        self.assertEqual(len(marked), 2, message)
        self.assertNotIn("BYPASS.128", "".join(marked))

    def test_no_copy_at_all_is_refused(self):
        kernel = hgmma_kernel(["LDG.E.128 R4, desc[UR4][R2.64]"])
        self.assertRegex(verifier_sass.check(kernel, "toutes-128 LDGSTS"), "aucune instruction LDGSTS")

    def test_grammar(self):
        self.assertTrue(verifier_sass.valid("toutes-128 LDGSTS"))
        self.assertFalse(verifier_sass.valid("toutes-128"))


# Attributs de « cuobjdump -elf » : __launch_bounds__(128) pour le noyau _Z1kv.
ELF = """\
.nv.info._Z1kv
\tAttribute:\tEIATTR_MAX_THREADS
\tFormat:\tEIFMT_SVAL
\tValue:\t0x80 0x1 0x1
"""


class ResidentWarps(unittest.TestCase):
    """« warps-par-sm>=N dynamique=OCTETS » : la mémoire partagée dynamique compte aussi."""

    def test_dynamic_shared_memory_counts(self):
        # 128 threads à 168 registres : 3 blocs (12 warps) selon les registres ; 73 728 octets
        # (3 étages de l'étape 11) en laissent 3, 98 304 (4 étages) seulement 2.
        kernel = code_machine.Kernel("_Z1kv", "k()", [], registers=168, shared=0, local=0)
        self.assertIsNone(verifier_sass.resident_warps(kernel, "sm_90a", ELF, 12))
        self.assertIsNone(verifier_sass.resident_warps(kernel, "sm_90a", ELF, 12, dynamic=73728))
        message = verifier_sass.resident_warps(kernel, "sm_90a", ELF, 12, dynamic=98304)
        self.assertRegex(message, "^8 warps résidents par SM .*98304 octets de mémoire partagée dynamique"
                                  ".*facteur limitant : mémoire partagée")

    def test_grammar(self):
        self.assertTrue(verifier_sass.valid("warps-par-sm>=12 dynamique=73728"))
        self.assertEqual(verifier_sass.WARPS.fullmatch("warps-par-sm>=12 dynamique=73728").groups(),
                         ("12", "73728"))
        self.assertFalse(verifier_sass.valid("warps-par-sm>=12 dynamique="))
        self.assertFalse(verifier_sass.valid("warps-par-sm>=12 73728"))


class Registers(unittest.TestCase):
    """« registres<=N » borne, « registres==N » fixe la réserve que setmaxnreg redistribue."""

    def test_bound_and_exact_count(self):
        kernel = code_machine.Kernel("_Z1kv", "k()", [], registers=168, shared=0, local=0)
        self.assertIsNone(verifier_sass.check(kernel, "registres<=168"))
        self.assertIsNone(verifier_sass.check(kernel, "registres==168"))
        self.assertRegex(verifier_sass.check(kernel, "registres<=160"), "168 registres par thread, attendu au plus 160")
        # Moins que prévu : la réserve du bloc ne couvrirait plus les setmaxnreg.inc.
        fewer = code_machine.Kernel("_Z1kv", "k()", [], registers=160, shared=0, local=0)
        self.assertIsNone(verifier_sass.check(fewer, "registres<=168"))
        self.assertRegex(verifier_sass.check(fewer, "registres==168"), "160 registres par thread, attendu exactement 168")

    def test_grammar(self):
        self.assertTrue(verifier_sass.valid("registres==168"))
        self.assertFalse(verifier_sass.valid("registres>=168"))
        self.assertFalse(verifier_sass.valid("registres=="))


if __name__ == "__main__":
    unittest.main()
