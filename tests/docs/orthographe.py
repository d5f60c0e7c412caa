#!/usr/bin/env python3
"""Vérifie l'orthographe française du site construit, avec hunspell.

    orthographe.py --site DOSSIER --mots FICHIER [--ignorer DOSSIER ...] [--dictionnaire NOM]

Lit le texte visible du contenu principal de chaque page HTML (pas le code, pas les
adresses, pas les passages dans une autre langue) et signale chaque mot inconnu du
dictionnaire français et de la liste des mots techniques du projet.
Codes de sortie : 0 aucun mot inconnu, 1 mots inconnus, 2 vérification impossible.
"""

import argparse
import collections
import html.parser
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

# Dossiers du site qui ne sont pas de la prose rédigée : Doxygen, thème, index de recherche.
SKIPPED_DIRS = ("api", "assets", "search")
SKIPPED_TAGS = {"pre", "code", "kbd", "samp", "script", "style", "svg", "math"}
# noyaux-sans-orthographe : échappatoire explicite des pages ; arithmatex, katex : formules ;
# filename : titre d'un bloc de code (chemin de fichier).
SKIPPED_CLASSES = {"noyaux-sans-orthographe", "arithmatex", "katex", "filename"}
INLINE_TAGS = {"a", "abbr", "b", "bdi", "bdo", "cite", "data", "del", "dfn", "em", "i",
               "ins", "mark", "q", "s", "small", "span", "strong", "sub", "sup", "time",
               "u", "var", "wbr"}
VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
             "param", "source", "track", "wbr"}
MAIN_CLASS = "md-content__inner"

URL = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.|mailto:)\S*|\S+@\S+\.\w+")
# Un mot : lettres et chiffres, liés par apostrophe (l'exemple), trait d'union (c'est-à-dire)
# ou barre oblique (Go/s). hunspell découpe lui-même ce qu'il ne connaît pas d'un bloc.
WORD = re.compile(r"\w+(?:['’/-]\w+)*")
# Élisions : « d'Ampere » est juste si « Ampere » est un mot technique du projet,
# ce que hunspell ne sait pas (ses élisions ne s'appliquent qu'aux mots du dictionnaire).
ELISION = re.compile(r"^(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quoiqu)'(.+)$", re.I)
PREFERRED_DICTIONARIES = ("fr_FR", "fr")


class TextExtractor(html.parser.HTMLParser):
    """Texte visible sous la racine choisie, hors code, formules et autres langues.

    is_root(balise, classes) dit quel élément ouvre la zone lue ; None : tout le document.
    """

    def __init__(self, is_root=None):
        super().__init__(convert_charrefs=True)
        self.is_root = is_root
        self.stack = []  # (balise, ouvre la zone lue, ouvre une zone ignorée)
        self.inside = 0 if is_root else 1
        self.skipped = 0
        self.parts = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        lang = (attributes.get("lang") or "fr").lower()
        opens_root = bool(self.is_root and self.is_root(tag, classes))
        opens_skip = (tag in SKIPPED_TAGS or bool(classes & SKIPPED_CLASSES)
                      or not lang.startswith("fr"))
        self.separate(tag)
        if tag == "img" and self.reading() and not opens_skip:
            self.parts.append(f" {attributes.get('alt') or ''} ")  # texte alternatif, en français
        if tag in VOID_TAGS:
            return
        self.stack.append((tag, opens_root, opens_skip))
        self.inside += opens_root
        self.skipped += opens_skip

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID_TAGS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        self.separate(tag)
        # HTML tolère les fermetures implicites : on dépile jusqu'à la balise ouverte.
        if not any(name == tag for name, _, _ in self.stack):
            return
        while self.stack:
            name, opened_root, opened_skip = self.stack.pop()
            self.inside -= opened_root
            self.skipped -= opened_skip
            if name == tag:
                break

    def handle_data(self, data):
        if self.reading():
            self.parts.append(data)

    def reading(self):
        return self.inside > 0 and self.skipped == 0

    def separate(self, tag):
        # Une balise de bloc sépare deux mots ; <em>, <a>… non.
        if tag not in INLINE_TAGS:
            self.parts.append("\n")


def extract_text(page):
    """Texte français à vérifier : la zone md-content__inner de Material, sinon le corps."""
    if re.search(rf"""class=["'][^"']*\b{MAIN_CLASS}\b""", page):
        extractor = TextExtractor(lambda tag, classes: MAIN_CLASS in classes)
    elif re.search(r"<body[\s>]", page, re.I):
        extractor = TextExtractor(lambda tag, classes: tag == "body")
    else:
        extractor = TextExtractor()
    extractor.feed(page)
    extractor.close()
    return "".join(extractor.parts)


def tokenize(text):
    """Mots du texte avec leur position, adresses retirées, apostrophes unifiées (’ → ')."""
    text = URL.sub(lambda url: " " * len(url[0]), text)
    return [(match[0].replace("’", "'"), match.start()) for match in WORD.finditer(text)
            if any(char.isalpha() for char in match[0])]


def load_words(path):
    """Liste du projet : un mot par ligne ; lignes vides et commentaires (#) ignorés."""
    lines = pathlib.Path(path).read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def accepted_by_list(word, words):
    if word in words or word[:1].lower() + word[1:] in words:
        return True
    elided = ELISION.match(word)
    return bool(elided) and accepted_by_list(elided[1], words)


