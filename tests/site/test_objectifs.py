"""Bilan des objectifs des issues (ci/objectifs.py) face à un résultat de ci/gpu-check.

Les valeurs ci-dessous sont des données de test inventées pour vérifier le bilan ; elles ne
sont jamais publiées (elles ne vivent que dans ce fichier et un dossier temporaire)."""
import io
import json
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

import objectifs  # noqa: E402


def gemm(kernel: str, size: int, gflops: float) -> dict:
    return {"run_name": f"BM_Gemm/{kernel}/{size}/manual_time", "real_time": 1.0, "time_unit": "ms",
            "compteurs": {"GFLOP/s": gflops}}


def interpreter(way: str, layers: int, microseconds: float) -> dict:
    return {"run_name": f"BM_Interpreter{way}/{layers}/manual_time", "real_time": microseconds, "time_unit": "us"}


FAKE = {
    "date": "2000-01-02T03:04:05+00:00", "gpu": "GPU de test",
    "benchmarks": {
        "gemm-echelle": {"medianes": [gemm("sgemm_beyond_boehm", 4096, 47.0), gemm("cublas", 4096, 50.0)]},
        "gemm-echelle-bf16": {"medianes": [
            gemm("gemm_two_consumers_bf16", 4096, 600e3), gemm("gemm_cluster_multicast_bf16", 4096, 720e3),
            gemm("cublas", 4096, 700e3),
            gemm("gemm_cluster_multicast_bf16", 8192, 760e3), gemm("cublas", 8192, 800e3)]},
        "megakernels-04-megakernel-interpreteur": {"medianes": [
            interpreter("Megakernel", 1, 10.0), interpreter("Separate", 1, 25.0), interpreter("Graph", 1, 12.0),
            interpreter("Megakernel", 4, 30.0), interpreter("Separate", 4, 50.0), interpreter("Graph", 4, 40.0)]},
    },
}


class Objectives(unittest.TestCase):
    def by_goal(self, data: dict) -> dict[str, objectifs.Verdict]:
        return {verdict.objectif: verdict for verdict in objectifs.verdicts(data)}

    def test_each_goal_is_judged_against_its_threshold(self):
        verdicts = self.by_goal(FAKE)
        simt = verdicts["étape 11 (sgemm_beyond_boehm) ≥ 95 % de cuBLAS SGEMM à 4\u202f096³"]
        self.assertEqual((simt.mesure, simt.statut), ("94,0 %", "manqué"))
        at_4096 = verdicts["meilleur noyau bf16 ≥ 100 % de cuBLAS à 4\u202f096³"]
        self.assertEqual((at_4096.mesure, at_4096.statut), ("gemm_cluster_multicast_bf16 : 102,9 %", "atteint"))
        at_8192 = verdicts["meilleur noyau bf16 ≥ 100 % de cuBLAS à 8\u202f192³"]
        self.assertEqual(at_8192.statut, "manqué")
        one_layer = verdicts["megakernel ≥ 2 × les noyaux séparés et plus rapide que le graphe (1 couche(s))"]
        self.assertEqual((one_layer.mesure, one_layer.statut), ("2,50 × les noyaux séparés, 1,20 × le graphe", "atteint"))
        four_layers = verdicts["megakernel ≥ 2 × les noyaux séparés et plus rapide que le graphe (4 couche(s))"]
        self.assertEqual(four_layers.statut, "manqué")  # 1,67 × seulement

    def test_missing_benchmarks_are_not_measured(self):
        statuses = {verdict.statut for verdict in objectifs.verdicts({"benchmarks": {}})}
        self.assertEqual(statuses, {"non mesuré"})
        # cuBLAS absent à une taille : aucune part ne peut être calculée.
        data = {"benchmarks": {"gemm-echelle-bf16": {"medianes": [gemm("gemm_cluster_multicast_bf16", 4096, 1.0)]}}}
        self.assertTrue(all(v.statut == "non mesuré" for v in objectifs.bf16_gemm(data)))

    def test_latest_result_file_is_read(self):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "a.json").write_text(json.dumps(dict(FAKE, date="1999-01-01T00:00:00+00:00",
                                                              gpu="Ancien GPU")), encoding="utf-8")
            Path(folder, "b.json").write_text(json.dumps(FAKE), encoding="utf-8")
            output = io.StringIO()
            with redirect_stdout(output):
                self.assertEqual(objectifs.main(["--resultats", folder]), 0)
        self.assertIn("GPU de test", output.getvalue())
        self.assertIn("issue 14 — meilleur noyau bf16 ≥ 100 % de cuBLAS à 4\u202f096³ : atteint "
                      "(gemm_cluster_multicast_bf16 : 102,9 %)", output.getvalue())
        with tempfile.TemporaryDirectory() as folder:
            # Le plus récent n'a que le megakernel (coupé avant GEMM) : GEMM vient de l'ancien.
            Path(folder, "a.json").write_text(json.dumps(dict(FAKE, gpu="Ancien GPU")), encoding="utf-8")
            cut = {name: FAKE["benchmarks"][name] for name in [objectifs.MEGAKERNEL_BENCH]}
            Path(folder, "b.json").write_text(json.dumps(dict(FAKE, date="2001-01-01T00:00:00+00:00",
                                                              benchmarks=cut)), encoding="utf-8")
            output = io.StringIO()
            with redirect_stdout(output):
                objectifs.main(["--resultats", folder])
        self.assertIn("gemm-echelle-bf16, résultat du 2000-01-02T03:04:05+00:00 sur Ancien GPU", output.getvalue())
        self.assertIn("à 4\u202f096³ : atteint (gemm_cluster_multicast_bf16 : 102,9 %)", output.getvalue())
        with tempfile.TemporaryDirectory() as empty:
            output = io.StringIO()
            with redirect_stdout(output):
                objectifs.main(["--resultats", empty])
        self.assertIn("tout est non mesuré", output.getvalue())


if __name__ == "__main__":
    unittest.main()
