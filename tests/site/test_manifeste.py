"""Lecteur Python du manifeste des exemples (tools/python/noyaux_outils/manifeste.py) et sa
commande « --programmes », dont ci/gpu-check tire la liste des programmes."""
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

PYTHON_ROOT = Path(__file__).resolve().parents[2] / "tools" / "python"
sys.path.insert(0, str(PYTHON_ROOT))

from noyaux_outils.manifeste import ManifestError, read_manifest  # noqa: E402

HEADER = "partie\tslug\tdossier\tnom\tbackends\ttests\tbenchmark\n"
ROW = "gemm\t01-naif\texamples/gemm/01-naif\tnaif\tgpu,cpu\tgemm.01-naif.gpu,gemm.01-naif.cpu\tbench.cu\n"


class Manifest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.build = Path(folder.name)
        self.manifest = self.build / "noyaux-exemples.tsv"

    def programs(self) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "noyaux_outils.manifeste", "--programmes",
                               str(self.manifest)], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(PYTHON_ROOT)}, check=False)

    def test_reads_rows_by_directory(self):
        self.manifest.write_text(HEADER + ROW, encoding="utf-8")
        example = read_manifest(self.manifest)["examples/gemm/01-naif"]
        self.assertEqual((example.name, example.backends, example.tests),
                         ("naif", ("gpu", "cpu"), ("gemm.01-naif.gpu", "gemm.01-naif.cpu")))
        self.assertEqual(example.page, "exemples/gemm/01-naif.md")

    def test_wrong_column_count_gives_the_line(self):
        self.manifest.write_text(HEADER + "gemm\t01-naif\n", encoding="utf-8")
        with self.assertRaisesRegex(ManifestError, ":2 : 2 colonnes au lieu de 7"):
            read_manifest(self.manifest)

    def test_programmes_lists_each_program_next_to_the_manifest(self):
        self.manifest.write_text(HEADER + ROW, encoding="utf-8")
        result = self.programs()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout,
                         f"gemm.01-naif\t{self.build / 'examples/gemm/01-naif/naif'}\n")

    def test_programmes_without_manifest_is_a_french_error(self):
        result = self.programs()
        self.assertEqual(result.returncode, 2)
        self.assertIn("manifeste des exemples introuvable", result.stderr)


if __name__ == "__main__":
    unittest.main()
