"""Partie « Glossaire » du site, générée depuis glossary/ : une page par terme, un index par
catégorie, un index de A à Z (noms français, anglais et abréviations), une page imprimable ;
et, sur toutes les pages, un lien avec infobulle (sa définition) sur la première mention de
chaque terme.

Les fiches sont lues par la commande C++ « glossaire --exporter » : un seul lecteur de leurs
en-têtes YAML, celui qui vérifie aussi leurs renvois et leurs exemples."""
from __future__ import annotations

import html
import json
import posixpath
import re
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import typographie

CATEGORIES = ["matériel", "logiciel côté GPU", "logiciel côté hôte", "performance"]
FOLDER = "glossaire"
INDEX, A_Z, PRINTABLE = f"{FOLDER}/index.md", f"{FOLDER}/a-z.md", f"{FOLDER}/imprimable.md"
# Lien interne du corps d'une fiche : « [texte](slug.md) », éventuellement suivi d'une ancre.
BODY_LINK = re.compile(r"\]\(([a-z0-9-]+)\.md(#[^)]*)?\)")


class GlossaryError(Exception):
    pass


@dataclass(frozen=True)
class Term:
    slug: str
    french: str
    english: str
    abbreviation: str
    aliases: tuple[str, ...]
    category: str
    architecture: str
    see_also: tuple[str, ...]
    examples: tuple[str, ...]
    definition: str
    sources: tuple[tuple[str, str], ...]
    body: str

    @property
    def page(self) -> str:
        return f"{FOLDER}/{self.slug}.md"


