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
    """Durées des tests sur l'émulateur, enregistrées par ci/mesurer-emulation (temps du processeur)."""
    path = results_dir / "emulation.json"
    if not path.is_file():
        return ('!!! warning "Non mesuré"\n    Aucune durée enregistrée : lancez '
                "`ci/mesurer-emulation` après `./ci/test`.")
    data = json.loads(path.read_text(encoding="utf-8"))
    tests = data["tests"]
    if not tests:
        raise ValueError(f"{path} : aucun test mesuré ; relancez ci/mesurer-emulation")
    lines = [f"Durées mesurées par `ci/mesurer-emulation` le {data['date']} sur une machine sans "
             f"GPU de {data['coeurs']} cœurs ({data['processeur']}), un test à la fois : ce sont "
             "des durées du processeur, qui ne disent rien de la vitesse d'un GPU. La charge "
             f"moyenne du système était de {french_number(data['charge_au_depart'], 1)} au départ "
             "(la machine est partagée : une charge au-delà du nombre de cœurs allonge les "
             "durées). Les "
             f"{len(tests)} tests de l'étiquette `{data['etiquette']}` ont pris "
             f"{french_number(data['duree_totale_s'], 1)} s en tout.", "",
             "| Test | Durée (s) |", "| --- | ---: |"]
    for name, seconds in tests.items():
        lines.append(f"| `{name}` | {french_number(seconds, 2)} |")
    return "\n".join(lines)


def render_emulation(markdown: str, results_dir: Path) -> str:
    return EMULATION_MARKER.sub(lambda _: emulation_table(results_dir), markdown)


# --- Échelle GEMM : le benchmark commun examples/gemm/echelle (clé « gemm-echelle ») -------------
#
#     <!-- noyaux:mesures-gemm sgemm_naive -->   tableau d'un noyau, toutes tailles
#     <!-- noyaux:echelle-gemm -->               l'échelle à 4096³ et la courbe de chaque noyau
#     <!-- noyaux:echelle-gemm bf16 -->          l'échelle bf16 (clé « gemm-echelle-bf16 »),
#                                                TFLOP/s et % de cuBLAS à 4096³ et 8192³

GEMM_MARKER = re.compile(r"<!--\s*noyaux:mesures-gemm\s+(\S+)\s*-->")
LADDER_MARKER = re.compile(r"<!--\s*noyaux:echelle-gemm\s*-->")
BF16_LADDER_MARKER = re.compile(r"<!--\s*noyaux:echelle-gemm\s+bf16\s*-->")
GEMM_BENCH = "gemm-echelle"
BF16_BENCH = "gemm-echelle-bf16"
BF16_SIZES = (4096, 8192)
CUBLAS = "cublas"
LADDER_SIZE = 4096
# Courbe générée par le crochet MkDocs dans le site (on_files), à côté de la page de synthèse.
LADDER_PLOT = "gemm/echelle-gemm.svg"
GEMM_NOT_MEASURED = ('!!! warning "Non mesuré"\n    Aucun résultat de `ci/gpu-check` ne contient '
                     "encore {what} : rien n'en a été mesuré sur un GPU par Noyaux.")
TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def _gemm_key(run_name: str) -> tuple[str, int] | None:
    """« BM_Gemm/sgemm_naive/4096/min_time:0.020/manual_time » → (« sgemm_naive », 4096)."""
    parts = run_name.split("/")
    if len(parts) < 3 or parts[0] != "BM_Gemm" or not parts[2].isdigit():
        return None
    return parts[1], int(parts[2])


