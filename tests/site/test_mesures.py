"""Rendu des mesures sur les pages : tableau depuis un résultat enregistré, ou « non mesuré ».

Les valeurs ci-dessous sont des données de test inventées pour vérifier le rendu ; elles ne
sont jamais publiées (elles ne vivent que dans un dossier temporaire)."""
import json
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "mkdocs"))
sys.path.insert(0, str(ROOT / "ci"))

import gpu_results  # noqa: E402
import mesures  # noqa: E402

FAKE_RESULT = {
    "date": "2000-01-02T03:04:05+00:00", "gpu": "GPU de test", "pilote": "0.0", "cuda": "0.0",
    "benchmarks": {"exemple-test": {"contexte": {}, "medianes": [
        {"run_name": "BM_Kernel/1048576/manual_time", "real_time": 12.5, "time_unit": "us",
         "bytes_per_second": 1.5e12},
        {"run_name": "BM_Copy/1048576/manual_time", "real_time": 10.0, "time_unit": "us",
         "bytes_per_second": 2.0e12},
    ]}},
}
PAGE = "Avant\n<!-- noyaux:mesures exemple-test reference=BM_Copy -->\nAprès\n"


class RenderMeasurements(unittest.TestCase):
    def test_without_results_says_not_measured(self):
        with tempfile.TemporaryDirectory() as folder:
            rendered = mesures.render(PAGE, Path(folder))
        self.assertIn('!!! warning "Non mesuré"', rendered)
        self.assertNotIn("noyaux:mesures", rendered)

    def test_renders_latest_result_with_context_and_ratio(self):
        with tempfile.TemporaryDirectory() as folder:
            older = dict(FAKE_RESULT, date="1999-01-01T00:00:00+00:00", gpu="Ancien GPU")
            Path(folder, "a.json").write_text(json.dumps(older), encoding="utf-8")
            Path(folder, "b.json").write_text(json.dumps(FAKE_RESULT), encoding="utf-8")
            rendered = mesures.render(PAGE, Path(folder))
        self.assertIn("le 2000-01-02 sur GPU de test", rendered)
        self.assertNotIn("Ancien GPU", rendered)
        self.assertIn("| `BM_Kernel` | 1\u202f048\u202f576 | 12,5 us | 1\u202f500,0 | 75,0 % |", rendered)
        self.assertIn("| `BM_Copy` | 1\u202f048\u202f576 | 10,0 us | 2\u202f000,0 | 100,0 % |", rendered)

    def test_other_benchmarks_are_ignored(self):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "a.json").write_text(json.dumps(FAKE_RESULT), encoding="utf-8")
            rendered = mesures.render(PAGE.replace("exemple-test", "autre"), Path(folder))
        self.assertIn("Non mesuré", rendered)


class RenderEmulationTimes(unittest.TestCase):
    def test_without_measurements_says_so(self):
        with tempfile.TemporaryDirectory() as folder:
            rendered = mesures.render_emulation("<!-- noyaux:temps-emulation -->", Path(folder))
        self.assertIn("Non mesuré", rendered)

    def test_lists_every_measured_test_with_machine_and_date(self):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "emulation.json").write_text(json.dumps({
                "date": "2000-01-02", "processeur": "Processeur de test", "coeurs": 2,
                "charge_au_depart": 3.5, "etiquette": "simt", "en_parallele": 1,
                "duree_totale_s": 1234.5,
                "tests": {"a.b.cpu": 0.25, "simt.emulateur.cpu": 3.5}}),
                encoding="utf-8")
            rendered = mesures.render_emulation("<!-- noyaux:temps-emulation -->", Path(folder))
        self.assertIn("le 2000-01-02 sur une machine sans GPU de 2 cœurs (Processeur de test), "
                      "un test à la fois : ce sont des durées du processeur", rendered)
        self.assertIn("La charge moyenne du système était de 3,5 au départ", rendered)
        self.assertIn("Les 2 tests de l'étiquette `simt` ont pris 1\u202f234,5 s en tout.", rendered)
        rows = [line for line in rendered.splitlines() if line.startswith("| `")]
        self.assertEqual(rows, ["| `a.b.cpu` | 0,25 |", "| `simt.emulateur.cpu` | 3,50 |"])

    def test_a_measurement_without_tests_is_an_error(self):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "emulation.json").write_text(json.dumps({
                "date": "2000-01-02", "processeur": "Processeur de test", "coeurs": 2,
                "charge_au_depart": 0.5, "etiquette": "simt", "en_parallele": 1,
                "duree_totale_s": 0.0, "tests": {}}),
                encoding="utf-8")
            with self.assertRaisesRegex(ValueError, "aucun test mesuré"):
                mesures.render_emulation("<!-- noyaux:temps-emulation -->", Path(folder))

    def test_the_recorded_measurement_renders_every_test(self):
        """Le fichier que ci/mesurer-emulation a enregistré : chaque test mesuré a sa ligne."""
        results = ROOT / "results" / "cpu"
        data = json.loads((results / "emulation.json").read_text(encoding="utf-8"))
        rendered = mesures.render_emulation("<!-- noyaux:temps-emulation -->", results)
        self.assertIn(f"le {data['date']} ", rendered)
        rows = [line for line in rendered.splitlines() if line.startswith("| `")]
        self.assertEqual(len(rows), len(data["tests"]))
        # La suite de l'émulateur et au moins un exemple : une mesure, pas une liste réduite.
        self.assertIn("simt.emulateur.cpu", data["tests"])
        self.assertTrue(any(name.startswith("gemm.") for name in data["tests"]))

    def test_the_page_without_gpu_shows_the_table(self):
        page = (ROOT / "docs" / "executer-sans-gpu.md").read_text(encoding="utf-8")
        self.assertRegex(page, mesures.EMULATION_MARKER)