def fold(text: str) -> str:
    """Forme de tri et de comparaison : minuscules sans accents (œ → oe)."""
    text = text.replace("œ", "oe").replace("Œ", "Oe").replace("æ", "ae").replace("Æ", "Ae")
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def load(program: Path, directory: Path) -> dict[str, Term]:
    """Les fiches, par slug, lues par « glossaire --exporter » (qui refuse un glossaire mal formé)."""
    if not program.is_file():
        raise GlossaryError(f"{program} absent : lancez d'abord « cmake --build build --target glossaire »")
    result = subprocess.run([str(program), "--exporter", "--dossier", str(directory)],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise GlossaryError(f"glossaire --exporter :\n{result.stderr.strip()}")
    terms = {}
    for line in result.stdout.splitlines():
        d = json.loads(line)
        terms[d["slug"]] = Term(d["slug"], d["terme"], d["anglais"], d["abreviation"],
                                tuple(d["alias"]), d["categorie"], d["architecture"],
                                tuple(d["voir_aussi"]), tuple(d["exemples"]), d["definition"],
                                tuple((s["titre"], s["url"]) for s in d["sources"]), d["corps"])
    return terms


def read_pending(path: Path) -> set[str]:
    """Exemples annoncés (glossary/exemples-a-venir.txt), pas encore déclarés à CMake."""
    if not path.is_file():
        return set()
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return {line for line in lines if line and not line.startswith("#")}


def _anchor(category: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", fold(category)).strip("-")


def _names_line(term: Term) -> str:
    """Noms anglais, abréviation et autres formes : lus par le lecteur et par la recherche."""
    parts = []
    if fold(term.english) != fold(term.french):
        parts.append(f"anglais : {english(term.english, italic=True)}")
    if term.abbreviation:
        parts.append(f"abréviation : **{term.abbreviation}**")
    # Les formes qu'un lecteur tape (pluriels, variantes, identifiants), telles quelles.
    others = [a for a in term.aliases if a not in (term.french, term.english, term.abbreviation)]
    if others:
        parts.append("autres formes : " + ", ".join(_code(a) for a in others))
    parts.append(f"catégorie : [{term.category}](index.md#{_anchor(term.category)})")
    parts.append(f"architecture minimale : {_architecture(term.architecture)}")
    return " · ".join(parts)


def _code(text: str) -> str:
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}"


def english(text: str, italic: bool = False) -> str:
    """Texte anglais : marqué comme tel (lecteurs d'écran, vérification d'orthographe)."""
    return f'<span lang="en">{"<em>" if italic else ""}{html.escape(text)}{"</em>" if italic else ""}</span>'


def name_markdown(name: str, term: Term) -> str:
    """Un nom dans une liste : identifiant en code (« libcuda.so »), nom anglais gardé tel quel
    en français (« Warp », « Speed of Light ») marqué comme anglais."""
    if re.search(r"[._%/]|^[a-z]+[A-Z]", name):
        return _code(name)
    if name == term.english:
        return english(name)
    return name


def title_markdown(term: Term) -> str:
    """Le titre d'une fiche, nom anglais marqué comme tel."""
    title = name_markdown(term.french, term)
    if fold(term.english) != fold(term.french):
        title += f" — {english(term.english)}"
    if term.abbreviation and fold(term.abbreviation) != fold(term.french):
        title += f" ({term.abbreviation})"
    return title


def _architecture(value: str) -> str:
    return "toutes" if value == "toutes" else f"`{value}`"


# Italique d'une fiche : par convention des rédacteurs, le nom anglais d'une notion
# (« le warp (*warp*) »). Hors code, marqué lang="en" (lecteurs d'écran, orthographe).
_ITALIC = re.compile(r"(?<![*\w])\*([^*\s](?:[^*\n]*[^*\s])?)\*(?![*\w{])")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$", re.M | re.S)


def mark_english(body: str, names: tuple[str, ...] = ()) -> str:
    """Italiques hors code marquées lang="en" ; de même pour @p names, noms anglais gardés tels
    quels en français (« Speed of Light »), même coupés en fin de ligne."""
    proper = re.compile("|".join(r"\s+".join(map(re.escape, n.split())) for n in names), re.I) \
        if names else None

    def mark(text: str) -> str:
        text = _ITALIC.sub(r"*\1*{ lang=en }", text)
        return proper.sub(lambda m: f'<span lang="en">{m.group(0)}</span>', text) if proper else text

    def prose(text: str) -> str:
        pieces, position = [], 0
        for code in _CODE_SPAN.finditer(text):
            pieces += [mark(text[position:code.start()]), code.group(0)]
            position = code.end()
        return "".join(pieces + [mark(text[position:])])

    pieces, position = [], 0
    for fence in _FENCE.finditer(body):
        pieces += [prose(body[position:fence.start()]), fence.group(0)]
        position = fence.end()
    return "".join(pieces + [prose(body[position:])])


def english_names(terms: dict[str, Term]) -> tuple[str, ...]:
    """Noms de plusieurs mots que le français garde en anglais (terme = nom anglais)."""
    return tuple(sorted({t.english for t in terms.values()
                         if " " in t.english and fold(t.english) == fold(t.french)}, key=len, reverse=True))


def term_page(term: Term, terms: dict[str, Term], built: set[str], pending: set[str]) -> str:
    """Page d'un terme ; l'encadré « Exemple compilable » vient de la clé « exemples » de
    l'en-tête, comme pour toute page, et ne nomme que les exemples construits."""
    present = [e for e in term.examples if e in built]
    coming = [e for e in term.examples if e not in built]
    unknown = [e for e in coming if e not in pending]
    if unknown:
        raise GlossaryError(f"glossary/{term.slug}.md : exemple inconnu {', '.join(unknown)} "
                            "(ni dans le manifeste ni dans glossary/exemples-a-venir.txt)")
    # Les noms de la fiche en étiquettes : invisibles sans le plugin tags, mais indexés par la
    # recherche avec le plus fort poids ; « SM » ou « Streaming Multiprocessor » mènent d'abord
    # à leur fiche plutôt qu'aux pages qui les citent.
    names = dict.fromkeys(n for n in (term.french, term.english, term.abbreviation, *term.aliases) if n)
    header = ["---", "tags:"] + [f"  - {json.dumps(n, ensure_ascii=False)}" for n in names]
    if present:
        header += ["exemples:"] + [f"  - {e}" for e in present]
    else:
        header.append(f"sans_exemple: \"ses exemples sont à venir : {', '.join(coming)}\"")
    header.append("---")
    lines = header + [f"# {title_markdown(term)}", "", f'<p class="noyaux-terme-noms" markdown="1">{_names_line(term)}</p>',
                      "", mark_english(term.body.strip(), english_names(terms)), ""]
    if coming:
        lines += ['!!! example "Exemple à venir"', ""]
        lines += [f"    `{e}` : micro-exemple en cours d'écriture ; cette page le reliera dès "
                  "qu'il sera construit et testé." for e in coming]
        lines.append("")
    lines += ["## Voir aussi", ""]
    lines += [f"- [{name_markdown(terms[s].french, terms[s])}]({s}.md)" for s in term.see_also]
    lines += ["", "## Sources", ""]
    # Titres de documents, presque tous en anglais : cités tels quels.
    lines += [f"- [{english(title)}]({url})" for title, url in term.sources]
    return "\n".join(lines) + "\n"


def _by_french(terms) -> list[Term]:
    return sorted(terms, key=lambda t: fold(t.french))


def index_page(terms: dict[str, Term]) -> str:
    lines = ["---", "sans_exemple: \"index du glossaire : chaque terme nomme ses exemples sur sa page\"",
             "---", "# Glossaire", "",
             f"{len(terms)} termes de la programmation GPU, rangés en quatre catégories. Chaque "
             "fiche s'ouvre sur une définition d'une phrase, cite ses sources et nomme un exemple "
             "compilable du dépôt qui montre la notion. Sur toutes les pages du site, la première "
             "mention d'un terme renvoie à sa fiche, avec sa définition en infobulle.", "",
             f"Autres entrées : [les termes de A à Z](a-z.md), noms français, anglais et "
             f"abréviations mêlés ; [tout le glossaire sur une page](imprimable.md), à imprimer ou "
             "à lire hors ligne. Dans un terminal : `build/bin/glossaire TERME` (voir le README).", ""]
    for category in CATEGORIES:
        members = _by_french(t for t in terms.values() if t.category == category)
        lines += [f"## {category[0].upper() + category[1:]} {{#{_anchor(category)}}}", "",
                  f"{len(members)} termes.", ""]
        lines += [f"- [{title_markdown(t)}]({t.slug}.md)" for t in members]
        lines.append("")
    return "\n".join(lines)


def a_z_page(terms: dict[str, Term]) -> str:
    """Chaque nom français, anglais et chaque abréviation, dans un seul ordre alphabétique."""
    entries = []
    for t in terms.values():
        french = f"[{name_markdown(t.french, t)}]({t.slug}.md)"
        entries.append((t.french, french))
        if fold(t.english) != fold(t.french):
            entries.append((t.english, f"{english(t.english, italic=True)} (anglais) → {french}"))
        if t.abbreviation and fold(t.abbreviation) != fold(t.french):
            entries.append((t.abbreviation, f"**{t.abbreviation}** → {french}"))
    entries.sort(key=lambda e: (fold(e[0]).lstrip("_%."), e[1]))
    lines = ["---", "sans_exemple: \"index alphabétique du glossaire : les exemples sont sur les fiches\"",
             "---", "# Glossaire de A à Z", "",
             "Noms français, noms anglais (en italique) et abréviations (en gras), chacun menant à "
             "sa fiche.", ""]
    letter = None
    for name, text in entries:
        first = fold(name).lstrip("_%.")[:1].upper()
        first = first if first.isalpha() else "#"
        if first != letter:
            letter = first
            lines += ["", f"## {letter}", ""]
        lines.append(f"- {text}")
    return "\n".join(lines) + "\n"


def printable_page(terms: dict[str, Term]) -> str:
    """Tout le glossaire sur une page : les liens entre fiches deviennent des ancres locales."""
    lines = ["---", "sans_exemple: \"le glossaire entier ; chaque fiche nomme ses exemples\"",
             "---", "# Glossaire complet", "",
             f"Les {len(terms)} fiches sur une seule page, dans l'ordre alphabétique, pour "
             "l'impression (Ctrl+P) ou la lecture hors ligne.", ""]
    for t in _by_french(terms.values()):
        body = BODY_LINK.sub(lambda m: f"](#{m.group(1)})", mark_english(t.body.strip(), english_names(terms)))
        see_also = ", ".join(f"[{name_markdown(terms[s].french, terms[s])}](#{s})" for s in t.see_also)
        examples = ", ".join(f"`{e}`" for e in t.examples)
        lines += [f"## {title_markdown(t)} {{#{t.slug}}}", "",
                  f"*{t.category}* · architecture minimale : {_architecture(t.architecture)}", "",
                  body, "", f"**Voir aussi** : {see_also}. **Exemples** : {examples}.", ""]
    return "\n".join(lines)


# --- Liens et infobulles sur toutes les pages ------------------------------------------------

# Éléments dont le texte ne reçoit pas de lien : code, titres, liens existants, formules.
_SKIPPED = {"a", "code", "pre", "kbd", "samp", "script", "style", "svg", "math", "abbr",
            "button", "textarea", "h1", "h2", "h3", "h4", "h5", "h6", "figcaption", "label"}
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>|<!--.*?-->", re.S)
_HREF = re.compile(r"""\shref\s*=\s*"([^"]*)\"""")
_TRACKED = _SKIPPED | {"span", "div", "p", "li", "td", "th", "aside", "details", "summary", "dd", "dt"}
_VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "col", "source"}


