#!/usr/bin/env python3
"""Réécriture des sources CUDA pour l'émulateur simt (à la manière de hipify).

g++ ne sait pas lire la syntaxe propre à CUDA. Ce script la traduit en appels C++
ordinaires vers simt, au moment de la construction :

- ``noyau<<<grille, bloc, octets, flux>>>(args)``
  devient ``::simt::launch(SIMT_KERNEL(noyau), grille, bloc, octets, flux)(args)`` ;
- ``extern __shared__ T tampon[];`` (qualificatifs dans n'importe quel ordre)
  devient ``T* tampon = ::simt::dynamic_shared_memory<T>();`` dans une fonction, et
  ``[[maybe_unused]] static thread_local T* tampon = …;`` à la portée d'un espace de noms ;
- ``cudaLaunchCooperativeKernel(noyau, grille, bloc, args)``
  devient ``::simt::launch_cooperative(noyau, grille, bloc, args)`` (la conversion
  ``(void*)noyau`` de sa forme usuelle devient ``SIMT_KERNEL(noyau)``, qui rend le type), et
  ``cudaLaunchKernelEx(&config, noyau, args...)`` devient ``::simt::launch_kernel_ex(…)`` ;
- ``__cluster_dims__(x, y, z)`` garde ses dimensions : vérifiées au début du corps du noyau
  et inscrites après lui (voir cluster_dims_edits) ;
- ``asm volatile("…" : sorties : entrées)`` dont toutes les instructions PTX sont connues
  devient du C++ qui appelle ``::simt::ptx`` (paquet ``ptx/``, sur les mêmes lignes) ;
- dans le corps d'une fonction ``__global__`` ou ``__device__`` (sans ``__host__``),
  ``__CUDA_ARCH__`` devient ``900`` et ``__CUDA_ARCH_FEAT_SM90_ALL`` devient ``1`` (voir
  device_arch_edits), de même dans les conditions d'une région ``#if`` qui les teste et ne
  déclare que du code de périphérique (device_region_edits ; une région qui mêle hôte et
  périphérique garde la vue de l'hôte, avec un avertissement) ;
- les fonctionnalités que le processeur n'émule pas (instruction PTX inconnue, Tensor Cores
  par WMMA, TMA) sont signalées avec FICHIER:LIGNE, et le script sort avec le code 1.

Tout le reste est recopié octet pour octet. La sortie garde exactement les numéros
de ligne de l'original : une directive ``#line 1`` en tête renvoie les erreurs de g++
vers le fichier d'origine, et aucune réécriture n'ajoute ni ne retire de saut de ligne.

Usage :
    python simt_rewrite.py ENTREE SORTIE
    python simt_rewrite.py --dossier DOSSIER_SOURCE DOSSIER_DESTINATION
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ptx  # noqa: E402  (simt/rewrite/ptx : traduction du PTX en ligne)
from ptx.parse import matching_bracket  # noqa: E402

SOURCE_SUFFIXES = {".cu", ".cuh", ".h", ".hpp", ".cpp"}

# Préfixes de littéraux : L"…", u8'…', R"(…)", u8R"x(…)x"…
ENCODING_PREFIXES = {"L", "u", "U", "u8"}
RAW_PREFIXES = {"R", "LR", "uR", "UR", "u8R"}

# Mots-clés qui peuvent précéder l'expression lancée sans en faire partie.
STATEMENT_KEYWORDS = {
    "return", "if", "while", "for", "switch", "else", "do", "case", "throw",
    "co_return", "co_await", "co_yield", "and", "or", "not", "xor", "bitand", "bitor",
}


def is_identifier_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


# --------------------------------------------------------------------------------------
# Analyse lexicale : masquer commentaires et littéraux
# --------------------------------------------------------------------------------------
# Plutôt que de découper en jetons, on fabrique deux copies du texte, de même longueur,
# où commentaires (et littéraux) sont remplacés par des espaces, sauts de ligne conservés.
# Les recherches se font sur ces copies ; les positions trouvées valent dans l'original.


def _end_of_line_comment(text: str, i: int) -> int:
    """Fin d'un commentaire // (le saut de ligne final exclu) ; suit les lignes prolongées par \\."""
    while True:
        end = text.find("\n", i)
        if end < 0:
            return len(text)
        if text[end - 1] == "\\" or (text[end - 1] == "\r" and text[end - 2] == "\\"):
            i = end + 1
            continue
        return end


def _end_of_quoted(text: str, i: int) -> int:
    """Fin d'un littéral "…" ou '…' ouvert en i (échappements compris)."""
    quote, j = text[i], i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == quote:
            return j + 1
        elif text[j] == "\n":
            # Littéral non fermé (apostrophe d'un #error…) : ne pas avaler la suite du fichier.
            return j
        else:
            j += 1
    return len(text)


def _end_of_raw_string(text: str, i: int) -> int | None:
    """Fin d'une chaîne brute R"délim(…)délim" dont le guillemet ouvrant est en i."""
    paren = text.find("(", i + 1)
    delimiter = text[i + 1:paren]
    if paren < 0 or len(delimiter) > 16 or any(c in delimiter for c in ' ()\\\t\n"'):
        return None  # pas une chaîne brute valide : on la traitera comme "…"
    closing = ")" + delimiter + '"'
    end = text.find(closing, paren + 1)
    return len(text) if end < 0 else end + len(closing)


def _end_of_pp_number(text: str, i: int) -> int:
    """Fin d'un nombre du préprocesseur : 1'000'000, 0x1p-3, 1.5e+10f…

    Il faut le consommer d'un bloc, sinon le séparateur ' serait pris pour un caractère.
    """
    j = i + 1
    while j < len(text):
        ch = text[j]
        if ch in "eEpP" and j + 1 < len(text) and text[j + 1] in "+-":
            j += 2
        elif is_identifier_char(ch) or ch == ".":
            j += 1
        elif ch == "'" and j + 1 < len(text) and is_identifier_char(text[j + 1]):
            j += 2
        else:
            break
    return j


