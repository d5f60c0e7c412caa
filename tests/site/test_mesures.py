"""Rendu des mesures sur les pages : tableau depuis un résultat enregistré, ou « non mesuré ».

Les valeurs ci-dessous sont des données de test inventées pour vérifier le rendu ; elles ne
sont jamais publiées (elles ne vivent que dans un dossier temporaire)."""
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "mkdocs"))

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

    def test_lists_emulated_tests_with_machine_and_date(self):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "emulation.json").write_text(json.dumps({
                "date": "2000-01-02", "processeur": "Processeur de test", "coeurs": 2,
                "duree_totale_s": 1234.5,
                "tests": {"a.b.cpu": 0.25, "simt.emulateur.cpu": 3.5, "commun.x.cpu": 9.0},
                "emules": ["a.b.cpu", "simt.emulateur.cpu"]}),
                encoding="utf-8")
            rendered = mesures.render_emulation("<!-- noyaux:temps-emulation -->", Path(folder))
        self.assertIn("le 2000-01-02 sur 2 cœurs (Processeur de test)", rendered)
        self.assertIn("en 1\u202f234,5 s", rendered)
        self.assertIn("| `a.b.cpu` | 0,25 |", rendered)
        self.assertIn("| `simt.emulateur.cpu` | 3,50 |", rendered)
        self.assertNotIn("commun.x.cpu", rendered)


if __name__ == "__main__":
    unittest.main()
