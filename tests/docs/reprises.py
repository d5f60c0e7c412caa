#!/usr/bin/env python3
"""Repère les phrases des pages reprises du document d'origine.

    reprises.py --origine DOSSIER [--racine DÉPÔT] [--pages FICHIER ...] [--mots N]

Compare la prose des pages (source Markdown de docs/, README du dépôt et des exemples,
source du glossaire, ou les fichiers donnés par --pages) au texte du document d'origine, par suites de N mots (6 par
défaut) normalisées : minuscules, accents et ponctuation effacés. Les titres, le code, les
liens, les passages en italique ou entre guillemets (titres d'œuvres) et les passages dans une
autre langue ne comptent pas : ce sont des noms, des adresses et des citations, pas de la prose.
Codes de sortie : 0 aucune reprise, 1 reprises trouvées, 2 vérification impossible.
"""

import argparse
import dataclasses
import pathlib
import re
import sys
import unicodedata

DEFAULT_LENGTH = 6
# Marque de coupure : les suites de mots ne la traversent pas.
BREAK = "\n\n"

FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,}).*?^\1\2[ \t]*$", re.S | re.M)
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
HEADING = re.compile(r"^\s{0,3}#{1,6}\s.*$", re.M)
SNIPPET = re.compile(r"^.*--8<--.*$", re.M)
INLINE_CODE = re.compile(r"(`+).+?\1", re.S)
MATH = re.compile(r"\\\(.+?\\\)|\\\[.+?\\\]|\$\$.+?\$\$", re.S)
# Lien ou image Markdown : le texte d'un lien est un nom ou un titre.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)]*\)|!?\[[^\]]*\]\[[^\]]*\]")
AUTOLINK = re.compile(r"<(?:https?://|mailto:)[^>]+>|https?://\S+")
# Passage dans une autre langue : <span lang="en">…</span> ou *…*{ lang=en }.
FOREIGN_SPAN = re.compile(r"<(\w+)[^>]*\blang=\"(?!fr)[^\"]*\"[^>]*>.*?</\1>", re.S)
ATTRIBUTES = re.compile(r"\{[^{}\n]*\}")
ITALIC = re.compile(r"(?<![*\w])\*(?!\*)(?=\S)(.+?)(?<=\S)\*(?!\*)|(?<!\w)_(?=\S)(.+?)(?<=\S)_(?!\w)",
                    re.S)
GUILLEMETS = re.compile(r"«[^«»]*»|“[^“”]*”|\"[^\"\n]*\"")
HTML_TAG = re.compile(r"</?[A-Za-z][^>]*>")
# Fin de phrase : ponctuation forte suivie d'un blanc, ou fin de ligne de liste ou de tableau.
SENTENCE_END = re.compile(r"(?<=[.!?…])\**\s+|\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.|\|)\s)")
WORD = re.compile(r"[^\W_]+", re.U)


class Unreadable(Exception):
    """Le document d'origine ou une page ne peut pas être lu."""


def fold(text):
    """Minuscules sans accents (é → e, œ → oe) : deux graphies d'un mot se comparent égales."""
    text = text.lower().replace("œ", "oe").replace("æ", "ae").replace("’", "'")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def words(text):
    """Mots normalisés de text, avec leur début et leur fin dans text."""
    return [(fold(match[0]), match.start(), match.end()) for match in WORD.finditer(text)]


def blank(pattern, text, replacement=BREAK):
    """Remplace chaque passage exclu par une coupure, sans déplacer le reste du texte."""
    def cut(match):
        # Garder la longueur garde les positions ; une coupure empêche de relier ce qui
        # précède à ce qui suit, et les sauts de ligne gardent les numéros de ligne.
        span = match[0]
        inner = "".join("\n" if char == "\n" else " " for char in span)
        return replacement + inner[len(replacement):] if len(span) >= len(replacement) else "\n" * len(span)
    return pattern.sub(cut, text)


def prose(markdown):
    """Prose d'une page Markdown, aux mêmes positions que la source ; le reste est blanchi."""
    text = markdown.replace("\r\n", "\n")
    for pattern in (FRONT_MATTER, FENCE, HTML_COMMENT, SNIPPET, HEADING, INLINE_CODE, MATH,
                    LINK, AUTOLINK, FOREIGN_SPAN, ATTRIBUTES, ITALIC, GUILLEMETS):
        text = blank(pattern, text)
    # Balises HTML restantes : elles ne coupent pas un mot (<em>, <abbr>…).
    text = HTML_TAG.sub(lambda tag: " " * len(tag[0]), text)
    return text


def segments(text):
    """Passages continus (paragraphes, éléments de liste, cellules) : listes de mots."""
    result, current, last_end = [], [], 0
    for word in words(text):
        between = text[last_end:word[1]]
        if current and ("\n\n" in between or "|" in between or re.search(r"\n\s*(?:[-*+]|\d+\.)\s", between)):
            result.append(current)
            current = []
        current.append(word)
        last_end = word[2]
    if current:
        result.append(current)
    return result