# Données de test inventées (aucun GPU ne les a produites) : la forme est celle qu'écrit
# ci/gpu_results.py pour le benchmark commun de l'échelle GEMM.
def _gemm_run(kernel: str, size: int, milliseconds: float, gflops: float) -> dict:
    return {"run_name": f"BM_Gemm/{kernel}/{size}/min_time:0.020/manual_time",
            "real_time": milliseconds, "time_unit": "ms", "iterations": 10, "repetitions": 5,
            "compteurs": {"GFLOP/s": gflops, "taille": size}}


FAKE_GEMM_RESULT = {
    "date": "2000-01-02T03:04:05+00:00", "gpu": "GPU de test", "pilote": "0.0", "cuda": "0.0",
    "benchmarks": {"gemm-echelle": {"contexte": {}, "medianes": [
        _gemm_run("sgemm_naive", 128, 0.01, 400.0),
        _gemm_run("sgemm_coalesced", 128, 0.005, 800.0),
        _gemm_run("cublas", 128, 0.002, 2000.0),
        _gemm_run("sgemm_naive", 4096, 250.0, 550.0),
        _gemm_run("sgemm_coalesced", 4096, 50.0, 2750.0),
        _gemm_run("cublas", 4096, 2.5, 55000.0),
    ], "ignores": [
        {"run_name": "BM_Gemm/sgemm_naive/8192/min_time:0.020/manual_time",
         "message": "mémoire du GPU insuffisante pour 8192×8192×8192"},
        {"run_name": "BM_Gemm/sgemm_tuile/4096/min_time:0.020/manual_time",
         "message": "sgemm_tuile en désaccord avec cuBLAS"},
    ]}},
}
KERNEL_PAGE = "Avant\n<!-- noyaux:mesures-gemm sgemm_naive -->\nAprès\n"
LADDER_PAGE = "Avant\n<!-- noyaux:echelle-gemm -->\nAprès\n"


def _results_folder(folder: str, *results: dict) -> Path:
    for index, result in enumerate(results):
        Path(folder, f"{index}.json").write_text(json.dumps(result), encoding="utf-8")
    return Path(folder)


FAKE_BF16_RESULT = {
    "date": "2000-01-03T03:04:05+00:00", "gpu": "GPU de test", "pilote": "0.0", "cuda": "0.0",
    "benchmarks": {"gemm-echelle-bf16": {"contexte": {}, "medianes": [
        _gemm_run("gemm_wmma_bf16", 4096, 1.0, 200000.0),
        _gemm_run("cublas", 4096, 0.5, 400000.0),
        _gemm_run("cublas", 8192, 2.0, 500000.0),
    ], "ignores": [
        {"run_name": "BM_Gemm/gemm_wmma_bf16/8192/min_time:0.020/manual_time",
         "message": "mémoire du GPU insuffisante"},
    ]}},
}
BF16_LADDER_PAGE = "Avant\n<!-- noyaux:echelle-gemm bf16 -->\nAprès\n"


