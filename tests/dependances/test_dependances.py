"""Règles des vérificateurs de dépendances, sur des cas construits : fichiers de dépendances,
lignes d'édition des liens, cache CMake, propriétaires dpkg, fermeture par dépendances, et
imports Python non fournis par ci/requirements.txt."""
import shutil
import subprocess
import tempfile
import textwrap
import unittest
from pathlib import Path

import imports_python
import paquets_debian as pd
import sans_libcuda


class BuildTraces(unittest.TestCase):
    def test_depfile_keeps_absolute_paths_only(self):
        text = "obj.o: ../src/a.cu \\\n  /usr/include/stdio.h \\\n  /usr/local/cuda/include/cuda.h\n"
        self.assertEqual(pd.depfile_paths(text),
                         {Path("/usr/include/stdio.h"), Path("/usr/local/cuda/include/cuda.h")})

    def test_link_line_resolves_dash_l_and_reports_unknown(self):
        with tempfile.TemporaryDirectory() as tmp:
            lib = Path(tmp)
            (lib / "libfoo.a").touch()
            paths, unresolved = pd.link_paths(
                f"/usr/bin/c++ main.o -o prog -L{lib} -lfoo -lnexistepas /usr/lib/libbar.so.1.2", None)
        self.assertIn(lib / "libfoo.a", paths)
        self.assertIn(Path("/usr/lib/libbar.so.1.2"), paths)
        self.assertEqual(unresolved, ["-lnexistepas"])

    def test_cache_skips_notfound_and_install_destinations(self):
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp) / "CMakeCache.txt"
            cache.write_text("NOYAUX_HUNSPELL:FILEPATH=/usr/bin/hunspell\n"
                             "NOYAUX_ABSENT:FILEPATH=NOYAUX_ABSENT-NOTFOUND\n"
                             "CMAKE_INSTALL_PREFIX:PATH=/usr/local\n"
                             "CMAKE_BUILD_TYPE:STRING=Release\n")
            self.assertEqual(pd.cache_paths(cache), {Path("/usr/bin/hunspell"): "NOYAUX_HUNSPELL"})


