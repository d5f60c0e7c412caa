"""Rendu du chiffre de compatibilité avec les échantillons de NVIDIA sur « Exécuter sans GPU ».

Les résultats ci-dessous sont des données de test inventées pour vérifier le rendu ; elles ne
sont jamais publiées (elles ne vivent que dans un dossier temporaire)."""
import json
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "mkdocs"))

import echantillons  # noqa: E402

PAGE = "Avant\n<!-- noyaux:echantillons-nvidia -->\nAprès\n"
RECORD = {
    "date": "2000-01-02", "commit_noyaux": "abc1234", "revision_echantillons": "0123456789abcdef",
    "processeur": "Processeur de test", "coeurs": 2, "delai_s": 600.0, "reussis": 1, "total": 2,
    "echantillons": [
        {"nom": "carres", "dossier": "0_Intro/carres", "arguments": "", "statut": "réussi",
         "duree_s": 1.25},
        {"nom": "faux", "dossier": "0_Intro/faux", "arguments": "-n=3",
         "statut": "échec à l'exécution", "duree_s": 0.5, "code": 1,
         "motif": "a | b `c`"},
    ],
}


def render_with(record):
    with tempfile.TemporaryDirectory() as folder:
        if record is not None:
            Path(folder, echantillons.RESULT_FILE).write_text(json.dumps(record), encoding="utf-8")
        return echantillons.render(PAGE, Path(folder))


class RenderSamples(unittest.TestCase):
    def test_without_result_says_not_measured(self):
        rendered = render_with(None)
        self.assertIn('!!! warning "Non mesuré"', rendered)
        self.assertNotIn("noyaux:echantillons", rendered)

    def test_figure_context_and_one_row_per_sample(self):
        rendered = render_with(RECORD)
        self.assertIn("**1 sur 2**", rendered)
        self.assertIn("`abc1234`", rendered)
        self.assertIn("`0123456789ab`", rendered)
        self.assertIn("| `carres` | — | réussi | 1,2 |", rendered)
        self.assertIn("| `faux` | `-n=3` | échec à l'exécution | 0,5 | `` a \\| b `c` `` |",
                      rendered)
        self.assertTrue(rendered.startswith("Avant\n") and rendered.endswith("\nAprès\n"))

    def test_inconsistent_count_is_refused(self):
        with self.assertRaisesRegex(echantillons.SamplesResultError, "ne correspond pas"):
            render_with(dict(RECORD, reussis=2))

    def test_missing_field_is_refused(self):
        incomplete = {k: v for k, v in RECORD.items() if k != "revision_echantillons"}
        with self.assertRaisesRegex(echantillons.SamplesResultError, "revision_echantillons"):
            render_with(incomplete)

    def test_page_without_marker_is_unchanged(self):
        with tempfile.TemporaryDirectory() as folder:
            self.assertEqual(echantillons.render("rien\n", Path(folder)), "rien\n")


if __name__ == "__main__":
    unittest.main()