class RenderBf16Ladder(unittest.TestCase):
    def test_without_results_says_not_measured(self):
        with tempfile.TemporaryDirectory() as folder:
            rendered = mesures.render_gemm(BF16_LADDER_PAGE + LADDER_PAGE, Path(folder))
        self.assertEqual(rendered.count('!!! warning "Non mesuré"'), 2)
        self.assertIn("l'échelle GEMM en bf16", rendered)
        self.assertNotIn("noyaux:", rendered)

    def test_tflops_and_ratio_to_cublas_at_4096_and_8192(self):
        with tempfile.TemporaryDirectory() as folder:
            results = _results_folder(folder, FAKE_GEMM_RESULT, FAKE_BF16_RESULT)
            rendered = mesures.render_gemm(BF16_LADDER_PAGE, results)
            kernel = mesures.render_gemm(KERNEL_PAGE.replace("sgemm_naive", "gemm_wmma_bf16"), results)
        self.assertIn("une GEMM bf16 (C en fp32)", rendered)
        self.assertIn("| `gemm_wmma_bf16` | 200,0 | 50,0 % | non mesuré : `mémoire du GPU insuffisante` | — |",
                      rendered)
        self.assertIn("| cuBLAS (référence) | 400,0 | 100,0 % | 500,0 | 100,0 % |", rendered)
        # Le tableau d'un noyau bf16 vient du benchmark bf16.
        self.assertIn("| 4\u202f096 | 1,00 ms | 200\u202f000,0 | 50,0 % |", kernel)


class RenderGemmMeasurements(unittest.TestCase):
    def test_without_results_says_not_measured(self):
        with tempfile.TemporaryDirectory() as folder:
            rendered = mesures.render_gemm(KERNEL_PAGE + LADDER_PAGE, Path(folder), "x.svg")
        self.assertEqual(rendered.count('!!! warning "Non mesuré"'), 2)
        self.assertNotIn("noyaux:", rendered)
        self.assertNotIn("x.svg", rendered)

    def test_kernel_table_has_context_sizes_and_ratio_to_cublas(self):
        with tempfile.TemporaryDirectory() as folder:
            older = dict(FAKE_GEMM_RESULT, date="1999-01-01T00:00:00+00:00", gpu="Ancien GPU")
            rendered = mesures.render_gemm(KERNEL_PAGE, _results_folder(folder, older, FAKE_GEMM_RESULT))
        self.assertIn("le 2000-01-02 sur GPU de test (pilote 0.0, CUDA 0.0) ; médiane de 5 "
                      "répétitions", rendered)
        self.assertNotIn("Ancien GPU", rendered)
        self.assertIn("| 128 | 10,0 µs | 400,0 | 20,0 % |", rendered)
        self.assertIn("| 4\u202f096 | 250,00 ms | 550,0 | 1,0 % |", rendered)
        self.assertIn("- Non mesuré à 8\u202f192 : `mémoire du GPU insuffisante pour 8192×8192×8192`",
                      rendered)
        self.assertNotIn("sgemm_coalesced", rendered)

    def test_unknown_kernel_says_not_measured(self):
        with tempfile.TemporaryDirectory() as folder:
            rendered = mesures.render_gemm(KERNEL_PAGE.replace("sgemm_naive", "sgemm_absent"),
                                           _results_folder(folder, FAKE_GEMM_RESULT))
        self.assertIn("Non mesuré", rendered)
        self.assertIn("`sgemm_absent`", rendered)

    def test_kernel_skipped_everywhere_lists_reasons_without_table(self):
        with tempfile.TemporaryDirectory() as folder:
            rendered = mesures.render_gemm(KERNEL_PAGE.replace("sgemm_naive", "sgemm_tuile"),
                                           _results_folder(folder, FAKE_GEMM_RESULT))
        self.assertIn("- Non mesuré à 4\u202f096 : `sgemm_tuile en désaccord avec cuBLAS`", rendered)
        self.assertNotIn("| Taille", rendered)

    def test_ladder_table_at_4096_in_benchmark_order_with_plot(self):
        with tempfile.TemporaryDirectory() as folder:
            rendered = mesures.render_gemm(LADDER_PAGE, _results_folder(folder, FAKE_GEMM_RESULT),
                                           "echelle-gemm.svg")
        rows = [line for line in rendered.splitlines()
                if line.startswith("| ") and "GFLOP/s" not in line and "---" not in line]
        self.assertEqual(rows, ["| `sgemm_naive` | 550,0 | 1,0 % |",
                                "| `sgemm_coalesced` | 2\u202f750,0 | 5,0 % |",
                                "| cuBLAS (référence) | 55\u202f000,0 | 100,0 % |",
                                "| `sgemm_tuile` | non mesuré : `sgemm_tuile en désaccord avec cuBLAS` | — |"])
        self.assertIn("![Débit médian en GFLOP/s de chaque noyau", rendered)
        self.assertIn("sur GPU de test le 2000-01-02](echelle-gemm.svg)", rendered)

    def test_ladder_without_plot_has_no_image(self):
        with tempfile.TemporaryDirectory() as folder:
            rendered = mesures.render_gemm(LADDER_PAGE, _results_folder(folder, FAKE_GEMM_RESULT))
        self.assertIn("| cuBLAS (référence) |", rendered)
        self.assertNotIn("![", rendered)

    def test_plot_is_a_reproducible_svg_only_once_measured(self):
        with tempfile.TemporaryDirectory() as folder:
            self.assertIsNone(mesures.ladder_plot_svg(Path(folder)))
            results = _results_folder(folder, FAKE_GEMM_RESULT)
            first, second = mesures.ladder_plot_svg(results), mesures.ladder_plot_svg(results)
        self.assertTrue(first.startswith(b"<?xml"))
        self.assertIn(b"<svg", first)
        self.assertEqual(first, second)


