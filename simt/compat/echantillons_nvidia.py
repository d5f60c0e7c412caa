#!/usr/bin/env python3
"""Exécute sur l'émulateur simt, sans les modifier, les échantillons de NVIDIA/cuda-samples
qui n'emploient que l'API runtime, et donne le chiffre de compatibilité.

    simt/compat/echantillons_nvidia.py CHEMIN_DE_CUDA_SAMPLES [--sortie F.json] [NOM...]

CHEMIN_DE_CUDA_SAMPLES est une copie du dépôt de NVIDIA (non fournie : c'est leur code).
Chaque échantillon de la liste (echantillons-nvidia.tsv) est compilé par simt-nvcc avec
toutes les sources de son dossier, puis lancé dans ce dossier (les échantillons y cherchent
leurs données) ; il réussit quand il rend le code 0. Le résultat s'affiche ligne à ligne et,
avec --sortie, s'enregistre en JSON (results/cpu/echantillons-nvidia.json pour la page
« Exécuter sans GPU »).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SIMT_NVCC = ROOT / "simt" / "simt-nvcc"
SAMPLE_LIST = HERE / "echantillons-nvidia.tsv"

PASSED = "réussi"
COMPILE_FAILED = "échec de compilation"
RUN_FAILED = "échec à l'exécution"
TIMED_OUT = "délai dépassé"
MISSING = "absent de la copie"

# Première ligne d'un diagnostic : erreur de g++, de simt ou de l'échantillon lui-même.
DIAGNOSTIC = re.compile(r"error|erreur|simt\b|failed|FAILED|Assertion|abort", re.IGNORECASE)
REASON_LENGTH = 200


class SampleListError(Exception):
    """Liste d'échantillons illisible : ligne, et ce qui ne va pas."""


@dataclass
class Sample:
    name: str
    folder: str
    arguments: list[str]


def read_sample_list(path: Path) -> list[Sample]:
    samples = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or not fields[0] or not fields[1]:
            raise SampleListError(f"{path}:{number} : trois colonnes séparées par des tabulations "
                                  "attendues (nom, dossier, arguments)")
        samples.append(Sample(fields[0], fields[1], fields[2].split()))
    if not samples:
        raise SampleListError(f"{path} : aucun échantillon")
    return samples


def first_diagnostic(text: str, samples_root: Path | None = None) -> str:
    """La ligne qui explique un échec : la première qui ressemble à une erreur, la dernière
    ligne non vide sinon ; les chemins y sont relatifs à la copie des échantillons."""
    if samples_root is not None:
        text = text.replace(f"{samples_root}/", "")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return "aucune sortie"
    chosen = next((line for line in lines if DIAGNOSTIC.search(line)), lines[-1])
    return chosen[:REASON_LENGTH]


def run_sample(samples_root: Path, sample: Sample, timeout: float, work: Path) -> dict:
    folder = samples_root / "Samples" / sample.folder
    result = {"nom": sample.name, "dossier": sample.folder, "arguments": " ".join(sample.arguments)}
    sources = sorted(str(p) for p in folder.iterdir() if p.suffix in (".cu", ".cpp")) \
        if folder.is_dir() else []
    if not sources:
        return result | {"statut": MISSING, "duree_s": 0.0, "motif": f"aucune source dans {folder}"}
    program = work / sample.name
    start = time.monotonic()
    compile_command = [str(SIMT_NVCC), "-I", str(samples_root / "Common"), "-I", str(folder),
                       *sources, "-o", str(program)]
    try:
        built = subprocess.run(compile_command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return result | {"statut": TIMED_OUT, "duree_s": round(time.monotonic() - start, 1),
                         "motif": f"compilation au-delà de {timeout:g} s"}
    if built.returncode != 0:
        return result | {"statut": COMPILE_FAILED, "duree_s": round(time.monotonic() - start, 1),
                         "motif": first_diagnostic(built.stderr + built.stdout, samples_root)}
    start = time.monotonic()
    try:
        ran = subprocess.run([str(program), *sample.arguments], cwd=folder, capture_output=True,
                             text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return result | {"statut": TIMED_OUT, "duree_s": round(time.monotonic() - start, 1),
                         "motif": f"exécution au-delà de {timeout:g} s"}
    seconds = round(time.monotonic() - start, 1)
    if ran.returncode != 0:
        return result | {"statut": RUN_FAILED, "duree_s": seconds, "code": ran.returncode,
                         "motif": first_diagnostic(ran.stderr + "\n" + ran.stdout, samples_root)}
    return result | {"statut": PASSED, "duree_s": seconds}


def samples_revision(samples_root: Path) -> str:
    """Révision de la copie : celle de git, ou le fichier REVISION d'une copie sans .git."""
    try:
        return subprocess.run(["git", "-C", str(samples_root), "rev-parse", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        revision_file = samples_root / "REVISION"
        return revision_file.read_text().strip() if revision_file.is_file() else "inconnue"


def processor_model() -> str:
    """Modèle du processeur selon lscpu (celui que note aussi ci/mesurer-emulation)."""
    try:
        listing = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        listing = ""
    return next((line.split(":", 1)[1].strip() for line in listing.splitlines()
                 if line.startswith("Model name")), platform.machine())


def noyaux_commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "inconnu"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description="Exécute les échantillons runtime de NVIDIA/cuda-samples sur simt.")
    parser.add_argument("echantillons", type=Path, help="copie de NVIDIA/cuda-samples")
    parser.add_argument("noms", nargs="*", help="seulement ces échantillons (défaut : tous)")
    parser.add_argument("--liste", type=Path, default=SAMPLE_LIST, help="liste des échantillons")
    parser.add_argument("--sortie", type=Path, help="fichier JSON où enregistrer le résultat")
    parser.add_argument("--delai", type=float, default=600.0,
                        help="délai de compilation et d'exécution de chaque échantillon (s)")
    options = parser.parse_args(argv)

    if not (options.echantillons / "Samples").is_dir():
        print(f"echantillons_nvidia : {options.echantillons} n'est pas une copie de cuda-samples "
              "(dossier Samples/ absent)", file=sys.stderr)
        return 2
    try:
        samples = read_sample_list(options.liste)
    except (OSError, SampleListError) as error:
        print(f"echantillons_nvidia : {error}", file=sys.stderr)
        return 2
    unknown = sorted(set(options.noms) - {s.name for s in samples})
    if unknown:
        print(f"echantillons_nvidia : inconnus de la liste : {', '.join(unknown)}", file=sys.stderr)
        return 2
    chosen = [s for s in samples if not options.noms or s.name in options.noms]

    results = []
    with tempfile.TemporaryDirectory(prefix="echantillons-") as work:
        for sample in chosen:
            outcome = run_sample(options.echantillons.resolve(), sample, options.delai, Path(work))
            results.append(outcome)
            reason = f" — {outcome['motif']}" if "motif" in outcome else ""
            print(f"{sample.name:<26} {outcome['statut']} ({outcome['duree_s']} s){reason}",
                  flush=True)
    passed = sum(r["statut"] == PASSED for r in results)
    print(f"{passed} sur {len(results)} réussis sans modification")

    if options.sortie:
        record = {
            "date": datetime.date.today().isoformat(),
            "commit_noyaux": noyaux_commit(),
            "revision_echantillons": samples_revision(options.echantillons),
            "processeur": processor_model(),
            "coeurs": os.cpu_count(),
            "delai_s": options.delai,
            "reussis": passed,
            "total": len(results),
            "echantillons": results,
        }
        options.sortie.write_text(json.dumps(record, ensure_ascii=False, indent=2) + "\n",
                                  encoding="utf-8")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