def mask_source(text: str) -> tuple[str, str]:
    """Renvoie (code, code_and_strings), deux copies de text de même longueur.

    code : commentaires et littéraux (chaînes, caractères) remplacés par des espaces ;
    code_and_strings : seuls les commentaires sont effacés (pour chercher dans le PTX
    des chaînes asm, ou dans les #include "…").
    """
    code, code_and_strings = list(text), list(text)

    def blank(buffer: list[str], start: int, end: int) -> None:
        for k in range(start, end):
            if buffer[k] not in "\r\n":
                buffer[k] = " "

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if text.startswith("//", i):
            end = _end_of_line_comment(text, i)
            blank(code, i, end)
            blank(code_and_strings, i, end)
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            blank(code, i, end)
            blank(code_and_strings, i, end)
        elif ch.isalpha() or ch == "_":
            end = i + 1
            while end < n and is_identifier_char(text[end]):
                end += 1
            word, after = text[i:end], text[end:end + 1]
            if after == '"' and word in RAW_PREFIXES:
                raw_end = _end_of_raw_string(text, end)
                end = raw_end if raw_end is not None else _end_of_quoted(text, end)
                blank(code, i, end)
            elif after in ('"', "'") and word in ENCODING_PREFIXES:
                end = _end_of_quoted(text, end)
                blank(code, i, end)
        elif ch.isdigit() or (ch == "." and text[i + 1:i + 2].isdigit()):
            end = _end_of_pp_number(text, i)
        elif ch in "\"'":
            end = _end_of_quoted(text, i)
            blank(code, i, end)
        else:
            end = i + 1
        i = end
    return "".join(code), "".join(code_and_strings)


# --------------------------------------------------------------------------------------
# Lancements de noyaux : EXPR<<<CONFIG>>>(ARGS) → ::simt::launch(EXPR, CONFIG)(ARGS)
# --------------------------------------------------------------------------------------


class Edit(NamedTuple):
    start: int
    end: int
    replacement: str


class RewriteError(Exception):
    """Construction que le réécrivain ne sait pas traduire, à la position pos."""

    def __init__(self, pos: int, message: str):
        super().__init__(message)
        self.pos = pos


def _skip_space_back(code: str, pos: int) -> int:
    """Position juste après le dernier caractère non blanc avant pos."""
    while pos > 0 and code[pos - 1].isspace():
        pos -= 1
    return pos


def _word_before(code: str, pos: int) -> str:
    """Identifiant qui finit juste avant pos (éventuellement vide)."""
    start = pos
    while start > 0 and is_identifier_char(code[start - 1]):
        start -= 1
    return code[start:pos]


def _match_back(code: str, close: int) -> int:
    """Position de l'ouvrant apparié au fermant ')', ']' ou '>' situé en close (-1 sinon).

    Pour '>' (arguments de modèle), on compte les chevrons un par un, si bien que le
    '>>' de Tile<2>> ferme bien deux niveaux ; les parenthèses sont sautées d'un bloc.
    """
    depth = 0
    i = close
    if code[close] in ")]":
        while i >= 0:
            if code[i] in ")]}":
                depth += 1
            elif code[i] in "([{":
                depth -= 1
                if depth == 0:
                    return i
            i -= 1
        return -1
    while i >= 0:
        ch = code[i]
        if ch in ")]":
            i = _match_back(code, i)
            if i < 0:
                return -1
        elif ch == ">":
            depth += 1
        elif ch == "<":
            depth -= 1
            if depth == 0:
                return i
        elif ch in ";{}(":
            return -1
        i -= 1
    return -1


def _is_call_target(code: str, pos: int) -> bool:
    """Vrai si la parenthèse ouvrante en pos applique un appel à ce qui la précède (f(…))."""
    k = _skip_space_back(code, pos)
    if k == 0:
        return False
    if code[k - 1] in ")]>":
        return True
    word = _word_before(code, k)
    return bool(word) and not word[0].isdigit() and word not in STATEMENT_KEYWORDS


def find_launched_expression(code: str, end: int) -> int:
    """Début de l'expression qui finit en end, juste avant '<<<' (-1 si non reconnue).

    On remonte une expression postfixée : noms qualifiés (ns::k, ::k, obj.k, p->k),
    arguments de modèle (k<float, Tile<2>>), appels et indices (table[i]), ou une
    expression entre parenthèses ((ptr), (*fp)).
    """
    pos = end
    while True:
        pos = _skip_space_back(code, pos)
        if pos == 0:
            return -1
        last = code[pos - 1]
        if last in ")]>":
            opener = _match_back(code, pos - 1)
            if opener < 0:
                return -1
            pos = opener
            if last == ")" and not _is_call_target(code, opener):
                return opener  # expression entre parenthèses : (ptr)
            continue  # arguments de modèle, appel ou indice : remonter à ce qu'ils suivent
        if not is_identifier_char(last):
            return -1
        word = _word_before(code, pos)
        if word[0].isdigit():
            return -1
        pos -= len(word)
        # Un nom se rattache à ce qui précède par ::, . ou -> (et « template » de obj.template k<T>).
        k = _skip_space_back(code, pos)
        if _word_before(code, k) == "template":
            k = _skip_space_back(code, k - len("template"))
        if code[max(k - 2, 0):k] == "::":
            before = _skip_space_back(code, k - 2)
            previous = code[before - 1] if before > 0 else ""
            if previous == ">" or (is_identifier_char(previous)
                                   and _word_before(code, before) not in STATEMENT_KEYWORDS):
                pos = k - 2
                continue
            return k - 2  # qualification globale : ::k
        if code[max(k - 2, 0):k] == "->":
            pos = k - 2
            continue
        if k > 0 and code[k - 1] == ".":
            pos = k - 1
            continue
        return pos


def _find_launch_close(code: str, start: int) -> int:
    """Position du '>>>' qui ferme la configuration ouverte juste avant start (-1 sinon).

    On l'attend hors de toute parenthèse ; dans une suite de plus de trois '>'
    (grille<Tile<2>>>>), ce sont les trois derniers qui ferment le lancement.
    """
    depth = 0
    i = start
    while i < len(code):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return -1
        elif ch == ";" and depth == 0:
            return -1
        elif ch == ">" and depth == 0:
            run_end = i
            while run_end < len(code) and code[run_end] == ">":
                run_end += 1
            if run_end - i >= 3:
                return run_end - 3
            i = run_end
            continue
        i += 1
    return -1