def gemm_runs(data: dict, bench_id: str = GEMM_BENCH
              ) -> tuple[dict[str, dict[int, dict]], dict[str, dict[int, str]]]:
    """Médianes et exécutions ignorées, par noyau puis par taille, dans l'ordre du benchmark
    (celui de l'échelle, cuBLAS en dernier)."""
    bench = data["benchmarks"][bench_id]
    medians: dict[str, dict[int, dict]] = {}
    for run in bench.get("medianes", []):
        key = _gemm_key(run["run_name"])
        if key and gflops(run) is not None:
            medians.setdefault(key[0], {})[key[1]] = run
    skipped: dict[str, dict[int, str]] = {}
    for run in bench.get("ignores", []):
        key = _gemm_key(run["run_name"])
        if key:
            skipped.setdefault(key[0], {})[key[1]] = run.get("message", "")
    return medians, skipped


def gflops(run: dict) -> float | None:
    value = run.get("compteurs", {}).get("GFLOP/s")
    return float(value) if isinstance(value, (int, float)) else None


def _ratio(value: float, reference: dict | None) -> str:
    base = gflops(reference) if reference else None
    return f"{french_number(100 * value / base, 1)} %" if base else "—"


def _program_output(message: str) -> str:
    """Message du benchmark, cité tel quel : en code, sans rien qui casse un tableau."""
    return "`" + message.replace("`", "'").replace("|", "/") + "`"


def _duration(run: dict) -> str:
    ms = run["real_time"] * TO_MS.get(run.get("time_unit", "ms"), 1.0)
    return f"{french_number(ms * 1e3, 1)} µs" if ms < 1 else f"{french_number(ms, 2)} ms"


def _gemm_context(data: dict, bench_id: str = GEMM_BENCH) -> str:
    precision = "bf16 (C en fp32)" if bench_id == BF16_BENCH else "fp32"
    bench = data["benchmarks"][bench_id]
    medians = bench.get("medianes", [])
    repetitions = next((run["repetitions"] for run in medians if "repetitions" in run), None)
    median = f"médiane de {repetitions} répétitions" if repetitions else "médiane des répétitions"
    context = bench.get("contexte", {})
    cublas = ""
    if "cublas_version" in context:
        cublas = f" ; cuBLAS {context['cublas_version']}"
        if "cublas_mode_mathematique" in context:
            cublas += f", mode `{context['cublas_mode_mathematique'].split()[0]}`"
    return (f"Mesuré par `ci/gpu-check` le {data['date'][:10]} sur {data['gpu']} "
            f"(pilote {data['pilote']}, CUDA {data['cuda']}{cublas}) ; {median}, une GEMM {precision} "
            "chronométrée par itération, C remis à neuf et cache L2 vidé avant chacune.")


def kernel_table(data: dict, kernel: str, bench_id: str = GEMM_BENCH) -> str | None:
    """Tableau d'un noyau : taille, temps et débit médians, % de cuBLAS à la même taille."""
    medians, skipped = gemm_runs(data, bench_id)
    own, own_skipped = medians.get(kernel, {}), skipped.get(kernel, {})
    if not own and not own_skipped:
        return None
    cublas = medians.get(CUBLAS, {})
    lines = [_gemm_context(data, bench_id)]
    if own:
        lines += ["", "| Taille (M = N = K) | Temps médian | GFLOP/s | % de cuBLAS |",
                  "| ---: | ---: | ---: | ---: |"]
    for size in sorted(own):
        run = own[size]
        lines.append(f"| {french_number(size, 0)} | {_duration(run)} "
                     f"| {french_number(gflops(run), 1)} | {_ratio(gflops(run), cublas.get(size))} |")
    if own_skipped:
        lines.append("")
        lines.extend(f"- Non mesuré à {french_number(size, 0)} : {_program_output(message)}"
                     for size, message in sorted(own_skipped.items()))
    return "\n".join(lines)