class CollectBenchmarkResults(unittest.TestCase):
    """ci/gpu_results.py garde les compteurs des médianes et les benchmarks ignorés."""

    def test_keeps_counters_of_medians_and_skipped_runs_once(self):
        skipped = {"name": "BM_Gemm/k/8192/manual_time", "run_name": "BM_Gemm/k/8192/manual_time",
                   "run_type": "iteration", "repetitions": 5, "iterations": 0, "real_time": 0,
                   "time_unit": "ms", "error_occurred": True, "error_message": "mémoire insuffisante"}
        report = {"context": {"gpu": "GPU de test"}, "benchmarks": [
            {"name": "BM_Gemm/k/128/manual_time_mean", "run_name": "BM_Gemm/k/128/manual_time",
             "run_type": "aggregate", "aggregate_name": "mean", "real_time": 1.0, "GFLOP/s": 9.0},
            {"name": "BM_Gemm/k/128/manual_time_median", "run_name": "BM_Gemm/k/128/manual_time",
             "run_type": "aggregate", "aggregate_name": "median", "aggregate_unit": "time",
             "repetitions": 5, "threads": 1, "iterations": 10, "real_time": 0.5, "cpu_time": 0.7,
             "time_unit": "ms", "GFLOP/s": 8.0, "taille": 128},
            skipped, skipped]}
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "bench-gemm-echelle.json").write_text(json.dumps(report), encoding="utf-8")
            collected = gpu_results.benchmarks(Path(folder))
        self.assertEqual(collected, {"gemm-echelle": {
            "contexte": {"gpu": "GPU de test"},
            "medianes": [{"run_name": "BM_Gemm/k/128/manual_time", "real_time": 0.5,
                          "time_unit": "ms", "iterations": 10, "repetitions": 5,
                          "compteurs": {"GFLOP/s": 8.0, "taille": 128}}],
            "ignores": [{"run_name": "BM_Gemm/k/8192/manual_time",
                         "message": "mémoire insuffisante"}],
            "lancements": {}}})

    def test_parts_are_merged_and_runs_without_median_are_set_apart(self):
        def median(size, value):
            return {"name": f"BM_Gemm/k/{size}/manual_time_median",
                    "run_name": f"BM_Gemm/k/{size}/manual_time", "run_type": "aggregate",
                    "aggregate_name": "median", "real_time": 1.0, "time_unit": "ms",
                    "GFLOP/s": value}
        with tempfile.TemporaryDirectory() as folder:
            for size, value in ((1024, 5.0), (4096, 9.0)):
                Path(folder, f"bench-gemm-echelle@{size}.json").write_text(
                    json.dumps({"context": {"gpu": "GPU de test"},
                                "benchmarks": [median(size, value)]}), encoding="utf-8")
            Path(folder, "benchmarks.tsv").write_text(
                "gemm-echelle@4096\tcode 0\ngemm-echelle@1024\tcode 0\n"
                "gemm-echelle@8192\tdélai dépassé (100 s)\nglossaire-08-ilp\tnon exécuté\n",
                encoding="utf-8")
            measured, others = gpu_results.split_measured(gpu_results.benchmarks(Path(folder)))
        self.assertEqual(set(measured), {"gemm-echelle"})
        ladder = measured["gemm-echelle"]
        self.assertEqual([row["compteurs"]["GFLOP/s"] for row in ladder["medianes"]], [5.0, 9.0])
        self.assertEqual(ladder["lancements"]["gemm-echelle@8192"], "délai dépassé (100 s)")
        self.assertEqual(others, {"glossaire-08-ilp": {"glossaire-08-ilp": "non exécuté"}})

    def test_sanitizer_rows_tell_timeouts_and_runs_left_out(self):
        with tempfile.TemporaryDirectory() as folder:
            table = Path(folder, "sanitizer.tsv")
            table.write_text("a\tmemcheck\t0\nb\tracecheck\t124\nc\tsynccheck\t99\n"
                             "d\tmemcheck\tnon-execute\n", encoding="utf-8")
            rows = gpu_results.sanitizer_summary(table)
        self.assertEqual([row["statut"] for row in rows],
                         ["réussi", "délai dépassé", "erreur signalée",
                          "non exécuté (budget de temps épuisé)"])


