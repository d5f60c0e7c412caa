"""Tableaux de mesures rendus depuis les résultats enregistrés par ci/gpu-check.

Une page demande les mesures d'un benchmark par un commentaire HTML :

    <!-- noyaux:mesures ressources-01-boucle-grid-stride reference=BM_DeviceToDeviceCopy -->

Le commentaire est remplacé par le tableau du fichier de résultats le plus récent qui
contient ce benchmark, ou par un avertissement « non mesuré » s'il n'y en a aucun.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

MARKER = re.compile(r"<!--\s*noyaux:mesures\s+(\S+)(?:\s+reference=(\S+))?\s*-->")
NOT_MEASURED = ('!!! warning "Non mesuré"\n    Aucun résultat de `ci/gpu-check` n\'est encore '
                "enregistré pour `{bench}` : cet exemple n'a pas été mesuré sur un GPU par Noyaux.")


def french_number(value: float, decimals: int) -> str:
    """93.7 → « 93,7 » ; séparateur de milliers : espace fine insécable."""
    text = f"{value:,.{decimals}f}"
    return text.replace(",", "\u202f").replace(".", ",")


def latest_results(results_dir: Path, bench: str) -> dict | None:
    candidates = []
    for path in sorted(results_dir.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if bench in data.get("benchmarks", {}):
            candidates.append(data)
    return max(candidates, key=lambda data: data["date"]) if candidates else None


def _split(run_name: str) -> tuple[str, str]:
    """« BM_Saxpy/65536/manual_time » → (« BM_Saxpy », « 65536 »)."""
    parts = run_name.split("/")
    return parts[0], parts[1] if len(parts) > 1 else ""


def table(data: dict, bench: str, reference: str | None) -> str:
    medians = data["benchmarks"][bench]["medianes"]
    reference_rate = {_split(r["run_name"])[1]: r.get("bytes_per_second")
                      for r in medians if _split(r["run_name"])[0] == reference}
    header = "| Benchmark | Éléments | Médiane | Débit (Go/s) |"
    rule = "| --- | ---: | ---: | ---: |"
    if reference:
        header += f" % de {reference} |"
        rule += " ---: |"
    lines = [f"Mesuré par `ci/gpu-check` le {data['date'][:10]} sur {data['gpu']} "
             f"(pilote {data['pilote']}, CUDA {data['cuda']}) ; médiane de 5 répétitions.", "",
             header, rule]
    for run in medians:
        name, size = _split(run["run_name"])
        rate = run.get("bytes_per_second")
        row = (f"| `{name}` | {french_number(float(size), 0) if size else '—'} "
               f"| {french_number(run['real_time'], 1)} {run.get('time_unit', '')} "
               f"| {french_number(rate / 1e9, 1) if rate else '—'} |")
        if reference:
            base = reference_rate.get(size)
            row += f" {french_number(100 * rate / base, 1)} % |" if rate and base else " — |"
        lines.append(row)
    return "\n".join(lines)


def render(markdown: str, results_dir: Path) -> str:
    def replace(match: re.Match) -> str:
        bench, reference = match.group(1), match.group(2)
        data = latest_results(results_dir, bench)
        return table(data, bench, reference) if data else NOT_MEASURED.format(bench=bench)
    return MARKER.sub(replace, markdown)


EMULATION_MARKER = re.compile(r"<!--\s*noyaux:temps-emulation\s*-->")


def emulation_table(results_dir: Path) -> str:
    """Durées des tests cpu enregistrées par ci/mesurer-emulation (temps du processeur)."""
    path = results_dir / "emulation.json"
    if not path.is_file():
        return ('!!! warning "Non mesuré"\n    Aucune durée enregistrée : lancez '
                "`ci/mesurer-emulation` après `./ci/test`.")
    data = json.loads(path.read_text(encoding="utf-8"))
    lines = [f"Durées mesurées par `ci/mesurer-emulation` le {data['date']} sur {data['coeurs']} "
             f"cœurs ({data['processeur']}) : toute l'étiquette `cpu` en "
             f"{french_number(data['duree_totale_s'], 1)} s.", "",
             "Tests exécutés sur l'émulateur :", "",
             "| Test | Durée (s) |", "| --- | ---: |"]
    for name in data["emules"]:
        if name in data["tests"]:
            lines.append(f"| `{name}` | {french_number(data['tests'][name], 2)} |")
    return "\n".join(lines)


def render_emulation(markdown: str, results_dir: Path) -> str:
    return EMULATION_MARKER.sub(lambda _: emulation_table(results_dir), markdown)
