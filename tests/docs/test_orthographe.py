"""Tests de tests/docs/orthographe.py : extraction du texte, découpage en mots, liste du
projet, et le programme lui-même sur les deux pages de fixtures/ (il faut hunspell)."""

import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import orthographe  # noqa: E402

WORDS = HERE / "mots-techniques.txt"
FIXTURES = HERE / "fixtures"


def words_of(page):
    return [word for word, _ in orthographe.tokenize(orthographe.extract_text(page))]


class Extraction(unittest.TestCase):
    def test_reads_only_material_content(self):
        page = ('<html><body><nav>Skip navigation</nav><div class="md-content">'
                '<article class="md-content__inner md-typeset"><p>Bonjour</p></article>'
                '</div><footer>Made with Material</footer></body></html>')
        self.assertEqual(words_of(page), ["Bonjour"])

    def test_falls_back_to_body_then_document(self):
        self.assertEqual(words_of("<head><title>Titre</title></head><body><p>Corps</p></body>"),
                         ["Corps"])
        self.assertEqual(words_of("<p>Fragment</p>"), ["Fragment"])

    def test_skips_code_and_machine_text(self):
        for name in ("pre", "code", "kbd", "samp", "script", "style", "svg", "math"):
            with self.subTest(name=name):
                self.assertEqual(words_of(f"<p>avant <{name}>xyzzy <b>qwrtp</b></{name}> après</p>"),
                                 ["avant", "après"])

    def test_skips_foreign_language_and_marked_elements(self):
        page = ('<p>Lire <span lang="en">the <em>fine</em> manual</span>, '
                '<span lang="fr-CA">ici</span> '
                '<span class="x noyaux-sans-orthographe">xyzzy</span>'
                '<span class="filename">main.cu</span> enfin.</p>')
        self.assertEqual(words_of(page), ["Lire", "ici", "enfin"])

    def test_resumes_after_unclosed_paragraphs_inside_skipped_element(self):
        page = '<div lang="en"><p>one<p>two</div><p>trois</p>'
        self.assertEqual(words_of(page), ["trois"])

    def test_ignores_stray_end_tags(self):
        self.assertEqual(words_of('<div lang="en">one</span> two</div><p>trois</p>'), ["trois"])

    def test_reads_image_alt_text(self):
        self.assertEqual(words_of('<p>Voir <img src="a.svg" alt="Schéma des blocs"></p>'),
                         ["Voir", "Schéma", "des", "blocs"])

    def test_block_tags_separate_words_inline_tags_do_not(self):
        self.assertEqual(words_of("<ul><li>un</li><li>deux</li></ul><p>no<em>yau</em>x</p>"),
                         ["un", "deux", "noyaux"])

    def test_decodes_entities(self):
        self.assertEqual(words_of("<p>l&rsquo;&eacute;t&eacute; &amp; 93,7&nbsp;%</p>"),
                         ["l'été"])


class Tokenization(unittest.TestCase):
    def test_keeps_elisions_whole_with_either_apostrophe(self):
        self.assertEqual(words_of("<p>l'exemple d’un noyau, aujourd’hui qu'il</p>"),
                         ["l'exemple", "d'un", "noyau", "aujourd'hui", "qu'il"])

    def test_keeps_hyphenated_words_and_units(self):
        self.assertEqual(words_of("<p>c'est-à-dire grid-stride, 3,2 To/s et 23 250 GFLOP/s</p>"),
                         ["c'est-à-dire", "grid-stride", "To/s", "et", "GFLOP/s"])

    def test_drops_numbers_urls_and_addresses(self):
        self.assertEqual(
            words_of("<p>Voir https://exemple.fr/l-article?q=1 ou www.exemple.fr, "
                     "écrire à contact@exemple.fr ; 4096 × 4096, sm_90a</p>"),
            ["Voir", "ou", "écrire", "à", "sm_90a"])

    def test_no_quote_at_word_edges(self):
        self.assertEqual(words_of("<p>« mot » 'cité' -tiret-</p>"), ["mot", "cité", "tiret"])


