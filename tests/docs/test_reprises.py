"""Tests de tests/docs/reprises.py : normalisation, prose retenue d'une page Markdown,
détection des reprises, et le programme lui-même (codes de sortie, messages)."""

import contextlib
import io
import pathlib
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import reprises  # noqa: E402

ORIGIN_TEXT = """4.6 Les communautés
Chercher dans les issues d'un projet avant d'utiliser un noyau est une habitude rentable.
Le blog du laboratoire de Christopher Ré publie des billets sur les megakernels.
| Discord GPU MODE | questions techniques précises, très actif |
"""


def words_of(markdown):
    return [word for word, _, _ in reprises.words(reprises.prose(markdown))]


class TemporaryOrigin:
    """Un dossier d'origine jetable contenant ORIGIN_TEXT."""

    def __enter__(self):
        self.directory = tempfile.TemporaryDirectory()
        path = pathlib.Path(self.directory.name)
        (path / "origine.txt").write_text(ORIGIN_TEXT, encoding="utf-8")
        return path

    def __exit__(self, *exc):
        self.directory.cleanup()


class Normalisation(unittest.TestCase):
    def test_folds_case_accents_ligatures_and_apostrophes(self):
        self.assertEqual(reprises.fold("Écrit À Cœur’"), "ecrit a coeur'")
        self.assertEqual([w for w, _, _ in reprises.words("L’issue d'un « noyau » !")],
                         ["l", "issue", "d", "un", "noyau"])


class Prose(unittest.TestCase):
    def test_keeps_plain_sentences_and_bold(self):
        self.assertEqual(words_of("**Ce que c'est.** Un noyau."), ["ce", "que", "c", "est", "un", "noyau"])

    def test_drops_code_links_titles_and_foreign_passages(self):
        page = ("---\nsans_exemple: \"mots d'en-tête\"\n---\n\n# Titre de page\n\n"
                "Avant `code en ligne` [texte de lien](a.md) *Titre d'œuvre* «citation» "
                "<span lang=\"en\">English words</span> *Other*{ lang=en } après.\n\n"
                "```cuda\nint fenced;\n```\n\n--8<-- \"examples/x.cuh:noyau\"\n<!-- commentaire -->\n")
        self.assertEqual(words_of(page), ["avant", "apres"])

    def test_excluded_passage_breaks_the_sequence(self):
        with TemporaryOrigin() as origin:
            loaded = reprises.Origin.load(origin, 6)
            # Le lien coupe la suite : de part et d'autre, moins de six mots repris.
            page = ("Chercher dans les issues [lien](x.md) d'un projet avant `code` d'utiliser un "
                    "noyau.\n")
            self.assertEqual(reprises.find_reproductions(page, loaded, 6), [])

    def test_table_cells_and_list_items_are_separate_passages(self):
        with TemporaryOrigin() as origin:
            loaded = reprises.Origin.load(origin, 5)
            page = ("| questions techniques | précises, très actif |\n\n"
                    "- le blog du laboratoire\n- de Christopher Ré\n")
            self.assertEqual(reprises.find_reproductions(page, loaded, 5), [])
            # Les mêmes mots d'un seul tenant sont bien une reprise.
            joined = "questions techniques précises, très actif ; le blog du laboratoire de Christopher Ré.\n"
            self.assertEqual(len(reprises.find_reproductions(joined, loaded, 5)), 2)


