"""Figures du site : des SVG dessinés à partir des constantes des noyaux eux-mêmes.

D'où viennent les nombres
    Le programme tools/figures/constantes.cu inclut les en-têtes des exemples et écrit leurs
    constantes (tailles de tuiles, géométrie des warps, mots touchés par un warp en mémoire
    partagée…) dans ``figures/constantes.json``, au dossier de construction (cible CMake
    ``figures-constantes``, dont dépend la cible ``site``). Aucune constante d'un noyau n'est
    recopiée ici : changer une tuile dans un en-tête change la figure.
    Les seules valeurs écrites dans ce module sont des faits matériels cités (taille d'un
    secteur, pics du H200), regroupés plus bas avec leur source.

Comment une page montre une figure
    Un commentaire dans le Markdown, remplacé par le crochet MkDocs (tools/mkdocs/hooks.py) :

        <!-- noyaux:figure gemm-roofline -->

    devient une image ``figures/gemm-roofline.svg`` (le SVG est ajouté au site par
    ``on_files``) avec son texte alternatif et sa légende.

Ajouter une figure
    1. Si elle a besoin d'une constante absente de constantes.json, l'ajouter dans
       tools/figures/constantes.cu en la lisant dans l'en-tête de l'exemple (jamais sa valeur).
    2. Écrire une fonction ``nom(constants: dict) -> Figure`` : elle dessine sur un
       ``Canvas`` et rend ``Figure(svg, alt, caption)``, texte alternatif et légende en
       français, tirés des mêmes constantes que le dessin.
    3. L'inscrire dans ``FIGURES`` sous son nom (minuscules et tirets : le nom du fichier).
    4. Placer le marqueur dans la page qui en parle. Le test ``site.figures.docs`` vérifie
       que chaque SVG est référencé par une page, que chaque image a un texte alternatif et
       qu'aucun SVG ne charge rien d'externe ; ``outils.figures.cpu`` teste ce module.

Style : fond blanc explicite (lisible en thème clair comme sombre), police générique
sans-serif, couleurs sobres ; aucune ressource externe, pas d'horodatage (SVG reproductibles).
"""
from __future__ import annotations

import html
import json
import math
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from mesures import LADDER_SIZE, french_number

MARKER = re.compile(r"<!--\s*noyaux:figure\s+(\S+)\s*-->")
FOLDER = "figures"  # dossier des SVG dans le site

# --- Faits matériels cités (pas des constantes de noyau) -----------------------------------
SECTOR_BYTES = 32  # la mémoire globale sert un warp par secteurs de 32 octets (guide CUDA)
FLOAT_BYTES = 4
# Pics du H200 SXM d'après la fiche technique de NVIDIA
# (https://www.nvidia.com/en-us/data-center/h200/), les chiffres cités par docs/gemm/index.md.
H200_FP32_TFLOPS = 67.0
H200_HBM_TBPS = 4.8
H200_SOURCE = "fiche technique NVIDIA du H200 SXM"

# --- Palette : sobre, contrastée sur fond blanc ----------------------------------------------
INK = "#1f2328"
MUTED = "#57606a"
GRID = "#8c959f"
PAPER = "#ffffff"
A_FILL, A_STRONG = "#dbe6f6", "#3b6db3"   # A : bleu
B_FILL, B_STRONG = "#fbe3cf", "#c8661e"   # B : orange
C_FILL, C_STRONG = "#dcefdf", "#2f8a46"   # C : vert
ALERT = "#c0392b"                         # conflit, ce qui coûte
NEUTRAL = "#eef1f5"


class FigureError(Exception):
    """Constantes manquantes ou incohérentes : la figure ne peut pas être dessinée juste."""


@dataclass(frozen=True)
class Figure:
    svg: str      # le document SVG complet
    alt: str      # texte alternatif, en français
    caption: str  # légende courte, en français


def _n(value: float, decimals: int = 0) -> str:
    return french_number(value, decimals)


def _n_auto(value: float) -> str:
    """Sans décimale pour un entier, une sinon : 67 ; 38,4."""
    return _n(value, 0 if float(value).is_integer() else 1)


class Canvas:
    """Un SVG écrit à la main : rectangles, lignes, textes, flèches."""

    def __init__(self, width: float, height: float, title: str):
        self.width, self.height = width, height
        self._parts: list[str] = [
            f'<title>{html.escape(title)}</title>',
            '<defs><marker id="fleche" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{MUTED}"/></marker></defs>',
            "",  # le fond, écrit par svg() aux dimensions finales
        ]

    def rect(self, x, y, w, h, fill="none", stroke=INK, width=1.0, dash: str | None = None,
             opacity: float | None = None):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        extra += f' fill-opacity="{opacity:g}"' if opacity is not None else ""
        self._parts.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}" '
                           f'stroke="{stroke}" stroke-width="{width:g}"{extra}/>')

    def line(self, x1, y1, x2, y2, stroke=GRID, width=1.0, dash: str | None = None,
             arrow: bool = False):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        extra += ' marker-end="url(#fleche)"' if arrow else ""
        self._parts.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
                           f'stroke="{stroke}" stroke-width="{width:g}"{extra}/>')

    def polyline(self, points, stroke=INK, width=1.5):
        coords = " ".join(f"{x:g},{y:g}" for x, y in points)
        self._parts.append(f'<polyline points="{coords}" fill="none" stroke="{stroke}" '
                           f'stroke-width="{width:g}"/>')

    def grid(self, x0, y0, rows: int, cols: int, cell_w, cell_h, fill, stroke, width=1.0):
        """Une grille de rows × cols cases identiques, coin supérieur gauche en (x0, y0)."""
        for i in range(rows):
            for j in range(cols):
                self.rect(x0 + j * cell_w, y0 + i * cell_h, cell_w, cell_h, fill, stroke, width)

    def polygon(self, points, fill, stroke=INK, width=1.0):
        coords = " ".join(f"{x:g},{y:g}" for x, y in points)
        self._parts.append(f'<polygon points="{coords}" fill="{fill}" stroke="{stroke}" '
                           f'stroke-width="{width:g}"/>')

    def circle(self, x, y, r, fill=INK, stroke=PAPER):
        self._parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}" stroke="{stroke}"/>')

    def text(self, x, y, content: str, size: float = 13, anchor: str = "start",
             fill: str = INK, bold: bool = False, rotate: float | None = None):
        extra = ' font-weight="bold"' if bold else ""
        extra += f' transform="rotate({rotate:g} {x:g} {y:g})"' if rotate is not None else ""
        self._parts.append(f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" '
                           f'fill="{fill}"{extra}>{html.escape(content)}</text>')

    def svg(self) -> str:
        self._parts[2] = (f'<rect x="0" y="0" width="{self.width:g}" height="{self.height:g}" '
                          f'fill="{PAPER}"/>')
        body = "\n".join(self._parts)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:g}" '
                f'height="{self.height:g}" viewBox="0 0 {self.width:g} {self.height:g}" '
                f'font-family="sans-serif" role="img">\n{body}\n</svg>\n')


def _section(constants: dict, key: str) -> dict:
    try:
        return constants[key]
    except KeyError as error:
        raise FigureError(f"constante absente de constantes.json : « {key} »") from error


def _step(constants: dict, number: int) -> dict:
    for entry in _section(constants, "echelle"):
        if entry["etape"] == number:
            return entry
    raise FigureError(f"étape {number} absente de l'échelle (constantes.json)")


# --- GEMM : tuiles en mémoire partagée le long de K (étape 3) ------------------------------

def gemm_shared_tiles(constants: dict) -> Figure:
    tile = _step(constants, 3)["tuile_m"]
    count = 4                                # tuiles dessinées par côté : des matrices schématiques
    row, col = 1, 2                          # la tuile de C du bloc montré
    cell = 34
    side = count * cell
    ax, by = 40, 60                          # A à gauche ; B au-dessus de C
    cx, cy = ax + side + 40, by + side + 40
    canvas = Canvas(cx + side + 310, cy + side + 40, "Tuiles de l'étape 3")

    for x0, y0 in ((ax, cy), (cx, by), (cx, cy)):   # A, B et C
        canvas.grid(x0, y0, count, count, cell, cell, NEUTRAL, GRID, 0.8)
    for k in range(count):                   # la tranche k : une tuile de A, une tuile de B
        shade = A_STRONG if k == 1 else A_FILL
        canvas.rect(ax + k * cell, cy + row * cell, cell, cell, shade, A_STRONG, 1)
        canvas.text(ax + (k + 0.5) * cell, cy + (row + 0.5) * cell + 4, str(k), size=11,
                    anchor="middle", fill=PAPER if k == 1 else INK)
        shade = B_STRONG if k == 1 else B_FILL
        canvas.rect(cx + col * cell, by + k * cell, cell, cell, shade, B_STRONG, 1)
        canvas.text(cx + (col + 0.5) * cell, by + (k + 0.5) * cell + 4, str(k), size=11,
                    anchor="middle", fill=PAPER if k == 1 else INK)
    canvas.rect(cx + col * cell, cy + row * cell, cell, cell, C_STRONG, INK, 1.5)
    canvas.text(ax + side / 2, cy + side + 20, "A", anchor="middle", bold=True, fill=A_STRONG)
    canvas.text(cx + side + 10, by + side / 2, "B", bold=True, fill=B_STRONG)
    canvas.text(cx + side / 2, cy + side + 20, "C", anchor="middle", bold=True, fill=C_STRONG)
    lx = cx + side + 24
    canvas.text(lx, cy + 14, f"Un bloc de {tile} × {tile} threads :", bold=True)
    canvas.text(lx, cy + 32, f"une tuile {tile} × {tile} de C (vert)", fill=MUTED)
    canvas.text(lx, cy + 58, "Tranche k (ici k = 1, foncée) :", bold=True)
    canvas.text(lx, cy + 76, f"une tuile {tile} × {tile} de A et une de B", fill=MUTED)
    canvas.text(lx, cy + 94, "copiées en mémoire partagée,", fill=MUTED)
    canvas.text(lx, cy + 112, f"puis {tile} FMA par thread", fill=MUTED)
    alt = (f"Les matrices A, B et C découpées en tuiles de {tile} × {tile}, dessinées sur "
           f"{count} tuiles de côté. Le bloc qui calcule une tuile de C parcourt la ligne de "
           f"tuiles de A et la colonne de tuiles de B qui lui correspondent, numérotées 0 à "
           f"{count - 1} le long de K ; à chaque tranche, il copie une tuile de A et une tuile "
           f"de B en mémoire partagée, puis chaque thread fait {tile} FMA.")
    caption = (f"Étape 3 : le bloc avance dans K par tranches de {tile}, une tuile de A et une "
               "tuile de B en mémoire partagée à chaque tranche.")
    return Figure(canvas.svg(), alt, caption)


# --- GEMM : tuiles de bloc et de thread (étapes 4 et 5) --------------------------------------

