#!/usr/bin/env python3
"""Rassemble les résultats de ci/gpu-check en un fichier JSON daté, que les pages affichent.

Contenu : GPU, pilote, version de CUDA, date ; bilan des tests gpu ; codes de
compute-sanitizer par programme et par outil ; médianes des benchmarks, avec leurs compteurs
(GFLOP/s…) et, quand le benchmark les calcule, le minimum et le maximum des répétitions ;
contexte de chaque benchmark (dont la version de cuBLAS et son mode mathématique pour la
GEMM), et benchmarks ignorés avec leur raison.
"""
from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path


def query_gpu() -> dict:
    fields = "name,driver_version,memory.total,compute_cap"
    line = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                          capture_output=True, text=True, check=True).stdout.splitlines()[0]
    name, driver, memory, capability = (value.strip() for value in line.split(","))
    nvcc = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout
    release = re.search(r"release ([\d.]+)", nvcc)
    return {"gpu": name, "pilote": driver, "memoire": memory, "capacite": capability,
            "cuda": release.group(1) if release else "inconnue"}


def ctest_summary(junit: Path) -> dict:
    if not junit.is_file():
        return {"erreur": "rapport JUnit absent"}
    suite = ElementTree.parse(junit).getroot()
    cases = [{"nom": case.get("name"),
              "statut": ("echec" if case.find("failure") is not None
                         else "ignore" if case.find("skipped") is not None else "reussi"),
              "duree_s": float(case.get("time", 0))} for case in suite.iter("testcase")]
    return {"tests": cases,
            "reussis": sum(c["statut"] == "reussi" for c in cases),
            "echecs": sum(c["statut"] == "echec" for c in cases),
            "ignores": sum(c["statut"] == "ignore" for c in cases)}


def sanitizer_summary(table: Path) -> list[dict]:
    """Une ligne par programme et par outil : code de sortie, ou « non exécuté » quand le budget
    de temps était épuisé ; 124 est le code de timeout (programme coupé, rien de conclu)."""
    rows = []
    for line in table.read_text(encoding="utf-8").splitlines() if table.is_file() else []:
        example, tool, code = line.split("\t")
        row = {"exemple": example, "outil": tool}
        if code == "non-execute":
            row["statut"] = "non exécuté (budget de temps épuisé)"
        else:
            row["code"] = int(code)
            row["statut"] = {0: "réussi", 124: "délai dépassé"}.get(int(code), "erreur signalée")
        rows.append(row)
    return rows


def benchmark_runs(table: Path) -> dict[str, str]:
    """Issue de chaque lancement de benchmark (benchmarks.tsv : code, délai, non exécuté)."""
    runs = {}
    for line in table.read_text(encoding="utf-8").splitlines() if table.is_file() else []:
        name, outcome = line.split("\t")
        runs[name] = outcome
    return runs


# Clés que Google Benchmark écrit pour chaque exécution ; toute autre valeur numérique est un
# compteur de l'utilisateur (GFLOP/s, taille, blocs…).
STANDARD_KEYS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                 "repetitions", "repetition_index", "threads", "aggregate_name", "aggregate_unit",
                 "iterations", "real_time", "cpu_time", "time_unit", "error_occurred",
                 "error_message", "label", "big_o", "rms", "cpu_coefficient", "real_coefficient",
                 "allocs_per_iter", "max_bytes_used"}
# Débits que Google Benchmark calcule lui-même : gardés à part, sous leur nom.
RATE_KEYS = ("bytes_per_second", "items_per_second")


def _row(run: dict) -> dict:
    """Temps, débits et compteurs d'une exécution (ou d'un agrégat) de Google Benchmark."""
    row = {key: run[key] for key in
           ("run_name", "real_time", "time_unit", *RATE_KEYS, "iterations", "repetitions")
           if key in run}
    counters = {key: value for key, value in run.items()
                if key not in STANDARD_KEYS and key not in RATE_KEYS
                and isinstance(value, (int, float)) and not isinstance(value, bool)}
    if counters:
        row["compteurs"] = counters
    return row


# Agrégats gardés à côté de la médiane, quand le benchmark les calcule (ComputeStatistics).
EXTREMES = ("min", "max")


def benchmarks(journal: Path) -> dict:
    """Par benchmark : le contexte, les médianes (avec tous les compteurs, et le minimum et
    le maximum des répétitions quand le benchmark les calcule) et les exécutions ignorées
    (SkipWithError : forme refusée, mémoire insuffisante, résultat faux…), une fois chacune
    avec leur message. Les parties d'un même benchmark (bench-<id>@<partie>.json, lancées à part
    pour tenir dans le budget) sont réunies sous <id>, avec l'issue de chaque lancement."""
    results = {}
    runs = benchmark_runs(journal / "benchmarks.tsv")
    for name, outcome in runs.items():
        key = name.split("@")[0]
        entry = results.setdefault(key, {"contexte": {}, "medianes": [], "ignores": [],
                                         "lancements": {}})
        entry["lancements"][name] = outcome
    for path in sorted(journal.glob("bench-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        rows, skipped, extremes = [], {}, {}
        for run in data.get("benchmarks", []):
            if run.get("error_occurred"):
                skipped.setdefault(run["run_name"], run.get("error_message", ""))
                continue
            aggregate = run.get("aggregate_name")
            if aggregate in EXTREMES:
                extreme = _row(run)
                extreme.pop("run_name", None)
                extremes.setdefault(run["run_name"], {})[aggregate] = extreme
            elif aggregate == "median":
                rows.append(_row(run))
        for row in rows:
            row.update(extremes.get(row["run_name"], {}))
        key = path.stem.removeprefix("bench-").split("@")[0]
        entry = results.setdefault(key, {"contexte": {}, "medianes": [], "ignores": [],
                                         "lancements": {}})
        entry["contexte"] = entry["contexte"] or data.get("context", {})
        entry["medianes"] += rows
        entry["ignores"] += [{"run_name": n, "message": m} for n, m in skipped.items()]
    return results


def split_measured(results: dict) -> tuple[dict, dict]:
    """Les benchmarks qui ont au moins une médiane, et l'issue des lancements des autres."""
    measured = {key: entry for key, entry in results.items() if entry["medianes"]}
    others = {key: entry["lancements"] for key, entry in results.items() if not entry["medianes"]}
    return measured, others


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--sortie", type=Path, required=True)
    parser.add_argument("--ctest-status", type=int, required=True)
    parser.add_argument("--sanitizer-status", type=int, required=True)
    parser.add_argument("--architecture", default="native")
    parser.add_argument("--budget", type=int, help="budget de temps de ci/gpu-check, en secondes")
    args = parser.parse_args()

    now = datetime.datetime.now(datetime.timezone.utc)
    machine = query_gpu()
    measured, not_measured = split_measured(benchmarks(args.journal))
    report = {"date": now.isoformat(timespec="seconds"), **machine,
              "tests_gpu": ctest_summary(args.journal / "ctest-gpu.xml"),
              "compute_sanitizer": sanitizer_summary(args.journal / "sanitizer.tsv"),
              "benchmarks": measured, "benchmarks_non_mesures": not_measured,
              "architecture_compilee": args.architecture, "budget_s": args.budget,
              # -1 : phase non atteinte (construction en échec ou budget épuisé).
              "statut": {"ctest": args.ctest_status, "sanitizer": args.sanitizer_status}}
    args.sortie.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^a-z0-9]+", "-", machine["gpu"].lower()).strip("-")
    destination = args.sortie / f"{now:%Y-%m-%d}-{slug}.json"
    destination.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"résultats écrits dans {destination}")


if __name__ == "__main__":
    main()