class ProjectWords(unittest.TestCase):
    def setUp(self):
        self.words = orthographe.load_words(WORDS)

    def test_comments_are_not_words(self):
        self.assertFalse(any(word.startswith("#") for word in self.words))
        self.assertIn("GPU", self.words)

    def test_file_is_sorted_without_duplicates(self):
        lines = [line for line in WORDS.read_text(encoding="utf-8").splitlines()
                 if not line.startswith("#")]
        self.assertEqual(lines, sorted(set(lines), key=lambda word: word.encode()))

    def test_capitalised_and_elided_forms(self):
        accepted = lambda word: orthographe.accepted_by_list(word, self.words)  # noqa: E731
        self.assertTrue(accepted("Warps"))  # début de phrase
        self.assertTrue(accepted("d'Ampere"))
        self.assertTrue(accepted("L'H100"))
        self.assertFalse(accepted("cuda"))  # un sigle garde sa casse
        self.assertFalse(accepted("z'warp"))


class Program(unittest.TestCase):
    """Le programme entier ; hunspell est une dépendance déclarée (ci/setup) : son absence
    fait échouer ces tests au lieu de les ignorer."""

    def run_on(self, *arguments):
        return subprocess.run([sys.executable, str(HERE / "orthographe.py"), *arguments],
                              capture_output=True, encoding="utf-8")

    def test_correct_page_passes(self):
        result = self.run_on("--site", str(FIXTURES / "orthographe-correcte"), "--mots", str(WORDS))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertRegex(result.stdout, r"^orthographe : 1 page vérifiée, \d+ mots, aucun mot inconnu\n$")

    def test_misspelt_word_fails_with_its_context(self):
        result = self.run_on("--site", str(FIXTURES / "faute-orthographe"), "--mots", str(WORDS))
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertEqual(result.stdout.splitlines(), [
            "index.html : « paralélisme » (1 occurrence) — contexte : "
            "…plus petite que les données. Le paralélisme de données vient du nombre de…",
            "orthographe : 1 mot inconnu dans 1 page"])

    def test_project_words_are_needed(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as empty:
            result = self.run_on("--site", str(FIXTURES / "orthographe-correcte"), "--mots", empty.name)
        self.assertEqual(result.returncode, 1)
        self.assertIn("« sm_90a »", result.stdout)

    def test_ignored_folder(self):
        result = self.run_on("--site", str(FIXTURES), "--mots", str(WORDS),
                             "--ignorer", "faute-orthographe")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_missing_site_dictionary_or_hunspell(self):
        missing_site = self.run_on("--site", str(FIXTURES / "absent"), "--mots", str(WORDS))
        missing_dictionary = self.run_on("--site", str(FIXTURES), "--mots", str(WORDS),
                                         "--dictionnaire", "xx_XX")
        for result, message in ((missing_site, "dossier du site introuvable"),
                                (missing_dictionary, "dictionnaire hunspell « xx_XX » introuvable")):
            self.assertEqual(result.returncode, 2)
            self.assertIn(message, result.stderr)
        without_hunspell = subprocess.run(
            [sys.executable, str(HERE / "orthographe.py"), "--site", str(FIXTURES), "--mots", str(WORDS)],
            capture_output=True, encoding="utf-8", env={"PATH": "/nonexistent"})
        self.assertEqual(without_hunspell.returncode, 2)
        self.assertIn("hunspell introuvable", without_hunspell.stderr)

    def test_site_without_pages(self):
        with tempfile.TemporaryDirectory() as site:
            result = self.run_on("--site", site, "--mots", str(WORDS))
        self.assertEqual(result.returncode, 2)
        self.assertIn("aucune page HTML", result.stderr)


if __name__ == "__main__":
    unittest.main()