def _block_tiling(cfg: dict, step: int) -> Figure:
    bm, bn, bk = cfg["block_m"], cfg["block_n"], cfg["block_k"]
    tm, tn = cfg["thread_m"], cfg.get("thread_n", 1)
    threads = cfg["threads"]
    per_row = bn // tn                      # threads par ligne de la grille de threads
    if (bm // tm) * per_row != threads:
        raise FigureError(f"étape {step} : {threads} threads ne pavent pas {bm}×{bn} en {tm}×{tn}")
    scale = 320 / max(bm, bn)
    depth = max(bk * scale, 18)             # profondeur K dessinée, lisible même si BK est petit
    cx, cy = 90 + depth, 70 + depth         # coin de la tuile de C
    cw, ch = bn * scale, bm * scale
    canvas = Canvas(cx + cw + 250, cy + ch + 40, f"Tuilage de l'étape {step}")
    # Tuiles de A (à gauche) et de B (au-dessus).
    canvas.rect(cx - depth - 12, cy, depth, ch, A_FILL, A_STRONG)
    canvas.rect(cx, cy - depth - 12, cw, depth, B_FILL, B_STRONG)
    canvas.text(cx - depth - 20, cy + ch / 2, f"A : {bm} × {bk}", anchor="middle", rotate=-90,
                fill=A_STRONG, bold=True)
    canvas.text(cx + cw / 2, cy - depth - 20, f"B : {bk} × {bn}", anchor="middle",
                fill=B_STRONG, bold=True)
    # Tuile de C et grille des threads.
    canvas.rect(cx, cy, cw, ch, C_FILL, C_STRONG, 1.5)
    for r in range(1, bm // tm):
        canvas.line(cx, cy + r * tm * scale, cx + cw, cy + r * tm * scale, GRID, 0.5)
    for c in range(1, per_row):
        canvas.line(cx + c * tn * scale, cy, cx + c * tn * scale, cy + ch, GRID, 0.5)
    # Le warp 0 : threads 0 à 31 ; un thread choisi et ce qu'il lit de A et de B.
    warp_cells = [(t // per_row, t % per_row) for t in range(32)]
    rows_of_warp = sorted({r for r, _ in warp_cells})
    cols_of_warp = sorted({c for _, c in warp_cells})
    if len(rows_of_warp) * len(cols_of_warp) == len(warp_cells):   # un rectangle : un cadre
        boxes = [(rows_of_warp, cols_of_warp)]
    else:
        boxes = [([r], [c for rr, c in warp_cells if rr == r]) for r in rows_of_warp]
    for rows, cols in boxes:
        canvas.rect(cx + min(cols) * tn * scale, cy + min(rows) * tm * scale,
                    (max(cols) - min(cols) + 1) * tn * scale, len(rows) * tm * scale,
                    "none", INK, 2)
    tid = 2 * per_row + per_row // 3 if bm // tm > 2 else per_row // 3
    row, col = tid // per_row, tid % per_row
    x, y = cx + col * tn * scale, cy + row * tm * scale
    canvas.rect(x, y, tn * scale, tm * scale, C_STRONG, INK, 1)
    canvas.rect(cx - depth - 12, y, depth, tm * scale, A_STRONG, INK, 1)
    canvas.rect(x, cy - depth - 12, tn * scale, depth, B_STRONG, INK, 1)
    canvas.line(cx - 12, y + tm * scale / 2, x, y + tm * scale / 2, MUTED, 1, "3 3")
    canvas.line(x + tn * scale / 2, cy - 12, x + tn * scale / 2, y, MUTED, 1, "3 3")
    # Légendes à droite.
    lx = cx + cw + 20
    canvas.text(lx, cy + 14, f"Tuile de C : {bm} × {bn}", bold=True, fill=C_STRONG)
    canvas.text(lx, cy + 32, f"un bloc de {threads} threads", fill=MUTED)
    canvas.text(lx, cy + 62, f"Un thread : {tm} × {tn} éléments", bold=True)
    canvas.text(lx, cy + 80, f"(thread {tid}, en vert foncé)", fill=MUTED)
    canvas.text(lx, cy + 110, "Cadre noir : le warp 0", bold=True)
    canvas.text(lx, cy + 128, "threads 0 à 31", fill=MUTED)
    canvas.text(lx, cy + 158, "À chaque pas de K, le thread lit", fill=MUTED)
    canvas.text(lx, cy + 176, f"{tm} valeur{'s' if tm > 1 else ''} de A et "
                f"{tn} valeur{'s' if tn > 1 else ''} de B", fill=MUTED)
    alt = (f"Tuile de C de {bm} lignes sur {bn} colonnes calculée par un bloc de {threads} "
           f"threads, découpée en {threads} rectangles de {tm} × {tn} éléments, un par thread ; "
           f"à gauche la tuile de A ({bm} × {bk}), au-dessus celle de B ({bk} × {bn}) ; le "
           f"thread {tid} est mis en évidence avec les {tm} lignes de A et "
           + (f"les {tn} colonnes de B" if tn > 1 else "la colonne de B")
           + " qu'il lit, et un cadre entoure les 32 threads du warp 0.")
    caption = (f"Étape {step} : un bloc calcule une tuile {bm} × {bn} de C, chaque thread "
               f"{tm} × {tn} éléments.")
    return Figure(canvas.svg(), alt, caption)


def gemm_tiles_step4(constants: dict) -> Figure:
    return _block_tiling(_section(constants, "etape4"), 4)


def gemm_tiles_step5(constants: dict) -> Figure:
    return _block_tiling(_section(constants, "etape5"), 5)


# --- GEMM : produit extérieur (étapes 4 et 5) -----------------------------------------------

def _product_panel(canvas: Canvas, x0: float, y0: float, tm: int, tn: int, title: str):
    cell = 22
    canvas.text(x0, y0, title, bold=True)
    top = y0 + 30
    ax = x0                                   # colonne de A
    bx = ax + cell + 24                       # ligne de B, puis la grille des résultats
    for i in range(tm):
        canvas.rect(ax, top + cell + 12 + i * cell, cell, cell, A_FILL, A_STRONG)
    for j in range(tn):
        canvas.rect(bx + j * cell, top, cell, cell, B_FILL, B_STRONG)
    canvas.grid(bx, top + cell + 12, tm, tn, cell, cell, C_FILL, C_STRONG)
    grid_bottom = top + cell + 12 + tm * cell
    canvas.text(ax + cell / 2, grid_bottom + 18, "A", anchor="middle", fill=A_STRONG, bold=True)
    canvas.text(bx + tn * cell + 8, top + cell * 0.7, "B", fill=B_STRONG, bold=True)
    reads, fmas = tm + tn, tm * tn
    canvas.text(x0, grid_bottom + 42, f"{reads} lectures de mémoire partagée", fill=MUTED)
    canvas.text(x0, grid_bottom + 60, f"{fmas} FMA en registres", fill=MUTED)
    canvas.text(x0, grid_bottom + 78, f"soit {_n(fmas / reads, 2)} FMA par lecture", bold=True)
    return grid_bottom + 78


def gemm_outer_product(constants: dict) -> Figure:
    one, two = _section(constants, "etape4"), _section(constants, "etape5")
    tm1, tm2, tn2 = one["thread_m"], two["thread_m"], two["thread_n"]
    cell = 22
    second = 20 + max(cell * 2 + 24 + 40, 250)   # la place des textes du premier panneau
    width = second + max(cell * (tn2 + 1) + 24 + 30, 230) + 20
    height = 30 + 30 + cell + 12 + max(tm1, tm2) * cell + 90
    canvas = Canvas(width, height, "Produit extérieur")
    _product_panel(canvas, 20, 26, tm1, 1, "Étape 4 : une colonne")
    _product_panel(canvas, second, 26, tm2, tn2, "Étape 5 : produit extérieur")
    alt = (f"À gauche, l'étape 4 : une colonne de {tm1} valeurs de A multipliée par une seule "
           f"valeur de B donne {tm1} résultats, soit {tm1 + 1} lectures pour {tm1} FMA. À droite, "
           f"l'étape 5 : une colonne de {tm2} valeurs de A et une ligne de {tn2} valeurs de B "
           f"donnent {tm2 * tn2} résultats, soit {tm2 + tn2} lectures pour {tm2 * tn2} FMA.")
    caption = ("À chaque pas de K, un thread lit une colonne de A et une ligne de B dans la "
               "mémoire partagée et en fait le produit extérieur en registres.")
    return Figure(canvas.svg(), alt, caption)


# --- GEMM : tuiles de bloc, de warp et de thread (étape 9) ----------------------------------

def gemm_warp_tiles(constants: dict) -> Figure:
    cfg = _section(constants, "etape9")
    bm, bn, wm, wn = cfg["block_m"], cfg["block_n"], cfg["warp_m"], cfg["warp_n"]
    wmi, wni = cfg["warp_m_iterations"], cfg["warp_n_iterations"]
    sm, sn, tm, tn = cfg["warp_sub_m"], cfg["warp_sub_n"], cfg["thread_m"], cfg["thread_n"]
    threads = cfg["threads"]
    warps_n, warps = bn // wn, (bm // wm) * (bn // wn)
    lanes_n = sn // tn
    if warps * 32 != threads or (sm // tm) * lanes_n != 32:
        raise FigureError("étape 9 : la géométrie des warps ne compte pas 32 threads par sous-tuile")
    panel, tall = 210, 320               # côté des deux premiers panneaux ; hauteur du troisième
    s3 = tall / max(sm, sn)
    top = 60                             # sous les titres des panneaux
    canvas = Canvas(2 * panel + 2 * 70 + 20 + max(sn * s3, 170) + 20, top + tall + 45,
                    "Tuilage par warp de l'étape 9")
    # (1) la tuile de bloc et ses warps.
    s1 = panel / max(bm, bn)
    x1 = 20
    canvas.text(x1, 30, f"Bloc : {bm} × {bn}", bold=True)
    canvas.text(x1, 48, f"{warps} warps de {wm} × {wn}", fill=MUTED)
    for w in range(warps):
        r, c = w // warps_n, w % warps_n
        canvas.rect(x1 + c * wn * s1, top + r * wm * s1, wn * s1, wm * s1,
                    C_STRONG if w == 0 else C_FILL, C_STRONG, 1.5)
        canvas.text(x1 + (c + 0.5) * wn * s1, top + (r + 0.5) * wm * s1 + 5, f"warp {w}",
                    anchor="middle", fill=PAPER if w == 0 else INK, bold=w == 0)
    # (2) la tuile du warp 0 et ses sous-tuiles ; les cases de la lane 0.
    s2 = panel / max(wm, wn)
    x2 = x1 + panel + 70
    canvas.line(x1 + wn * s1, top, x2 - 8, top, MUTED, 1, "3 3")
    canvas.line(x1 + wn * s1, top + wm * s1, x2 - 8, top + wm * s2, MUTED, 1, "3 3")
    canvas.text(x2, 30, f"Warp 0 : {wm} × {wn}", bold=True)
    canvas.text(x2, 48, f"{wmi} × {wni} sous-tuile{'s' if wmi * wni > 1 else ''} de {sm} × {sn}",
                fill=MUTED)
    for i in range(wmi):
        for j in range(wni):
            canvas.rect(x2 + j * sn * s2, top + i * sm * s2, sn * s2, sm * s2, C_FILL, C_STRONG, 1.5)
            canvas.rect(x2 + j * sn * s2, top + i * sm * s2, tn * s2, tm * s2, A_STRONG, INK, 0.8)
    # (3) une sous-tuile et ses 32 lanes.
    x3 = x2 + panel + 70
    canvas.line(x2 + sn * s2, top, x3 - 8, top, MUTED, 1, "3 3")
    canvas.line(x2 + sn * s2, top + sm * s2, x3 - 8, top + sm * s3, MUTED, 1, "3 3")
    canvas.text(x3, 30, f"Sous-tuile : {sm} × {sn}", bold=True)
    canvas.text(x3, 48, f"32 lanes de {tm} × {tn}", fill=MUTED)
    canvas.text(x3 + sn * s3 + 8, top + 14, "la sous-tuile", size=11, fill=MUTED)
    canvas.text(x3 + sn * s3 + 8, top + 28, "encadrée", size=11, fill=MUTED)
    for lane in range(32):
        r, c = lane // lanes_n, lane % lanes_n
        canvas.rect(x3 + c * tn * s3, top + r * tm * s3, tn * s3, tm * s3,
                    A_STRONG if lane == 0 else C_FILL, C_STRONG, 0.8)
        canvas.text(x3 + (c + 0.5) * tn * s3, top + (r + 0.5) * tm * s3 + 4, str(lane),
                    size=min(11, tn * s3 * 0.45), anchor="middle", fill=PAPER if lane == 0 else INK)
    canvas.rect(x2, top, sn * s2, sm * s2, "none", INK, 2)   # la sous-tuile agrandie à droite
    bottom = top + max(panel, sm * s3) + 30
    canvas.text(20, bottom, f"En bleu : les {wmi * wni} × {tm} × {tn} = {cfg['accumulators']} "
                "résultats de la lane 0 du warp 0, un rectangle par sous-tuile.", fill=MUTED)
    alt = (f"Trois niveaux de tuiles de C à l'étape 9. Un bloc calcule {bm} × {bn} éléments avec "
           f"{warps} warps, chacun une tuile de {wm} × {wn}. Un warp parcourt {wmi * wni} "
           f"sous-tuiles de {sm} × {sn} ; dans chacune, ses 32 lanes tiennent {tm} × {tn} "
           f"résultats, numérotés ligne par ligne, {lanes_n} lanes par ligne. La lane 0 tient "
           f"donc {cfg['accumulators']} résultats en registres, un rectangle par sous-tuile.")
    caption = (f"Étape 9 : tuile de bloc {bm} × {bn}, tuiles de warp {wm} × {wn}, "
               f"{tm} × {tn} éléments par lane et par sous-tuile.")
    return Figure(canvas.svg(), alt, caption)


# --- Bancs de mémoire partagée (étape 7) -------------------------------------------------------

def bank_passes(words: list[int], width: int, banks: int = 32) -> list[dict[int, list[int]]]:
    """Découpe un accès en phases et chaque phase en passes, selon le modèle de l'étape 7.

    Rend, pour chaque phase, {passe: [(lane, mot), …]} : le k-ième mot distinct qui tombe
    dans un banc est servi à la passe k ; un mot lu par plusieurs lanes est diffusé.
    """
    lanes = len(words)
    per_phase = lanes // width
    phases = []
    for first in range(0, lanes, per_phase):
        rank: dict[int, int] = {}          # mot → passe
        count: dict[int, int] = {}         # banc → mots distincts déjà servis
        placed: dict[int, list[tuple[int, int]]] = {}
        for lane in range(first, first + per_phase):
            for i in range(width):
                word = words[lane] + i
                if word not in rank:
                    bank = word % banks
                    rank[word] = count.get(bank, 0)
                    count[bank] = rank[word] + 1
                placed.setdefault(rank[word], []).append((lane, word))
        phases.append(placed)
    return phases


def _check_model(access: dict, banks: int, label: str) -> list[dict]:
    phases = bank_passes(access["mots"], access["largeur"], banks)
    total = sum(len(p) for p in phases)
    worst = max(len(p) for p in phases)
    if total != access["passes"] or worst != access["degre"]:
        raise FigureError(f"{label} : le dessin compte {total} passes (pire phase {worst}), "
                          f"l'analyse de l'étape 7 {access['passes']} (degré {access['degre']})")
    return phases


def _bank_panel(canvas: Canvas, x0: float, y0: float, phase: dict, banks: int, width: int,
                cell: float, title: str, note: str) -> float:
    canvas.text(x0, y0, title, bold=True)
    canvas.text(x0, y0 + 17, note, fill=ALERT if len(phase) > 1 else C_STRONG, size=12)
    top = y0 + 28
    for b in range(banks):
        canvas.text(x0 + (b + 0.5) * cell, top + 10, str(b), size=8, anchor="middle", fill=MUTED)
    top += 14
    for p in range(max(len(phase), 1)):
        canvas.text(x0 - 6, top + p * cell + cell * 0.68, f"passe {p + 1}", size=10, anchor="end",
                    fill=MUTED)
    canvas.grid(x0, top, max(len(phase), 1), banks, cell, cell, NEUTRAL, GRID, 0.5)
    for p, entries in phase.items():
        by_lane: dict[int, list[int]] = {}
        for lane, word in entries:
            by_lane.setdefault(lane, []).append(word % banks)
        for lane, hit in by_lane.items():
            first, last = min(hit), max(hit)
            fill = ALERT if p > 0 else C_FILL
            canvas.rect(x0 + first * cell, top + p * cell, (last - first + 1) * cell, cell,
                        fill, C_STRONG if p == 0 else ALERT, 1)
            canvas.text(x0 + (first + last + 1) / 2 * cell, top + p * cell + cell * 0.7, str(lane),
                        size=10 if width == 1 else 11, anchor="middle",
                        fill=PAPER if p > 0 else INK)
    return top + max(len(phase), 1) * cell


def gemm_banks_step7(constants: dict) -> Figure:
    cfg = _section(constants, "etape7")
    banks = cfg["bancs"]
    cell = 19
    x0 = 80
    canvas_height = 0.0
    panels = []
    names = {"ecriture_a": "Écriture de A transposée", "lecture_b": "Lecture de B"}
    for key in ("ecriture_a", "lecture_b"):
        for when, label in (("avant", "étape 6"), ("apres", "étape 7")):
            access = cfg[when][key]
            phases = _check_model(access, banks, f"{names[key]}, {label}")
            panels.append((key, label, access, phases[0]))
    canvas = Canvas(x0 + banks * cell + 20, 4 * 105 + 40, "Bancs de mémoire partagée, étapes 6 et 7")
    y = 26.0
    for key, label, access, phase in panels:
        bits = 32 * access["largeur"]
        lanes = len(access["mots"]) // access["largeur"]
        scope = (f"les {lanes} lanes" if access["largeur"] == 1
                 else f"lanes 0 à {lanes - 1}, première des {access['largeur']} phases")
        title = f"{names[key]} ({bits} bits), {label} : {scope}"
        passes = len(phase)
        note = (f"{passes} passes : conflit de degré {passes}" if passes > 1
                else "1 passe : aucun conflit")
        y = _bank_panel(canvas, x0, y, phase, banks, access["largeur"], cell, title, note) + 34
        canvas_height = y
    canvas.text(x0, canvas_height - 12, f"Colonnes : les bancs 0 à {banks - 1} ; dans chaque case, "
                "la lane servie à cette passe.", size=11, fill=MUTED)
    canvas.height = canvas_height
    alt_parts = []
    for key, label, access, phase in panels:
        alt_parts.append(f"{names[key][0].lower()}{names[key][1:]} à l'{label} : {len(phase)} passe"
                         f"{'s' if len(phase) > 1 else ''}")
    alt = ("Bancs de mémoire partagée touchés par le warp 0, une colonne par banc (0 à "
           f"{banks - 1}), une ligne par passe, chaque case portant le numéro de la lane servie : "
           + " ; ".join(alt_parts) + ". La disposition de l'étape 7 ramène chaque accès à une passe.")
    caption = ("Les deux accès en conflit de l'étape 6, et les mêmes après la correction de "
               "l'étape 7 (modèle de passes de l'exemple, warp 0, premier pas).")
    return Figure(canvas.svg(), alt, caption)


# --- GEMM : mémoire partagée permutée pour ldmatrix (étape 13) --------------------------------

CHUNK_BYTES = 16  # un morceau : une ligne de matrice 8×8 de bf16 lue par ldmatrix (PTX ISA)


def _ldmatrix_tile_panel(canvas: Canvas, x0: float, y0: float, chunks: list[int], row_chunks: int,
                         banks: int, title: str) -> int:
    """Les 8 premières lignes de la tuile de A, rangées par lignes de 128 octets (une colonne par
    groupe de 4 bancs) ; en couleur, les morceaux k 0–7 que lit la matrice 0 de ldmatrix.
    Rend le plus grand nombre de ces morceaux dans un même groupe de bancs."""
    per_line = banks * 4 // CHUNK_BYTES          # morceaux par ligne de 128 octets
    cell_w, cell_h = 56, 24
    lines = 8 * row_chunks // per_line
    canvas.text(x0, y0, title, bold=True, size=12)
    top = y0 + 26
    for g in range(per_line):
        canvas.text(x0 + (g + 0.5) * cell_w, top - 6, f"{4 * g}–{4 * g + 3}", size=10,
                    anchor="middle", fill=MUTED)
    canvas.grid(x0, top, lines, per_line, cell_w, cell_h, NEUTRAL, GRID, 0.5)
    load: dict[int, int] = {}
    for index, chunk in enumerate(chunks):
        row, logical = divmod(index, row_chunks)
        line, group = divmod(chunk, per_line)
        read = logical == 0
        if read:
            load[group] = load.get(group, 0) + 1
        canvas.rect(x0 + group * cell_w, top + line * cell_h, cell_w, cell_h,
                    A_FILL if read else PAPER, A_STRONG if read else GRID, 1.5 if read else 0.5)
        canvas.text(x0 + (group + 0.5) * cell_w, top + line * cell_h + 16,
                    f"l{row} k{8 * logical}–{8 * logical + 7}", size=10, anchor="middle",
                    fill=INK if read else MUTED, bold=read)
    return max(load.values())


def gemm_ldmatrix_banks(constants: dict) -> Figure:
    cfg = _section(constants, "etape13")
    banks, row_chunks = cfg["bancs"], cfg["morceaux_a"]
    for layout in ("disposition_a_sans", "disposition_a_avec"):
        if len(cfg[layout]) != 8 * row_chunks:
            raise FigureError(f"étape 13 : {layout} ne décrit pas 8 lignes de {row_chunks} morceaux")
    names = {"lecture_a": "Lecture de A (ldmatrix)", "lecture_b": "Lecture de B (ldmatrix .trans)"}
    panels = []
    for key in ("lecture_a", "lecture_b"):
        for when, label in (("sans", "sans permutation"), ("avec", "avec permutation")):
            access = cfg[when][key]
            phases = _check_model(access, banks, f"étape 13, {names[key]}, {label}")
            panels.append((key, label, phases[0]))
    cell, x0 = 19, 80
    canvas = Canvas(x0 + banks * cell + 20, 900, "Mémoire partagée permutée pour ldmatrix, étape 13")
    tile_w = 8 * 56
    left, right = 20, 20 + tile_w + 40
    canvas.width = max(canvas.width, right + tile_w + 20)
    worst = {}
    for x, layout, label in ((left, "disposition_a_sans", "sans permutation"),
                             (right, "disposition_a_avec", "avec permutation")):
        worst[label] = _ldmatrix_tile_panel(canvas, x, 24, cfg[layout], row_chunks, banks,
                                            f"Tuile de A, lignes 0 à 7, {label}")
    a_passes = {label: len(phase) for key, label, phase in panels if key == "lecture_a"}
    if worst != a_passes:
        raise FigureError(f"étape 13 : la disposition dessinée donne {worst} passes, "
                          f"le modèle de bancs {a_passes}")
    per_line = banks * 4 // CHUNK_BYTES
    lines = 8 * row_chunks // per_line
    y = 24 + 26 + lines * 24 + 22
    canvas.text(left, y, "Colonnes : groupes de 4 bancs ; l : ligne de la tuile de A ; k : les 8 bf16 "
                "(16 octets) du morceau. En bleu, les 8 lignes que lit la matrice 0 d'un ldmatrix.",
                size=11, fill=MUTED)
    y += 36
    for key, label, phase in panels:
        passes = len(phase)
        note = (f"{passes} passes : conflit de degré {passes}" if passes > 1
                else "1 passe : aucun conflit")
        title = f"{names[key]}, {label} : matrice 0 (lanes 0 à 7, 16 octets chacune)"
        y = _bank_panel(canvas, x0, y, phase, banks, 4, cell, title, note) + 34
    canvas.text(x0, y - 12, f"Colonnes : les bancs 0 à {banks - 1} ; dans chaque case, la lane "
                "dont la ligne est servie à cette passe.", size=11, fill=MUTED)
    canvas.height = y
    alt_parts = [f"{names[key][0].lower()}{names[key][1:]} {label} : {len(phase)} passe"
                 f"{'s' if len(phase) > 1 else ''}" for key, label, phase in panels]
    alt = (f"En haut, les 8 premières lignes de la tuile de A de l'étape 13 ({row_chunks} morceaux "
           f"de 16 octets par ligne) rangées par lignes de 128 octets, une colonne par groupe de "
           f"4 bancs. Sans permutation, les 8 morceaux k 0–7 que lit une matrice de ldmatrix ne "
           f"tombent que dans {len({c % per_line for c in cfg['disposition_a_sans'][::row_chunks]})} "
           "groupes de bancs ; avec la permutation par OU exclusif, dans 8 groupes différents. "
           "En bas, les bancs touchés par la première matrice de ldmatrix du warp 0, une ligne "
           "par passe : " + " ; ".join(alt_parts) + ".")
    caption = ("La permutation par OU exclusif des morceaux de 16 octets : chaque matrice de "
               "ldmatrix lit ses 8 lignes en une passe (modèle de bancs de l'exemple, warp 0, "
               "premier pas).")
    return Figure(canvas.svg(), alt, caption)


# --- GEMM : coalescence (étapes 1 et 2) -------------------------------------------------------

def gemm_coalescing(constants: dict) -> Figure:
    warp = _section(constants, "etape7")["warp"]
    per_sector = SECTOR_BYTES // FLOAT_BYTES
    cell = 13
    shown_k = 2 * per_sector                 # colonnes de A dessinées pour chaque ligne
    left = 62
    top = 70
    sectors = warp // per_sector
    gap = 5                                  # espace entre deux secteurs, à droite
    x2 = left + shown_k * cell + 80
    canvas = Canvas(x2 + warp * cell + (sectors - 1) * gap + 20, top + warp * cell + 50,
                    "Accès d'un warp, étapes 1 et 2")
    # Étape 1 : le lane i lit A[i][kk] ; chaque lecture tombe dans un secteur différent.
    canvas.text(20, 24, "Étape 1 : lecture de A", bold=True)
    canvas.text(20, 42, "un flottant par ligne, lignes à 4·K octets d'écart", fill=MUTED)
    canvas.grid(left, top, warp, shown_k, cell, cell, NEUTRAL, GRID, 0.4)
    for r in range(warp):
        canvas.rect(left, top + r * cell, per_sector * cell, cell, "none", ALERT, 1.2)
        canvas.rect(left, top + r * cell, cell, cell, A_STRONG, INK, 0.6)
        if r in (0, warp - 1):
            canvas.text(left - 6, top + r * cell + cell * 0.75, f"lane {r}", size=10,
                        anchor="end", fill=MUTED)
    canvas.text(left, top + warp * cell + 20,
                f"{warp} secteurs de {SECTOR_BYTES} octets pour {warp * FLOAT_BYTES} octets utiles",
                fill=ALERT, bold=True)
    # Étape 2 : les lanes lisent B[kk][0..31], contigus.
    canvas.text(x2, 24, "Étape 2 : lecture de B", bold=True)
    canvas.text(x2, 42, f"{warp} flottants consécutifs d'une ligne", fill=MUTED)
    for c in range(warp):
        x = x2 + c * cell + (c // per_sector) * gap
        canvas.rect(x, top, cell, cell, B_STRONG, INK, 0.6)
        if c % per_sector == 0:
            canvas.text(x, top - 6, f"lane {c}", size=10, fill=MUTED)
    for sector in range(sectors):
        canvas.rect(x2 + sector * (per_sector * cell + gap), top, per_sector * cell, cell,
                    "none", C_STRONG, 2)
    canvas.text(x2, top + cell + 24,
                f"{sectors} secteurs de {SECTOR_BYTES} octets pour {warp * FLOAT_BYTES} octets utiles",
                fill=C_STRONG, bold=True)
    canvas.text(x2, top + cell + 60, f"Cadres : secteurs de {SECTOR_BYTES} octets", fill=MUTED)
    canvas.text(x2, top + cell + 78, "Cases pleines : les flottants lus par le warp", fill=MUTED)
    alt = (f"À gauche, l'étape 1 : les {warp} lanes d'un warp lisent chacune un flottant d'une "
           f"ligne différente de A ; chaque lecture occupe son propre secteur de {SECTOR_BYTES} "
           f"octets, soit {warp} secteurs pour {warp * FLOAT_BYTES} octets utiles. À droite, "
           f"l'étape 2 : les {warp} lanes lisent {warp} flottants consécutifs d'une ligne de B, "
           f"contenus dans {sectors} secteurs.")
    caption = (f"Un tour de boucle d'un warp : lectures à pas de K (étape 1) contre lectures "
               f"contiguës (étape 2), en secteurs de {SECTOR_BYTES} octets.")
    return Figure(canvas.svg(), alt, caption)


# --- Transposition par la mémoire partagée ----------------------------------------------------

def transpose_tile(constants: dict) -> Figure:
    cfg = _section(constants, "transposition")
    tile, rows, pad = cfg["tuile"], cfg["lignes_de_threads"], cfg["decalage"]
    passes = tile // rows
    cell = 6
    side = tile * cell
    top, gap = 70, 140
    xs = [20, 20 + side + gap, 20 + 2 * (side + gap) + pad * cell]
    canvas = Canvas(xs[2] + side + 20, top + side + 60, "Transposition par une tuile partagée")
    titles = [("in : lecture par lignes", "lectures coalescées"),
              (f"tuile partagée {tile} × {tile + pad}", "écrite par lignes, lue par colonnes"),
              ("out : écriture par lignes", "écritures coalescées")]
    for x, (title, sub) in zip(xs, titles):
        canvas.text(x, 24, title, bold=True)
        canvas.text(x, 42, sub, fill=MUTED)
    shades = [A_FILL, "#c4d5ee", A_FILL, "#c4d5ee"]
    for p in range(passes):
        canvas.rect(xs[0], top + p * rows * cell, side, rows * cell, shades[p % len(shades)], GRID, 0.5)
        canvas.text(xs[0] + side + 6, top + (p + 0.5) * rows * cell + 4, f"passe {p + 1}",
                    size=10, fill=MUTED)
    canvas.rect(xs[0], top, side, cell, A_STRONG, INK, 0.8)
    # Tuile partagée : la ligne écrite par le warp 0, la colonne qu'il relit.
    canvas.rect(xs[1], top, (tile + pad) * cell, side, NEUTRAL, GRID, 0.5)
    if pad:
        canvas.rect(xs[1] + tile * cell, top, pad * cell, side, "#ffffff", GRID, 0.5, dash="2 2")
    canvas.rect(xs[1], top, tile * cell, cell, A_STRONG, INK, 0.8)
    canvas.rect(xs[1], top, cell, side, B_STRONG, INK, 0.8)
    # out : la ligne écrite à partir de cette colonne.
    canvas.rect(xs[2], top, side, side, NEUTRAL, GRID, 0.5)
    canvas.rect(xs[2], top, side, cell, B_STRONG, INK, 0.8)
    arrows = ((xs[0] + side + 56, xs[1] - 8, "tile[y][x] ← in", "écriture"),
              (xs[1] + (tile + pad) * cell + 8, xs[2] - 8, "out ← tile[x][y]", "après __syncthreads"))
    for a, b, above, below in arrows:
        canvas.line(a, top + side / 2, b, top + side / 2, MUTED, 1.5, arrow=True)
        canvas.text((a + b) / 2, top + side / 2 - 8, above, size=10, anchor="middle")
        canvas.text((a + b) / 2, top + side / 2 + 16, below, size=10, anchor="middle", fill=MUTED)
    canvas.text(20, top + side + 26, f"Bloc de {tile} × {rows} threads : {passes} passes de {rows} "
                "lignes. En bleu, la ligne lue puis écrite par le warp 0 ;", size=12, fill=MUTED)
    canvas.text(20, top + side + 44, "en orange, la colonne qu'il relit après la barrière, qui "
                "devient une ligne de out.", size=12, fill=MUTED)
    alt = (f"Trois tuiles de {tile} lignes. À gauche, la tuile de la matrice lue, parcourue "
           f"par un bloc de {tile} × {rows} threads en {passes} passes de {rows} lignes ; un warp "
           f"lit une ligne entière. Au milieu, la tuile en mémoire partagée, de {tile} × "
           f"{tile + pad} flottants, écrite ligne par ligne puis relue colonne par colonne après "
           "la barrière. À droite, la matrice écrite : chaque colonne relue y devient une ligne, "
           "écrite d'un seul tenant.")
    caption = ("La transposition passe par la mémoire partagée : lectures et écritures en "
               "mémoire globale restent coalescées, seul l'ordre de lecture de la tuile change.")
    return Figure(canvas.svg(), alt, caption)


def transpose_banks(constants: dict) -> Figure:
    cfg = _section(constants, "transposition")
    banks = _section(constants, "etape7")["bancs"]
    tile, pad = cfg["tuile"], cfg["decalage"]
    cell = 12
    top, gap = 70, 50
    x_left = 20
    x_right = x_left + tile * cell + gap
    canvas = Canvas(x_right + (tile + pad) * cell + 20, top + tile * cell + 50,
                    "Bancs d'une tuile de transposition")
    for x, width in ((x_left, tile), (x_right, tile + pad)):
        canvas.text(x, 24, f"float tile[{tile}][{width}]", bold=True)
        conflicts = max(sum(1 for r in range(tile) if (r * width) % banks == b) for b in range(banks))
        canvas.text(x, 42, (f"colonne lue : {conflicts} lanes sur un même banc" if conflicts > 1
                            else "colonne lue : 32 bancs différents"),
                    fill=ALERT if conflicts > 1 else C_STRONG, size=12)
        for r in range(tile):
            for c in range(width):
                bank = (r * width + c) % banks
                fill = "#f3b98c" if bank == 0 else NEUTRAL
                canvas.rect(x + c * cell, top + r * cell, cell, cell, fill, GRID, 0.3)
            bank = (r * width) % banks
            canvas.rect(x, top + r * cell, cell, cell, B_STRONG if bank == 0 else C_STRONG, INK, 0.5)
            canvas.text(x + cell / 2, top + r * cell + cell * 0.75, str(bank), size=7,
                        anchor="middle", fill=PAPER)
    canvas.text(x_left, top + tile * cell + 22,
                "Première colonne, lue par un warp : le banc de chaque élément. En orange : "
                "les mots du banc 0.", size=12, fill=MUTED)
    alt = (f"Deux grilles de {tile} lignes. Dans la tuile de {tile} × {tile}, tous les éléments "
           f"de la première colonne, lus ensemble par un warp, sont dans le banc 0 : {tile} "
           f"passes. Dans la tuile de {tile} × {tile + pad}, la colonne de décalage fait avancer "
           f"le banc d'une unité à chaque ligne : les {tile} éléments de la colonne occupent "
           f"{tile} bancs différents, et les mots du banc 0 forment une diagonale.")
    caption = (f"Le même accès par colonne sur une tuile {tile} × {tile} (conflit de degré "
               f"{tile}) et {tile} × {tile + pad} (aucun conflit).")
    return Figure(canvas.svg(), alt, caption)


# --- GEMM : double tampon (étape 10) -----------------------------------------------------------

def gemm_double_buffer(constants: dict) -> Figure:
    bk = _step(constants, 10)["tuile_k"]
    if _step(constants, 9)["tuile_k"] != bk:
        raise FigureError("étapes 9 et 10 : profondeurs de tuile différentes, la comparaison ne tient plus")
    tiles, stages = 4, 2                    # tuiles dessinées ; « double » tampon : deux
    unit, label_w, row_h = 76, 100, 30
    canvas = Canvas(label_w + 2 * tiles * unit + 30, 282, "Chronologie du double tampon")

    def box(row_y, start, length, fill, stroke, text, text_fill=INK):
        canvas.rect(label_w + start * unit, row_y, length * unit - 4, row_h - 6, fill, stroke, 1)
        canvas.text(label_w + (start + length / 2) * unit - 2, row_y + row_h * 0.55, text, size=11,
                    anchor="middle", fill=text_fill)

    canvas.text(20, 24, f"Étape 9 : un tampon (tuiles de {bk} en K)", bold=True)
    y = 40
    canvas.text(label_w - 10, y + 17, "chargement", size=11, anchor="end", fill=MUTED)
    canvas.text(label_w - 10, y + row_h + 17, "calcul", size=11, anchor="end", fill=MUTED)
    for t in range(tiles):
        box(y, 2 * t, 1, A_FILL, A_STRONG, f"tuile {t}")
        box(y + row_h, 2 * t + 1, 1, C_FILL, C_STRONG, f"tuile {t}")
    canvas.text(20, 148, f"Étape 10 : {stages} tampons, copies asynchrones", bold=True)
    y = 164
    canvas.text(label_w - 10, y + 17, "copies", size=11, anchor="end", fill=MUTED)
    canvas.text(label_w - 10, y + row_h + 17, "calcul", size=11, anchor="end", fill=MUTED)
    for t in range(tiles):
        stage = t % stages
        fills = (A_FILL, "#c4d5ee")
        box(y, t, 1, fills[stage], A_STRONG, f"tuile {t} → T{stage}")
        box(y + row_h, t + 1, 1, C_FILL, C_STRONG, f"tuile {t} (T{stage})")
    end9, end10 = 2 * tiles, tiles + 1
    for end, yy in ((end9, 40), (end10, 164)):
        canvas.line(label_w + end * unit - 2, yy - 6, label_w + end * unit - 2, yy + 2 * row_h,
                    INK, 1.5, "4 3")
    canvas.text(20, 250, f"Durées schématiques, non mesurées (chargement = calcul) : {tiles} tuiles "
                f"en {end9} unités de temps sans recouvrement,", size=12, fill=MUTED)
    canvas.text(20, 268, f"en {end10} avec. T0, T1 : les deux tampons de mémoire partagée, "
                "utilisés à tour de rôle.", size=12, fill=MUTED)
    alt = (f"Deux chronologies de {tiles} tuiles de {bk} en K. À l'étape 9, chargement et calcul "
           f"de chaque tuile se suivent sans se recouvrir : {end9} unités de temps. À l'étape 10, "
           f"la copie asynchrone de la tuile suivante, vers l'autre des {stages} tampons, se fait "
           f"pendant le calcul de la tuile courante : {end10} unités de temps, avec des durées "
           "schématiques égales pour le chargement et le calcul.")
    caption = ("Chronologie schématique : avec deux tampons, la copie de la tuile suivante "
               "recouvre le calcul de la tuile courante.")
    return Figure(canvas.svg(), alt, caption)


# --- GEMM, étape 14 : TMA, wgmma et pipeline d'étages ----------------------------------------

def gemm_tma_wgmma(constants: dict) -> Figure:
    cfg = _section(constants, "etape14")
    bm, bn, bk = cfg["block_m"], cfg["block_n"], cfg["block_k"]
    stages, threads, wm, wk, box = cfg["stages"], cfg["threads"], cfg["wgmma_m"], cfg["wgmma_k"], cfg["box_cols"]
    if threads != 128:
        raise FigureError(f"étape 14 : {threads} threads, or un warpgroup en compte 128")
    if bm % wm or bn % box or bk % wk:
        raise FigureError("étape 14 : la tuile n'est pas faite de wgmma et de boîtes TMA entiers")
    if stages < 2:
        raise FigureError("étape 14 : un pipeline demande au moins deux étages")
    halves, boxes, warps, kk = bm // wm, bn // box, threads // 32, bk // wk
    rows_per_warp = wm // warps
    scale = 2.0
    tiles = 2 * stages + 1                                  # tuiles dessinées dans la chronologie
    unit, label_w, row_h = 70, 110, 30
    width = max(label_w + (tiles + 2) * unit + 20, 760)
    top = 50
    c_x, c_y = 40 + bk * scale + 20, top + bk * scale + 20
    y0 = c_y + bm * scale + 60                              # haut de la chronologie
    height = y0 + stages * row_h + 60
    canvas = Canvas(width, height, "TMA, wgmma et pipeline de l'étape 14")
    canvas.text(20, 24, f"Une tuile {bm} × {bn} de C, un warpgroup de {threads} threads", bold=True)
    # B : boîtes TMA de box colonnes, au-dessus de C.
    for b in range(boxes):
        canvas.rect(c_x + b * box * scale, top, box * scale, bk * scale, B_FILL, B_STRONG, 1.5)
        canvas.text(c_x + (b + 0.5) * box * scale, top + bk * scale / 2 + 4, f"boîte TMA {b}",
                    size=11, anchor="middle")
    canvas.text(c_x + bn * scale + 10, top + bk * scale / 2 + 4, f"B : {bk} × {bn}, N contigu", size=12)
    # A : une boîte TMA, à gauche de C.
    canvas.rect(40, c_y, bk * scale, bm * scale, A_FILL, A_STRONG, 1.5)
    canvas.text(40 + bk * scale / 2, c_y + bm * scale / 2, "boîte", size=11, anchor="middle")
    canvas.text(40 + bk * scale / 2, c_y + bm * scale / 2 + 14, "TMA", size=11, anchor="middle")
    canvas.text(40, c_y + bm * scale + 18, f"A : {bm} × {bk}, K contigu", size=12)
    # C : une bande par wgmma de wm lignes, rayée par warp.
    for h in range(halves):
        y = c_y + h * wm * scale
        for w in range(warps):
            canvas.rect(c_x, y + w * rows_per_warp * scale, bn * scale, rows_per_warp * scale,
                        C_FILL if w % 2 == 0 else "#c6e4cb", C_STRONG, 0.5)
            canvas.text(c_x + bn * scale - 6, y + (w + 0.7) * rows_per_warp * scale, f"warp {w}", size=10,
                        anchor="end", fill=MUTED)
        canvas.rect(c_x, y, bn * scale, wm * scale, "none", C_STRONG, 2)
        canvas.text(c_x + bn * scale * 0.42, y + wm * scale / 2 + 4, f"wgmma m{wm}n{bn}k{wk} n° {h}", size=12,
                    anchor="middle", bold=True)
    canvas.text(c_x + bn * scale + 10, c_y + 16, f"C : {bm} × {bn} en fp32,", size=12)
    canvas.text(c_x + bn * scale + 10, c_y + 32, f"{halves} × {wm * bn // threads} accumulateurs", size=12)
    canvas.text(c_x + bn * scale + 10, c_y + 48, "par thread", size=12)
    canvas.text(c_x + bn * scale + 10, c_y + 72, f"{halves} × {kk} wgmma par étage", size=12)
    # Chronologie : une ligne par étage ; la tuile j va dans l'étage j mod stages.
    canvas.text(20, y0 - 12, f"Pipeline de {stages} étages (durées schématiques, non mesurées)", bold=True)

    def load_start(j: int) -> int:
        # Les premières tuiles partent d'emblée ; ensuite, un étage se recharge dès que les wgmma
        # de la tuile qu'il tenait sont finis (wait_group 1, à la fin de l'itération suivante).
        return 0 if j < stages else j - stages + 2

    for s in range(stages):
        y = y0 + s * row_h
        canvas.text(label_w - 10, y + 18, f"étage {s}", size=11, anchor="end", fill=MUTED)
    for j in range(tiles):
        y = y0 + (j % stages) * row_h
        start = load_start(j)
        canvas.rect(label_w + start * unit, y, unit - 4, row_h - 6, A_FILL, A_STRONG, 1)
        canvas.text(label_w + (start + 0.5) * unit - 2, y + 16, f"TMA {j}", size=10, anchor="middle")
        canvas.rect(label_w + (j + 1) * unit, y, unit - 4, row_h - 6, C_FILL, C_STRONG, 1)
        canvas.text(label_w + (j + 1.5) * unit - 2, y + 16, f"wgmma {j}", size=10, anchor="middle")
    note_y = y0 + stages * row_h + 20
    canvas.text(20, note_y, f"TMA j : le thread 0 copie A et B de la tranche j de K ({bk} de profondeur) ; "
                f"wgmma j : le warpgroup en fait {halves * kk} wgmma.", size=12, fill=MUTED)
    canvas.text(20, note_y + 18, "Un étage n'est rechargé qu'une fois finis les wgmma qui le lisaient ; "
                "le calcul attend ses octets sur un mbarrier.", size=12, fill=MUTED)
    alt = (f"En haut, la tuile {bm} × {bn} de C d'un bloc, entre la tuile {bm} × {bk} de A (une boîte TMA, "
           f"K contigu) et la tuile {bk} × {bn} de B ({boxes} boîtes TMA de {box} colonnes, N contigu). C est "
           f"coupée en {halves} bandes de {wm} lignes, chacune calculée par un wgmma m{wm}n{bn}k{wk} du "
           f"warpgroup de {threads} threads ; dans chaque bande, chacun des {warps} warps tient {rows_per_warp} "
           f"lignes d'accumulateurs. En bas, une chronologie schématique, non mesurée, de {tiles} tuiles de K "
           f"sur {stages} étages : les {stages} premières copies TMA partent d'emblée ; chaque étage est "
           "rechargé par la TMA dès que les wgmma de la tuile qu'il tenait sont finis, pendant que le "
           "warpgroup calcule sur les autres étages.")
    caption = (f"Tuiles, warpgroup et pipeline de {stages} étages de l'étape 14 ; durées schématiques, "
               "non mesurées.")
    return Figure(canvas.svg(), alt, caption)


# --- GEMM : ordres des tuiles d'un noyau persistant (étape 17) -------------------------------

def _bands(count: int) -> str:
    return f"{count} bande" + ("s" if count > 1 else "")


def gemm_tile_orders(constants: dict) -> Figure:
    cfg = _section(constants, "etape17")
    tm, tn, group, wave = cfg["tuiles_m"], cfg["tuiles_n"], cfg["groupe"], cfg["vague"]
    orders = cfg["ordres"]
    if len(orders) != 3:
        raise FigureError(f"étape 17 : {len(orders)} ordres, la figure en compare trois")
    for order in orders:
        if len(order["m"]) != tm * tn or len(set(zip(order["m"], order["n"]))) != tm * tn:
            raise FigureError(f"étape 17 : l'ordre « {order['nom']} » ne visite pas chaque tuile une fois")
    cell, gap, margin, top = 14, 48, 30, 70
    side_w, side_h = tn * cell, tm * cell
    width = 2 * margin + 3 * side_w + 2 * gap
    height = top + side_h + 80
    canvas = Canvas(width, height, "Trois ordres de parcours des tuiles de C (étape 17)")
    canvas.text(margin - 10, 24, f"Ordre des {tm} × {tn} tuiles de C ; en vert, la première vague de {wave} blocs",
                bold=True)
    counts = []
    for index, order in enumerate(orders):
        x0 = margin + index * (side_w + gap)
        path = list(zip(order["m"], order["n"]))
        first = set(path[:wave])
        rows = sorted({m for m, _ in first})
        cols = sorted({n for _, n in first})
        counts.append((order["nom"], len(rows), len(cols)))
        canvas.text(x0 + side_w / 2, top - 26, order["nom"], size=14, anchor="middle", bold=True)
        for i in range(tm):
            for j in range(tn):
                canvas.rect(x0 + j * cell, top + i * cell, cell, cell, C_FILL if (i, j) in first else PAPER,
                            GRID, 0.5)
        # Les bandes de A (lignes de tuiles) et de B (colonnes) que lit la première vague.
        for m in rows:
            canvas.rect(x0 - 8, top + m * cell + 1, 5, cell - 2, A_STRONG, A_STRONG, 0.5)
        for n in cols:
            canvas.rect(x0 + n * cell + 1, top - 8, cell - 2, 5, B_STRONG, B_STRONG, 0.5)
        canvas.polyline([(x0 + (n + 0.5) * cell, top + (m + 0.5) * cell) for m, n in path], stroke=INK, width=1)
        canvas.circle(x0 + (path[0][1] + 0.5) * cell, top + (path[0][0] + 0.5) * cell, 3)
        canvas.text(x0 + side_w / 2, top + side_h + 22, f"{_bands(len(rows))} de A + {len(cols)} de B",
                    size=12, anchor="middle")
        canvas.text(x0 + side_w / 2, top + side_h + 38, f"pour {wave} tuiles", size=12, anchor="middle",
                    fill=MUTED)
    canvas.text(margin - 10, height - 14, "En bleu, les bandes de A lues par la vague ; en orange, celles de B ; "
                "le trait suit l'ordre depuis le point noir.", size=12, fill=MUTED)
    described = " ; ".join(f"{name}, {_bands(r)} de A et {c} de B" for name, r, c in counts)
    alt = (f"Trois grilles de {tm} × {tn} tuiles de C, chacune traversée par un trait qui suit un ordre de "
           f"parcours : en lignes (toute une ligne de tuiles, puis la suivante), groupé (bandes de {group} lignes "
           "de tuiles, parcourues colonne par colonne) et selon une courbe de Hilbert (de case voisine en case "
           f"voisine, par quadrants). Les {wave} premières tuiles de chaque ordre, celles d'une vague de {wave} "
           "blocs, sont en vert ; des marques en bleu à gauche et en orange au-dessus désignent les bandes de A "
           f"et de B qu'elles lisent. Par ordre, la vague lit : {described}.")
    caption = (f"Les trois ordres de l'étape 17 sur une grille de {tm} × {tn} tuiles : moins une vague lit de "
               "bandes de A et de B, plus le cache L2 en sert de fois chaque octet.")
    return Figure(canvas.svg(), alt, caption)


# --- GEMM : quantification en vagues et Stream-K (étape 19) --------------------------------

def _stream_k_choice(shape: dict) -> tuple[str, str]:
    """Ce que choisit la partition hybride pour une forme : texte de la figure, puis du texte alternatif."""
    whole, shared = shape["tuiles_entieres"], shape["tuiles_partagees"]
    if shared == 0:
        return "toutes entières, sans réduction", "toutes les tuiles entières"
    share = (f"{shape['part_min']}" if shape["part_min"] == shape["part_max"]
             else f"{shape['part_min']} ou {shape['part_max']}")
    iterations = "itération" + ("s" if shape["part_max"] > 1 else "")
    split = (f"{french_number(whole, 0)} entières, {french_number(shared, 0)} partagées" if whole
             else f"toutes partagées ({french_number(shared, 0)})")
    return (f"{split} : {share} {iterations} de K par bloc ({shape['blocs_grille']} blocs)",
            f"{split}, {share} {iterations} de K par bloc")


def gemm_stream_k_waves(constants: dict) -> Figure:
    """Vagues de tuiles entières sur un H100/H200, par côté du benchmark bf16, et choix de la partition hybride."""
    cfg = _section(constants, "etape19")
    sms, per_sm, blocks = cfg["sm"], cfg["blocs_par_sm"], cfg["blocs"]
    if blocks != sms * per_sm:
        raise FigureError(f"étape 19 : {blocks} blocs, mais {sms} SM × {per_sm} blocs par SM")
    shapes = cfg["formes"]
    for shape in shapes:
        tiles, waves, last = shape["tuiles"], shape["vagues"], shape["derniere_vague"]
        if (waves - 1) * blocks + last != tiles or not 0 < last <= blocks:
            raise FigureError(f"étape 19 : {tiles} tuiles ne font pas {waves} vagues dont la dernière de {last}")
        if abs(shape["efficacite_pour_mille"] - 1000 * tiles / (waves * blocks)) > 0.5:
            raise FigureError(f"étape 19, côté {shape['cote']} : efficacité incohérente avec les vagues")
        whole, shared, grid = shape["tuiles_entieres"], shape["tuiles_partagees"], shape["blocs_grille"]
        if whole + shared != tiles or min(whole, shared) < 0:
            raise FigureError(f"étape 19, côté {shape['cote']} : {whole} tuiles entières et {shared} partagées "
                              f"ne font pas {tiles}")
        low, high = shape["part_min"], shape["part_max"]
        if shared and not (low <= high <= low + 1 and low * grid <= shared * shape["iterations_par_tuile"] <= high * grid):
            raise FigureError(f"étape 19, côté {shape['cote']} : parts Stream-K de {low} à {high} itérations "
                              f"incohérentes avec {shared} tuiles partagées sur {grid} blocs")
    most = max(s["vagues"] for s in shapes)
    left, bar_w, row_h, top = 80, 640, 58, 70
    unit = bar_w / most
    width, height = left + bar_w + 140, top + row_h * len(shapes) + 50
    canvas = Canvas(width, height, "Quantification en vagues et partition Stream-K hybride (étape 19)")
    canvas.text(12, 24, f"Tuiles 128 × 128 entières sur {sms} SM × {per_sm} blocs = {blocks} blocs : "
                "chaque case est une vague", bold=True)
    lines = []
    for row, shape in enumerate(shapes):
        y = top + row * row_h
        side, tiles, waves, last = shape["cote"], shape["tuiles"], shape["vagues"], shape["derniere_vague"]
        whole = shape["tuiles_entieres"]
        efficiency = french_number(shape["efficacite_pour_mille"] / 10, 1)
        canvas.text(left - 12, y + 15, f"{french_number(side, 0)}³", size=13, anchor="end", bold=True)
        for wave in range(waves):
            x = left + wave * unit
            first, count = wave * blocks, (last if wave == waves - 1 else blocks)
            kept = max(0, min(count, whole - first))  # tuiles entières de cette vague
            canvas.rect(x, y, unit, 20, PAPER, GRID, 0.8)
            if kept:
                canvas.rect(x, y, unit * kept / blocks, 20, C_FILL, C_STRONG, 0.8)
            if count > kept:
                canvas.rect(x + unit * kept / blocks, y, unit * (count - kept) / blocks, 20, B_FILL, B_STRONG, 0.8)
        shown, described = _stream_k_choice(shape)
        text = (f"{french_number(tiles, 0)} tuiles, {waves} vague{'s' if waves > 1 else ''}, dernière à "
                f"{last}/{blocks} : {efficiency} % ; {shown}")
        canvas.text(left, y + 38, text, size=12, fill=MUTED)
        lines.append(f"{french_number(side, 0)}³, {french_number(tiles, 0)} tuiles, {waves} vague{'s' if waves > 1 else ''}, dernière remplie à "
                     f"{last} sur {blocks}, efficacité {efficiency} %, {described}")
    canvas.text(12, height - 14, "En vert, les tuiles entières ; en orange, les tuiles partagées en Stream-K ; "
                "calculé, non mesuré.", size=12, fill=MUTED)
    alt = (f"Pour chaque côté du benchmark bf16, une barre de cases, une par vague de {blocks} tuiles ({sms} SM "
           f"d'un H100 ou d'un H200, {per_sm} blocs par SM) ; la dernière case n'est remplie qu'en partie. "
           "Le remplissage est vert pour les tuiles que la partition hybride garde entières, orange pour celles "
           "qu'elle partage en Stream-K. Par côté : " + " ; ".join(lines) + ".")
    caption = (f"Quantification en vagues sur {sms} SM et choix de la partition hybride, calculés par la logique "
               "hôte de l'étape 19 : Stream-K seulement quand la dernière vague est moins qu'à moitié pleine.")
    return Figure(canvas.svg(), alt, caption)


# --- GEMM : spécialisation des warps (étapes 15 et 16) ---------------------------------------

def _producer_consumer_schedule(stages: int, tiles: int) -> list[dict]:
    """Frise schématique (durées unitaires, non mesurées) du pipeline producteur/consommateurs.

    La copie j part dès que son étage est vide ; elle « remplit » l'étage une unité plus tard
    (fin de phase du mbarrier plein). Le calcul j commence quand l'étage est plein et que le
    calcul j − 1 est fini ; l'étage de la tuile j est rendu (mbarrier vide) à la fin du calcul
    j + 1, quand wgmma.wait_group 1 garantit que les wgmma de la tuile j sont finis.
    """
    rows: list[dict] = []
    for j in range(tiles):
        load = 0 if j < stages else rows[j - stages]["empty"]
        full = load + 1
        compute = max(full, rows[j - 1]["compute"] + 1 if j else 0)
        rows.append({"tile": j, "stage": j % stages, "load": load, "full": full, "compute": compute})
        if j:
            rows[j - 1]["empty"] = compute + 1
    rows[-1]["empty"] = rows[-1]["compute"] + 1
    return rows


def _warp_specialized(constants: dict, key: str, step: int) -> Figure:
    cfg = _section(constants, key)
    stages, consumers, threads = cfg["stages"], cfg["consumers"], cfg["threads"]
    bm, bn, bk = cfg["block_m"], cfg["block_n"], cfg["block_k"]
    low, high = cfg["producer_registers"], cfg["consumer_registers"]
    if threads != 128 * (1 + consumers):
        raise FigureError(f"étape {step} : {threads} threads pour {consumers} consommateur(s) et un producteur")
    if stages < 2:
        raise FigureError(f"étape {step} : un pipeline demande au moins deux étages")
    entry = cfg["entry_registers"]  # au plus, par thread, à l'entrée du noyau : la réserve du bloc
    total, reserve = 128 * (low + consumers * high), threads * entry
    if total > reserve:
        raise FigureError(f"étape {step} : {total} registres demandés, la réserve du bloc n'en a que "
                          f"{threads} × {entry} = {reserve}")
    tiles = 2 * stages + 2
    schedule = _producer_consumer_schedule(stages, tiles)
    end = max(r["empty"] for r in schedule)
    unit, label_w, row_h = 54, 150, 34
    width = label_w + (end + 1) * unit + 20
    top = 96
    height = top + (stages + 1 + consumers) * row_h + 84
    canvas = Canvas(width, height, f"Pipeline producteur/consommateurs de l'étape {step}")
    canvas.text(20, 24, f"Tuile {bm} × {bn} × {bk}, {threads} threads : un groupe de warps producteur et "
                f"{consumers} consommateur{'s' if consumers > 1 else ''}", bold=True)
    canvas.text(20, 46, f"setmaxnreg : producteur {low} registres par thread, consommateurs {high} ; "
                f"128 × ({low} + {consumers} × {high}) = {french_number(total, 0)} registres, dans la réserve du bloc : "
                f"au plus {threads} × {entry} = {french_number(reserve, 0)}", size=12, fill=MUTED)
    canvas.text(20, 66, f"{bm // consumers} lignes de C par consommateur ; durées schématiques, non mesurées",
                size=12, fill=MUTED)

    def box(row: int, start: float, length: float, fill: str, stroke: str, text: str):
        y = top + row * row_h
        canvas.rect(label_w + start * unit, y, length * unit - 3, row_h - 8, fill, stroke, 1)
        canvas.text(label_w + (start + length / 2) * unit - 1, y + row_h * 0.5, text, size=10, anchor="middle")

    canvas.text(label_w - 10, top + row_h * 0.55, "producteur (thread 0)", size=11, anchor="end", fill=MUTED)
    for c in range(consumers):
        canvas.text(label_w - 10, top + (1 + c) * row_h + row_h * 0.55, f"consommateur {c}", size=11,
                    anchor="end", fill=MUTED)
    first_stage_row = 1 + consumers
    for s in range(stages):
        canvas.text(label_w - 10, top + (first_stage_row + s) * row_h + row_h * 0.55, f"étage {s}", size=11,
                    anchor="end", fill=MUTED)
    for r in schedule:
        box(0, r["load"], 1, A_FILL, A_STRONG, f"TMA {r['tile']}")
        for c in range(consumers):
            box(1 + c, r["compute"], 1, C_FILL, C_STRONG, f"wgmma {r['tile']}")
        y = top + (first_stage_row + r["stage"]) * row_h
        # L'étage est occupé de la copie jusqu'à ce qu'il soit rendu.
        canvas.rect(label_w + r["load"] * unit, y, (r["empty"] - r["load"]) * unit - 3, row_h - 8,
                    NEUTRAL, GRID, 0.8)
        canvas.text(label_w + r["load"] * unit + 4, y + row_h * 0.5, f"tuile {r['tile']}", size=10)
        canvas.text(label_w + r["full"] * unit, y + row_h * 0.5, "▲ plein", size=10, fill=C_STRONG)
        canvas.text(label_w + r["empty"] * unit - 6, y + row_h * 0.5, "▼ vide", size=10, anchor="end",
                    fill=ALERT)
    note_y = top + (first_stage_row + stages) * row_h + 18
    canvas.text(20, note_y, f"▲ plein : les octets de la TMA sont arrivés (1 arrivée + {bm * bk * 2 + bk * bn * 2} "
                "octets attendus) ; le calcul peut commencer.", size=12, fill=MUTED)
    canvas.text(20, note_y + 18, f"▼ vide : les {4 * consumers} warps consommateurs ont fini de lire l'étage "
                "(wgmma.wait_group 1, puis une arrivée par warp) ;", size=12, fill=MUTED)
    canvas.text(20, note_y + 36, "le producteur attend « vide » avant d'y recopier la tuile qui vient "
                f"{stages} plus loin.", size=12, fill=MUTED)
    alt = (f"Frise schématique, non mesurée, du pipeline de l'étape {step} : {tiles} tranches de K de {bk} "
           f"sur {stages} étages. En haut, le thread 0 du groupe de warps producteur lance la copie TMA de "
           f"chaque tranche ; en dessous, {consumers} groupe{'s' if consumers > 1 else ''} de warps "
           f"consommateur{'s' if consumers > 1 else ''} lance{'nt' if consumers > 1 else ''} les wgmma de "
           "la tranche quand son étage est plein. Une ligne par étage montre quand il est occupé : il "
           "devient plein à l'arrivée des octets, et vide quand les wgmma de la tranche sont finis ; "
           f"ce n'est qu'alors que le producteur y copie la tranche {stages} plus loin. setmaxnreg donne "
           f"{low} registres par thread au producteur et {high} aux consommateurs.")
    caption = (f"Producteur et consommateurs de l'étape {step}, reliés par les mbarrier « plein » et "
               "« vide » de chaque étage ; durées schématiques, non mesurées.")
    return Figure(canvas.svg(), alt, caption)


def gemm_warp_specialized(constants: dict) -> Figure:
    return _warp_specialized(constants, "etape15", 15)


def gemm_two_consumers(constants: dict) -> Figure:
    return _warp_specialized(constants, "etape16", 16)


def gemm_cluster_multicast(constants: dict) -> Figure:
    cfg = _section(constants, "etape18")
    bm, bn, bk = cfg["block_m"], cfg["block_n"], cfg["block_k"]
    cluster, boxes, box_cols = cfg["cluster"], cfg["b_boxes_per_block"], cfg["box_cols"]
    a_bytes, b_bytes, consumers = cfg["a_bytes"], cfg["b_bytes"], cfg["consumers"]
    part = boxes * box_cols          # colonnes de B que charge chaque bloc
    if part * cluster != bn:
        raise FigureError(f"étape 18 : {cluster} parts de {part} colonnes ne couvrent pas les {bn} colonnes de B")
    if a_bytes != bm * bk * 2 or b_bytes != bk * bn * 2:
        raise FigureError("étape 18 : octets d'un étage incohérents avec la tuile")
    if cluster != 2:
        raise FigureError(f"étape 18 : la figure dessine un cluster de 2 blocs, pas de {cluster}")
    scale = 1.0                      # pixels par élément
    a_w, a_h = bk * scale, bm * scale
    b_w, b_h = bn * scale, bk * scale
    block_w = a_w + b_w + 70
    left, gap = 30, 60
    width = left + 2 * block_w + gap + 30
    b_x, b_y = (width - b_w) / 2, 120           # B (globale) en haut, au milieu
    top = b_y + b_h + 90                        # les deux blocs en dessous
    height = top + a_h + 160
    canvas = Canvas(width, height, "Cluster de deux blocs et diffusion TMA de la tuile de B (étape 18)")
    canvas.text(20, 24, f"Cluster de {cluster} blocs voisins en M : même bande de {bn} colonnes de C, donc même "
                f"tuile de B ({bk} × {bn})", bold=True)
    canvas.text(20, 46, f"Chaque bloc charge {part} colonnes de B ({boxes} boîtes de {bk} × {box_cols}) et les "
                f"diffuse (.multicast::cluster) ; il charge seul sa tuile de A ({bm} × {bk}).", size=12, fill=MUTED)
    canvas.text(20, 66, "Schéma, pas à l'échelle des durées ; rien n'y est mesuré.", size=12, fill=MUTED)
    # B en mémoire globale : une part par rang.
    canvas.text(b_x + b_w / 2, b_y - 12, "B (globale)", size=12, anchor="middle", bold=True)
    colors = [(B_FILL, B_STRONG), ("#e4dcf3", "#6b4fa8")]
    for r in range(cluster):
        fill, stroke = colors[r]
        canvas.rect(b_x + r * part * scale, b_y, part * scale, b_h, fill, stroke, 1.2)
        canvas.text(b_x + (r + 0.5) * part * scale, b_y + b_h / 2 + 4, f"part {r}", size=11, anchor="middle")
    for b in range(cluster):
        x0 = left + b * (block_w + gap)
        canvas.rect(x0, top - 10, block_w, a_h + 100, "none", MUTED, 1, dash="4 3")
        # Le titre en bas du bloc : en haut, les flèches venues de B le traverseraient.
        canvas.text(x0 + 10, top + a_h + 78, f"bloc de rang {b} : lignes {b * bm} à {(b + 1) * bm - 1} du cluster",
                    size=12, bold=True)
        ax, ay = x0 + 20, top + 10
        bx, by = ax + a_w + 30, top + 10
        canvas.rect(ax, ay, a_w, a_h, A_FILL, A_STRONG, 1.2)
        canvas.text(ax + a_w / 2, ay + a_h / 2 + 4, "A", size=11, anchor="middle")
        canvas.text(ax + a_w / 2, ay + a_h + 18, "chargée seule", size=11, anchor="middle", fill=MUTED)
        for r in range(cluster):
            fill, stroke = colors[r]
            canvas.rect(bx + r * part * scale, by, part * scale, b_h, fill, stroke, 1.2)
            canvas.text(bx + (r + 0.5) * part * scale, by + b_h / 2 + 4, f"de {r}", size=11, anchor="middle")
            # La part r va du global vers chaque bloc : trait plein chez le bloc qui la charge.
            canvas.line(b_x + (r + 0.5) * part * scale, b_y + b_h, bx + (r + 0.5) * part * scale, by,
                        stroke, 1.1, dash=None if r == b else "5 3", arrow=True)
        canvas.text(bx + b_w / 2, by + b_h + 18, "tuile de B", size=11, anchor="middle", fill=MUTED)
        stage = french_number(a_bytes + b_bytes, 0)
        canvas.text(bx, by + b_h + 50, f"« plein » : {stage} octets,", size=11, fill=MUTED)
        canvas.text(bx, by + b_h + 66, f"dont {french_number(part * bk * 2, 0)} venus de chaque bloc ;", size=11,
                    fill=MUTED)
        canvas.text(bx, by + b_h + 82, f"« vide » : {4 * consumers * cluster} arrivées", size=11, fill=MUTED)
    note_y = top + a_h + 115
    canvas.text(20, note_y, "Trait plein : la part que le bloc charge lui-même ; tirets : celle qu'un voisin "
                "lui diffuse.", size=12, fill=MUTED)
    canvas.text(20, note_y + 18, "Un étage n'est rechargé que quand les consommateurs des deux blocs l'ont rendu "
                "(mbarrier.arrive distant, adresse mapa).", size=12, fill=MUTED)
    canvas.text(20, note_y + 36, "barrier.cluster au début (mbarrier prêts partout) et à la fin (aucun bloc ne "
                "quitte tant qu'un voisin peut lui écrire).", size=12, fill=MUTED)
    alt = (f"Deux blocs d'un cluster de l'étape 18, voisins en M, calculent deux tuiles de C superposées qui "
           f"partagent la même tuile de B ({bk} × {bn}). Elle est coupée en {cluster} parts de {part} colonnes : "
           "le bloc de rang r charge la part r par la TMA et la diffuse dans la mémoire partagée de tous les "
           f"blocs du cluster, au même décalage. Chaque bloc charge seul sa tuile de A ({bm} × {bk}). Le "
           f"mbarrier « plein » de chaque bloc attend {french_number(a_bytes + b_bytes, 0)} octets, dont une part "
           f"de B venue de chaque bloc ; le mbarrier « vide » attend {4 * consumers * cluster} arrivées, celles "
           "des warps consommateurs des deux blocs.")
    caption = ("Étape 18 : ce que charge et diffuse chaque bloc d'un cluster de deux ; schéma tiré des "
               "constantes du noyau compilé.")
    return Figure(canvas.svg(), alt, caption)


# --- Megakernels : lancements successifs contre un noyau persistant --------------------------

# Durées schématiques, en unités de dessin : aucune n'est mesurée, la légende le dit.
_LAUNCH, _RAMP, _FULL, _TAIL, _WAIT = 40, 30, 100, 50, 12
_TAIL_STEPS = (1.0, 0.6, 0.35, 0.15)   # part des SM encore occupés pendant la queue


def _occupancy_profile(x0: float, base: float, height: float, plateaus: int) -> list[tuple]:
    """Contour de l'occupation d'un lancement commencé en x0 (surcoût compris) : montée,
    @p plateaus pleines occupations séparées d'une courte attente, queue en escalier."""
    x = x0 + _LAUNCH
    points = [(x, base), (x + _RAMP, base - height)]
    x += _RAMP
    for i in range(plateaus):
        x += _FULL
        points.append((x, base - height))
        if i + 1 < plateaus:                 # attente sur compteur : quelques SM à vide
            points += [(x, base - 0.8 * height), (x + _WAIT, base - 0.8 * height),
                       (x + _WAIT, base - height)]
            x += _WAIT
    step = _TAIL / len(_TAIL_STEPS)
    for i, share in enumerate(_TAIL_STEPS):
        points += [(x + i * step, base - share * height), (x + (i + 1) * step, base - share * height)]
    points.append((x + _TAIL, base))
    return points


def megakernel_timeline(constants: dict) -> Figure:
    kernels = 3
    left, row_h, gap = 200, 80, 90
    sequence_end = left + kernels * (_LAUNCH + _RAMP + _FULL + _TAIL)
    persistent_end = left + _LAUNCH + _RAMP + kernels * _FULL + (kernels - 1) * _WAIT + _TAIL
    width = sequence_end + 30
    tops = (80, 80 + row_h + gap)
    canvas = Canvas(width, tops[1] + row_h + 86, "Lancements successifs et noyau persistant")
    rows = ((tops[0], f"{kernels} noyaux", "lancés l'un après l'autre"),
            (tops[1], "un noyau", "persistant"))
    for top, title, sub in rows:
        base = top + row_h
        canvas.text(left - 26, top + row_h / 2 - 2, title, size=12, anchor="end", bold=True)
        canvas.text(left - 26, top + row_h / 2 + 14, sub, size=11, anchor="end", fill=MUTED)
        canvas.text(left - 8, top + row_h / 2, "SM occupés", size=10, anchor="middle",
                    fill=MUTED, rotate=-90)
        canvas.line(left, base, width - 12, base, INK, 1, arrow=True)
        canvas.line(left, base, left, top - 8, INK, 1, arrow=True)
        canvas.text(width - 14, base + 16, "temps", size=11, anchor="end", fill=MUTED)

    def launch(x0, top, plateaus, labels):
        base = top + row_h
        canvas.rect(x0, top, _LAUNCH, row_h, "#f6d5d1", ALERT, 0.8, dash="3 2")
        busy_end = x0 + _LAUNCH + _RAMP + plateaus * _FULL + (plateaus - 1) * _WAIT + _TAIL
        canvas.rect(x0 + _LAUNCH, top, busy_end - x0 - _LAUNCH, row_h, "#fbeae8", "none", 0)
        canvas.polygon(_occupancy_profile(x0, base, row_h, plateaus), C_FILL, C_STRONG, 1.2)
        x = x0 + _LAUNCH + _RAMP
        for i, label in enumerate(labels):
            canvas.text(x + _FULL / 2, top + row_h / 2 + 4, label, size=11, anchor="middle")
            x += _FULL + _WAIT
        return busy_end

    x = left
    for k in range(kernels):
        x = launch(x, tops[0], 1, [f"noyau {k + 1}"])
    launch(left, tops[1], kernels, [f"étape {k + 1}" for k in range(kernels)])
    # Les quatre phases, nommées sur le premier noyau.
    phases = (("surcoût de lancement", left, _LAUNCH),
              ("montée", left + _LAUNCH, _RAMP),
              ("pleine occupation", left + _LAUNCH + _RAMP, _FULL),
              ("queue", left + _LAUNCH + _RAMP + _FULL, _TAIL))
    for i, (label, x0, w) in enumerate(phases):
        y = tops[0] - 58 + 16 * i           # en escalier : chaque nom au-dessus de sa phase
        canvas.line(x0 + 3, y + 4, x0 + 3, tops[0] - 2, MUTED, 0.8)
        canvas.text(x0 + 6, y, label, size=11, fill=INK)
    canvas.text(left + _LAUNCH + _RAMP + _FULL + _WAIT / 2, tops[1] - 8,
                "attente sur compteur", size=11, anchor="middle", fill=MUTED)
    for end, top in ((sequence_end, tops[0]), (persistent_end, tops[1])):
        canvas.line(end, top - 6, end, top + row_h + 4, INK, 1.2, "4 3")
    note_y = tops[1] + row_h + 34
    canvas.text(left, note_y, "Durées illustratives, non mesurées. En vert : SM au travail ; en "
                "rouge pâle : surcoût de lancement et SM à vide.", size=11, fill=MUTED)
    canvas.text(left, note_y + 18, "Pointillés verticaux : la fin du travail dans chaque cas.",
                size=11, fill=MUTED)
    alt = (f"Deux chronologies schématiques, l'occupation des SM en fonction du temps, sans "
           f"valeurs. En haut, {kernels} noyaux lancés l'un après l'autre : chacun paie un "
           "surcoût de lancement pendant lequel aucun SM ne travaille, une montée pendant que ses "
           "blocs sont répartis, une pleine occupation, puis une queue en escalier où des SM se "
           "vident en attendant les derniers blocs ; le noyau suivant ne commence qu'après. En bas, "
           f"un seul noyau persistant fait les mêmes {kernels} étapes : un seul surcoût, une seule "
           "montée et une seule queue, et entre deux étapes une courte attente sur un compteur où "
           "quelques SM restent à vide ; il finit plus tôt. Les durées sont illustratives.")
    caption = (f"Schéma : {kernels} lancements successifs contre un noyau persistant qui fait les "
               "mêmes étapes (durées illustratives, non mesurées).")
    return Figure(canvas.svg(), alt, caption)


# --- GEMM : modèle roofline du H200 ------------------------------------------------------------

def intensity(tile_m: int, tile_n: int) -> float:
    """FLOP par octet lu en mémoire globale quand une tuile tile_m × tile_n de C lit ses
    opérandes une fois : 2·m·n·K FLOP pour 4·K·(m + n) octets (C, lue et écrite une fois, et
    les caches sont négligés)."""
    return tile_m * tile_n / (2 * (tile_m + tile_n))


def _step_groups(steps: list[int]) -> str:
    """[5, 6, 7, 8] → « 5 à 8 » ; [1, 2] → « 1 et 2 »."""
    if len(steps) == 1:
        return str(steps[0])
    if steps == list(range(steps[0], steps[-1] + 1)) and len(steps) > 2:
        return f"{steps[0]} à {steps[-1]}"
    return ", ".join(map(str, steps[:-1])) + f" et {steps[-1]}"


def gemm_roofline(constants: dict) -> Figure:
    ladder = _section(constants, "echelle")
    groups: dict[float, list[int]] = {}
    for entry in ladder:
        groups.setdefault(intensity(entry["tuile_m"], entry["tuile_n"]), []).append(entry["etape"])
    ridge = H200_FP32_TFLOPS / H200_HBM_TBPS
    x_min, x_max, y_min, y_max = 0.1, 1000.0, 0.1, 200.0
    left, top, w, h = 80, 30, 600, 340
    canvas = Canvas(left + w + 40, top + h + 106, "Modèle roofline du H200")

    def px(x):
        return left + (math.log10(x) - math.log10(x_min)) / (math.log10(x_max) - math.log10(x_min)) * w

    def py(y):
        return top + h - (math.log10(y) - math.log10(y_min)) / (math.log10(y_max) - math.log10(y_min)) * h

    canvas.rect(left, top, w, h, "none", GRID, 1)
    for e in range(-1, 4):
        value = 10.0 ** e
        canvas.line(px(value), top, px(value), top + h, NEUTRAL, 1)
        canvas.text(px(value), top + h + 18, _n(value, 1 if e < 0 else 0), size=11, anchor="middle")
    for e in range(-1, 3):
        value = 10.0 ** e
        canvas.line(left, py(value), left + w, py(value), NEUTRAL, 1)
        canvas.text(left - 8, py(value) + 4, _n(value, 1 if e < 0 else 0), size=11, anchor="end")
    canvas.text(left + w / 2, top + h + 42,
                "Intensité arithmétique vis-à-vis de la mémoire globale (FLOP/octet)",
                size=12, anchor="middle")
    canvas.text(22, top + h / 2, "Débit plafond (TFLOP/s)", size=12, anchor="middle", rotate=-90)
    # Le toit : bande passante × intensité, puis le pic de calcul.
    x_start = y_min / H200_HBM_TBPS
    canvas.polyline([(px(max(x_min, x_start)), py(max(y_min, H200_HBM_TBPS * x_min))),
                     (px(ridge), py(H200_FP32_TFLOPS)), (px(x_max), py(H200_FP32_TFLOPS))],
                    INK, 2)
    canvas.text(px(x_max) - 6, py(H200_FP32_TFLOPS) - 8,
                f"calcul fp32 : {_n(H200_FP32_TFLOPS)} TFLOP/s", size=11, anchor="end")
    canvas.text(px(0.6), py(H200_HBM_TBPS * 0.6) - 12,
                f"HBM3e : {_n(H200_HBM_TBPS, 1)} To/s", size=11, rotate=-math.degrees(
                    math.atan2(py(1) - py(10), px(10) - px(1))))
    canvas.line(px(ridge), py(H200_FP32_TFLOPS), px(ridge), top + h, MUTED, 1, "3 3")
    canvas.text(px(ridge) + 4, top + h - 6, f"≈ {_n(ridge)}", size=11, fill=MUTED)
    # Limite de toute l'échelle à la taille mesurée : chaque donnée lue une seule fois.
    best = LADDER_SIZE / 8
    canvas.line(px(best), py(H200_FP32_TFLOPS), px(best), top + h, MUTED, 1, "1 3")
    canvas.text(px(best) - 4, top + h - 6, f"{_n(LADDER_SIZE)}³ : {_n(best)}", size=11,
                anchor="end", fill=MUTED)
    roof_labels = 0
    for value, steps in sorted(groups.items()):
        bound = min(H200_FP32_TFLOPS, H200_HBM_TBPS * value)
        canvas.circle(px(value), py(bound), 5, C_STRONG)
        label = (f"étape{'s' if len(steps) > 1 else ''} {_step_groups(steps)} : "
                 f"{_n(value, 2 if value < 1 else 0)}")
        if bound >= H200_FP32_TFLOPS:       # sur le toit : étiquettes au-dessus, en escalier
            roof_labels += 1
            canvas.text(px(value), py(bound) - 10 - 16 * (roof_labels - 1), label, size=11,
                        anchor="middle", fill=C_STRONG, bold=True)
        else:
            canvas.text(px(value) + 9, py(bound) + 12, label, size=11, fill=C_STRONG, bold=True)
    canvas.text(left, top + h + 62, f"Pics : {H200_SOURCE}.", size=11, fill=MUTED)
    canvas.text(left, top + h + 78, "Chaque étape à l'intensité de sa tuile de bloc, caches "
                "négligés.", size=11, fill=MUTED)
    canvas.text(left, top + h + 94, f"Pointillés fins : la limite d'une GEMM carrée de côté "
                f"{_n(LADDER_SIZE)}, n / 8.", size=11, fill=MUTED)
    points = " ; ".join(
        f"étape{'s' if len(s) > 1 else ''} {_step_groups(s)} à {_n(v, 2 if v < 1 else 0)} FLOP/octet, "
        f"plafond {_n_auto(min(H200_FP32_TFLOPS, H200_HBM_TBPS * v))} TFLOP/s"
        for v, s in sorted(groups.items()))
    alt = (f"Modèle roofline du H200 en échelles logarithmiques : le plafond monte avec "
           f"l'intensité arithmétique au rythme de la bande passante HBM3e "
           f"({_n(H200_HBM_TBPS, 1)} To/s) jusqu'au point d'inflexion, vers {_n(ridge)} FLOP par "
           f"octet, puis reste au pic de calcul fp32 ({_n(H200_FP32_TFLOPS)} TFLOP/s). Les étapes "
           f"de l'échelle y sont placées selon l'intensité de leur tuile : {points}.")
    caption = ("Modèle roofline du H200 : chaque étape à l'intensité que lui donne sa tuile de "
               "bloc, vis-à-vis de la mémoire globale et sans compter les caches.")
    return Figure(canvas.svg(), alt, caption)


# --- Megakernels : le flux d'instructions du megakernel interpréteur (exemple 4) -------------

_OP_COLORS = {"rmsnorm": (C_FILL, C_STRONG), "matvec+silu": (A_FILL, A_STRONG),
              "matvec+residuel": (B_FILL, B_STRONG), "nop": (NEUTRAL, GRID)}
_OP_LABELS = {"rmsnorm": "RMSNorm", "matvec+silu": "matvec + SiLU",
              "matvec+residuel": "matvec + résiduel", "nop": "nop"}


def megakernel_dependencies(instructions: list[dict]) -> list[tuple[int, int]]:
    """Arêtes (producteur, consommateur), en indices de @p instructions : chaque instruction
    qui attend un compteur dépend de toutes celles qui le signalent."""
    signalers: dict[int, list[int]] = {}
    for index, ins in enumerate(instructions):
        if ins["signale"] >= 0:
            signalers.setdefault(ins["signale"], []).append(index)
    edges = []
    for index, ins in enumerate(instructions):
        if ins["attend"] < 0:
            continue
        producers = signalers.get(ins["attend"], [])
        if not producers:
            raise FigureError(f"instruction {ins['rang']} de la file {ins['file']} : elle attend le "
                              f"compteur {ins['attend']}, que rien ne signale")
        edges.extend((p, index) for p in producers)
    return edges


def megakernel_instruction_stream(constants: dict) -> Figure:
    program = _section(constants, "megakernel_programme")
    instructions = program["instructions"]
    queues = program["files"]
    if not instructions or queues < 1:
        raise FigureError("programme du megakernel vide")
    edges = megakernel_dependencies(instructions)
    columns = max(ins["rang"] for ins in instructions) + 1
    box_w, box_h, gap_x, gap_y = 150, 54, 80, 30
    left, top = 90, 50
    width = left + columns * (box_w + gap_x) + 20
    height = top + queues * (box_h + gap_y) + 30
    canvas = Canvas(width, height, "Flux d'instructions du megakernel")

    def corner(ins):
        return left + ins["rang"] * (box_w + gap_x), top + ins["file"] * (box_h + gap_y)

    for q in range(queues):
        y = top + q * (box_h + gap_y)
        canvas.text(left - 12, y + box_h / 2 + 4, f"bloc {q}", size=12, anchor="end", bold=True)
        canvas.line(left - 6, y + box_h / 2, width - 10, y + box_h / 2, NEUTRAL, 1)
    canvas.text(left, 24, "Une file par bloc, lue de gauche à droite ; flèche : le compteur "
                "signalé par l'une est attendu par l'autre", size=12, fill=MUTED)
    for p, c in edges:               # les flèches d'abord, sous les boîtes
        (px0, py0), (cx0, cy0) = corner(instructions[p]), corner(instructions[c])
        if cx0 > px0:
            canvas.line(px0 + box_w, py0 + box_h / 2, cx0, cy0 + box_h / 2, MUTED, 1, arrow=True)
        else:                        # même colonne : par l'intervalle à droite, sans couper de boîte
            lane_x = px0 + box_w + 8 + 7 * instructions[p]["file"]
            canvas.polyline([(px0 + box_w, py0 + box_h / 2 - 8), (lane_x, py0 + box_h / 2 - 8),
                             (lane_x, cy0 + box_h / 2 + 8)], MUTED, 1)
            canvas.line(lane_x, cy0 + box_h / 2 + 8, cx0 + box_w, cy0 + box_h / 2 + 8, MUTED, 1,
                        arrow=True)
    for ins in instructions:
        x, y = corner(ins)
        fill, stroke = _OP_COLORS.get(ins["op"], (NEUTRAL, GRID))
        canvas.rect(x, y, box_w, box_h, fill, stroke, 1.2)
        canvas.text(x + 8, y + 16, f"C{ins['couche']} {_OP_LABELS.get(ins['op'], ins['op'])}",
                    size=12, bold=True)
        canvas.text(x + 8, y + 31, f"lignes {ins['debut']} à {ins['fin'] - 1}", size=11, fill=MUTED)
        wait = f"attend c{ins['attend']} ≥ {ins['cible']}" if ins["attend"] >= 0 else "n'attend rien"
        signal = (f"+{ins['increment']} c{ins['signale']}" if ins["signale"] >= 0 else "ne signale rien")
        canvas.text(x + 8, y + 46, f"{wait} ; {signal}", size=10, fill=INK)
    canvas.text(left, height - 16, f"{len(instructions)} instructions, {queues} files, "
                f"{program['compteurs']} compteurs, {len(edges)} dépendances : le programme que "
                "construit l'exemple 4 pour cette figure.", size=11, fill=MUTED)
    per_queue = " ; ".join(
        f"bloc {q} : " + ", ".join(f"{_OP_LABELS.get(i['op'], i['op'])} de la couche {i['couche']}"
                                   for i in instructions if i["file"] == q)
        for q in range(queues))
    alt = (f"Le programme du megakernel de l'exemple 4 pour {program['couches']} couches : "
           f"{len(instructions)} instructions réparties à tour de rôle sur {queues} files, une par "
           f"bloc ({per_queue}). Chaque instruction attend un compteur et signale le sien ; "
           f"{len(edges)} flèches relient une instruction qui signale un compteur à chaque "
           "instruction qui l'attend : les tranches montantes attendent la RMSNorm de leur couche, "
           "les tranches descendantes toutes les tranches montantes, et la RMSNorm suivante toutes "
           "les tranches descendantes.")
    caption = ("Flux d'instructions du megakernel interpréteur et leurs dépendances par compteurs, "
               "tiré du programme que construit l'exemple 4.")
    return Figure(canvas.svg(), alt, caption)


# --- Registre des figures, et leur place dans le site -----------------------------------------

FIGURES: dict[str, Callable[[dict], Figure]] = {
    "megakernel-chronologie": megakernel_timeline,
    "gemm-coalescence": gemm_coalescing,
    "gemm-tuiles-etape3": gemm_shared_tiles,
    "gemm-tuiles-etape4": gemm_tiles_step4,
    "gemm-tuiles-etape5": gemm_tiles_step5,
    "gemm-produit-exterieur": gemm_outer_product,
    "gemm-bancs-etape7": gemm_banks_step7,
    "gemm-bancs-ldmatrix": gemm_ldmatrix_banks,
    "gemm-tuiles-warp": gemm_warp_tiles,
    "gemm-double-tampon": gemm_double_buffer,
    "gemm-tma-wgmma": gemm_tma_wgmma,
    "gemm-ordres-tuiles": gemm_tile_orders,
    "gemm-vagues-stream-k": gemm_stream_k_waves,
    "gemm-roofline": gemm_roofline,
    "gemm-specialisation-warps": gemm_warp_specialized,
    "gemm-deux-consommateurs": gemm_two_consumers,
    "gemm-clusters": gemm_cluster_multicast,
    "transposition-tuile": transpose_tile,
    "transposition-bancs": transpose_banks,
    "megakernel-flux-instructions": megakernel_instruction_stream,
}


def load_constants(path: Path) -> dict:
    if not path.is_file():
        raise FigureError(f"constantes des figures absentes ({path}) : lancez d'abord "
                          "« cmake --build build --target figures-constantes »")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise FigureError(f"{path} : JSON illisible ({error})") from error


def render_all(constants: dict) -> dict[str, Figure]:
    """Toutes les figures, par nom ; la première incohérence arrête tout."""
    return {name: draw(constants) for name, draw in FIGURES.items()}


def uri(name: str) -> str:
    """Chemin du SVG dans le site."""
    return f"{FOLDER}/{name}.svg"


def render_markers(markdown: str, figures: dict[str, Figure], page_uri: str) -> str:
    """Remplace chaque marqueur par la figure (image, texte alternatif, légende)."""
    def replace(match: re.Match) -> str:
        name = match.group(1)
        figure = figures.get(name)
        if figure is None:
            raise FigureError(f"figure inconnue « {name} » (connues : {', '.join(sorted(figures))})")
        link = posixpath.relpath(uri(name), posixpath.dirname(page_uri) or ".")
        alt = figure.alt.replace("[", "(").replace("]", ")").replace("\n", " ")
        # Image et légende sur une ligne : un saut de ligne deviendrait un <br>.
        return (f'<figure class="noyaux-figure" markdown="span">'
                f'![{alt}]({link})<figcaption>{html.escape(figure.caption)}</figcaption>'
                f'</figure>')
    return MARKER.sub(replace, markdown)
