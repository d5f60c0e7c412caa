"""Crochets MkDocs de Noyaux : référence API et KaTeX servis localement, catalogue des
exemples et glossaire générés, recherche racinisée en français, liens et infobulles du
glossaire sur chaque page, encadré « Exemple compilable », figures dessinées depuis les
constantes des noyaux et typographie française."""
from __future__ import annotations

import os
import posixpath
import subprocess
import sys
from pathlib import Path

import material
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

# MkDocs charge ce fichier par son chemin : ses voisins et les modules partagés de
# tools/python (lecteur de code machine) ne sont importables qu'une fois ajoutés ici.
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

import catalogue  # noqa: E402
import couverture  # noqa: E402
import doxygen  # noqa: E402
import echantillons  # noqa: E402
import figures  # noqa: E402
import glossaire  # noqa: E402
import mesures  # noqa: E402
import occupation  # noqa: E402
import recherche  # noqa: E402
import sass  # noqa: E402
import typographie  # noqa: E402
from noyaux_outils.manifeste import Example, ManifestError, read_manifest  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# Dossier de KaTeX trouvé par CMake (cmake/NoyauxDependances.cmake), celui de Debian sinon.
KATEX = Path(os.environ.get("NOYAUX_KATEX_DIR", "/usr/share/javascript/katex"))
RESULTS = ROOT / "results" / "gpu"
CPU_RESULTS = ROOT / "results" / "cpu"
BOX_TEMPLATE = "partials/exemple-compilable.html"

_state: dict = {}


def on_config(config):
    build = Path(os.environ.get("NOYAUX_BUILD_DIR", ROOT / "build")).resolve()
    try:
        _state["examples"] = read_manifest(build / "noyaux-exemples.tsv")
    except ManifestError as error:
        raise PluginError(str(error)) from error
    tag_file = build / "doxygen" / "noyaux.tag"
    if not tag_file.is_file():
        raise PluginError(f"référence API absente ({tag_file}) : lancez d'abord "
                          "« cmake --build build --target doxygen »")
    _state["build"] = build
    _state["reading_order"] = _reading_order(build)
    try:
        _state["figures"] = figures.render_all(
            figures.load_constants(build / "figures" / "constantes.json"))
    except figures.FigureError as error:
        raise PluginError(f"figures : {error}") from error
    tools = sorted((ROOT / ".venv" / "lib").glob("python3*/site-packages/nvidia/cu13/bin/cuobjdump"))
    if not tools:
        raise PluginError("cuobjdump absent de .venv : lancez ./ci/setup")
    _state["cuda_tools"] = tools[0].parent
    _state["api_html"] = build / "doxygen" / "html"
    _state["api_pages"] = doxygen.file_pages(tag_file, ROOT)
    try:
        _state["terms"] = glossaire.load(build / "bin" / "glossaire", ROOT / "glossary")
    except glossaire.GlossaryError as error:
        raise PluginError(str(error)) from error
    _state["pending"] = glossaire.read_pending(ROOT / "glossary" / "exemples-a-venir.txt")
    _state["linker"] = glossaire.Linker(_state["terms"])
    if not (KATEX / "katex.min.js").is_file():
        raise PluginError(f"KaTeX absent de {KATEX} : lancez ./ci/setup (paquet libjs-katex)")
    return config