class CollectExtremes(unittest.TestCase):
    """Le minimum et le maximum des répétitions accompagnent la médiane."""

    def test_min_and_max_aggregates_are_kept_with_the_median(self):
        def aggregate(name, time, value):
            return {"name": f"BM_Gemm/k/4000x4000x4000/manual_time_{name}",
                    "run_name": "BM_Gemm/k/4000x4000x4000/manual_time", "run_type": "aggregate",
                    "aggregate_name": name, "repetitions": 5, "real_time": time,
                    "time_unit": "ms", "GFLOP/s": value}
        report = {"context": {"cublas_version": "13.0.0"}, "benchmarks": [
            aggregate("median", 2.0, 64.0), aggregate("min", 1.9, 60.0),
            aggregate("max", 2.1, 67.0), aggregate("stddev", 0.1, 2.0)]}
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "bench-gemm-echelle.json").write_text(json.dumps(report), encoding="utf-8")
            collected = gpu_results.benchmarks(Path(folder))["gemm-echelle"]
        self.assertEqual(collected["contexte"], {"cublas_version": "13.0.0"})
        [row] = collected["medianes"]
        self.assertEqual(row["compteurs"], {"GFLOP/s": 64.0})
        self.assertEqual(row["min"]["compteurs"], {"GFLOP/s": 60.0})
        self.assertEqual(row["max"]["real_time"], 2.1)
        self.assertNotIn("stddev", row)


