"""Typographie française appliquée au HTML rendu d'une page (crochet MkDocs on_page_content).

Seul le texte change, jamais les balises ni leurs attributs. Restent intacts : le contenu
de pre, code, kbd, samp, script, style, svg et math, celui des éléments dont l'attribut
lang n'est pas le français, les entités HTML et les adresses écrites dans le texte.

Règles (guide de rédaction, « Typographie ») :
- espace fine insécable (U+202F) avant ; ! ? et avant % qui suit un nombre ;
- espace insécable (U+00A0) avant : ainsi qu'après « et avant ».
Une espace ordinaire déjà présente est remplacée ; sinon l'espace est insérée, seulement
si le contexte dit sans ambiguïté qu'il s'agit de ponctuation de texte (pas de a?b,
std::, 10:30, !=, http://). La fonction est idempotente.
"""

import html
import re

NARROW_NBSP = "\u202f"
NBSP = "\u00a0"

# Ce qui précède une ponctuation haute pour qu'on insère l'espace : fin de mot ou de groupe.
_WORD_END = "»)"
# Espaces ordinaires, que l'on remplace ; toute autre espace est laissée telle quelle.
_PLAIN_SPACES = " \t\r\n"
# Après ; ! ? : ce qui prouve que le signe termine une phrase (et non a?b ni !=).
_CLOSERS = ")]}»….,;!?"

# Éléments dont le texte n'est pas de la prose française.
_PROTECTED = {"pre", "code", "kbd", "samp", "script", "style", "svg", "math"}
# Éléments au contenu brut : le texte va jusqu'à la balise fermante, sans autre balise.
_RAW_TEXT = {"script", "style"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
         "param", "source", "track", "wbr"}
# Éléments en ligne : transparents, un mot coupé par <em>…</em> reste un mot.
# Toute autre balise sépare le texte comme une fin de ligne.
_INLINE = {"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "i",
           "img", "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub",
           "sup", "svg", "time", "u", "var", "wbr", "math"}

_MARKUP = re.compile(r"""
    (?P<comment><!--.*?-->)
  | (?P<other><![^>]*>|<\?[^>]*>)
  | (?P<tag></?(?P<name>[A-Za-z][A-Za-z0-9-]*)(?:[^>"']|"[^"]*"|'[^']*')*>)
  | (?P<entity>&(?:[A-Za-z][A-Za-z0-9]*|\#[0-9]+|\#[xX][0-9A-Fa-f]+);)
""", re.S | re.X)
_LANG = re.compile(r"""\slang\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))""", re.I)
# Adresses écrites dans le texte : leurs : ? ; % ne sont pas de la ponctuation.
_URL = re.compile(r"""(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.|mailto:)[^\s<>"«»]*""")


class _Atoms:
    """Le texte vu comme une suite d'atomes d'au plus un caractère.

    chars : ce que lisent les règles (« \\n » pour une frontière de bloc, « » pour une
    balise en ligne) ; texts : ce qui est réécrit ; editable : le caractère est de la prose.
    """

    def __init__(self):
        self.chars, self.texts, self.editable = [], [], []

    def add(self, char, text, editable):
        self.chars.append(char)
        self.texts.append(text)
        self.editable.append(editable)


def _lang_is_foreign(tag):
    match = _LANG.search(tag)
    if not match:
        return False
    value = next(group for group in match.groups() if group is not None)
    return not value.strip().lower().startswith("fr")