def _reading_order(build: Path) -> dict[str, list[str]]:
    """Fichiers de chaque exemple dans l'ordre de lecture, donnés par noyaux-integrite : la
    seule définition de l'anatomie d'un exemple."""
    program = build / "tools" / "integrite" / "noyaux-integrite"
    if not program.is_file():
        raise PluginError(f"{program} absent : lancez d'abord "
                          "« cmake --build build --target noyaux-integrite »")
    result = subprocess.run([str(program), "--racine", str(ROOT), "--manifeste",
                             str(build / "noyaux-exemples.tsv"), "--ordre-de-lecture"],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise PluginError(f"noyaux-integrite --ordre-de-lecture : {result.stderr.strip()}")
    order = {}
    for line in result.stdout.splitlines():
        directory, *files = line.split("\t")
        order[directory] = files
    return order


def _add_tree(files: Files, config, source: Path, destination: str) -> None:
    # os.walk suit les liens : les polices de KaTeX sont un lien vers un autre dossier.
    for folder, _, names in sorted(os.walk(source, followlinks=True)):
        for name in sorted(names):
            path = Path(folder) / name
            if path.suffix in doxygen.SKIPPED_SUFFIXES:
                continue
            uri = f"{destination}/{path.relative_to(source).as_posix()}"
            files.append(File.generated(config, uri, abs_src_path=str(path.resolve())))


def on_files(files: Files, config):
    _add_tree(files, config, _state["api_html"], "api")
    _add_tree(files, config, KATEX, "assets/katex")
    # Les pages Doxygen ne déclarent pas d'icône : le navigateur demande /favicon.ico.
    favicon = Path(material.__file__).parent / "templates" / "assets" / "images" / "favicon.png"
    files.append(File.generated(config, "favicon.ico", abs_src_path=str(favicon)))
    try:
        recherche.install(files, config)
    except recherche.SearchError as error:
        raise PluginError(str(error)) from error
    examples = list(_state["examples"].values())
    for example in examples:
        files.append(File.generated(config, example.page,
                                    content=catalogue.example_page(
                                        example, ROOT, _state["reading_order"][example.directory])))
    files.append(File.generated(config, "exemples/index.md",
                                content=catalogue.index_page(examples, ROOT)))
    terms, built = _state["terms"], set(_state["examples"])
    try:
        for term in terms.values():
            files.append(File.generated(config, term.page, content=glossaire.term_page(
                term, terms, built, _state["pending"])))
    except glossaire.GlossaryError as error:
        raise PluginError(str(error)) from error
    files.append(File.generated(config, glossaire.INDEX, content=glossaire.index_page(terms)))
    files.append(File.generated(config, glossaire.A_Z, content=glossaire.a_z_page(terms)))
    files.append(File.generated(config, glossaire.PRINTABLE, content=glossaire.printable_page(terms)))
    files.append(File.generated(config, "ressources/couverture.md", content=couverture.page(
        ROOT / "tests" / "ressources" / "entrees-du-document.txt",
        ROOT / "docs" / "ressources" / "couverture.yml", _state["examples"])))
    # Figures dessinées depuis les constantes des noyaux (voir figures.py).
    for name, figure in _state["figures"].items():
        files.append(File.generated(config, figures.uri(name), content=figure.svg))
    # Courbe de l'échelle GEMM, tirée des résultats enregistrés ; aucune tant que rien n'est mesuré.
    plot = mesures.ladder_plot_svg(RESULTS)
    _state["ladder_plot"] = plot is not None
    if plot is not None:
        files.append(File.generated(config, mesures.LADDER_PLOT, content=plot))
    return files


def _box(example: Example, page, files: Files) -> dict:
    """Données de l'encadré, liens relatifs à la page qui l'affiche."""
    def url(path: str) -> str:
        target = files.get_file_from_path(path)
        if target is None:
            raise PluginError(f"{page.file.src_uri} : cible de lien introuvable : {path}")
        return target.url_relative_to(page.file)

    header = f"{example.directory}/{example.name}.cuh"
    api_page = _state["api_pages"].get(header)
    if api_page is None:
        raise PluginError(f"{page.file.src_uri} : {header} absent de la référence Doxygen")
    return {
        "directory": example.directory,
        "backends": catalogue.backends_text(example),
        "backends_short": ", ".join(backend.upper() for backend in example.backends),
        "gpu_only": "cpu" not in example.backends,
        "ctest": f"ctest --test-dir build -R {example.ctest_regex}",
        "ctest_regex": example.ctest_regex,
        "tests": example.tests,
        "readme": url(example.page),
        "sources": url(example.page) + "#fichiers",
        "api": url(f"api/{api_page}"),
    }


def on_page_markdown(markdown, page, config, files):
    named = page.meta.get("exemples") or []
    boxes = []
    for directory in named:
        example = _state["examples"].get(str(directory).rstrip("/"))
        if example is None:
            raise PluginError(f"{page.file.src_uri} : exemple inconnu « {directory} » "
                              "(absent du manifeste construit par CMake)")
        boxes.append(_box(example, page, files))
    page.meta["noyaux_boxes"] = boxes
    try:
        markdown = figures.render_markers(markdown, _state["figures"], page.file.src_uri)
    except figures.FigureError as error:
        raise PluginError(f"{page.file.src_uri} : {error}") from error
    markdown = mesures.render_emulation(mesures.render(markdown, RESULTS), CPU_RESULTS)
    try:
        markdown = echantillons.render(markdown, CPU_RESULTS)
    except echantillons.SamplesResultError as error:
        raise PluginError(f"{page.file.src_uri} : {error}") from error
    plot_url = None
    if _state.get("ladder_plot"):
        plot_url = posixpath.relpath(mesures.LADDER_PLOT, posixpath.dirname(page.file.src_uri) or ".")
    markdown = mesures.render_sweep(mesures.render_gemm(markdown, RESULTS, plot_url), RESULTS)
    markdown = mesures.render_summary(markdown, RESULTS)
    try:
        markdown = sass.render(markdown, _built_program, _state["cuda_tools"])
        return occupation.render(markdown, _built_program, _state["cuda_tools"])
    except (sass.SassError, occupation.OccupationError) as error:
        raise PluginError(f"{page.file.src_uri} : {error}") from error


def _built_program(directory: str) -> Path:
    example = _state["examples"].get(directory)
    if example is None:
        raise sass.SassError(f"exemple inconnu « {directory} »")
    return _state["build"] / directory / example.name


def on_page_content(html, page, config, files):
    # Première mention de chaque terme du glossaire : lien vers sa fiche, définition en
    # infobulle (les liens déjà écrits vers une fiche la reçoivent aussi). La page imprimable
    # se suffit à elle-même : ses renvois sont des ancres locales.
    uri = page.file.src_uri
    if uri != glossaire.PRINTABLE:
        own = Path(uri).stem if uri.startswith(glossaire.FOLDER + "/") else None
        html = _state["linker"].link(html, uri, own)
    boxes = page.meta.get("noyaux_boxes")
    if boxes:
        template = config.theme.get_env().get_template(BOX_TEMPLATE)
        rendered = template.render(boxes=boxes)
        # L'encadré se place juste sous le titre de la page.
        end_of_title = html.find("</h1>")
        cut = end_of_title + len("</h1>") if end_of_title >= 0 else 0
        html = html[:cut] + rendered + html[cut:]
    return typographie.apply_french_typography(html)