def launch_edits(text: str, code: str) -> list[Edit]:
    """Réécritures des lancements EXPR<<<CONFIG>>> du texte."""
    edits = []
    for match in re.finditer(r"<<<", code):
        open_pos = match.start()
        if edits and open_pos < edits[-1].end:
            continue  # déjà couvert par le lancement précédent
        if _word_before(code, _skip_space_back(code, open_pos)) == "operator":
            continue  # operator<<<T> : spécialisation de l'opérateur <<, pas un lancement
        expr_end = _skip_space_back(code, open_pos)
        expr_start = find_launched_expression(code, expr_end)
        if expr_start < 0:
            raise RewriteError(open_pos, "expression lancée par <<< non reconnue ; "
                                         "écrire nom_du_noyau<<<…>>> ou (pointeur)<<<…>>>.")
        close_pos = _find_launch_close(code, open_pos + 3)
        if close_pos < 0:
            raise RewriteError(open_pos, "'>>>' fermant la configuration de lancement introuvable.")
        expression = text[expr_start:expr_end]
        gap = text[expr_end:open_pos].strip(" \t")  # sauts de ligne ou commentaire éventuels
        config = text[open_pos + 3:close_pos].strip(" \t")
        separator = "" if config.startswith(("\n", "\r")) else " "
        # SIMT_KERNEL (launch.hpp) garde le nom tel qu'écrit : surcharges, modèle aux
        # arguments déduits, arguments par défaut se résolvent à l'appel, comme avec nvcc.
        replacement = f"::simt::launch(SIMT_KERNEL({expression}){gap},{separator}{config})"
        if expr_start > 0 and text[expr_start - 1] == ":":
            replacement = " " + replacement  # « cas:::simt » se lirait « :: : »
        edits.append(Edit(expr_start, close_pos + 3, replacement))
    return edits


# --------------------------------------------------------------------------------------
# Mémoire partagée dynamique : extern __shared__ T nom[];
# --------------------------------------------------------------------------------------
# Le tableau externe de taille inconnue n'a pas d'équivalent en C++ ordinaire : simt
# fournit le tampon du bloc (aligné sur au moins 16 octets, comme CUDA), d'où l'abandon
# des spécificateurs d'alignement. Les __shared__ statiques restent tels quels : le
# prélude de simt définit __shared__ comme « static thread_local », ce qui suffit
# puisque chaque thread du système exécute un seul bloc à la fois.
#
# Dans une fonction, le pointeur est une variable locale, lue à chaque appel. À la portée
# d'un espace de noms, une variable globale ordinaire serait initialisée avant main, hors
# de tout bloc : c'est une variable thread_local, initialisée au premier usage dans chaque
# thread du système, donc dans un bloc (un thread du système garde le même tampon pour
# tous les blocs qu'il exécute, et chaque lancement a ses propres threads).

_ALIGNMENT = r"(?:alignas|__align__)\s*\((?:[^()]|\([^()]*\))*\)"
SHARED = re.compile(r"\b__shared__\b")
UNSIZED_ARRAY = re.compile(r"(?P<specifiers>[^;{}\[\]=]*?)\b(?P<name>[A-Za-z_]\w*)\s*\[\s*\]\s*;")
PREPROCESSOR_LINE = re.compile(r"^[ \t]*#[^\n]*$", re.M)
NAMESPACE_HEAD = re.compile(r"(?:\bnamespace\b[\w\s:]*|\bextern\s*)$")


def _statement_start(code: str, pos: int) -> int:
    """Début de la déclaration qui contient pos : après le dernier ';', '{', '}' ou directive."""
    start = max(code.rfind(";", 0, pos), code.rfind("{", 0, pos), code.rfind("}", 0, pos)) + 1
    for directive in PREPROCESSOR_LINE.finditer(code, start, pos):
        start = directive.end()
    return start


def at_namespace_scope(code: str, pos: int) -> bool:
    """Vrai si pos n'est dans aucune accolade autre que celles d'un espace de noms ou d'un
    bloc extern "C" (les chaînes sont effacées dans code : extern "C" { y devient extern {)."""
    namespaces = []
    for i, ch in enumerate(code[:pos]):
        if ch == "{":
            head = code[_statement_start(code, i):i]
            namespaces.append(NAMESPACE_HEAD.search(head.rstrip()) is not None)
        elif ch == "}" and namespaces:
            namespaces.pop()
    return all(namespaces)


SHARED_ALIGNAS = re.compile(r"\b__shared__(\s+)(alignas\s*\((?:[^()]|\([^()]*\))*\))")


def shared_alignas_edits(code: str) -> list[Edit]:
    """``__shared__ alignas(N)`` devient ``alignas(N) __shared__`` : nvcc accepte l'attribut après
    le qualificatif, g++ le refuse entre ``static thread_local`` et le type (le prélude définit
    ``__shared__`` ainsi). Courant dans les noyaux de la TMA, qui alignent leurs tuiles."""
    return [Edit(m.start(), m.end(), f"{m.group(2)}{m.group(1)}__shared__") for m in SHARED_ALIGNAS.finditer(code)]


def dynamic_shared_edits(code: str) -> list[Edit]:
    """Réécritures des déclarations extern __shared__ T nom[]; (sauts de ligne gardés)."""
    edits = []
    for shared in SHARED.finditer(code):
        start = _statement_start(code, shared.start())
        if edits and start < edits[-1].end:
            continue
        declaration = UNSIZED_ARRAY.match(code, start)
        if declaration is None or declaration.start("name") < shared.end():
            continue
        words = re.sub(_ALIGNMENT, " ", declaration["specifiers"]).split()
        if "extern" not in words:
            continue
        element_type = " ".join(word for word in words if word not in ("extern", "__shared__"))
        if not element_type:
            continue
        name = declaration["name"]
        first = start + len(declaration.group()) - len(declaration.group().lstrip())
        newlines = "".join(re.findall(r"\r?\n", code[first:declaration.end()]))
        pointer = f"{element_type}* {name} = ::simt::dynamic_shared_memory<{element_type}>();"
        if at_namespace_scope(code, start):
            pointer = "[[maybe_unused]] static thread_local " + pointer
        edits.append(Edit(first, declaration.end(), pointer + newlines))
    return edits


