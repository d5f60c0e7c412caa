"""Page « Couverture de la liste de lecture », générée : chaque entrée du document d'origine,
sa page, son exemple et l'état de cet exemple, lu dans le manifeste construit par CMake (il
ne peut donc pas prendre de retard sur les exemples)."""
from __future__ import annotations

from pathlib import Path

import yaml

from noyaux_outils.manifeste import Example

STATUS = {
    ("cpu", "gpu"): "s'exécute sur GPU et sur l'émulateur (CPU)",
    ("gpu",): "GPU seulement",
}


def read_entries(path: Path) -> list[tuple[str, str]]:
    """(groupe, nom) de chaque entrée du document d'origine, dans son ordre."""
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            group, _, name = line.partition(" | ")
            entries.append((group.strip(), name.strip()))
    return entries


def read_coverage(path: Path) -> dict[str, dict]:
    """Entrées de couverture indexées par nom."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    return {item["nom"]: item for item in data}


def status(item: dict, examples: dict[str, Example]) -> str:
    if item.get("sans_equivalent"):
        return "pas d'équivalent CUDA C++ ici : " + item["sans_equivalent"]
    if item.get("a_venir"):
        return "pas encore d'exemple : " + item["a_venir"]
    example = examples.get(item.get("exemple", ""))
    if example is None:
        return "exemple absent du manifeste"
    key = tuple(sorted(example.backends))
    return STATUS.get(key, "compilé seulement")


def page(entries_file: Path, coverage_file: Path, examples: dict[str, Example]) -> str:
    entries = read_entries(entries_file)
    coverage = read_coverage(coverage_file)
    lines = ["---", 'sans_exemple: "page générée : elle renvoie aux exemples de chaque entrée"',
             "---", "", "# Couverture de la liste de lecture", "",
             f"Les {len(entries)} entrées de la liste de lecture d'origine, chacune avec sa page, "
             "l'exemple qui la met en pratique et ce que cet exemple sait faire. La page est "
             "générée à chaque construction à partir de `docs/ressources/couverture.yml` et des "
             "exemples déclarés à CMake ; un test échoue si une entrée manque.", ""]
    current = None
    for group, name in entries:
        if group != current:
            lines += ["", f"## {group}", "", "| Entrée | Page | Exemple | État |",
                      "| --- | --- | --- | --- |"]
            current = group
        item = coverage.get(name, {})
        target = item.get("page", "")
        link = f"[lire]({Path(target).relative_to('ressources').as_posix()})" if target.startswith(
            "ressources/") else (f"[lire](../{target})" if target else "—")
        example = item.get("exemple")
        example_text = f"`{example}`" if example else "—"
        lines.append(f"| <span lang=\"en\">{name}</span> | {link} | {example_text} "
                     f"| {status(item, examples) if item else 'entrée non couverte'} |")
    return "\n".join(lines) + "\n"
