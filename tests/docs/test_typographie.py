"""Tests de tools/mkdocs/typographie.py : chaque règle, chaque exclusion, l'idempotence."""

import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools" / "mkdocs"))
from typographie import NARROW_NBSP as FINE, NBSP, apply_french_typography  # noqa: E402


class TypographyTestCase(unittest.TestCase):
    def assertTypography(self, source, expected):
        result = apply_french_typography(source)
        self.assertEqual(result, expected)
        # Toute sortie est un point fixe : la repasser ne change rien.
        self.assertEqual(apply_french_typography(result), result)

    def assertUnchanged(self, source):
        self.assertTypography(source, source)


class HighPunctuation(TypographyTestCase):
    def test_replaces_plain_space_before_semicolon_exclamation_question(self):
        self.assertTypography("<p>Vrai ; faux ! Pourquoi ?</p>",
                              f"<p>Vrai{FINE}; faux{FINE}! Pourquoi{FINE}?</p>")

    def test_inserts_after_letter_digit_closing_guillemet_or_parenthesis(self):
        self.assertTypography("<p>Vrai; 42! (oui)? « non »?</p>",
                              f"<p>Vrai{FINE}; 42{FINE}! (oui){FINE}? «{NBSP}non{NBSP}»{FINE}?</p>")

    def test_inserts_before_closing_punctuation(self):
        self.assertTypography("(vraiment?)", f"(vraiment{FINE}?)")
        self.assertTypography("vraiment?!", f"vraiment{FINE}?!")

    def test_collapses_several_plain_spaces(self):
        self.assertTypography("mot  \n ?", f"mot{FINE}?")

    def test_keeps_existing_non_breaking_spaces(self):
        self.assertUnchanged(f"mot{FINE}? mot{NBSP}! mot\u2009;")

    def test_leaves_identifiers_and_operators(self):
        self.assertUnchanged("a?b x!=y !important a;b")

    def test_leaves_mark_without_word_before(self):
        self.assertUnchanged("<p>? au début</p><p> ! seul</p>")


class Colon(TypographyTestCase):
    def test_replaces_or_inserts_no_break_space(self):
        self.assertTypography("Exemple : un noyau. Note: suite", f"Exemple{NBSP}: un noyau. Note{NBSP}: suite")

    def test_colon_at_end_of_block(self):
        self.assertTypography("<p>Sortie attendue:</p>", f"<p>Sortie attendue{NBSP}:</p>")

    def test_leaves_times_scopes_and_pairs(self):
        self.assertUnchanged("à 10:30, std::vector, a:b, std:: seul, ratio 16:9")


class Percent(TypographyTestCase):
    def test_after_number(self):
        self.assertTypography("93,7 % et 95% du débit", f"93,7{FINE}% et 95{FINE}% du débit")

    def test_not_after_a_word_nor_before_letters(self):
        self.assertUnchanged("le % restant, a%b, %d, 20%2F")


class Guillemets(TypographyTestCase):
    def test_replaces_plain_spaces(self):
        self.assertTypography("« Exemple compilable »", f"«{NBSP}Exemple compilable{NBSP}»")

    def test_inserts_missing_spaces(self):
        self.assertTypography("«Exemple»", f"«{NBSP}Exemple{NBSP}»")

    def test_around_inline_code(self):
        self.assertTypography("«<code>x</code>»", f"«{NBSP}<code>x</code>{NBSP}»")

    def test_combined_with_punctuation(self):
        self.assertTypography("« Vraiment ! »", f"«{NBSP}Vraiment{FINE}!{NBSP}»")
        self.assertTypography("« Exemple :»", f"«{NBSP}Exemple{NBSP}:{NBSP}»")

    def test_empty_guillemets_get_no_double_space(self):
        self.assertUnchanged("«»")


class InlineMarkup(TypographyTestCase):
    def test_space_after_closing_inline_tag(self):
        self.assertTypography("<em>mot</em> : suite", f"<em>mot</em>{NBSP}: suite")

    def test_insertion_after_closing_inline_tag(self):
        self.assertTypography("<strong>mot</strong>: suite", f"<strong>mot</strong>{NBSP}: suite")

    def test_space_inside_inline_tag(self):
        self.assertTypography('<a href="#x">lien </a>?', f'<a href="#x">lien{FINE}</a>?')

    def test_after_inline_code(self):
        self.assertTypography("<code>saxpy</code> : noyau", f"<code>saxpy</code>{NBSP}: noyau")

    def test_block_boundary_is_not_a_word(self):
        self.assertUnchanged("<li>mot</li><li>: suite</li><p>x</p>\n<p>!</p>")