@dataclasses.dataclass
class Origin:
    """Le document d'origine : ses mots, et pour chaque suite de N mots, où elle commence."""
    texts: list
    tokens: list  # (mot normalisé, indice du texte, début, fin)
    index: dict

    @classmethod
    def load(cls, directory, length):
        directory = pathlib.Path(directory)
        if not directory.is_dir():
            raise Unreadable(f"dossier du document d'origine introuvable : {directory}")
        files = sorted(path for path in directory.rglob("*")
                       if path.is_file() and path.suffix in (".txt", ".md"))
        if not files:
            raise Unreadable(f"aucun fichier .txt ou .md dans le dossier du document d'origine : "
                             f"{directory}")
        texts, tokens = [], []
        for number, path in enumerate(files):
            text = path.read_text(encoding="utf-8")
            texts.append((path, text))
            # Le document d'origine se lit d'un seul tenant : ses phrases courent sur
            # plusieurs lignes.
            tokens += [(word, number, start, end) for word, start, end in words(text)]
        index = {}
        for position in range(len(tokens) - length + 1):
            key = tuple(token[0] for token in tokens[position:position + length])
            index.setdefault(key, []).append(position)
        return cls(texts, tokens, index)

    def passage(self, first, last):
        """Texte d'origine des mots first à last (inclus), tel qu'il est écrit."""
        number = self.tokens[first][1]
        text = self.texts[number][1]
        end_token = max(token for token in range(first, last + 1) if self.tokens[token][1] == number)
        return " ".join(text[self.tokens[first][2]:self.tokens[end_token][3]].split())

    def name(self, position):
        return self.texts[self.tokens[position][1]][0].name


@dataclasses.dataclass
class Reproduction:
    page: str
    line: int
    sentence: str
    passage: str
    origin_file: str
    length: int

    def __str__(self):
        return (f"{self.page}:{self.line} : {self.length} mots repris du document d'origine\n"
                f"  phrase de la page : « {self.sentence} »\n"
                f"  passage d'origine ({self.origin_file}) : « {self.passage} »")


def sentence_around(text, start, end):
    """La ou les phrases de la page qui contiennent les caractères start à end."""
    boundaries = [0] + [match.end() for match in SENTENCE_END.finditer(text)] + [len(text)]
    begin = max(b for b in boundaries if b <= start)
    finish = min(b for b in boundaries if b >= end)
    return " ".join(text[begin:finish].split())


def find_reproductions(markdown, origin, length, page_name="page"):
    """Reprises d'au moins length mots de suite : une par passage repris, la plus longue."""
    cleaned = prose(markdown)
    found = []
    for segment in segments(cleaned):
        keys = [word for word, _, _ in segment]
        position = 0
        while position + length <= len(keys):
            starts = origin.index.get(tuple(keys[position:position + length]))
            if not starts:
                position += 1
                continue
            # Allonger la reprise tant que page et origine continuent de concorder.
            best_start, best_length = starts[0], length
            for start in starts:
                extent = length
                while (position + extent < len(keys) and start + extent < len(origin.tokens)
                       and keys[position + extent] == origin.tokens[start + extent][0]):
                    extent += 1
                if extent > best_length:
                    best_start, best_length = start, extent
            first_char, last_char = segment[position][1], segment[position + best_length - 1][2]
            found.append(Reproduction(
                page=page_name,
                line=markdown.count("\n", 0, first_char) + 1,
                sentence=sentence_around(markdown, first_char, last_char),
                passage=origin.passage(best_start, best_start + best_length - 1),
                origin_file=origin.name(best_start),
                length=best_length))
            position += best_length
    return found


def default_pages(root):
    """Ce que lit un lecteur : les pages du site, le README du dépôt, ceux des exemples et,
    quand il existe, la source du glossaire."""
    root = pathlib.Path(root)
    pages = sorted((root / "docs").rglob("*.md"))
    pages += [root / "README.md"] if (root / "README.md").is_file() else []
    pages += sorted(root.glob("examples/*/*/README.md"))
    pages += sorted((root / "glossary").rglob("*.md"))
    return pages


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Repère dans les pages les phrases reprises du document d'origine.")
    parser.add_argument("--origine", required=True, type=pathlib.Path,
                        help="dossier du document d'origine (fichiers .txt ou .md)")
    parser.add_argument("--racine", type=pathlib.Path,
                        help="racine du dépôt : lit docs/**/*.md, README.md, examples/*/*/README.md "
                             "et glossary/**/*.md")
    parser.add_argument("--pages", nargs="+", type=pathlib.Path, default=[], metavar="FICHIER",
                        help="pages Markdown à vérifier (en plus de celles de --racine)")
    parser.add_argument("--mots", type=int, default=DEFAULT_LENGTH, metavar="N",
                        help=f"longueur minimale d'une reprise, en mots (défaut : {DEFAULT_LENGTH})")
    arguments = parser.parse_args(argv)
    if arguments.mots < 3:
        print(f"reprises : --mots doit valoir au moins 3 (reçu : {arguments.mots})", file=sys.stderr)
        return 2
    pages = (default_pages(arguments.racine) if arguments.racine else []) + arguments.pages
    if not pages:
        print("reprises : aucune page à vérifier (donner --racine ou --pages)", file=sys.stderr)
        return 2
    try:
        origin = Origin.load(arguments.origine, arguments.mots)
        found = []
        for page in pages:
            try:
                markdown = page.read_text(encoding="utf-8")
            except OSError as error:
                raise Unreadable(f"page illisible : {page} ({error.strerror})") from error
            name = (str(page.relative_to(arguments.racine))
                    if arguments.racine and page.is_relative_to(arguments.racine) else str(page))
            found += find_reproductions(markdown, origin, arguments.mots, name)
    except Unreadable as error:
        print(f"reprises : {error}", file=sys.stderr)
        return 2
    for reproduction in found:
        print(reproduction)
    pages_hit = len({reproduction.page for reproduction in found})
    if found:
        print(f"reprises : {len(found)} passage{'s' if len(found) > 1 else ''} repris du document "
              f"d'origine dans {pages_hit} page{'s' if pages_hit > 1 else ''} ; "
              f"réécrivez-{'les' if len(found) > 1 else 'le'} "
              f"(les faits, noms et chiffres se reprennent, pas les phrases)", file=sys.stderr)
        return 1
    print(f"reprises : aucune suite de {arguments.mots} mots reprise du document d'origine "
          f"dans {len(pages)} page{'s' if len(pages) > 1 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