# --------------------------------------------------------------------------------------
# Lancements par l'API : cudaLaunchCooperativeKernel → ::simt::launch_cooperative,
# cudaLaunchKernelEx → ::simt::launch_kernel_ex
# --------------------------------------------------------------------------------------
# L'API C ne reçoit que des void* : les types des arguments du noyau s'y perdent. Les
# versions de simt sont des modèles qui les retrouvent dans le type du pointeur de noyau ;
# un simple renommage de l'identifiant suffit (appel qualifié ::cudaLaunch… compris).

API_LAUNCHES = {
    "cudaLaunchCooperativeKernel": "::simt::launch_cooperative",
    "cudaLaunchKernelEx": "::simt::launch_kernel_ex",
}
COOPERATIVE_LAUNCH = re.compile(
    r"(?:(?<![\w:])::[ \t]*)?\b(" + "|".join(API_LAUNCHES) + r")\b")


VOID_POINTER_CAST = re.compile(
    r"\(\s*(?:const\s+)?void\s*\*\s*\)\s*|reinterpret_cast\s*<\s*(?:const\s+)?void\s*\*\s*>\s*(?=\()")


def _end_of_argument(code: str, pos: int) -> int:
    """Fin de l'argument qui commence en pos : la virgule ou la parenthèse fermante de même
    niveau (les chevrons comptent : un nom de noyau peut porter k<float, 4>)."""
    depth = 0
    for i in range(pos, len(code)):
        if code[i] in "([{<":
            depth += 1
        elif code[i] in ")]}>":
            if depth == 0:
                return i
            depth -= 1
        elif code[i] in ",;" and depth == 0:
            return i
    return len(code)


def _void_cast_kernel(text: str, code: str, open_paren: int) -> Edit | None:
    """cudaLaunchCooperativeKernel((void*)k, …) : le premier argument, converti en void*,
    devient SIMT_KERNEL(k), qui garde le type du noyau (voir launch.hpp)."""
    argument = open_paren + 1
    while argument < len(code) and code[argument].isspace():
        argument += 1
    cast = VOID_POINTER_CAST.match(code, argument)
    if cast is None:
        return None
    if cast.group().startswith("reinterpret_cast"):
        inner = cast.end() + 1
        end = _end_of_argument(code, inner)
        kernel = text[inner:end].strip()
        end += 1  # la parenthèse fermante de reinterpret_cast<void*>(…)
    else:
        end = _end_of_argument(code, cast.end())
        kernel = text[cast.end():end].rstrip()
        end = cast.end() + len(kernel)
    if not kernel or "\n" in text[argument:end]:
        return None
    return Edit(argument, end, f"SIMT_KERNEL({kernel})")


def cooperative_launch_edits(text: str, code: str) -> list[Edit]:
    """Renommages des lancements par l'API, hors commentaires et chaînes."""
    edits = []
    for match in COOPERATIVE_LAUNCH.finditer(code):
        before = _skip_space_back(code, match.start())
        if before > 0 and (code[before - 1] == "." or code[max(before - 2, 0):before] == "->"):
            continue  # membre homonyme d'un objet : pas l'API runtime
        if code[max(before - 2, 0):before] == "::" and not match.group().startswith("::"):
            continue  # qualifié par un autre espace de noms (ns::cudaLaunch…)
        replacement = API_LAUNCHES[match.group(1)]
        if match.start() > 0 and code[match.start() - 1] == ":":
            replacement = " " + replacement  # « cas:::simt » se lirait « :: : »
        edits.append(Edit(match.start(), match.end(), replacement))
        paren = match.end()
        while paren < len(code) and code[paren].isspace():
            paren += 1
        if match.group(1) == "cudaLaunchCooperativeKernel" and code[paren:paren + 1] == "(":
            kernel = _void_cast_kernel(text, code, paren)
            if kernel is not None:
                edits.append(kernel)
    return edits


# --------------------------------------------------------------------------------------
# __cluster_dims__(x, y, z) : dimensions de cluster fixées à la compilation
# --------------------------------------------------------------------------------------
# Le prélude définit l'attribut comme vide ; la réécriture en garde les dimensions, sur les
# mêmes lignes : au début du corps du noyau, la vérification du lancement
# (check_cluster_dims) ; après le noyau, à la portée de l'espace de noms, leur inscription
# (SIMT_CLUSTER_DIMS), qu'un lancement <<<>>> applique. Un noyau modèle n'est pas inscrit
# (ses paramètres de modèle ne sont plus visibles après lui) : sa vérification demande alors
# un lancement par cudaLaunchKernelEx. Une macro à paramètres définie comme
# __cluster_dims__(…) est suivie ; une autre forme de macro ne l'est pas.

CLUSTER_DIMS = re.compile(r"\b__cluster_dims__\s*\(")
DECLARATOR_CALL = re.compile(r"((?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*)\s*\(")
DECLARATION_ATTRIBUTES = {"__launch_bounds__", "__cluster_dims__", "__maxnreg__", "__block_size__",
                          "__attribute__", "__declspec", "alignas"}


def _split_arguments(text: str) -> list[str]:
    """Arguments séparés par les virgules de premier niveau."""
    arguments, depth, current = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            arguments.append(current.strip())
            current = ""
            continue
        depth += ch in "([{"
        depth -= ch in ")]}"
        current += ch
    if current.strip() or arguments:
        arguments.append(current.strip())
    return arguments


CLUSTER_DIMS_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(?P<name>[A-Za-z_]\w*)\((?P<params>[^)]*)\)"
                                r"[^\n]*?\b__cluster_dims__\s*\((?P<dims>[^()\n]*)\)", re.M)