class Detection(unittest.TestCase):
    def test_finds_a_reproduction_despite_case_accents_and_punctuation(self):
        with TemporaryOrigin() as origin:
            loaded = reprises.Origin.load(origin, 6)
            page = ("# Titre\n\nUne phrase neuve. CHERCHER dans les Issues d’un projet, avant "
                    "d’utiliser un noyau, reste prudent.\n")
            found = reprises.find_reproductions(page, loaded, 6, "page.md")
        self.assertEqual(len(found), 1)
        reproduction = found[0]
        self.assertEqual(reproduction.page, "page.md")
        self.assertEqual(reproduction.line, 3)
        self.assertEqual(reproduction.length, 12)
        self.assertTrue(reproduction.sentence.startswith("CHERCHER dans les Issues"))
        self.assertEqual(reproduction.passage,
                         "Chercher dans les issues d'un projet avant d'utiliser un noyau")
        self.assertIn("page.md:3 : 12 mots repris", str(reproduction))

    def test_shorter_common_phrases_pass(self):
        with TemporaryOrigin() as origin:
            loaded = reprises.Origin.load(origin, 6)
            page = "Le blog du laboratoire de Noyaux ; avant d'utiliser un noyau, le lire.\n"
            self.assertEqual(reprises.find_reproductions(page, loaded, 6), [])

    def test_reports_each_reproduced_passage_once(self):
        with TemporaryOrigin() as origin:
            loaded = reprises.Origin.load(origin, 6)
            page = ("Le blog du laboratoire de Christopher Ré publie des billets. Ensuite, "
                    "chercher dans les issues d'un projet avant d'utiliser un noyau.\n")
            found = reprises.find_reproductions(page, loaded, 6)
        self.assertEqual([r.length for r in found], [10, 12])


class Pages(unittest.TestCase):
    def test_default_pages_cover_site_readmes_and_glossary(self):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            for name in ("docs/gemm/01-naif.md", "README.md", "examples/gemm/01-naif/README.md",
                         "glossary/warp.md", "examples/gemm/01-naif/notes.md"):
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_text("Texte.\n", encoding="utf-8")
            found = sorted(p.relative_to(root).as_posix() for p in reprises.default_pages(root))
        self.assertEqual(found, ["README.md", "docs/gemm/01-naif.md",
                                 "examples/gemm/01-naif/README.md", "glossary/warp.md"])


class Program(unittest.TestCase):
    def run_main(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = reprises.main(list(argv))
        return code, out.getvalue(), err.getvalue()

    def test_missing_origin_directory_is_an_error_not_a_pass(self):
        with tempfile.TemporaryDirectory() as empty, tempfile.TemporaryDirectory() as pages:
            page = pathlib.Path(pages) / "page.md"
            page.write_text("Texte.\n", encoding="utf-8")
            code, _, err = self.run_main("--origine", str(pathlib.Path(empty) / "absent"),
                                         "--pages", str(page))
            self.assertEqual(code, 2)
            self.assertIn("dossier du document d'origine introuvable", err)
            code, _, err = self.run_main("--origine", empty, "--pages", str(page))
            self.assertEqual(code, 2)
            self.assertIn("aucun fichier .txt ou .md", err)

    def test_no_page_is_an_error(self):
        with TemporaryOrigin() as origin:
            code, _, err = self.run_main("--origine", str(origin))
        self.assertEqual(code, 2)
        self.assertIn("aucune page à vérifier", err)

    def test_planted_fixture_is_rejected_with_page_sentence_and_passage(self):
        fixture = HERE / "fixtures" / "reprise-plantee" / "page.md"
        with TemporaryOrigin() as origin:
            code, out, err = self.run_main("--origine", str(origin), "--pages", str(fixture))
        self.assertEqual(code, 1)
        self.assertIn("page.md:12 : 12 mots repris", out)
        self.assertIn("phrase de la page : « Cette phrase-ci, en revanche,", out)
        self.assertIn("ponctuation près : CHERCHER dans les Issues d’un projet", out)
        self.assertIn("« Chercher dans les issues d'un projet avant d'utiliser un noyau »", out)
        self.assertIn("1 passage repris du document d'origine dans 1 page", err)

    def test_clean_page_passes(self):
        with TemporaryOrigin() as origin, tempfile.TemporaryDirectory() as folder:
            page = pathlib.Path(folder) / "page.md"
            page.write_text("# Titre\n\nUne page écrite à neuf, sans reprise.\n", encoding="utf-8")
            code, out, _ = self.run_main("--origine", str(origin), "--pages", str(page))
        self.assertEqual(code, 0)
        self.assertIn("aucune suite de 6 mots", out)


if __name__ == "__main__":
    unittest.main()
