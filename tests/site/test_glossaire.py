"""Partie générée du glossaire (tools/mkdocs/glossaire.py) : liens et infobulles posés sur
les pages, pages des fiches (exemples construits, à venir ou inconnus), index de A à Z."""
import dataclasses
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "mkdocs"))

import glossaire  # noqa: E402


def term(slug, french, english, abbreviation="", aliases=(), examples=("examples/x/01-y",),
         see_also=(), definition=None):
    return glossaire.Term(slug, french, english, abbreviation, tuple(aliases), "matériel", "toutes",
                          tuple(see_also), tuple(examples), definition or f"Définition de {french}.",
                          (("Source", "https://example.invalid/"),), f"Corps de {french}.\n")


TERMS = {t.slug: t for t in [
    term("multiprocesseur", "Multiprocesseur de flux", "Streaming Multiprocessor", "SM",
         ["multiprocesseurs", "multiprocesseur"], see_also=["warp"]),
    term("warp", "Warp", "Warp", aliases=["warps"], see_also=["multiprocesseur"]),
    term("memoire-partagee", "Mémoire partagée", "Shared Memory", "SMEM", ["__shared__"],
         examples=["examples/glossaire/05-a-venir", "examples/x/01-y"]),
]}


class Linker(unittest.TestCase):
    def setUp(self):
        self.linker = glossaire.Linker(TERMS)

    def link(self, html, uri="gemm/01-naif.md", own=None):
        return self.linker.link(html, uri, own)

    def test_infobulle_en_typographie_francaise(self):
        terms = {"warp": dataclasses.replace(TERMS["warp"], definition="Un warp : 32 threads « liés ».")}
        out = glossaire.Linker(terms).link("<p>Le warp.</p>", "index.md")
        self.assertIn('title="Un warp\u00a0: 32 threads «\u00a0liés\u00a0».">warp</a>', out)

    def test_premiere_mention_seulement_avec_infobulle(self):
        out = self.link("<p>Un warp, puis un autre warp.</p>")
        self.assertEqual(out.count("noyaux-terme"), 1, out)
        self.assertIn('<a class="noyaux-terme" href="../glossaire/warp.html" '
                      'title="Définition de Warp.">warp</a>, puis un autre warp', out)

    def test_ni_titre_ni_code_ni_lien_ni_formule(self):
        html = ('<h2>Le warp</h2><p><code>warp</code> <a href="x.html">warp</a> '
                '<span class="arithmatex">\\(warp\\)</span> et enfin les warps.</p>')
        out = self.link(html)
        self.assertEqual(out.count("noyaux-terme"), 1, out)
        self.assertTrue(out.endswith('enfin les <a class="noyaux-terme" href="../glossaire/warp.html" '
                                     'title="Définition de Warp.">warps</a>.</p>'), out)

    def test_sigle_a_la_casse_pres_et_mot_entier(self):
        out = self.link("<p>sm_90, sm, SMEM puis SM.</p>")
        self.assertNotIn('glossaire/multiprocesseur.html" title="Définition de Multiprocesseur de flux.">sm<', out)
        self.assertIn('>SMEM</a>', out)
        self.assertIn('>SM</a>.', out)
        self.assertIn("sm_90, sm, ", out)

    def test_nom_anglais_et_forme_flechie(self):
        out = self.link("<p>Chaque Streaming Multiprocessor…</p><p>Les multiprocesseurs.</p>")
        self.assertEqual(out.count("glossaire/multiprocesseur.html"), 1, out)
        self.assertIn(">Streaming Multiprocessor</a>", out)

    def test_lien_existant_vers_une_fiche_recoit_l_infobulle_et_compte(self):
        out = self.link('<p><a href="warp.html">warps</a> et warp.</p>', uri="glossaire/multiprocesseur.md",
                        own="multiprocesseur")
        self.assertIn('<a href="warp.html" title="Définition de Warp.">warps</a> et warp.', out)
        self.assertEqual(out.count("noyaux-terme"), 0, out)

    def test_la_fiche_ne_se_relie_pas_a_elle_meme(self):
        out = self.link("<p>Le SM et le warp.</p>", uri="glossaire/multiprocesseur.md", own="multiprocesseur")
        self.assertNotIn("multiprocesseur.html", out)
        self.assertIn('href="warp.html"', out)


class Anglais(unittest.TestCase):
    def test_italiques_et_noms_anglais_marques_hors_code(self):
        body = ("La section [Speed of\nLight](x.md) (*SOL*), `Speed of Light` et **gras**.\n\n"
                "```c\nfloat *p* = 0;\n```\nFin *warp scheduler*.")
        out = glossaire.mark_english(body, ("Speed of Light",))
        self.assertIn('[<span lang="en">Speed of\nLight</span>](x.md) (*SOL*{ lang=en })', out)
        self.assertIn("`Speed of Light` et **gras**", out)
        self.assertIn("float *p* = 0;", out)
        self.assertTrue(out.endswith("Fin *warp scheduler*{ lang=en }."), out)


class Pages(unittest.TestCase):
    def test_exemple_construit_dans_l_encadre_exemple_a_venir_annonce(self):
        page = glossaire.term_page(TERMS["memoire-partagee"], TERMS, {"examples/x/01-y"},
                                   {"examples/glossaire/05-a-venir"})
        header = page.split("---")[1]
        self.assertIn("exemples:\n  - examples/x/01-y", header)
        self.assertNotIn("05-a-venir", header)
        self.assertIn('!!! example "Exemple à venir"', page)
        self.assertIn("`examples/glossaire/05-a-venir` : micro-exemple en cours d'écriture", page)
        self.assertIn('# Mémoire partagée — <span lang="en">Shared Memory</span> (SMEM)', page)
        self.assertIn("`__shared__`", page)

    def test_exemple_inconnu_refuse(self):
        with self.assertRaisesRegex(glossaire.GlossaryError, "exemple inconnu examples/glossaire/05-a-venir"):
            glossaire.term_page(TERMS["memoire-partagee"], TERMS, {"examples/x/01-y"}, set())

    def test_a_z_melange_noms_francais_anglais_et_sigles(self):
        page = glossaire.a_z_page(TERMS)
        order = [page.index(s) for s in ("[Mémoire partagée]", "Shared Memory", "**SM**", "**SMEM**",
                                         "Streaming Multiprocessor", "Warp</span>](warp.md)")]
        self.assertEqual(order, sorted(order), page)
        self.assertEqual(page.count("(warp.md)"), 1, "Warp (anglais) = Warp (français) : une entrée")

    def test_page_imprimable_en_ancres_locales(self):
        terms = dict(TERMS)
        terms["warp"] = dataclasses.replace(TERMS["warp"], body="Voir le [SM](multiprocesseur.md).\n")
        page = glossaire.printable_page(terms)
        self.assertIn("Voir le [SM](#multiprocesseur).", page)
        self.assertIn("{#multiprocesseur}", page)


if __name__ == "__main__":
    unittest.main()