def _cluster_attributes(text: str, code: str, directives: list[tuple[int, int]]):
    """(position, fin de l'attribut, dimensions) de chaque __cluster_dims__ écrit sur un noyau,
    directement ou par une macro à paramètres définie comme __cluster_dims__(…) (une macro
    qui le cache pour les cibles antérieures à sm_90, où nvcc le refuse)."""
    macros = {}
    for match in CLUSTER_DIMS_MACRO.finditer(code):
        params = [p.strip() for p in match["params"].split(",") if p.strip()]
        macros.setdefault(match["name"], (params, _split_arguments(match["dims"])))
    names = [CLUSTER_DIMS.pattern] + [rf"\b{re.escape(name)}\s*\(" for name in macros]
    for match in re.finditer("|".join(names), code):
        if any(start <= match.start() < end for start, end in directives):
            continue  # dans une directive : la définition d'une macro
        close = matching_bracket(code, match.end() - 1)
        if close < 0:
            raise RewriteError(match.start(), "__cluster_dims__ sans parenthèse fermante")
        arguments = _split_arguments(text[match.end():close])
        name = match.group().split("(")[0].strip()
        if name in macros:
            params, dims = macros[name]
            if len(arguments) != len(params):
                continue  # autre usage du nom : pas notre macro
            values = dict(zip(params, arguments))
            arguments = [re.sub(r"\b[A-Za-z_]\w*\b", lambda w: f"({values[w.group()]})" if w.group() in values
                                else w.group(), dim) for dim in dims]
        yield match.start(), close, arguments


def cluster_dims_edits(text: str, code: str) -> list[Edit]:
    """Vérification au début du corps et inscription après le noyau, pour chaque __cluster_dims__."""
    directives = [(m.start(), m.end()) for m in PREPROCESSOR_LINE.finditer(code)]
    edits = []
    for start, close, dims in _cluster_attributes(text, code, directives):
        if len(dims) > 3 or any(not dim for dim in dims):
            raise RewriteError(start, "__cluster_dims__ prend une, deux ou trois dimensions")
        # Le nom du noyau : le premier identifiant suivi d'une parenthèse qui n'est pas un attribut.
        pos = close + 1
        while True:
            declarator = DECLARATOR_CALL.search(code, pos)
            if declarator is None or re.search(r"[;{}]", code[pos:declarator.start()]):
                raise RewriteError(start, "__cluster_dims__ hors de la déclaration d'un noyau")
            name = re.sub(r"\s+", "", declarator.group(1))
            pos = matching_bracket(code, declarator.end() - 1) + 1
            if pos == 0:
                raise RewriteError(start, "déclaration de noyau sans parenthèse fermante")
            if name.split("::")[-1] not in DECLARATION_ATTRIBUTES:
                break
        end = re.compile(r"[;{]").search(code, pos)
        if end is None:
            raise RewriteError(start, "déclaration de noyau inachevée")
        padded = dims + ["1"] * (3 - len(dims)) if dims else ["0", "0", "0"]
        if code[end.start()] == "{":
            edits.append(Edit(end.end(), end.end(), f" ::simt::detail::check_cluster_dims({', '.join(padded)});"))
            after = matching_bracket(code, end.start())
            if after < 0:
                raise RewriteError(start, "corps de noyau sans accolade fermante")
        else:
            after = end.start()
        template = re.search(r"\btemplate\b", code[_statement_start(code, start):start])
        if dims and not template:
            line = line_of(code, start)
            edits.append(Edit(after + 1, after + 1,
                              f" [[maybe_unused]] static const int simt_cluster_dims_{line} = "
                              f"SIMT_CLUSTER_DIMS({name}, {', '.join(dims)});"))
    return edits


# --------------------------------------------------------------------------------------
# __CUDA_ARCH__ : vu dans le corps des fonctions de périphérique seulement
# --------------------------------------------------------------------------------------

# nvcc compile chaque source deux fois : pour l'hôte, où __CUDA_ARCH__ n'est pas défini, et
# pour chaque architecture, où il vaut par exemple 900. simt compile une seule fois, pour
# l'hôte ; mais le corps d'une fonction __global__ ou __device__ (sans __host__) ne s'exécute
# que sur le périphérique émulé, un sm_90a. Dans ce corps, la réécriture remplace donc
# __CUDA_ARCH__ par 900 et __CUDA_ARCH_FEAT_SM90_ALL par 1, dans le code comme dans les
# directives (« defined(__CUDA_ARCH__) » et « #ifdef __CUDA_ARCH__ » deviennent vrais,
# « #ifndef » faux). Hors de ces corps, une région conditionnelle (#if … #endif, toutes ses
# branches) dont une condition les teste et qui ne déclare que du code de périphérique est
# évaluée de même, comme la passe périphérique de nvcc (device_region_edits). Partout ailleurs
# (code de l'hôte, fonctions __host__ __device__, régions qui mêlent hôte et périphérique,
# corps des macros), ils restent indéfinis, comme dans la passe hôte de nvcc. Un remplacement
# textuel plutôt qu'un #define : aucune ligne n'est ajoutée.
DEVICE_ARCH_VALUES = {"__CUDA_ARCH__": "900", "__CUDA_ARCH_FEAT_SM90_ALL": "1"}
_ARCH_NAMES = "|".join(DEVICE_ARCH_VALUES)
DEVICE_ARCH_USE = re.compile(rf"\b(?P<test>ifn?def)[ \t]+(?P<tested>{_ARCH_NAMES})\b"
                             rf"|\bdefined\s*(?:\(\s*(?:{_ARCH_NAMES})\s*\)|(?:{_ARCH_NAMES})\b)"
                             rf"|\b(?P<name>{_ARCH_NAMES})\b")
DEVICE_ONLY = re.compile(r"\b(?:__global__|__device__)\b")
HOST = re.compile(r"\b__host__\b")
OBJECT_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(?P<name>[A-Za-z_]\w*)(?P<body>(?:[ \t][^\n]*)?)$", re.M)
DECLARATION_STOP = re.compile(r"[(;{=]")