def _split(page):
    """Découpe le HTML en atomes, en marquant ce qui ne doit pas changer."""
    atoms = _Atoms()
    guarded, guard_name, guard_depth = False, None, 0
    position = 0
    while position < len(page):
        match = _MARKUP.search(page, position)
        end_of_text = match.start() if match else len(page)
        for char in page[position:end_of_text]:
            atoms.add(char, char, not guarded)
        if not match:
            break
        position = match.end()
        if match["entity"]:
            # Une entité reste telle quelle ; l'analyse voit le caractère qu'elle désigne.
            char = html.unescape(match["entity"])
            atoms.add(char if len(char) == 1 else "\ufffc", match["entity"], False)
            continue
        if not match["tag"]:
            atoms.add("", match[0], False)
            continue
        tag, name = match["tag"], match["name"].lower()
        closing = tag.startswith("</")
        atoms.add("" if name in _INLINE else "\n", tag, False)
        if closing or name in _VOID or tag.endswith("/>"):
            if guarded and closing and name == guard_name:
                guard_depth -= 1
                guarded = guard_depth > 0
            continue
        if name in _RAW_TEXT:
            close = re.compile(rf"</{name}\s*>", re.I).search(page, position)
            stop = close.start() if close else len(page)
            atoms.add("", page[position:stop], False)
            position = stop
            continue
        if guarded:
            guard_depth += name == guard_name
        elif name in _PROTECTED or _lang_is_foreign(tag):
            guarded, guard_name, guard_depth = True, name, 1
    return atoms


def _protect_urls(atoms):
    text = "".join(char or "\0" for char in atoms.chars)
    for url in _URL.finditer(text):
        for index in range(url.start(), url.end()):
            atoms.editable[index] = False


def _visible(atoms):
    """Indices des atomes qui portent un caractère (les balises en ligne sont transparentes)."""
    return [index for index, char in enumerate(atoms.chars) if char]


def apply_french_typography(page: str) -> str:
    atoms = _split(page)
    _protect_urls(atoms)
    order = _visible(atoms)
    chars = [atoms.chars[index] for index in order]
    # Modifications par atome : remplacement d'une espace, ajout avant ou après un signe.
    replaced, before, after = {}, {}, {}

    def editable(k):
        return atoms.editable[order[k]]

    def plain_run(k, step):
        """Espaces ordinaires modifiables à partir de k dans la direction step."""
        run = []
        while 0 <= k < len(chars) and chars[k] in _PLAIN_SPACES and editable(k):
            run.append(k)
            k += step
        return run, k

    def space(mark, step, wanted, may_insert, may_replace=lambda c: not c.isspace()):
        """Met l'espace wanted du côté step du signe en position mark, selon le caractère
        voisin : may_replace s'il en est séparé par des espaces ordinaires, may_insert s'il
        lui est collé."""
        run, beyond = plain_run(mark + step, step)
        if run:
            has_word = 0 <= beyond < len(chars) and may_replace(chars[beyond])
            if has_word and not any(order[k] in replaced for k in run):
                for k in run:
                    replaced[order[k]] = ""
                replaced[order[run[0]]] = wanted
        elif 0 <= beyond < len(chars) and may_insert(chars[beyond]):
            (before if step < 0 else after)[order[mark]] = wanted

    def ends_sentence(k):
        return k + 1 == len(chars) or chars[k + 1].isspace()

    for k, char in enumerate(chars):
        if not editable(k):
            continue
        if char in ";!?" and (ends_sentence(k) or chars[k + 1] in _CLOSERS):
            space(k, -1, NARROW_NBSP, lambda c: c.isalnum() or c in _WORD_END)
        elif char == ":" and (ends_sentence(k) or chars[k + 1] == "»"):
            space(k, -1, NBSP, lambda c: c.isalnum() or c in _WORD_END)
        elif char == "%" and (k + 1 == len(chars) or not chars[k + 1].isalnum()):
            space(k, -1, NARROW_NBSP, str.isdigit, str.isdigit)
        elif char == "«":
            space(k, +1, NBSP, lambda c: not c.isspace() and c != "»")
        elif char == "»":
            space(k, -1, NBSP, lambda c: not c.isspace() and c != "«")

    out = []
    for index, text in enumerate(atoms.texts):
        out.append(before.get(index, ""))
        out.append(replaced.get(index, text))
        out.append(after.get(index, ""))
    return "".join(out)
