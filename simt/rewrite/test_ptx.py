"""Tests de la traduction du PTX en ligne (paquet ptx/) : même nombre de lignes, C++ de chaque
instruction sur sa ligne, opérandes, portées et étiquettes, refus avec FICHIER:LIGNE."""

import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from simt_rewrite import rewrite_source  # noqa: E402


def rewrite(source, path="k.cu"):
    output, diagnostics = rewrite_source(source, path)
    if diagnostics:
        raise AssertionError(diagnostics)
    body = output.partition("\n")[2]
    assert body.count("\n") == source.count("\n"), "nombre de lignes changé"
    return body


def refused(source, path="k.cu"):
    _, diagnostics = rewrite_source(source, path)
    return diagnostics


WRAPPER = """__device__ void wait(unsigned address, unsigned parity) {
    asm volatile(
        "{\\n"
        ".reg .pred P1;\\n"
        "LAB_WAIT:\\n"
        "setp.eq.u32 P1, %0, %1;\\n"
        "@!P1 bra LAB_WAIT;\\n"
        "}\\n" :: "r"(address), "r"(parity));
}
"""


class Translation(unittest.TestCase):
    def test_each_instruction_on_its_own_line(self):
        lines = rewrite(WRAPPER).split("\n")
        self.assertTrue(lines[1].lstrip().startswith("do { __label__ simt_l_LAB_WAIT;"), lines[1])
        self.assertIn("bool simt_r1_P1{};", lines[1])
        self.assertIn("simt_l_LAB_WAIT: __attribute__((unused));", lines[4])
        self.assertIn("::simt::ptx::compare_eq(::simt::ptx::get<std::uint32_t>(simt_a0), "
                      "::simt::ptx::get<std::uint32_t>(simt_a1))", lines[5])
        self.assertIn("if (!::simt::ptx::get<bool>(simt_r1_P1)) { goto simt_l_LAB_WAIT; }", lines[6])
        self.assertTrue(lines[7].rstrip().endswith("} while (0);"), lines[7])
        self.assertEqual(lines[8], "}")

    def test_unique_number_and_percent(self):
        source = ('void f(unsigned* p) {\n'
                  '  asm("L%=: mov.u32 %0, %%laneid;" : "=r"(*p));\n'
                  '  asm("L%=: mov.u32 %[out], %%tid.y;" : [out] "=r"(*p));\n'
                  '}\n')
        out = rewrite(source)
        self.assertIn("simt_l_L0", out)
        self.assertIn("simt_l_L1", out)
        self.assertIn("::simt::ptx::sreg_laneid()", out)
        self.assertIn("::simt::ptx::sreg_tid(1)", out)
        self.assertIn("auto&& simt_o0 = (*p);", out)

    def test_constraints_and_read_write_operands(self):
        out = rewrite('void f(float& x, long* p, short h) {\n'
                      '  asm("add.f32 %0, %0, %1;" : "+f"(x) : "f"(2.0f));\n'
                      '  asm("mov.b64 %0, %1;" : "=l"(p) : "l"(p));\n'
                      '  asm("mov.b16 %0, %1;" : "=h"(h) : "h"(h));\n'
                      '}\n')
        self.assertIn("std::uint32_t simt_a0{::simt::ptx::in<std::uint32_t>(simt_o0)};", out)
        self.assertIn("const std::uint64_t simt_a1 = ::simt::ptx::in<std::uint64_t>(p);", out)
        self.assertIn("const std::uint16_t simt_a1 = ::simt::ptx::in<std::uint16_t>(h);", out)

    def test_macro_continuations_are_kept(self):
        source = ('#define COMMIT() \\\n'
                  '  asm volatile( \\\n'
                  '    "cp.async.commit_group;\\n" ::)\n'
                  'void f() { COMMIT(); }\n')
        out = rewrite(source)
        self.assertEqual(out.count("\\\n"), 2)
        self.assertIn("::simt::ptx::cp_async_commit_group();", out)

    def test_scopes_may_shadow_registers(self):
        out = rewrite('void f(unsigned& r) {\n'
                      '  asm("{ .reg .b32 t; mov.b32 t, 1; { .reg .b32 t; mov.b32 t, 2; } mov.b32 %0, t; }" : "=r"(r));\n'
                      '}\n')
        self.assertIn("simt_r1_t", out)
        self.assertIn("simt_r2_t", out)
        self.assertIn("::simt::ptx::put(simt_a0, ::simt::ptx::get<std::uint32_t>(simt_r1_t));", out)

    def test_hidden_from_the_emulator_is_left_alone(self):
        source = '#ifndef SIMT_EMULATOR\nvoid f() { asm("exit;"); }\n#endif\n'
        self.assertEqual(rewrite(source), source)


