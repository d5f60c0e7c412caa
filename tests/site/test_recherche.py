"""Tests de la recherche en français (tools/mkdocs/recherche.py et recherche_francaise.js) :
greffe sur le Worker de Material, et racinisation de la requête exécutée par Node quand il est
installé, avec le lunr et le raciniseur français livrés par Material."""
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import material

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "mkdocs"))

import recherche  # noqa: E402

ASSETS = Path(material.__file__).parent / "templates" / "assets" / "javascripts"

# Charge le Worker greffé dans Node, puis lunr.fr (comme le fait l'initialisation de la
# recherche), et passe une requête à notre écouteur, le premier inscrit.
NODE_SCRIPT = """
const [worker, assets, query] = process.argv.slice(1);  // node -e : pas de nom de script
const listeners = [];
globalThis.self = globalThis;
globalThis.addEventListener = (type, fn) => listeners.push(fn);
globalThis.postMessage = () => {};
require(worker);
const first = listeners[0];
first({ data: { type: 0, data: {} } });           // initialisation : lunr est là, pas lunr.fr
require(assets + "/lunr/min/lunr.stemmer.support.min.js")(self.lunr);
require(assets + "/lunr/min/lunr.fr.min.js")(self.lunr);
const message = { type: 2, data: query };
first({ data: message });
const index = self.lunr.fr.stemmer(new self.lunr.Token("registres", {})).toString();
console.log(JSON.stringify({ query: message.data, listeners: listeners.length, index }));
"""


class WorkerTest(unittest.TestCase):
    def test_material_ships_exactly_one_search_worker(self):
        names = [f"assets/javascripts/workers/{p.name}" for p in (ASSETS / "workers").glob("search.*.js")
                 if recherche.WORKER.fullmatch(f"assets/javascripts/workers/{p.name}")]
        self.assertEqual(len(names), 1, names)

    def test_prelude_comes_first(self):
        out = recherche.with_prelude("MATERIAL();", "NOYAUX();\n")
        self.assertLess(out.index("NOYAUX"), out.index("MATERIAL"))


@unittest.skipUnless(shutil.which("node"), "Node absent : la racinisation se vérifie dans le test navigateur")
class StemmingTest(unittest.TestCase):
    def run_query(self, query: str) -> dict:
        source = next((ASSETS / "workers").glob("search.*.min.js")).read_text(encoding="utf-8")
        with tempfile.TemporaryDirectory() as folder:
            worker = Path(folder) / "worker.js"
            worker.write_text(recherche.with_prelude(source, recherche.PRELUDE.read_text(encoding="utf-8")),
                              encoding="utf-8")
            result = subprocess.run(["node", "-e", NODE_SCRIPT, str(worker), str(ASSETS), query],
                                    capture_output=True, text=True, check=True, timeout=60)
        return json.loads(result.stdout.strip().splitlines()[-1])

    def test_query_words_are_stemmed_like_the_index(self):
        out = self.run_query("Registres coalesçaient débordaient")
        self.assertEqual(out["query"], "registr coalesc débord")
        self.assertEqual(out["index"], "registr")
        self.assertEqual(out["listeners"], 2)

    def test_short_words_and_operators_are_left_alone(self):
        out = self.run_query("SMs +registres -warps warp* \"mémoire\"")
        self.assertEqual(out["query"], "sms +registres -warps warp* \"mémoire\"")

    def test_stop_words_are_dropped_unless_nothing_else_is_left(self):
        # « de* » trouverait « dépendance » : la fiche du PDL passait devant celle du SM.
        self.assertEqual(self.run_query("Multiprocesseur de flux")["query"], "multiprocesseur flux")
        self.assertEqual(self.run_query("mémoire   partagée")["query"], "mémoir partag")
        self.assertEqual(self.run_query("de la")["query"], "de la")


if __name__ == "__main__":
    unittest.main()
