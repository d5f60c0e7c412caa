#!/usr/bin/env python3
"""Les objectifs de performance des issues, face au dernier résultat de ci/gpu-check.

    objectifs.py [--resultats results/gpu]

Lit, pour chaque benchmark concerné, son résultat le plus récent (results/gpu/*.json, écrit
par ci/gpu_results.py) et dit, pour chaque objectif chiffré des issues ouvertes, ce qui a été mesuré et s'il est
atteint, manqué ou non mesuré. Les rapports de GEMM réutilisent la lecture des pages
(tools/mkdocs/mesures.py) : le chiffre comparé est celui que le site publie. Rien n'est inventé :
un benchmark absent donne « non mesuré ». Code de sortie 0 dans tous les cas : c'est un bilan.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "mkdocs"))

import mesures  # noqa: E402

MEGAKERNEL_BENCH = "megakernels-04-megakernel-interpreteur"


@dataclass
class Verdict:
    """Un objectif, ce qui a été mesuré et le statut : « atteint », « manqué » ou « non mesuré »."""
    issue: int
    objectif: str
    mesure: str
    statut: str


def _percent(value: float) -> str:
    return mesures.french_number(100.0 * value, 1) + " %"


def _gemm_ratio(data: dict, bench: str, kernel: str, size: int) -> float | None:
    """Débit de @p kernel rapporté à celui de cuBLAS, au côté @p size ; None sans les deux."""
    if bench not in data.get("benchmarks", {}):
        return None
    medians, _ = mesures.gemm_runs(data, bench)
    run, reference = medians.get(kernel, {}).get(size), medians.get(mesures.CUBLAS, {}).get(size)
    if not run or not reference:
        return None
    return mesures.gflops(run) / mesures.gflops(reference)


def simt_gemm(data: dict) -> Verdict:
    """Issue 12 : l'étape 11 à au moins 95 % de cuBLAS SGEMM à 4 096³."""
    goal = f"étape 11 (sgemm_beyond_boehm) ≥ 95 % de cuBLAS SGEMM à {mesures.french_number(4096, 0)}³"
    ratio = _gemm_ratio(data, mesures.GEMM_BENCH, "sgemm_beyond_boehm", 4096)
    if ratio is None:
        return Verdict(12, goal, "—", "non mesuré")
    return Verdict(12, goal, _percent(ratio), "atteint" if ratio >= 0.95 else "manqué")


def bf16_gemm(data: dict) -> list[Verdict]:
    """Issue 14 : le meilleur noyau bf16 à au moins 100 % de cuBLAS, à 4 096³ et à 8 192³."""
    verdicts = []
    for size in (4096, 8192):
        goal = f"meilleur noyau bf16 ≥ 100 % de cuBLAS à {mesures.french_number(size, 0)}³"
        best: tuple[float, str] | None = None
        if mesures.BF16_BENCH in data.get("benchmarks", {}):
            medians, _ = mesures.gemm_runs(data, mesures.BF16_BENCH)
            reference = medians.get(mesures.CUBLAS, {}).get(size)
            for kernel, runs in medians.items():
                if kernel == mesures.CUBLAS or size not in runs or reference is None:
                    continue
                ratio = mesures.gflops(runs[size]) / mesures.gflops(reference)
                if best is None or ratio > best[0]:
                    best = (ratio, kernel)
        if best is None:
            verdicts.append(Verdict(14, goal, "—", "non mesuré"))
        else:
            verdicts.append(Verdict(14, goal, f"{best[1]} : {_percent(best[0])}",
                                    "atteint" if best[0] >= 1.0 else "manqué"))
    return verdicts


def _megakernel_times(data: dict) -> dict[str, dict[str, float]]:
    """Temps médian (ms) de chaque façon de lancer l'étape de décodeur, par nombre de couches."""
    times: dict[str, dict[str, float]] = {}
    bench = data.get("benchmarks", {}).get(MEGAKERNEL_BENCH, {})
    for run in bench.get("medianes", []):
        parts = run["run_name"].split("/")
        if len(parts) < 2 or "real_time" not in run:
            continue
        way = parts[0].removeprefix("BM_Interpreter")
        times.setdefault(parts[1], {})[way] = run["real_time"] * mesures.TO_MS[run.get("time_unit", "ns")]
    return times


def megakernel(data: dict) -> list[Verdict]:
    """Issue 11 : le megakernel au moins 2 × plus rapide que les lancements par opération, et
    plus rapide que le graphe CUDA des mêmes opérations, à chaque nombre de couches mesuré."""
    verdicts = []
    for layers, ways in sorted(_megakernel_times(data).items(), key=lambda item: int(item[0])):
        if not {"Megakernel", "Separate", "Graph"} <= ways.keys():
            continue
        goal = f"megakernel ≥ 2 × les noyaux séparés et plus rapide que le graphe ({layers} couche(s))"
        against_stream = ways["Separate"] / ways["Megakernel"]
        against_graph = ways["Graph"] / ways["Megakernel"]
        measured = (f"{mesures.french_number(against_stream, 2)} × les noyaux séparés, "
                    f"{mesures.french_number(against_graph, 2)} × le graphe")
        reached = against_stream >= 2.0 and against_graph > 1.0
        verdicts.append(Verdict(11, goal, measured, "atteint" if reached else "manqué"))
    if not verdicts:
        verdicts.append(Verdict(11, "megakernel ≥ 2 × les noyaux séparés et plus rapide que le graphe",
                                "—", "non mesuré"))
    return verdicts


def verdicts(data: dict) -> list[Verdict]:
    """Tous les objectifs, dans l'ordre des issues."""
    return [*megakernel(data), simt_gemm(data), *bf16_gemm(data)]


BENCHES = (MEGAKERNEL_BENCH, mesures.GEMM_BENCH, mesures.BF16_BENCH)


def latest(results: Path) -> dict | None:
    """Pour chaque benchmark des objectifs, son résultat le plus récent, lu comme les pages le
    lisent (mesures.latest_results) : une exécution coupée avant un benchmark ne masque pas sa
    mesure précédente, que le site publie encore. None si aucun fichier n'en contient."""
    merged: dict = {"benchmarks": {}, "sources": {}}
    for bench in BENCHES:
        data = mesures.latest_results(results, bench)
        if data is not None:
            merged["benchmarks"][bench] = data["benchmarks"][bench]
            merged["sources"][bench] = f"{data['date']} sur {data.get('gpu', 'GPU inconnu')}"
    return merged if merged["sources"] else None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resultats", type=Path, default=ROOT / "results" / "gpu")
    options = parser.parse_args(argv)
    data = latest(options.resultats)
    if data is None:
        print(f"objectifs : aucun résultat dans {options.resultats} ; tout est non mesuré")
        data = {"benchmarks": {}}
    else:
        for bench, source in data["sources"].items():
            print(f"objectifs : {bench}, résultat du {source}")
    for verdict in verdicts(data):
        measured = f" ({verdict.mesure})" if verdict.mesure != "—" else ""
        print(f"  issue {verdict.issue} — {verdict.objectif} : {verdict.statut}{measured}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