class RenderSimtSummary(unittest.TestCase):
    """Résumé de l'étape 11 face à cuBLAS, sur des données de test inventées."""

    @staticmethod
    def _run(kernel, shape, value, low=None, high=None):
        run = {"run_name": f"BM_Gemm/{kernel}/{shape}/min_time:0.020/manual_time",
               "real_time": 1.0, "time_unit": "ms", "repetitions": 5,
               "compteurs": {"GFLOP/s": value}}
        if low is not None:
            run["min"] = {"compteurs": {"GFLOP/s": low}}
            run["max"] = {"compteurs": {"GFLOP/s": high}}
        return run

    def _data(self):
        return {"date": "2000-01-02T00:00:00+00:00", "gpu": "GPU de test", "pilote": "0",
                "cuda": "0", "benchmarks": {"gemm-echelle": {
                    "contexte": {"cublas_version": "13.0.0",
                                 "cublas_mode_mathematique": "CUBLAS_DEFAULT_MATH (fp32 strict)"},
                    "medianes": [
                        self._run("sgemm_beyond_boehm", 4096, 900.0, 880.0, 910.0),
                        self._run("cublas", 4096, 1000.0, 990.0, 1010.0),
                        self._run("sgemm_beyond_boehm", 8192, 1.0),
                        self._run("sgemm_beyond_boehm", "1024x8192x1024", 450.0),
                        self._run("cublas", "1024x8192x1024", 500.0)],
                    "ignores": [{"run_name": "BM_Gemm/sgemm_beyond_boehm/4000x4000x4000/manual_time",
                                 "message": "en désaccord"}]}}}

    def test_without_results_says_not_measured(self):
        with tempfile.TemporaryDirectory() as folder:
            rendered = mesures.render_summary("<!-- noyaux:resume-simt-gemm sgemm_beyond_boehm -->",
                                              Path(folder))
        self.assertIn("Non mesuré", rendered)

    def test_shapes_with_spread_ratio_and_cublas_context(self):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "a.json").write_text(json.dumps(self._data()), encoding="utf-8")
            rendered = mesures.render_summary("<!-- noyaux:resume-simt-gemm sgemm_beyond_boehm -->",
                                              Path(folder))
        self.assertIn("cuBLAS 13.0.0, mode `CUBLAS_DEFAULT_MATH`", rendered)
        self.assertIn("| 4\u202f096×4\u202f096×4\u202f096 | 900,0 (880,0 – 910,0) "
                      "| 1\u202f000,0 (990,0 – 1\u202f010,0) | 90,0 % |", rendered)
        self.assertIn("| 1\u202f024×8\u202f192×1\u202f024 | 450,0 | 500,0 | 90,0 % |", rendered)
        self.assertIn("| 4\u202f000×4\u202f000×4\u202f000 | non mesuré : `en désaccord` | — | — |", rendered)
        self.assertNotIn("8\u202f192×8\u202f192", rendered)  # les carrés restent dans la courbe


class RenderSweep(unittest.TestCase):
    """Balayage de l'étape 8, sur des données de test inventées."""

    def test_without_results_says_not_measured(self):
        with tempfile.TemporaryDirectory() as folder:
            rendered = mesures.render_sweep("<!-- noyaux:balayage-gemm -->", Path(folder))
        self.assertIn("Non mesuré", rendered)

    def test_ranks_configurations_at_the_largest_size(self):
        def run(kernel, size, value):
            return {"run_name": f"BM_Gemm/{kernel}/{size}/manual_time", "real_time": 1.0,
                    "time_unit": "ms", "repetitions": 5, "compteurs": {"GFLOP/s": value}}
        data = {"date": "2000-01-02T00:00:00+00:00", "gpu": "GPU de test", "pilote": "0",
                "cuda": "0", "benchmarks": {"gemm-08-recherche-parametres": {"medianes": [
                    run("sgemm_tunable_64x64x16_4x4", 1024, 100.0),
                    run("sgemm_tunable_64x64x16_4x4", 4096, 200.0),
                    run("sgemm_tunable_128x128x16_8x8", 1024, 150.0),
                    run("sgemm_tunable_128x128x16_8x8", 4096, 300.0),
                    run("cublas", 4096, 400.0)]}}}
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "a.json").write_text(json.dumps(data), encoding="utf-8")
            rendered = mesures.render_sweep("<!-- noyaux:balayage-gemm -->", Path(folder))
        first = rendered.index("128x128x16_8x8")
        second = rendered.index("64x64x16_4x4")
        self.assertLess(first, second)
        self.assertIn("| 150,0 | 300,0 | 75,0\u202f% |", rendered.replace(" %", "\u202f%"))

    def test_names_another_sweep(self):
        data = {"date": "2000-01-02T00:00:00+00:00", "gpu": "GPU de test", "pilote": "0",
                "cuda": "0", "benchmarks": {"gemm-11-au-dela-de-boehm": {"medianes": [
                    {"run_name": "BM_Gemm/sgemm_beyond_boehm_64x128x32_s3_b3/4096/manual_time",
                     "real_time": 1.0, "time_unit": "ms", "compteurs": {"GFLOP/s": 9.0}}]}}}
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "a.json").write_text(json.dumps(data), encoding="utf-8")
            rendered = mesures.render_sweep(
                "<!-- noyaux:balayage-gemm gemm-11-au-dela-de-boehm -->", Path(folder))
            missing = mesures.render_sweep("<!-- noyaux:balayage-gemm gemm-absent -->", Path(folder))
        self.assertIn("sgemm_beyond_boehm_64x128x32_s3_b3", rendered)
        self.assertIn("Non mesuré", missing)


if __name__ == "__main__":
    unittest.main()
