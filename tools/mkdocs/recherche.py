"""Recherche en français : le script de recherche de Material (un Worker) reçoit en tête
recherche_francaise.js, qui racinise la requête comme l'index (voir ce fichier)."""
from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File, Files

PRELUDE = Path(__file__).with_name("recherche_francaise.js")
# Le Worker de recherche de Material, nommé d'après son contenu (search.<empreinte>.min.js).
WORKER = re.compile(r"assets/javascripts/workers/search\.[0-9a-f]+\.min\.js")


class SearchError(Exception):
    pass


def worker_file(files: Files) -> File:
    """Le script du Worker de recherche, parmi les fichiers du thème."""
    found = [f for f in files if WORKER.fullmatch(f.src_uri)]
    if len(found) != 1:
        raise SearchError(f"script de recherche de Material introuvable ({WORKER.pattern} : "
                          f"{len(found)} fichier(s)) ; la recherche en français ne peut pas s'y greffer")
    return found[0]


def with_prelude(worker_source: str, prelude: str) -> str:
    """Le script du Worker précédé du nôtre : notre écouteur de messages passe le premier."""
    return prelude.rstrip() + "\n;\n" + worker_source


def install(files: Files, config) -> None:
    """Remplace, dans le site, le Worker de Material par le même précédé de PRELUDE."""
    original = worker_file(files)
    source = Path(original.abs_src_path).read_text(encoding="utf-8")
    files.remove(original)
    files.append(File.generated(config, original.src_uri,
                                content=with_prelude(source, PRELUDE.read_text(encoding="utf-8"))))