def qualifier_patterns(code: str, device_words: set[str], host_words: set[str]) -> tuple[re.Pattern, re.Pattern]:
    """(périphérique, hôte) : les mots donnés, et les macros sans paramètre qui les contiennent
    (« #define DEVICE __device__ __forceinline__ ») ; une macro qui contient un mot de l'hôte
    est de l'hôte."""
    device_words, host_words = set(device_words), set(host_words)
    for match in OBJECT_MACRO.finditer(code):
        words = set(re.findall(r"\w+", match["body"]))
        if words & host_words:
            host_words.add(match["name"])
        elif words & device_words:
            device_words.add(match["name"])
    device = re.compile(rf"\b(?:{'|'.join(map(re.escape, sorted(device_words)))})\b")
    host = re.compile(rf"\b(?:{'|'.join(map(re.escape, sorted(host_words)))})\b")
    return device, host


def device_bodies(code: str) -> list[tuple[int, int]]:
    """(accolade ouvrante, accolade fermante) du corps de chaque fonction __global__ ou
    __device__ sans __host__, écrits directement ou par une macro sans paramètre (« #define
    DEVICE __device__ __forceinline__ ») ; un corps dans un autre (lambda __device__ d'un
    noyau) n'est compté qu'une fois, dans celui qui le contient."""
    directives = [(m.start(), m.end()) for m in PREPROCESSOR_LINE.finditer(code)]
    device, host = qualifier_patterns(code, {"__global__", "__device__"}, {"__host__"})
    bodies = []
    for match in device.finditer(code):
        pos = match.start()
        if any(start <= pos < end for start, end in directives) or any(o < pos <= c for o, c in bodies):
            continue
        # Suivre la déclaration : groupes de parenthèses (attributs, paramètres, noexcept…)
        # jusqu'au corps ; « ; » ou « = » d'abord : une variable ou une simple déclaration.
        i, body = match.end(), -1
        while (found := DECLARATION_STOP.search(code, i)) is not None and code[found.start()] == "(":
            i = matching_bracket(code, found.start()) + 1
            if i == 0:
                break
        else:
            if found is not None and code[found.start()] == "{":
                body = found.start()
        if body < 0 or code.find("(", match.end(), body) < 0:
            continue  # pas une fonction définie ici
        if host.search(code, _statement_start(code, pos), body):
            continue  # __host__ __device__ : la vue de l'hôte
        close = matching_bracket(code, body)
        if close > 0:
            bodies.append((body, close))
    return bodies


def arch_value_edits(code: str, start: int, end: int) -> list[Edit]:
    """__CUDA_ARCH__ et __CUDA_ARCH_FEAT_SM90_ALL remplacés par leur valeur de sm_90a entre
    start et end (voir DEVICE_ARCH_VALUES)."""
    edits = []
    for match in DEVICE_ARCH_USE.finditer(code, start, end):
        if match["test"]:
            edits.append(Edit(match.start(), match.end(), "if 1" if match["test"] == "ifdef" else "if 0"))
        elif match["name"]:
            edits.append(Edit(match.start(), match.end(), DEVICE_ARCH_VALUES[match["name"]]))
        else:
            edits.append(Edit(match.start(), match.end(), "1"))
    return edits


def device_arch_edits(code: str) -> list[Edit]:
    """__CUDA_ARCH__ et __CUDA_ARCH_FEAT_SM90_ALL remplacés par leur valeur de sm_90a dans le
    corps de chaque fonction de périphérique."""
    return [edit for body, close in device_bodies(code) for edit in arch_value_edits(code, body, close)]


# Régions conditionnelles hors des corps de périphérique. nvcc voit une région
# « #if __CUDA_ARCH__ >= 800 » deux fois : indéfini pour l'hôte, 900 pour le périphérique.
# Un programme qui n'y met que du code de périphérique (la spécialisation d'une fonction
# __device__ par une intrinsèque de sm_80, dans l'échantillon « reduction » de NVIDIA) attend
# de son noyau la passe périphérique : simt la lui donne. Une région qui déclare aussi du code
# de l'hôte (ou __host__ __device__) garde la vue de l'hôte, avec un avertissement ; une région
# qui ne déclare rien (macros, #error, #include) la garde sans rien dire.

ARCH_TESTED = re.compile(rf"\b(?:{_ARCH_NAMES})\b")
REGION_DEVICE_WORDS = {"__global__", "__device__", "__constant__", "__shared__"}
REGION_HOST_WORDS = {"__host__", "__managed__"}
CLASS_HEAD = re.compile(r"\b(?:struct|class|union)\b")


class ConditionalGroup(NamedTuple):
    tests: list[tuple[int, int]]   # plages des directives #if, #ifdef, #ifndef et #elif du groupe
    start: int                     # fin de la directive ouvrante
    end: int                       # début du #endif


def conditional_groups(code: str) -> list[ConditionalGroup]:
    """Les groupes #if … #endif du texte (imbriqués compris), dans l'ordre de leur #endif."""
    groups, stack = [], []
    for match in CONDITIONAL.finditer(code):
        directive = match.group(1)
        if directive in ("if", "ifdef", "ifndef"):
            stack.append(([(match.start(), match.end())], match.end()))
        elif not stack:
            continue
        elif directive == "elif":
            stack[-1][0].append((match.start(), match.end()))
        elif directive == "endif":
            tests, start = stack.pop()
            groups.append(ConditionalGroup(tests, start, match.start()))
    return groups


def _declarations(code: str, start: int, end: int):
    """(début, début du corps ou -1, fin) de chaque déclaration de premier niveau entre start
    et end ; les espaces de noms et blocs extern "C" sont traversés."""
    i = start
    head_start = start
    while i < end:
        ch = code[i]
        if ch == ";":
            if code[head_start:i].strip():
                yield head_start, -1, i + 1
            head_start = i + 1
        elif ch == "{":
            if NAMESPACE_HEAD.search(code[head_start:i].rstrip()):
                head_start = i + 1  # espace de noms : on lit ses déclarations
            else:
                close = matching_bracket(code, i)
                close = end if close < 0 or close >= end else close
                yield head_start, i, close + 1
                i = close
                head_start = close + 1
        elif ch == "}":
            head_start = i + 1  # fin d'un espace de noms traversé
        i += 1
    if code[head_start:end].strip():
        yield head_start, -1, end