def find_dictionary(wanted):
    """Chemin du dictionnaire français que hunspell sait ouvrir, ou None."""
    listing = subprocess.run(["hunspell", "-D"], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, errors="replace").stderr
    available = {pathlib.Path(line.strip()).name: line.strip()
                 for line in listing.splitlines() if line.startswith("/")
                 and not line.strip().endswith((".aff", ".dic"))}
    for name in ([wanted] if wanted else PREFERRED_DICTIONARIES):
        if name in available:
            return available[name]
    return None


def unknown_words(candidates, dictionary, words):
    """Mots que hunspell refuse, la liste du projet servant de dictionnaire personnel."""
    if not candidates:
        return set()
    # hunspell lit un dictionnaire personnel sans commentaires ; « mot/modèle » y a un
    # sens, les mots à barre oblique (Go/s) sont donc acceptés plus haut par la liste.
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".dic") as personal:
        personal.write("".join(f"{word}\n" for word in sorted(words) if "/" not in word))
        personal.flush()
        # Un mot par ligne, préfixé de ^ (mode ispell) ; -L renvoie les lignes fautives.
        result = subprocess.run(
            ["hunspell", "-d", dictionary, "-p", personal.name, "-i", "utf-8", "-L"],
            input="".join(f"^{word}\n" for word in candidates),
            capture_output=True, encoding="utf-8", errors="replace")
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip() or f"code de sortie {result.returncode}")
    return {line[1:] for line in result.stdout.splitlines() if line.startswith("^")}


def context(text, start, reach=6):
    """Quelques mots de part et d'autre d'une occurrence."""
    head, tail = text[:start].split(), text[start:].split()
    if head and not text[start - 1].isspace():  # mot collé à ce qui précède : « (mot »
        tail[0] = head.pop() + tail[0]
    return "…" + " ".join(head[-reach:] + tail[:reach + 1]) + "…"


def pages(site, ignored):
    skipped = [site / name for name in SKIPPED_DIRS] + [site / name for name in ignored]
    for path in sorted(site.rglob("*.html")):
        if not any(path == top or top in path.parents for top in skipped):
            yield path


def plural(count, singular, several):
    return f"{count} {singular if count == 1 else several}"


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Vérifie l'orthographe française du site construit (hunspell).")
    parser.add_argument("--site", required=True, type=pathlib.Path,
                        help="dossier du site construit")
    parser.add_argument("--mots", required=True, type=pathlib.Path,
                        help="liste des mots techniques acceptés")
    parser.add_argument("--ignorer", nargs="+", action="extend", default=[], metavar="DOSSIER",
                        help="dossiers ou pages du site à ne pas vérifier (relatifs au site)")
    parser.add_argument("--dictionnaire", help="dictionnaire hunspell (défaut : fr_FR, sinon fr)")
    arguments = parser.parse_args(argv)

    def fail(message):
        print(f"orthographe : {message}", file=sys.stderr)
        return 2

    if not arguments.site.is_dir():
        return fail(f"dossier du site introuvable : « {arguments.site} » "
                    "(construisez d'abord le site)")
    if not arguments.mots.is_file():
        return fail(f"liste de mots introuvable : « {arguments.mots} »")
    install = "installez les paquets hunspell et hunspell-fr (./ci/setup)"
    if not shutil.which("hunspell"):
        return fail(f"hunspell introuvable ; {install}")
    dictionary = find_dictionary(arguments.dictionnaire)
    if not dictionary:
        wanted = arguments.dictionnaire or " ou ".join(PREFERRED_DICTIONARIES)
        return fail(f"dictionnaire hunspell « {wanted} » introuvable ; {install}")

    words = load_words(arguments.mots)
    site = arguments.site.resolve()
    texts, occurrences = {}, collections.defaultdict(list)  # mot → [(page, position)]
    for path in pages(site, arguments.ignorer):
        page = path.relative_to(site).as_posix()
        texts[page] = extract_text(path.read_text(encoding="utf-8", errors="replace"))
        for word, start in tokenize(texts[page]):
            occurrences[word].append((page, start))
    if not texts:
        return fail(f"aucune page HTML à vérifier dans « {arguments.site} »")

    candidates = sorted(word for word in occurrences if not accepted_by_list(word, words))
    try:
        unknown = unknown_words(candidates, dictionary, words)
    except (OSError, RuntimeError) as error:
        return fail(f"échec de hunspell : {error}")

    total = sum(len(places) for places in occurrences.values())
    if not unknown:
        print(f"orthographe : {plural(len(texts), 'page vérifiée', 'pages vérifiées')}, "
              f"{plural(total, 'mot', 'mots')}, aucun mot inconnu")
        return 0
    report = collections.defaultdict(dict)  # page → mot → positions
    for word in unknown:
        for page, start in occurrences[word]:
            report[page].setdefault(word, []).append(start)
    for page in sorted(report):
        for word, starts in sorted(report[page].items()):
            print(f"{page} : « {word} » ({plural(len(starts), 'occurrence', 'occurrences')})"
                  f" — contexte : {context(texts[page], starts[0])}")
    print(f"orthographe : {plural(len(unknown), 'mot inconnu', 'mots inconnus')} dans "
          f"{plural(len(report), 'page', 'pages')}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