class Linker:
    """Relie la première mention de chaque terme, sur chaque page, à sa fiche."""

    def __init__(self, terms: dict[str, Term]):
        self.terms = terms
        # Infobulle : la définition, échappée pour un attribut, en typographie française.
        self.tooltips = {slug: typographie.apply_french_typography(html.escape(t.definition))
                         for slug, t in terms.items()}
        names: dict[str, str] = {}       # nom tel qu'écrit → slug
        sensitive: set[str] = set()      # noms comparés à la casse près (sigles, identifiants)
        # Priorité : terme français, abréviation, anglais, puis alias ; un nom déjà pris par une
        # fiche plus prioritaire n'est pas réattribué.
        for rank in range(4):
            for t in terms.values():
                candidates = [[t.french], [t.abbreviation], [t.english], list(t.aliases)][rank]
                for name in candidates:
                    name = name.strip()
                    if len(name) < 2 or fold(name) in {fold(n) for n in names}:
                        continue
                    names[name] = t.slug
                    if rank == 1 or any(c.isupper() for c in name[1:]) or not name[0].isalpha():
                        sensitive.add(name)
        self.by_fold = {fold(n): s for n, s in names.items() if n not in sensitive}
        self.by_exact = {n: s for n, s in names.items() if n in sensitive}
        alternatives = sorted(names, key=len, reverse=True)
        self.pattern = re.compile(
            r"(?<![\w.%-])(" + "|".join(re.escape(n) for n in alternatives) + r")(?![\w-]|\.\w)",
            re.IGNORECASE)

    def slug_of(self, text: str) -> str | None:
        return self.by_exact.get(text) or self.by_fold.get(fold(text))

    def link(self, page_html: str, page_uri: str, own_slug: str | None = None) -> str:
        """@p page_uri : chemin source de la page (« gemm/01-naif.md »), pour les liens relatifs."""
        base = posixpath.dirname(page_uri)
        done = {own_slug} if own_slug else set()
        target_of = {slug: posixpath.relpath(f"{FOLDER}/{slug}.html", base or ".")
                     for slug in self.terms}
        slug_of_target = {v: k for k, v in target_of.items()}
        out, stack, position = [], [], 0
        for match in _TAG.finditer(page_html):
            text = page_html[position:match.start()]
            out.append(self._link_text(text, done, target_of) if not any(s for _, s in stack) else text)
            tag = match.group(0)
            closing, name, attributes = match.group(1), (match.group(2) or "").lower(), match.group(3) or ""
            if name == "a" and not closing:
                # Un lien existant vers une fiche compte comme sa mention, et reçoit l'infobulle.
                href = _HREF.search(tag)
                slug = slug_of_target.get(href.group(1).split("#")[0]) if href else None
                if slug and "title=" not in tag:
                    tag = tag[:-1] + f' title="{self.tooltips[slug]}">'
                if slug:
                    done.add(slug)
            if name in _TRACKED and name not in _VOID and not attributes.rstrip().endswith("/"):
                if closing:
                    for i in range(len(stack) - 1, -1, -1):
                        if stack[i][0] == name:
                            del stack[i:]
                            break
                else:
                    skipped = name in _SKIPPED or "arithmatex" in attributes or "headerlink" in attributes
                    stack.append((name, skipped))
            out.append(tag)
            position = match.end()
        out.append(page_html[position:])
        return "".join(out)

    def _link_text(self, text: str, done: set[str], target_of: dict[str, str]) -> str:
        def replace(match: re.Match) -> str:
            found = match.group(1)
            slug = self.slug_of(found)
            if slug is None or slug in done:
                return found
            done.add(slug)
            return (f'<a class="noyaux-terme" href="{target_of[slug]}" '
                    f'title="{self.tooltips[slug]}">{found}</a>')
        return self.pattern.sub(replace, text)