def _skip_space(code: str, pos: int) -> int:
    """Position du premier caractère non blanc à partir de pos."""
    while pos < len(code) and code[pos].isspace():
        pos += 1
    return pos


def region_sides(code: str, start: int, end: int, device: re.Pattern, host: re.Pattern) -> tuple[int, int]:
    """(position d'une déclaration de l'hôte ou -1, position d'une déclaration de périphérique
    ou -1) entre start et end, directives effacées. Une déclaration est de périphérique si son
    en-tête porte un mot de périphérique sans mot de l'hôte ; une classe sans l'un ni l'autre
    dans son en-tête est jugée sur ses membres ; tout autre déclaration est de l'hôte."""
    host_at, device_at = -1, -1
    for first, body, last in _declarations(code, start, end):
        head = code[first:body if body >= 0 else last]
        if host.search(head):
            side = (first, -1)
        elif device.search(head):
            side = (-1, first)
        elif body >= 0 and CLASS_HEAD.search(head):
            side = region_sides(code, body + 1, last - 1, device, host)
        else:
            side = (first, -1)
        if host_at < 0 and side[0] >= 0:
            host_at = _skip_space(code, side[0])
        if device_at < 0 and side[1] >= 0:
            device_at = _skip_space(code, side[1])
    return host_at, device_at


def device_region_edits(code: str, warnings: list[tuple[int, str]]) -> list[Edit]:
    """Les régions conditionnelles qui testent __CUDA_ARCH__ hors des corps de périphérique et
    ne déclarent que du code de périphérique : leurs conditions évaluées pour sm_90a. Une
    région qui mêle hôte et périphérique garde la vue de l'hôte ; (position, message) de
    l'avertissement dans warnings."""
    bodies = device_bodies(code)
    blanked = PREPROCESSOR_LINE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), code)
    device, host = qualifier_patterns(code, REGION_DEVICE_WORDS, REGION_HOST_WORDS)
    edits = []
    for group in conditional_groups(code):
        if not any(ARCH_TESTED.search(code, a, b) for a, b in group.tests):
            continue
        if any(open_ < group.tests[0][0] < close for open_, close in bodies):
            continue  # dans un corps de périphérique : device_arch_edits s'en charge
        host_at, device_at = region_sides(blanked, group.start, group.end, device, host)
        if device_at < 0:
            continue
        if host_at < 0:
            edits += [edit for a, b in group.tests for edit in arch_value_edits(code, a, b)]
            continue
        condition = " ".join(code[group.tests[0][0]:group.tests[0][1]].split())
        warnings.append((group.tests[0][0],
                         f"avertissement : la région « {condition} » déclare du code de périphérique "
                         f"(ligne {line_of(code, device_at)}) et de l'hôte (ligne {line_of(code, host_at)}) ; "
                         "simt l'évalue comme la passe hôte de nvcc (__CUDA_ARCH__ indéfini), "
                         "pas comme la passe périphérique (900) : séparer les deux pour que le "
                         "code de périphérique voie __CUDA_ARCH__"))
    return edits


# --------------------------------------------------------------------------------------
# Fonctionnalités non émulées
# --------------------------------------------------------------------------------------


class Unsupported(NamedTuple):
    pattern: re.Pattern
    in_strings: bool  # chercher aussi dans les chaînes (mnémoniques PTX, #include "…")
    feature: str
    feminine: bool


GPU_ONLY_ADVICE = "cet exemple est réservé au GPU (BACKENDS gpu)."

# L'assembleur en ligne (asm) n'est pas dans cette liste : le paquet ptx/ le traduit, et
# refuse avec FICHIER:LIGNE chaque instruction PTX qu'il ne connaît pas.
UNSUPPORTED = [
    Unsupported(re.compile(r"^[ \t]*#[ \t]*include[ \t]*[<\"]cuda/ptx[>\"]", re.M), True,
                "l'en-tête <cuda/ptx> (instructions PTX)", False),
    Unsupported(re.compile(r"\bmemcpy_async_tx\b"), False,
                "la copie asynchrone par le TMA de libcu++ (cuda::device::memcpy_async_tx)", True),
    Unsupported(re.compile(r"tcgen05"), True,
                "l'instruction tcgen05 (Tensor Cores de Blackwell)", True),
]


CONDITIONAL = re.compile(r"^[ \t]*#[ \t]*(ifndef|ifdef|if|elif|else|endif)\b([^\n]*)$", re.M)
EMULATOR_DEFINED = re.compile(r"(?:ifdef\s+|if\s+defined\s*\(?\s*)SIMT_EMULATOR\s*\)?")
EMULATOR_UNDEFINED = re.compile(r"(?:ifndef\s+|if\s+!\s*defined\s*\(?\s*)SIMT_EMULATOR\s*\)?")


def hidden_from_emulator(code: str) -> list[tuple[int, int]]:
    """Plages que le compilateur ne voit pas quand SIMT_EMULATOR est défini : la branche d'un
    « #ifndef SIMT_EMULATOR » (ou « #if !defined(SIMT_EMULATOR) ») jusqu'à son #else, #elif ou
    #endif, et la branche #else d'un « #ifdef SIMT_EMULATOR ». Un exemple réservé au GPU y
    garde, dans son test.cu, ce que l'émulateur refuse (HOST_TESTS_CPU)."""
    ranges = []
    stack = []  # par #if ouvert : [début de la plage cachée, ou None ; branche SIMT_EMULATOR ?]
    for match in CONDITIONAL.finditer(code):
        directive = match.group(1)
        condition = f"{directive} {match.group(2).strip()}"
        if directive in ("ifndef", "ifdef", "if"):
            hidden = EMULATOR_UNDEFINED.fullmatch(condition) is not None
            stack.append([match.end() if hidden else None, EMULATOR_DEFINED.fullmatch(condition) is not None])
        elif not stack:
            continue
        elif directive in ("else", "elif"):
            top = stack[-1]
            if top[0] is not None:
                ranges.append((top[0], match.start()))
                top[0] = None
            elif top[1] and directive == "else":
                top[0] = match.end()
            top[1] = False
        else:  # endif
            start, _ = stack.pop()
            if start is not None:
                ranges.append((start, match.start()))
    return ranges


