#!/usr/bin/env python3
"""Liste, pour ci/gpu-check, les benchmarks des exemples tels que ctest les déclare.

Chaque test « <partie>.<NN-slug>.bench » nomme le programme et, pour un exemple groupé, le filtre
qui choisit ses benchmarks dans le binaire commun de sa partie. Écrit une ligne par exemple :
« <partie>-<NN-slug><TAB>programme<TAB>filtre (vide si aucun) » ; la clé des résultats est donc
l'identifiant de l'exemple, celui que demandent les pages (<!-- noyaux:mesures <id> -->).
Les benchmarks communs de l'échelle GEMM (tests gemm.echelle.*) sont lancés à part.
"""
from __future__ import annotations

import json
import subprocess
import sys


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage : gpu_benchmarks.py DOSSIER_DE_CONSTRUCTION")
    listing = subprocess.run(["ctest", "--test-dir", sys.argv[1], "-L", "bench",
                              "--show-only=json-v1"], capture_output=True, text=True, check=True)
    for test in json.loads(listing.stdout)["tests"]:
        name, command = test["name"], test.get("command")
        parts = name.split(".")
        if len(parts) != 3 or parts[2] != "bench" or parts[1] == "echelle" or not command:
            continue
        filters = [arg.split("=", 1)[1] for arg in command[1:]
                   if arg.startswith("--benchmark_filter=")]
        print(f"{parts[0]}-{parts[1]}\t{command[0]}\t{filters[0] if filters else ''}")


if __name__ == "__main__":
    main()
