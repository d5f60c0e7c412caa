"""La vérification de couverture échoue bien quand une entrée manque ou qu'une ancre est fausse."""
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "mkdocs"))

import verifier_couverture as couverture  # noqa: E402

MANIFEST = ("partie\tslug\tdossier\tnom\tbackends\ttests\tbenchmark\n"
            "ressources\t01-x\texamples/ressources/01-x\tx\tgpu,cpu\tressources.01-x.cpu\tbench.cu\n")


class Coverage(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        root = Path(self.folder.name)
        self.entries = root / "entrees.txt"
        self.entries.write_text("# test\nA | Première\nA | Seconde\n", encoding="utf-8")
        self.manifest = root / "manifeste.tsv"
        self.manifest.write_text(MANIFEST, encoding="utf-8")
        self.site = root / "site"
        (self.site / "ressources").mkdir(parents=True)
        (self.site / "ressources" / "page.html").write_text('<h2 id="premiere">', encoding="utf-8")
        (self.site / "ressources" / "couverture.html").write_text("", encoding="utf-8")
        self.coverage = root / "couverture.yml"

    def tearDown(self):
        self.folder.cleanup()

    def check(self, yaml_text):
        self.coverage.write_text(yaml_text, encoding="utf-8")
        return couverture.problems(self.entries, self.coverage, self.site, self.manifest)

    def test_complete_coverage_passes(self):
        self.assertEqual(self.check(
            "- nom: Première\n  page: ressources/page.md#premiere\n  exemple: examples/ressources/01-x\n"
            "- nom: Seconde\n  page: ressources/page.md\n  sans_equivalent: Python seulement\n"), [])

    def test_missing_entry_fails(self):
        found = self.check("- nom: Première\n  page: ressources/page.md#premiere\n"
                           "  exemple: examples/ressources/01-x\n")
        self.assertEqual(found, ["entrée non couverte : « Seconde » (ajoutez-la à couverture.yml)"])

    def test_wrong_anchor_and_unknown_example_fail(self):
        found = self.check(
            "- nom: Première\n  page: ressources/page.md#absente\n  exemple: examples/ressources/99-y\n"
            "- nom: Seconde\n  page: ressources/page.md\n")
        self.assertIn("« Première » : ancre « #absente » absente de ressources/page.md", found)
        self.assertIn("« Première » : exemple « examples/ressources/99-y » absent du manifeste", found)
        self.assertIn("« Seconde » : ni exemple ni raison (« sans_equivalent » ou « a_venir »)", found)


if __name__ == "__main__":
    unittest.main()