def unsupported_features(code: str, code_and_strings: str) -> list[tuple[int, str]]:
    """(position, message) de chaque fonctionnalité non émulée, dans l'ordre du texte, hors du
    code caché à l'émulateur (hidden_from_emulator)."""
    hidden = hidden_from_emulator(code)
    found = []
    for rule in UNSUPPORTED:
        haystack = code_and_strings if rule.in_strings else code
        emulated = "émulée" if rule.feminine else "émulé"
        message = f"{rule.feature} n'est pas {emulated} par le processeur ; {GPU_ONLY_ADVICE}"
        found += [(match.start(), message) for match in rule.pattern.finditer(haystack)
                  if not any(start <= match.start() < end for start, end in hidden)]
    return sorted(found)


# --------------------------------------------------------------------------------------
# Réécriture d'un fichier
# --------------------------------------------------------------------------------------


def line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def line_directive(original_path: str, text: str) -> str:
    """#line 1 "chemin absolu" : la ligne suivante redevient la ligne 1 de l'original."""
    path = os.path.abspath(original_path).replace("\\", "\\\\").replace('"', '\\"')
    newline = "\r\n" if re.match(r"[^\n]*\r\n", text) else "\n"
    return f'#line 1 "{path}"{newline}'


def rewrite_source(text: str, path: str, warnings: list[str] | None = None) -> tuple[str, list[str]]:
    """Réécrit un fichier source ; renvoie (texte réécrit, diagnostics « FICHIER:LIGNE: … »).

    Le texte n'est utilisable que si la liste des diagnostics est vide. Les avertissements
    (« FICHIER:LIGNE: simt : avertissement : … »), qui n'empêchent rien, sont ajoutés à
    warnings si elle est donnée.
    """
    code, code_and_strings = mask_source(text)
    asm, refused = ptx.asm_edits(text, code, hidden_from_emulator(code),
                                 lambda pos: at_namespace_scope(code, pos))
    found = [(line_of(text, pos), message) for pos, message in unsupported_features(code, code_and_strings)]
    diagnostics = []
    seen = set()
    for line, message in sorted(found + refused, key=lambda item: item[0]):
        diagnostic = f"{path}:{line}: simt : {message}"
        if diagnostic not in seen:  # une fois par ligne et par fonctionnalité
            seen.add(diagnostic)
            diagnostics.append(diagnostic)
    noted: list[tuple[int, str]] = []
    try:
        dynamic = dynamic_shared_edits(code)
        edits = sorted(launch_edits(text, code) + dynamic
                       + [e for e in shared_alignas_edits(code) if not any(d.start <= e.start < d.end for d in dynamic)]
                       + cooperative_launch_edits(text, code) + cluster_dims_edits(text, code)
                       + device_arch_edits(code) + device_region_edits(code, noted)
                       + [Edit(*edit) for edit in asm])

    except RewriteError as error:
        diagnostics.append(f"{path}:{line_of(text, error.pos)}: simt : {error}")
        edits = []

    if warnings is not None:
        warnings += [f"{path}:{line_of(text, pos)}: simt : {message}" for pos, message in noted]

    # On applique les réécritures de la fin vers le début : les positions restent valides.
    for edit in reversed(edits):
        text = text[:edit.start] + edit.replacement + text[edit.end:]
    bom = "\ufeff" if text.startswith("\ufeff") else ""  # la directive vient après un éventuel BOM
    return bom + line_directive(path, text) + text[len(bom):], diagnostics


def read_text(path: Path) -> str:
    # Lecture en octets : les fins de ligne \r\n sont conservées telles quelles.
    return path.read_bytes().decode("utf-8", errors="surrogateescape")


def write_if_changed(path: Path, text: str) -> bool:
    """N'écrit que si le contenu change : l'horodatage intact évite une recompilation."""
    data = text.encode("utf-8", errors="surrogateescape")
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def rewrite_file(source: Path, destination: Path, shown_path: str) -> list[str]:
    """Réécrit source vers destination ; rien n'est écrit en cas de diagnostic. Les
    avertissements vont sur la sortie d'erreur."""
    warnings: list[str] = []
    text, diagnostics = rewrite_source(read_text(source), shown_path, warnings)
    for warning in warnings:
        print(warning, file=sys.stderr)
    if not diagnostics:
        write_if_changed(destination, text)
    return diagnostics


def rewrite_tree(source_dir: Path, destination_dir: Path) -> list[str]:
    """Reflète toute l'arborescence de sources de source_dir dans destination_dir."""
    destination = destination_dir.resolve()
    diagnostics = []
    for source in sorted(source_dir.rglob("*")):
        if source.suffix not in SOURCE_SUFFIXES or not source.is_file():
            continue
        if source.resolve().is_relative_to(destination):
            continue  # destination placée dans la source : ne pas réécrire nos propres sorties
        relative = source.relative_to(source_dir)
        diagnostics += rewrite_file(source, destination_dir / relative, str(source))
    return diagnostics


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Traduit la syntaxe propre à CUDA en appels à l'émulateur simt.")
    parser.add_argument("--dossier", action="store_true",
                        help="réécrire toute l'arborescence ENTREE vers SORTIE")
    parser.add_argument("entree", metavar="ENTREE", help="fichier (ou dossier) source")
    parser.add_argument("sortie", metavar="SORTIE", help="fichier (ou dossier) produit")
    args = parser.parse_args(argv)
    if Path(args.entree).resolve() == Path(args.sortie).resolve():
        parser.error("la sortie doit différer de l'entrée : l'original serait écrasé")

    if args.dossier:
        diagnostics = rewrite_tree(Path(args.entree), Path(args.sortie))
    else:
        diagnostics = rewrite_file(Path(args.entree), Path(args.sortie), args.entree)
    for diagnostic in diagnostics:
        print(diagnostic, file=sys.stderr)
    return 1 if diagnostics else 0


if __name__ == "__main__":
    sys.exit(main())
