#!/usr/bin/env python3
"""Vérifie les figures du site construit (dossier figures/, voir tools/mkdocs/figures.py).

    verifier_figures.py --site DOSSIER

- chaque SVG de figures/ est référencé par au moins une page (<img src>) ;
- chaque <img> qui montre une figure a un texte alternatif non vide ;
- aucun SVG ne charge quoi que ce soit d'externe : ni adresse http(s), ni @import, ni lien
  href ou url() hors du document, ni image, script ou objet étranger incorporé.
Codes de sortie : 0 tout va bien, 1 défauts trouvés, 2 vérification impossible.
"""

import argparse
import html.parser
import posixpath
import re
import sys
from pathlib import Path

FOLDER = "figures"
# Les déclarations d'espace de noms nomment une adresse sans jamais la charger.
NAMESPACE = re.compile(r'\sxmlns(?::\w+)?="[^"]*"')
EXTERNAL = [
    (re.compile(r"https?://", re.I), "adresse http(s)"),
    (re.compile(r"@import", re.I), "@import"),
    (re.compile(r"""\bhref\s*=\s*["'](?!#)""", re.I), "lien href hors du document"),
    (re.compile(r"""url\(\s*["']?(?!#)""", re.I), "url() hors du document"),
    (re.compile(r"<\s*(?:image|script|foreignObject|iframe|object|embed)\b", re.I),
     "élément qui incorpore une ressource"),
]


class ImageFinder(html.parser.HTMLParser):
    """Les <img> d'une page : (src, alt ou None)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.images: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            attributes = dict(attrs)
            self.images.append((attributes.get("src") or "", attributes.get("alt")))


def check(site: Path) -> tuple[list[str], int, int]:
    """Défauts trouvés, nombre de figures, nombre de pages qui en montrent."""
    folder = site / FOLDER
    svgs = sorted(p.relative_to(site).as_posix() for p in folder.rglob("*.svg")) if folder.is_dir() else []
    errors: list[str] = []
    if not svgs:
        errors.append(f"aucune figure dans {folder} : le crochet MkDocs n'en a produit aucune")
    referenced: set[str] = set()
    pages = 0
    for page in sorted(site.rglob("*.html")):
        relative = page.relative_to(site).as_posix()
        finder = ImageFinder()
        finder.feed(page.read_text(encoding="utf-8"))
        shown = False
        for src, alt in finder.images:
            if re.match(r"[a-z]+:", src, re.I) or src.startswith("/"):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(relative), src.split("#")[0]))
            if not target.startswith(FOLDER + "/"):
                continue
            shown = True
            referenced.add(target)
            if not (alt or "").strip():
                errors.append(f"{relative} : {target} sans texte alternatif")
            if target not in svgs:
                errors.append(f"{relative} : {target} absent du site")
        pages += shown
    for svg in svgs:
        text = NAMESPACE.sub("", (site / svg).read_text(encoding="utf-8"))
        for pattern, what in EXTERNAL:
            match = pattern.search(text)
            if match:
                line = text.count("\n", 0, match.start()) + 1
                errors.append(f"{svg} : ressource externe ({what}, ligne {line})")
        if svg not in referenced:
            errors.append(f"{svg} : référencé par aucune page")
    return errors, len(svgs), pages


def main() -> int:
    parser = argparse.ArgumentParser(description="Vérifie les figures du site construit.")
    parser.add_argument("--site", required=True, type=Path, help="dossier du site construit")
    args = parser.parse_args()
    if not args.site.is_dir():
        print(f"figures : site introuvable : {args.site}", file=sys.stderr)
        return 2
    errors, figures, pages = check(args.site)
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f"figures : {len(errors)} défaut{'s' if len(errors) > 1 else ''}", file=sys.stderr)
        return 1
    print(f"figures : {figures} SVG, chacun montré avec un texte alternatif ; {pages} pages en "
          "montrent ; aucune ressource externe")
    return 0


if __name__ == "__main__":
    sys.exit(main())
