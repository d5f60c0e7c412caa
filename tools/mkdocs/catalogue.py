"""Pages générées du catalogue « Exemples » : un index, puis une page par exemple
(son README, puis ses fichiers inclus depuis le dépôt)."""
from __future__ import annotations

import re
from pathlib import Path

from noyaux_outils.manifeste import Example

LANGUAGES = {".cu": "cuda", ".cuh": "cuda", ".txt": "cmake", ".md": "markdown"}
BACKEND_NAMES = {"gpu": "GPU", "cpu": "CPU (émulateur)"}
PART_NAMES = {"ressources": "Ressources", "gemm": "GEMM", "megakernels": "Megakernels"}
# Un README (examples/<partie>/<exemple>/README.md) renvoie aux pages par « ../../../docs/… » ;
# rendu en exemples/<partie>/<exemple>.md, le même lien s'écrit « ../../… ». La construction
# stricte vérifie ensuite que la page visée existe.
README_DOCS_LINK = re.compile(r"\]\(\.\./\.\./\.\./docs/")
# Une fiche du glossaire (../../../glossary/<terme>.md) devient la page glossaire/<terme>.md.
README_GLOSSARY_LINK = re.compile(r"\]\(\.\./\.\./\.\./glossary/")


def readme_title_and_summary(readme: Path) -> tuple[str, str]:
    """Titre (premier « # ») et premier paragraphe du README d'un exemple."""
    text = readme.read_text(encoding="utf-8")
    title = re.search(r"^# (.+)$", text, re.MULTILINE)
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    summary = next((p for p in paragraphs if not p.startswith(("#", "```", "-", "|"))), "")
    return (title.group(1).strip() if title else readme.parent.name), " ".join(summary.split())


def backends_text(example: Example) -> str:
    return ", ".join(BACKEND_NAMES.get(b, b) for b in example.backends)


def example_page(example: Example, root: Path, files: list[str]) -> str:
    """Le README de l'exemple, puis @p files : ses fichiers dans l'ordre de lecture, tel que
    noyaux-integrite le donne (l'anatomie d'un exemple n'est écrite qu'à un endroit)."""
    readme = (root / example.directory / "README.md").read_text(encoding="utf-8")
    readme = README_DOCS_LINK.sub("](../../", readme)
    readme = README_GLOSSARY_LINK.sub("](../../glossaire/", readme)
    parts = [f"---\nexemples:\n  - {example.directory}\n---\n", readme.rstrip(), "",
             "## Fichiers de l'exemple {#fichiers}", "",
             f"Dans l'ordre de lecture ; tous dans `{example.directory}/`.", ""]
    for name in files:
        if name == "README.md":
            continue
        language = LANGUAGES.get(Path(name).suffix, "text")
        parts += [f"### `{name}`", "", f'```{language} title="{name}"',
                  f'--8<-- "{example.directory}/{name}"', "```", ""]
    return "\n".join(parts)


def index_page(examples: list[Example], root: Path) -> str:
    lines = ["# Exemples", "",
             "Chaque page de Noyaux s'appuie sur un de ces exemples : un dossier du dépôt avec "
             "son README, ses noyaux, son programme, ses tests et son benchmark. Ce catalogue est "
             "généré à partir des README ; il ne peut donc pas diverger des exemples.", "",
             "| Partie | Exemple | Exécution | Tests |", "| --- | --- | --- | --- |"]
    for example in sorted(examples, key=lambda e: (e.part, e.slug)):
        title, _ = readme_title_and_summary(root / example.directory / "README.md")
        link = f"[{title}]({example.part}/{example.slug}.md)"
        lines.append(f"| {PART_NAMES.get(example.part, example.part)} | {link} | {backends_text(example)} "
                     f"| {len(example.tests)} |")
    lines += ["", "Pour lancer les tests d'une partie : `ctest --test-dir build -L <partie>` "
              "(par exemple `-L ressources`)."]
    for example in sorted(examples, key=lambda e: (e.part, e.slug)):
        title, summary = readme_title_and_summary(root / example.directory / "README.md")
        lines += ["", f"## {title}", "", summary, "",
                  f"[Lire l'exemple]({example.part}/{example.slug}.md) · "
                  f"`{example.directory}`"]
    return "\n".join(lines) + "\n"
