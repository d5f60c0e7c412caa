"""Chiffre de compatibilité de simt avec les échantillons de NVIDIA, rendu depuis le résultat
qu'enregistre simt/compat/echantillons_nvidia.py (results/cpu/echantillons-nvidia.json).

    <!-- noyaux:echantillons-nvidia -->

Le commentaire devient une phrase qui donne le chiffre, sa date et ce qui a été exécuté, puis
le tableau échantillon par échantillon ; sans résultat enregistré, un avertissement.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from mesures import french_number

MARKER = re.compile(r"<!--\s*noyaux:echantillons-nvidia\s*-->")
RESULT_FILE = "echantillons-nvidia.json"
NOT_RECORDED = ('!!! warning "Non mesuré"\n    Aucun résultat enregistré : lancez '
                "`simt/compat/echantillons_nvidia.py CHEMIN --sortie "
                f"results/cpu/{RESULT_FILE}` avec une copie de `NVIDIA/cuda-samples`.")
REQUIRED = ("date", "commit_noyaux", "revision_echantillons", "processeur", "delai_s",
            "reussis", "total", "echantillons")


class SamplesResultError(Exception):
    """Résultat enregistré incomplet ou incohérent : le site refuse de le publier."""


def _escape_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(data: dict, source: Path) -> str:
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise SamplesResultError(f"{source} : champs absents : {', '.join(missing)}")
    samples = data["echantillons"]
    passed = sum(s["statut"] == "réussi" for s in samples)
    if passed != data["reussis"] or len(samples) != data["total"]:
        raise SamplesResultError(f"{source} : le compte ({data['reussis']} sur {data['total']}) "
                                 f"ne correspond pas aux lignes ({passed} sur {len(samples)})")
    lines = [f"**{passed} sur {len(samples)}** échantillons réussissent sans modification "
             f"(enregistré le {data['date']} par `simt/compat/echantillons_nvidia.py`, Noyaux "
             f"`{data['commit_noyaux']}`, `NVIDIA/cuda-samples` `{data['revision_echantillons'][:12]}`, "
             f"processeur `{data['processeur']}`, délai de {french_number(data['delai_s'], 0)} s "
             "par étape). Réussir veut dire : compilé par `simt-nvcc` avec toutes les sources de "
             "son dossier, exécuté dans ce dossier, code de sortie 0 — l'échantillon vérifie "
             "lui-même son résultat.", "",
             "| Échantillon | Arguments | Résultat | Durée (s) | Motif |",
             "| --- | --- | --- | ---: | --- |"]
    for sample in samples:
        arguments = f"`{sample['arguments']}`" if sample.get("arguments") else "—"
        # Double accent grave : un motif de g++ peut contenir un accent grave.
        reason = f"`` {_escape_cell(sample['motif'])} ``" if sample.get("motif") else ""
        lines.append(f"| `{sample['nom']}` | {arguments} | {sample['statut']} | "
                     f"{french_number(sample['duree_s'], 1)} | {reason} |")
    return "\n".join(lines)


def render(markdown: str, results_dir: Path) -> str:
    if not MARKER.search(markdown):
        return markdown
    path = results_dir / RESULT_FILE
    if not path.is_file():
        return MARKER.sub(lambda _: NOT_RECORDED, markdown)
    data = json.loads(path.read_text(encoding="utf-8"))
    rendered = table(data, path)
    return MARKER.sub(lambda _: rendered, markdown)
