"""Tests de simt/compat/echantillons_nvidia.py sur une fausse copie de cuda-samples écrite ici :
un échantillon en deux fichiers qui lit ses données dans son dossier et réussit, un qui
échoue à l'exécution, un qui ne compile pas. Le vrai dépôt de NVIDIA n'est pas nécessaire."""
from __future__ import annotations

import json
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import echantillons_nvidia as compat  # noqa: E402

PASSING_KERNEL = """
    #include <cstdio>
    #include <aide_commune.h>
    int host_expected(int n);
    __global__ void square(int* values, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) values[i] = i * i;
    }
    int main() {
      FILE* data = std::fopen("data/taille.txt", "r");  // relatif au dossier de l'échantillon
      int n = 0;
      if (!data || std::fscanf(data, "%d", &n) != 1) return 3;
      std::fclose(data);
      int* values = nullptr;
      CHECK(cudaMallocManaged(&values, n * sizeof(int)));
      square<<<(n + 63) / 64, 64>>>(values, n);
      CHECK(cudaDeviceSynchronize());
      for (int i = 0; i < n; ++i) if (values[i] != host_expected(i)) return 1;
      CHECK(cudaFree(values));
      return 0;
    }
"""
HOST_HELPER = "int host_expected(int n) { return n * n; }\n"
COMMON_HEADER = """
    #pragma once
    #include <cstdlib>
    #define CHECK(call) do { if ((call) != cudaSuccess) std::exit(2); } while (0)
"""
FAILING_SAMPLE = """
    #include <cstdio>
    int main() { std::printf("Test FAILED: 41 != 42\\n"); return 1; }
"""
BROKEN_SAMPLE = "__global__ void broken( { }\nint main() { return 0; }\n"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


class FakeCheckout(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        root = Path(self.folder.name)
        self.samples = root / "cuda-samples"
        write(self.samples / "Common" / "aide_commune.h", COMMON_HEADER)
        write(self.samples / "Samples/0_Intro/carres/carres.cu", PASSING_KERNEL)
        write(self.samples / "Samples/0_Intro/carres/aide_hote.cpp", HOST_HELPER)
        write(self.samples / "Samples/0_Intro/carres/data/taille.txt", "200\n")
        write(self.samples / "Samples/0_Intro/faux/faux.cu", FAILING_SAMPLE)
        write(self.samples / "Samples/0_Intro/casse/casse.cu", BROKEN_SAMPLE)
        write(self.samples / "REVISION", "0123abcd\n")
        self.sample_list = root / "liste.tsv"
        write(self.sample_list, "# essai\ncarres\t0_Intro/carres\t\nfaux\t0_Intro/faux\t-n=3\n"
                                "casse\t0_Intro/casse\t\nabsent\t0_Intro/absent\t\n")
        self.output = root / "resultat.json"

    def tearDown(self):
        self.folder.cleanup()

    def test_each_outcome_is_recorded_with_its_reason(self):
        status = compat.main([str(self.samples), "--liste", str(self.sample_list),
                              "--sortie", str(self.output), "--delai", "300"])
        self.assertEqual(status, 1)  # tous ne réussissent pas
        record = json.loads(self.output.read_text(encoding="utf-8"))
        outcomes = {r["nom"]: r for r in record["echantillons"]}
        self.assertEqual(outcomes["carres"]["statut"], compat.PASSED)
        self.assertEqual(outcomes["faux"]["statut"], compat.RUN_FAILED)
        self.assertEqual(outcomes["faux"]["code"], 1)
        self.assertIn("FAILED", outcomes["faux"]["motif"])
        self.assertEqual(outcomes["faux"]["arguments"], "-n=3")
        self.assertEqual(outcomes["casse"]["statut"], compat.COMPILE_FAILED)
        self.assertTrue(outcomes["casse"]["motif"].startswith("Samples/0_Intro/casse/casse.cu:1:"),
                        outcomes["casse"]["motif"])
        self.assertEqual(outcomes["absent"]["statut"], compat.MISSING)
        self.assertEqual((record["reussis"], record["total"]), (1, 4))
        self.assertEqual(record["revision_echantillons"], "0123abcd")

    def test_only_named_samples_run_and_all_passing_returns_zero(self):
        status = compat.main([str(self.samples), "carres", "--liste", str(self.sample_list)])
        self.assertEqual(status, 0)

    def test_unknown_name_and_missing_checkout_are_refused(self):
        self.assertEqual(compat.main([str(self.samples), "inconnu", "--liste",
                                      str(self.sample_list)]), 2)
        self.assertEqual(compat.main([str(self.samples / "Common")]), 2)


class SampleList(unittest.TestCase):
    def test_a_line_without_three_columns_is_refused_with_its_number(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder, "liste.tsv")
            path.write_text("# commentaire\nvectorAdd 0_Introduction/vectorAdd\n", encoding="utf-8")
            with self.assertRaisesRegex(compat.SampleListError, r"liste\.tsv:2"):
                compat.read_sample_list(path)

    def test_the_project_list_names_thirty_distinct_samples(self):
        samples = compat.read_sample_list(compat.SAMPLE_LIST)
        self.assertEqual(len({s.name for s in samples}), 30)


class Diagnostic(unittest.TestCase):
    def test_first_error_line_wins_over_the_last_line(self):
        text = "Démarrage\nfoo.cu:3:1: error: expected ')'\n1 error generated\n"
        self.assertEqual(compat.first_diagnostic(text), "foo.cu:3:1: error: expected ')'")

    def test_last_line_when_nothing_looks_like_an_error(self):
        self.assertEqual(compat.first_diagnostic("a\nb\n\n"), "b")
        self.assertEqual(compat.first_diagnostic(""), "aucune sortie")


if __name__ == "__main__":
    unittest.main()