def ladder_table(data: dict, plot_url: str | None) -> str:
    """L'échelle à LADDER_SIZE : chaque noyau et cuBLAS, puis la courbe si elle existe."""
    medians, skipped = gemm_runs(data)
    cublas = medians.get(CUBLAS, {}).get(LADDER_SIZE)
    lines = [_gemm_context(data), "",
             f"| Noyau | GFLOP/s à {french_number(LADDER_SIZE, 0)}³ | % de cuBLAS |",
             "| --- | ---: | ---: |"]
    for kernel in dict.fromkeys([*medians, *skipped]):
        run = medians.get(kernel, {}).get(LADDER_SIZE)
        name = "cuBLAS (référence)" if kernel == CUBLAS else f"`{kernel}`"
        if run:
            lines.append(f"| {name} | {french_number(gflops(run), 1)} | {_ratio(gflops(run), cublas)} |")
        else:
            reason = skipped.get(kernel, {}).get(LADDER_SIZE)
            reason = _program_output(reason) if reason is not None else "absent des résultats"
            lines.append(f"| {name} | non mesuré : {reason} | — |")
    if plot_url:
        lines += ["", f"![{ladder_plot_alt(data)}]({plot_url})"]
    return "\n".join(lines)


def ladder_plot_alt(data: dict) -> str:
    return ("Débit médian en GFLOP/s de chaque noyau de l'échelle et de cuBLAS selon le côté "
            f"des matrices carrées, mesuré sur {data['gpu']} le {data['date'][:10]}")