class Refusals(unittest.TestCase):
    def test_unknown_instruction_names_its_line(self):
        source = ('__device__ void f(unsigned a) {\n'
                  '    asm volatile("{\\n"\n'
                  '                 "  mov.u32 %0, %0;\\n"\n'
                  '                 "  tanh.approx.f32 %0, %0;\\n"\n'
                  '                 "}" : "+r"(a));\n'
                  '}\n')
        diagnostics = refused(source)
        self.assertEqual(len(diagnostics), 1)
        self.assertTrue(diagnostics[0].startswith("k.cu:4: simt : instruction PTX « tanh.approx.f32 » "
                                                  "non émulée par le processeur ;"), diagnostics[0])

    def test_other_refusals(self):
        cases = {
            'void f(int x) { asm("mov.u32 %0, %%smid;" : "=r"(x)); }': "registre spécial %smid non émulé",
            'void f(int x) { asm("mov.u32 %0, t;" : "=r"(x)); }': "registre PTX « t » non déclaré",
            'void f(int x) { asm("mov.u32 %0, 1;" : "=q"(x)); }': "contrainte d'opérande « =q »",
            'void f(int x) { asm(TEXT : "=r"(x)); }': "chaînes littérales",
            'asm(".globl x;");': "au niveau du fichier",
            'void f(int x) { asm("mov.u32 %1, 1;" : "=r"(x)); }': "l'opérande %1 n'existe pas",
            'void f(int x) { asm("bra FIN;" :: "r"(x)); }': "étiquette « FIN » introuvable",
            'void f(int x) { asm("cp.async.cg.shared.global [%0], [%0], 8;" :: "l"(x)); }': "cp-size 8 invalide",
            'void f(int x) { asm(".shared .b32 s;" :: "r"(x)); }': "directive PTX « .shared »",
            'void f(int x) { asm("mov.u32 %0, 1" : "=r"(x)); }': "sans « ; » final",
            'void f(int x) { asm("{ .reg .pred p, q; setp.eq.u32 p|q, %0, 1; }" :: "r"(x)); }':
                "deux prédicats de destination",
            'void f(int x) { asm("ld.shared.b32 %0, [%0, {%0}];" : "+r"(x)); }': "une adresse [registre]",
            'void f(short x) { asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 '
            '{%0,%0,%0,%0}, {%0,%0,%0,%0}, {%0,%0}, {%0,%0,%0,%0};" : "+h"(x)); }': "fait 16 bits",
            'void f(int x) { asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0};" : "+r"(x)); }':
                "« mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 » non émulée",
            # Nombre d'opérandes (registry.operands et les fabriques de déclarations) : l'attendu et le donné.
            'void f(int x) { asm("mov.u32 %0;" : "=r"(x)); }':
                "mov.u32 attend 2 opérande(s) ; 1 opérande(s) donné(s)",
            'void f(int x) { asm("mbarrier.init.shared.b64 [%0];" :: "r"(x)); }':
                "mbarrier.init.shared.b64 attend [adresse], compte ; 1 opérande(s) donné(s)",
            'void f(int x) { asm("mbarrier.inval.shared.b64 [%0], %0;" :: "r"(x)); }':
                "mbarrier.inval.shared.b64 attend [adresse] ; 2 opérande(s) donné(s)",
            'void f(int x) { asm("fence.proxy.async %0;" :: "r"(x)); }': "fence.proxy.async n'a pas d'opérande",
            'void f(int x) { asm("barrier.cluster.wait %0;" :: "r"(x)); }': "barrier.cluster.wait n'a pas d'opérande",
            'void f(int x) { asm("cp.async.wait_group;" :: "r"(x)); }':
                "cp.async.wait_group attend un entier immédiat",
            'void f(int x) { asm("cp.async.bulk.wait_group;" :: "r"(x)); }':
                "cp.async.bulk.wait_group attend un entier (N) ; 0 opérande(s) donné(s)",
        }
        for source, expected in cases.items():
            with self.subTest(source=source):
                diagnostics = refused(source + "\n")
                self.assertEqual(len(diagnostics), 1, diagnostics)
                self.assertIn("k.cu:1: simt : ", diagnostics[0])
                self.assertIn(expected, diagnostics[0])

    def test_declared_by_factory_in_its_family(self):
        from ptx import families, registry  # noqa: F401  (families enregistre les instructions)
        family_of = {entry.pattern.pattern: entry.family for entry in registry.INSTRUCTIONS}
        self.assertEqual(family_of[r"fence\.proxy\.async(?:\.shared::cta|\.shared::cluster|\.global)?"], "tma")
        self.assertEqual(family_of[r"cp\.async\.wait_group"], "ampere")
        self.assertNotIn("registry", family_of.values())

    def test_command_line_exit_code(self):
        with tempfile.TemporaryDirectory() as tmp:
            source = pathlib.Path(tmp, "noyau.cu")
            source.write_text('__global__ void k() {\n  asm volatile("trap;");\n}\n', encoding="utf-8")
            result = subprocess.run([sys.executable, str(HERE / "simt_rewrite.py"), "noyau.cu", "sortie.cu"],
                                    capture_output=True, text=True, cwd=tmp)
            self.assertEqual(result.returncode, 1)
            self.assertIn("noyau.cu:2: simt : instruction PTX « trap » non émulée par le processeur", result.stderr)
            self.assertFalse(pathlib.Path(tmp, "sortie.cu").exists())


if __name__ == "__main__":
    unittest.main()
