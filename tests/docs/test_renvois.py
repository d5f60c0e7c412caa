"""Tests de tests/docs/renvois.py sur un petit dépôt jetable : renvoi présent, absent, cassé."""

import contextlib
import io
import pathlib
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import renvois  # noqa: E402

PAGE = "---\nexemples:\n  - examples/gemm/01-naif\n---\n\n# Étape 1\n"


class Renvois(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.folder.name)
        (self.root / "docs" / "gemm").mkdir(parents=True)
        (self.root / "docs" / "gemm" / "01-naif.md").write_text(PAGE, encoding="utf-8")
        (self.root / "examples" / "gemm" / "01-naif").mkdir(parents=True)
        self.readme = self.root / "examples" / "gemm" / "01-naif" / "README.md"

    def tearDown(self):
        self.folder.cleanup()

    def test_readme_linking_its_page_passes(self):
        self.readme.write_text("# Naïf\n\nVoir [la page](../../../docs/gemm/01-naif.md#mesures).\n",
                               encoding="utf-8")
        self.assertEqual(renvois.problems(self.root), [])

    def test_missing_link_names_readme_page_and_expected_link(self):
        self.readme.write_text("# Naïf\n\nAucun renvoi.\n", encoding="utf-8")
        found = renvois.problems(self.root)
        self.assertEqual(len(found), 1)
        self.assertIn("examples/gemm/01-naif/README.md : aucun lien vers docs/gemm/01-naif.md", found[0])
        self.assertIn("](../../../docs/gemm/01-naif.md)", found[0])

    def test_link_to_absent_page_is_reported(self):
        self.readme.write_text("[a](../../../docs/gemm/01-naif.md) [b](../../../docs/gemm/absente.md)\n",
                               encoding="utf-8")
        found = renvois.problems(self.root)
        self.assertEqual(found, ["examples/gemm/01-naif/README.md : lien vers docs/gemm/absente.md, "
                                 "page absente"])

    def test_named_example_without_readme_is_reported(self):
        found = renvois.problems(self.root)
        self.assertEqual(len(found), 1)
        self.assertIn("sans README.md", found[0])

    def test_wrong_root_is_an_error(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = renvois.main(["--racine", str(self.root / "ailleurs")])
        self.assertEqual(code, 2)
        self.assertIn("est-ce la racine du dépôt", err.getvalue())


if __name__ == "__main__":
    unittest.main()