class Packages(unittest.TestCase):
    depends = {"libfoo-dev": {"libfoo1.0-dev"}, "libfoo1.0-dev": {"libfoo1.0", "libc6"},
               "libfoo1.0": {"libc6"}, "libc6": set(), "outil": set()}

    def test_closure_follows_dependencies(self):
        self.assertEqual(pd.closure({"libfoo-dev"}, self.depends),
                         {"libfoo-dev", "libfoo1.0-dev", "libfoo1.0", "libc6"})

    def test_merged_usr_candidates(self):
        names = pd.candidates(Path("/usr/lib/x86_64-linux-gnu/libz.so.1"))
        self.assertIn("/lib/x86_64-linux-gnu/libz.so.1", names)

    def judge(self, allowed):
        usage = pd.Usage()
        usage.add(Path("/usr/include/foo.h"), "a.o.d")
        usage.add(Path("/usr/share/outil/donnees"), "CMakeCache.txt (X)")
        usage.add(Path("/usr/include"), "CMakeCache.txt (Y)")
        usage.add(Path("/usr/local/cuda-99/include/cuda.h"), "a.o.d")
        usage.add(Path("/home/projet/src/a.cu"), "a.o.d")
        owners = {"/usr/include/foo.h": {"libfoo1.0-dev"}, "/usr/include": {"libc6", "libfoo1.0-dev"}}
        return pd.judge(usage, owners, allowed, Path("/usr/local/cuda-99"))

    def test_missing_package_and_orphan_file_are_reported(self):
        verdict = self.judge({"libc6"})
        self.assertEqual(list(verdict.missing), ["libfoo1.0-dev"])
        self.assertEqual([path for path, _ in verdict.orphans], [Path("/usr/share/outil/donnees")])
        lines = pd.report(verdict, pd.Usage(), Path("ci/paquets-debian.txt"), {"libc6"}, self.depends)
        self.assertIn("/usr/include/foo.h appartient au paquet Debian libfoo1.0-dev", lines[0])
        self.assertIn("→ ajoutez la ligne « libfoo1.0-dev » à ci/paquets-debian.txt", lines[0])
        self.assertIn("« libfoo-dev »", lines[0])  # le paquet qu'on avait installé à la main
        self.assertIn("n'appartient à aucun paquet Debian", lines[1])

    def test_allowed_package_passes_and_toolkit_is_skipped(self):
        verdict = self.judge(pd.closure({"libfoo-dev"}, self.depends))
        self.assertEqual(verdict.missing, {})
        self.assertEqual(verdict.checked, 3)  # ni CUDA ni le dépôt

    def test_toolkit_launcher_script_is_part_of_the_toolkit(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "cuda-13.0"
            (root / "bin").mkdir(parents=True)
            (root / "bin" / "nvcc").touch()
            launcher = Path(tmp) / "nvcc"
            launcher.write_text(f'#!/bin/sh\nexec {root}/bin/nvcc "$@"\n')
            stranger = Path(tmp) / "autre"
            stranger.write_text('#!/bin/sh\nexec /usr/bin/env "$@"\n')
            self.assertTrue(pd.in_toolkit(root / "bin" / "nvcc", root))
            self.assertTrue(pd.in_toolkit(launcher, root))
            self.assertFalse(pd.in_toolkit(stranger, root))
            self.assertFalse(pd.in_toolkit(launcher, None))

    def test_package_list_reads_comments_and_several_names(self):
        with tempfile.TemporaryDirectory() as tmp:
            listing = Path(tmp) / "liste.txt"
            listing.write_text("# commentaire\ncmake g++  # compilateur\n\nccache\n")
            self.assertEqual(pd.read_package_list(listing), {"cmake", "g++", "ccache"})
            listing.write_text("# rien\n")
            with self.assertRaises(pd.SetupError):
                pd.read_package_list(listing)


class PythonImports(unittest.TestCase):
    def repository(self, files):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        root = Path(tmp.name)
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(textwrap.dedent(text))
        return root

    def test_unprovided_module_is_named_with_file_and_line(self):
        root = self.repository({
            "ci/requirements.txt": "PyYAML==6.0.4\n",
            "outils/a.py": "import os\nimport voisin\nfrom yaml import safe_load\n"
                           "import module_absent_de_noyaux\n",
            "outils/voisin.py": "",
        })
        problems, count = imports_python.check(root, root / "ci/requirements.txt", set())
        self.assertEqual(count, 4)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("outils/a.py:4 : le module « module_absent_de_noyaux » n'est pas installé",
                      problems[0])

    def test_installed_module_outside_requirements_is_refused(self):
        root = self.repository({"ci/requirements.txt": "mkdocs==1.6.1\n", "a.py": "import yaml\n"})
        problems, _ = imports_python.check(root, root / "ci/requirements.txt", set())
        self.assertEqual(len(problems), 1)
        self.assertIn("vient de pyyaml, absent de", problems[0])

    def test_mkdocs_builtin_extensions_belong_to_markdown(self):
        root = self.repository({"mkdocs.yml": "theme:\n  name: material\nmarkdown_extensions:\n"
                                              "  - toc:\n  - pymdownx.details\n"})
        modules = [item.module for item in imports_python.mkdocs_imports(root / "mkdocs.yml", root)]
        self.assertEqual(modules, ["material", "markdown", "pymdownx"])

    def test_requirement_names_are_normalized(self):
        root = self.repository({"r.txt": "PyYAML==6.0.4\npymdown_extensions==13.1.2\n# x\n"})
        self.assertEqual(imports_python.read_requirements(root / "r.txt"),
                         {"pyyaml", "pymdown-extensions"})


if __name__ == "__main__":
    unittest.main()


STUBS = Path("/usr/local/cuda/lib64/stubs")


class DriverLinks(unittest.TestCase):
    @unittest.skipUnless(shutil.which("cc") and (STUBS / "libcuda.so").exists(),
                         "compilateur C ou ébauche de libcuda absents")
    def test_program_needing_libcuda_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            build = Path(tmp)
            source = build / "prog.c"
            source.write_text("int main(void) { return 0; }\n")
            for name, flags in (("sain", []), ("fautif", ["-Wl,--no-as-needed", f"-L{STUBS}", "-lcuda"])):
                subprocess.run(["cc", str(source), "-o", str(build / name), *flags], check=True)
            self.assertEqual(sans_libcuda.needed_libraries(build / "sain").count("libcuda.so.1"), 0)
            self.assertIn("libcuda.so.1", sans_libcuda.needed_libraries(build / "fautif"))
            self.assertEqual(sans_libcuda.main(["--construction", str(build)]), 1)
            (build / "fautif").unlink()
            self.assertEqual(sans_libcuda.main(["--construction", str(build)]), 0)