class Exclusions(TypographyTestCase):
    def test_protected_elements(self):
        for name in ("pre", "code", "kbd", "samp", "svg", "math"):
            with self.subTest(name=name):
                self.assertUnchanged(f"<{name}>a : b ; « c » 5 %</{name}>")

    def test_script_and_style_raw_text(self):
        self.assertUnchanged("<script>if (a < b) { f(\"x : y\"); }</script>"
                             "<style>a:hover { color: red; }</style>")

    def test_nested_protected_element(self):
        self.assertTypography("<pre><code>a : <span>b ;</span></code></pre> fin ?",
                              f"<pre><code>a : <span>b ;</span></code></pre> fin{FINE}?")

    def test_foreign_language(self):
        self.assertUnchanged('<span lang="en">Note: <em>really</em>? Yes; 50 %</span>')
        self.assertUnchanged("<blockquote lang='en-US'><p>Why?</p></blockquote>")

    def test_text_after_foreign_language_element(self):
        self.assertTypography('<span lang="en">Why?</span> Pourquoi ?',
                              f'<span lang="en">Why?</span> Pourquoi{FINE}?')

    def test_nested_same_name_inside_foreign_language(self):
        self.assertTypography('<span lang="en">a <span>b</span> c?</span> d ?',
                              f'<span lang="en">a <span>b</span> c?</span> d{FINE}?')

    def test_french_lang_is_processed(self):
        self.assertTypography('<p lang="fr-FR">Oui ?</p>', f'<p lang="fr-FR">Oui{FINE}?</p>')

    def test_attribute_resembling_lang(self):
        self.assertTypography('<a hreflang="en" href="/x">Oui ?</a>',
                              f'<a hreflang="en" href="/x">Oui{FINE}?</a>')

    def test_tags_and_attributes(self):
        self.assertUnchanged('<a title="Voir : « ceci » ?" href="https://a.fr/?q=1;r=2">x</a>')

    def test_entities(self):
        self.assertUnchanged("R&amp;D&#58; x&nbsp;: y &laquo;&nbsp;z&nbsp;&raquo; 5&#8239;%")

    def test_entity_semicolon_is_not_punctuation(self):
        self.assertUnchanged("a&lt;b&gt;c et &eacute;t&eacute;")

    def test_urls_in_text(self):
        self.assertUnchanged("voir https://exemple.fr/page?q=1;r=2 ou www.exemple.fr/a?")
        self.assertUnchanged("mailto:a@b.fr et ftp://hôte/f:")

    def test_comments_and_doctype(self):
        self.assertUnchanged("<!DOCTYPE html><!-- a : b ? -->")

    def test_void_and_self_closing_tags(self):
        self.assertTypography('<img alt="a : b"><br/>mot :', f'<img alt="a : b"><br/>mot{NBSP}:')


class Idempotence(TypographyTestCase):
    def test_realistic_page(self):
        page = ("<h1>Boucle grid-stride</h1>\n<p>Le noyau <code>saxpy</code> : "
                "« un thread, plusieurs éléments » ; atteint 93,7 % du débit !</p>\n"
                "<pre><code>for (i = 0; i &lt; n; i += stride) { y[i] = a * x[i] + y[i]; }</code></pre>\n"
                '<p>Source : <a href="https://developer.nvidia.com/blog/?p=1">billet</a>. Et après?</p>')
        once = apply_french_typography(page)
        self.assertEqual(apply_french_typography(once), once)
        self.assertIn(f"<code>saxpy</code>{NBSP}: «{NBSP}un thread", once)
        self.assertIn(f"éléments{NBSP}»{FINE}; atteint 93,7{FINE}% du débit{FINE}!", once)
        self.assertIn("i &lt; n; i += stride", once)
        self.assertIn(f"Source{NBSP}:", once)
        self.assertIn(f"après{FINE}?", once)

    def test_only_spaces_are_added(self):
        page = "<p>« a » : b ; c ! d ? 5 %</p>"
        result = apply_french_typography(page)
        self.assertEqual(result.replace(NBSP, " ").replace(FINE, " "), page)


if __name__ == "__main__":
    unittest.main()
