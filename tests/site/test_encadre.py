"""Encadré « Exemple compilable » (tools/mkdocs/theme/partials/exemple-compilable.html) :
un exemple, un encadré détaillé ; plusieurs, un seul tableau compact. Et les liens des
README vers les pages, récrits pour le catalogue."""
import sys
import tempfile
import unittest
from html.parser import HTMLParser
from pathlib import Path

import jinja2

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path[:0] = [str(TOOLS / "mkdocs"), str(TOOLS / "python")]

import catalogue  # noqa: E402
from noyaux_outils.manifeste import Example  # noqa: E402

TEMPLATE = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TOOLS / "mkdocs" / "theme")).get_template(
        "partials/exemple-compilable.html")


def box(number: int, gpu_only: bool = False) -> dict:
    directory = f"examples/gemm/{number:02d}-etape"
    return {"directory": directory, "backends": "GPU" if gpu_only else "GPU, CPU (émulateur)",
            "gpu_only": gpu_only, "ctest": f"ctest --test-dir build -R '^gemm\\.{number:02d}-etape\\.'",
            "tests": ["a", "b"], "readme": f"../exemples/gemm/{number:02d}-etape.html",
            "sources": f"../exemples/gemm/{number:02d}-etape.html#fichiers",
            "api": f"../api/etape{number}.html"}


class Structure(HTMLParser):
    """Compte les encadrés, les lignes du corps de tableau et les liens."""
    def __init__(self):
        super().__init__()
        self.asides, self.rows, self.links, self.in_body = 0, 0, [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "aside" and "noyaux-exemple" in attrs.get("class", ""):
            self.asides += 1
        self.in_body |= tag == "tbody"
        if tag == "tr" and self.in_body:
            self.rows += 1
        if tag == "a":
            self.links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.in_body = False


def render(boxes: list[dict]) -> tuple[str, Structure]:
    html = TEMPLATE.render(boxes=boxes)
    structure = Structure()
    structure.feed(html)
    return html, structure


class Box(unittest.TestCase):
    def test_one_example_is_a_detailed_box(self):
        html, structure = render([box(1)])
        self.assertEqual(structure.asides, 1)
        self.assertEqual(structure.rows, 0)
        self.assertIn("<dt>Dossier</dt>", html)
        self.assertIn("(2 tests)", html)
        self.assertEqual(len(structure.links), 3)

    def test_several_examples_are_one_compact_table(self):
        boxes = [box(n, gpu_only=(n == 7)) for n in range(1, 12)]
        html, structure = render(boxes)
        self.assertEqual(structure.asides, 1)
        self.assertEqual(structure.rows, 11)
        self.assertNotIn("<dl>", html)
        self.assertIn("Exemples compilables (11)", html)
        for b in boxes:
            self.assertIn(b["ctest"], html)
            for key in ("sources", "readme", "api"):
                self.assertIn(b[key], structure.links)
        self.assertEqual(html.count("GPU seulement"), 1)

    def test_table_without_gpu_only_example_has_no_note(self):
        html, _ = render([box(1), box(2)])
        self.assertNotIn("GPU seulement", html)

    def test_no_example_renders_nothing(self):
        self.assertEqual(TEMPLATE.render(boxes=[]).strip(), "")


class CataloguePage(unittest.TestCase):
    EXAMPLE = Example("gemm", "01-naif", "examples/gemm/01-naif", "naif", ("gpu",), ("t",), "bench.cu")

    def page(self, readme: str, files: list[str]) -> str:
        with tempfile.TemporaryDirectory() as root:
            folder = Path(root) / self.EXAMPLE.directory
            folder.mkdir(parents=True)
            (folder / "README.md").write_text(readme, encoding="utf-8")
            return catalogue.example_page(self.EXAMPLE, Path(root), files)

    def test_files_follow_the_given_reading_order_after_the_readme(self):
        text = self.page("# Naïf\n", ["README.md", "test.cu", "naif.cuh", "main.cu"])
        included = [line for line in text.splitlines() if line.startswith("--8<--")]
        self.assertEqual(included, [f'--8<-- "examples/gemm/01-naif/{name}"'
                                    for name in ("test.cu", "naif.cuh", "main.cu")])

    def test_links_to_pages_are_rewritten_for_the_catalogue_page(self):
        text = self.page("Page du site : [Le noyau naïf](../../../docs/gemm/01-naif.md#mesures) · "
                         "[dépôt](https://x.org/docs/a.md) · [source](main.cu)\n", [])
        self.assertIn("Page du site : [Le noyau naïf](../../gemm/01-naif.md#mesures) · "
                      "[dépôt](https://x.org/docs/a.md) · [source](main.cu)", text)


if __name__ == "__main__":
    unittest.main()