def ladder_plot_svg(results_dir: Path) -> bytes | None:
    """Courbe GFLOP/s selon la taille, une par noyau ; None tant que rien n'est mesuré.

    SVG reproductible : identifiants tirés d'un sel fixe, pas de date, texte en tracés (aucune
    police à charger par le navigateur)."""
    data = latest_results(results_dir, GEMM_BENCH)
    medians = gemm_runs(data)[0] if data else {}
    if not medians:
        return None
    import io

    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, NullFormatter

    sizes = sorted({size for by_size in medians.values() for size in by_size})
    with matplotlib.rc_context({"svg.hashsalt": "noyaux", "svg.fonttype": "path"}):
        figure = Figure(figsize=(9, 5), layout="constrained")
        axes = figure.subplots()
        for kernel, by_size in medians.items():
            points = sorted(by_size.items())
            style = ({"color": "black", "linestyle": "--", "label": "cuBLAS (référence)"}
                     if kernel == CUBLAS else {"label": kernel})
            axes.plot([size for size, _ in points], [gflops(run) for _, run in points],
                      marker="o", **style)
        axes.set_xscale("log", base=2)
        axes.set_yscale("log")
        axes.set_xticks(sizes, [french_number(size, 0) for size in sizes])
        axes.xaxis.set_minor_formatter(NullFormatter())
        axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: french_number(value, 0)))
        axes.set_xlabel("Côté des matrices carrées (M = N = K, échelle logarithmique)")
        axes.set_ylabel("Débit médian (GFLOP/s, échelle logarithmique)")
        axes.set_title(f"GEMM fp32 sur {data['gpu']}, {data['date'][:10]}")
        axes.grid(True, which="major", alpha=0.3)
        figure.legend(loc="outside right upper", fontsize="small")
        buffer = io.BytesIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def bf16_ladder_table(data: dict) -> str:
    """L'échelle bf16 : TFLOP/s médians et % de cuBLAS (cublasGemmEx) à chaque taille de BF16_SIZES."""
    medians, skipped = gemm_runs(data, BF16_BENCH)
    cublas = medians.get(CUBLAS, {})
    header = " | ".join(f"TFLOP/s à {french_number(size, 0)}³ | % de cuBLAS" for size in BF16_SIZES)
    lines = [_gemm_context(data, BF16_BENCH), "", f"| Noyau | {header} |",
             "| --- |" + " ---: | ---: |" * len(BF16_SIZES)]
    for kernel in dict.fromkeys([*medians, *skipped]):
        name = "cuBLAS (référence)" if kernel == CUBLAS else f"`{kernel}`"
        cells = []
        for size in BF16_SIZES:
            run = medians.get(kernel, {}).get(size)
            if run:
                cells += [french_number(gflops(run) / 1e3, 1), _ratio(gflops(run), cublas.get(size))]
            else:
                reason = skipped.get(kernel, {}).get(size)
                cells += ["non mesuré : " + (_program_output(reason) if reason is not None else "absent des résultats"),
                          "—"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def render_gemm(markdown: str, results_dir: Path, plot_url: str | None = None) -> str:
    """Remplace les marqueurs GEMM ; @p plot_url : adresse de la courbe relative à la page."""
    data = latest_results(results_dir, GEMM_BENCH)
    bf16_data = latest_results(results_dir, BF16_BENCH)

    def kernel(match: re.Match) -> str:
        name = match.group(1)
        table = kernel_table(data, name) if data else None
        if table is None and bf16_data:
            table = kernel_table(bf16_data, name, BF16_BENCH)
        return table or GEMM_NOT_MEASURED.format(what=f"de mesure du noyau `{name}`")

    def bf16_ladder(_: re.Match) -> str:
        if bf16_data and gemm_runs(bf16_data, BF16_BENCH)[0]:
            return bf16_ladder_table(bf16_data)
        return GEMM_NOT_MEASURED.format(what="de mesure de l'échelle GEMM en bf16")

    def ladder(_: re.Match) -> str:
        if data and gemm_runs(data)[0]:
            return ladder_table(data, plot_url)
        return GEMM_NOT_MEASURED.format(what="de mesure de l'échelle GEMM")

    markdown = BF16_LADDER_MARKER.sub(bf16_ladder, markdown)
    return LADDER_MARKER.sub(ladder, GEMM_MARKER.sub(kernel, markdown))


# --- Recherche de paramètres (étape 8) : benchmark gemm-08-recherche-parametres ------------
#
#     <!-- noyaux:balayage-gemm -->   chaque configuration balayée, à chaque taille

SWEEP_MARKER = re.compile(r"<!--\s*noyaux:balayage-gemm(?:\s+(\S+))?\s*-->")
SWEEP_BENCH = "gemm-08-recherche-parametres"


def sweep_table(data: dict, bench_id: str = SWEEP_BENCH) -> str:
    """Une ligne par configuration : GFLOP/s à chaque taille, % de cuBLAS à la plus grande."""
    medians, skipped = gemm_runs(data, bench_id)
    cublas = medians.pop(CUBLAS, {})
    sizes = sorted({size for runs in medians.values() for size in runs})
    largest = sizes[-1] if sizes else None
    lines = [_gemm_context(data, bench_id), "",
             "| Configuration | " + " | ".join(f"GFLOP/s à {french_number(s, 0)}" for s in sizes)
             + f" | % de cuBLAS à {french_number(largest, 0) if largest else '—'} |",
             "| --- |" + " ---: |" * (len(sizes) + 1)]
    ranked = sorted(medians.items(), key=lambda item: -(gflops(item[1].get(largest, {})) or 0.0))
    for kernel, runs in ranked:
        cells = [french_number(gflops(runs[s]), 1) if s in runs else "—" for s in sizes]
        best = runs.get(largest)
        lines.append(f"| `{kernel}` | " + " | ".join(cells) + " | "
                     + (_ratio(gflops(best), cublas.get(largest)) if best else "—") + " |")
    for kernel, runs in skipped.items():
        for size, message in sorted(runs.items()):
            lines.append(f"\n- `{kernel}` non mesuré à {french_number(size, 0)} : {_program_output(message)}")
    return "\n".join(lines)


def render_sweep(markdown: str, results_dir: Path) -> str:
    """Balayage de l'étape 8 (par défaut) ou du benchmark nommé : balayage-gemm <benchmark>."""
    def replace(match: re.Match) -> str:
        bench_id = match.group(1) or SWEEP_BENCH
        data = latest_results(results_dir, bench_id)
        if data and gemm_runs(data, bench_id)[0]:
            return sweep_table(data, bench_id)
        return GEMM_NOT_MEASURED.format(what=f"de balayage des paramètres (`{bench_id}`)")
    return SWEEP_MARKER.sub(replace, markdown)


# --- Résumé SIMT : un noyau face à cuBLAS, à 4096³ et sur les formes au-delà des carrés ------
#
#     <!-- noyaux:resume-simt-gemm sgemm_beyond_boehm -->

SUMMARY_MARKER = re.compile(r"<!--\s*noyaux:resume-simt-gemm\s+(\S+)\s*-->")


def _shape_key(run_name: str) -> tuple[str, tuple[int, int, int]] | None:
    """« BM_Gemm/k/4096/… » → (k, (4096, 4096, 4096)) ; « BM_Gemm/k/1024x8192x1024/… » → (k, (1024, 8192, 1024))."""
    parts = run_name.split("/")
    if len(parts) < 3 or parts[0] != "BM_Gemm":
        return None
    if parts[2].isdigit():
        side = int(parts[2])
        return parts[1], (side, side, side)
    dims = parts[2].split("x")
    if len(dims) == 3 and all(d.isdigit() for d in dims):
        return parts[1], (int(dims[0]), int(dims[1]), int(dims[2]))
    return None


def _spread(run: dict) -> str:
    """« médiane (min – max) » des GFLOP/s ; la médiane seule si les extrêmes manquent."""
    text = french_number(gflops(run), 1)
    low, high = (gflops(run[key]) if key in run else None for key in ("min", "max"))
    if low is not None and high is not None:
        text += f" ({french_number(low, 1)} – {french_number(high, 1)})"
    return text


def summary_table(data: dict, kernel: str) -> str:
    """Le noyau et cuBLAS à 4096³ puis sur chaque forme non carrée mesurée."""
    bench = data["benchmarks"][GEMM_BENCH]
    runs: dict[str, dict[tuple[int, int, int], dict]] = {}
    for run in bench.get("medianes", []):
        key = _shape_key(run["run_name"])
        if key and gflops(run) is not None:
            runs.setdefault(key[0], {})[key[1]] = run
    skipped = {}
    for run in bench.get("ignores", []):
        key = _shape_key(run["run_name"])
        if key and key[0] == kernel:
            skipped[key[1]] = run.get("message", "")
    measured = {shape for by_shape in runs.values() for shape in by_shape} | set(skipped)
    shapes = [(LADDER_SIZE,) * 3] + sorted(
        shape for shape in measured
        if len(set(shape)) > 1 or shape[0] not in (1 << p for p in range(7, 14)))
    lines = [_gemm_context(data), "",
             f"| Forme (M×N×K) | `{kernel}`, GFLOP/s médian (min – max) "
             "| cuBLAS, GFLOP/s médian (min – max) | % de cuBLAS |",
             "| --- | ---: | ---: | ---: |"]
    for shape in shapes:
        ours, theirs = runs.get(kernel, {}).get(shape), runs.get(CUBLAS, {}).get(shape)
        if ours is None and theirs is None and shape not in skipped:
            continue
        label = "×".join(french_number(d, 0) for d in shape)
        mine = _spread(ours) if ours else (
            f"non mesuré : {_program_output(skipped[shape])}" if shape in skipped else "—")
        reference = _spread(theirs) if theirs else "—"
        ratio = _ratio(gflops(ours), theirs) if ours else "—"
        lines.append(f"| {label} | {mine} | {reference} | {ratio} |")
    return "\n".join(lines)


def render_summary(markdown: str, results_dir: Path) -> str:
    data = latest_results(results_dir, GEMM_BENCH)

    def replace(match: re.Match) -> str:
        kernel = match.group(1)
        if data and any(_shape_key(run["run_name"]) and _shape_key(run["run_name"])[0] == kernel
                        for run in data["benchmarks"][GEMM_BENCH].get("medianes", [])):
            return summary_table(data, kernel)
        return GEMM_NOT_MEASURED.format(what=f"de mesure du noyau `{kernel}` face à cuBLAS")
    return SUMMARY_MARKER.sub(replace, markdown)
