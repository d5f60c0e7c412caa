"""Tests de simt_driver.py : lecture des options de nvcc et recherche des en-têtes locaux.
La compilation elle-même est vérifiée par les tests ctest simt.simt-run-plusieurs-fichiers.cpu
et simt.simt-nvcc-makefile.cpu."""

import pathlib
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import simt_driver  # noqa: E402
from simt_driver import UsageError, parse  # noqa: E402


class Options(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.folder.name)
        for name in ("a.cu", "b.cpp", "c.o"):
            (self.dir / name).write_text("")
        self.a, self.b, self.o = (str(self.dir / n) for n in ("a.cu", "b.cpp", "c.o"))

    def tearDown(self):
        self.folder.cleanup()

    def test_sources_objects_and_usual_options(self):
        options = parse(["-I", "inc", "-Iautre", "-DN=4", "-D", "M", "-std=c++17", "-O3",
                         "-Xcompiler", "-fopenmp,-Wall", "-lcudart", "-lm", "-c", self.a, self.b],
                        "nvcc")
        self.assertEqual([p.name for p in options.sources], ["a.cu", "b.cpp"])
        self.assertEqual([p.name for p in options.includes], ["inc", "autre"])
        self.assertTrue(all(p.is_absolute() for p in options.includes))
        self.assertEqual(options.defines, ["-DN=4", "-DM"])
        self.assertEqual(options.std, "c++20")  # le prélude de simt demande C++20
        self.assertEqual(options.optimization, "-O3")
        self.assertEqual(options.host_flags, ["-fopenmp", "-Wall"])
        self.assertEqual(options.link_flags, ["-lm"])  # cudart : remplacé par libsimt
        self.assertTrue(options.compile_only)

    def test_gpu_only_options_are_accepted_without_effect(self):
        options = parse(["-arch=sm_80", "-arch", "sm_90a", "--gpu-architecture=sm_80",
                         "-gencode", "arch=compute_80,code=sm_80", "-gencode=arch=compute_90,code=sm_90",
                         "-lineinfo", "-G", "--extended-lambda", "--use_fast_math", self.o, "-o", "p"],
                        "nvcc")
        self.assertEqual([p.name for p in options.objects], ["c.o"])
        self.assertEqual(options.output, pathlib.Path("p"))
        self.assertEqual(options.host_flags, [])

    def test_program_arguments_follow_the_sources(self):
        options = parse([self.a, "100000", "-v"], "run")
        self.assertEqual(options.program_arguments, ["100000", "-v"])
        options = parse([self.a, "--", "-n", "5"], "run")
        self.assertEqual(options.program_arguments, ["-n", "5"])

    def test_dependency_options(self):
        options = parse(["-MMD", "-MP", "-MF", "dep/a.d", "-MTcible.o", "-MT", "autre", "-c", self.a],
                        "nvcc")
        self.assertEqual(options.dependencies, "-MMD")
        self.assertTrue(options.phony_headers)
        self.assertEqual(options.dependency_file, pathlib.Path("dep/a.d"))
        self.assertEqual(options.dependency_targets, ["cible.o", "autre"])
        self.assertEqual(parse(["-MD", "-c", self.a], "nvcc").dependencies, "-MD")
        flags = simt_driver.dependency_flags(options, pathlib.Path("a.o"), pathlib.Path("brut.d"))
        self.assertEqual(flags, ["-MMD", "-MF", "brut.d", "-MT", "cible.o", "-MT", "autre", "-MP"])

    def test_refusals(self):
        cases = [
            (["--inconnue", self.a], "nvcc", "option inconnue : --inconnue"),
            (["-c", self.a], "run", "option inconnue : -c"),
            (["-O2"], "nvcc", "aucune source"),
            (["-I"], "nvcc", "attend une valeur"),
            (["-std=c++98", self.a], "nvcc", "norme du langage inconnue"),
            ([str(self.dir / "absent.cu")], "nvcc", "fichier introuvable"),
            (["notes.txt"], "nvcc", "ni une source"),
            (["-c", self.a, self.b, "-o", "x.o"], "nvcc", "une source"),
            (["-c", self.o], "nvcc", "édition de liens"),
            (["-MD", self.a], "nvcc", "s'emploie avec -c"),
            (["-MF", "a.d", "-c", self.a], "nvcc", "demandent -MD ou -MMD"),
            (["-MMD", "-MF", "a.d", "-c", self.a, self.b], "nvcc", "-MF n'accepte qu'une source"),
        ]
        for args, tool, message in cases:
            with self.subTest(args=args):
                with self.assertRaises(UsageError) as raised:
                    parse(args, tool)
                self.assertIn(message, str(raised.exception))


class LocalHeaders(unittest.TestCase):
    def test_quoted_and_angled_includes_found_beside_or_under_include_dirs(self):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            (root / "src").mkdir()
            (root / "inc").mkdir()
            (root / "src" / "main.cu").write_text(
                '#include "voisin.cuh"\n#include <commun.h>\n#include <vector>\n'
                '// #include "commente.h"\n#include "absent.h"\n')
            (root / "src" / "voisin.cuh").write_text('#include "../inc/profond.h"\n')
            (root / "src" / "commente.h").write_text("")
            (root / "inc" / "commun.h").write_text("")
            (root / "inc" / "profond.h").write_text("#include <cuda_runtime.h>\n")
            options = parse(["-I", str(root / "inc"), str(root / "src" / "main.cu")], "nvcc")
            toolchain = simt_driver.Toolchain(root, pathlib.Path("/usr/local/cuda/include"), "")
            found = simt_driver.local_headers(root / "src" / "main.cu", options, toolchain)
            self.assertEqual(sorted(p.relative_to(root).as_posix() for p in found),
                             ["inc/commun.h", "inc/profond.h", "src/voisin.cuh"])


if __name__ == "__main__":
    unittest.main()
