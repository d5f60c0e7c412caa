"""Tests du module de figures (tools/mkdocs/figures.py), sur des constantes écrites ici :
dessin, modèle de bancs, cohérence exigée avec l'analyse de l'étape 7, marqueurs de page."""
import copy
import sys
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "mkdocs"))

import figures  # noqa: E402
from figures import FigureError  # noqa: E402


def _access(words, width):
    phases = figures.bank_passes(words, width)
    return {"mots": words, "largeur": width, "passes": sum(len(p) for p in phases),
            "degre": max(len(p) for p in phases), "pire_degre": max(len(p) for p in phases)}


def constants():
    """Constantes de la forme de constantes.json ; les mots de l'étape 7 suivent les formules
    d'indices de l'exemple (deux threads par ligne de A, huit flottants par thread pour B)."""
    a_plain = [4 * (lane % 2) * 128 + lane // 2 for lane in range(32)]
    a_fixed = [4 * (lane % 2) * 132 + lane // 2 for lane in range(32)]
    b_plain = [(lane % 16) * 8 for lane in range(32)]

    def swizzle(nn):
        block = nn // 4
        return 4 * (block ^ ((block // 8) % 2)) + nn % 4
    b_fixed = [swizzle((lane % 16) * 8) for lane in range(32)]
    ladder = [(1, 1, 1, 1), (2, 1, 1, 1), (3, 32, 32, 32), (4, 64, 64, 8)] + [
        (s, 128, 128, 16 if s >= 8 else 8) for s in range(5, 11)]
    return {
        "echelle": [{"etape": s, "noyau": f"k{s}", "tuile_m": m, "tuile_n": n, "tuile_k": k}
                    for s, m, n, k in ladder],
        "etape4": {"block_m": 64, "block_n": 64, "block_k": 8, "thread_m": 8, "threads": 512},
        "etape5": {"block_m": 128, "block_n": 128, "block_k": 8, "thread_m": 8, "thread_n": 8,
                   "threads": 256},
        "etape9": {"block_m": 128, "block_n": 128, "block_k": 16, "warp_m": 64, "warp_n": 64,
                   "warp_m_iterations": 1, "warp_n_iterations": 4, "warp_sub_m": 64,
                   "warp_sub_n": 16, "thread_m": 8, "thread_n": 4, "threads": 128,
                   "accumulators": 128},
        "etape7": {"bancs": 32, "warp": 32,
                   "avant": {"ecriture_a": _access(a_plain, 1), "lecture_b": _access(b_plain, 4)},
                   "apres": {"ecriture_a": _access(a_fixed, 1), "lecture_b": _access(b_fixed, 4)}},
        "etape13": _mma_sync(),
        "transposition": {"tuile": 32, "lignes_de_threads": 8, "decalage": 1},
        "etape14": {"block_m": 128, "block_n": 128, "block_k": 64, "stages": 3, "threads": 128,
                    "wgmma_m": 64, "wgmma_k": 16, "box_cols": 64},
        "etape17": {"tuiles_m": 4, "tuiles_n": 4, "groupe": 2, "vague": 4, "ordres": [
            _order("en lignes", [(m, n) for m in range(4) for n in range(4)]),
            _order("groupé", [(band + m, n) for band in (0, 2) for n in range(4) for m in range(2)]),
            _order("Hilbert", [(0, 0), (0, 1), (1, 1), (1, 0), (2, 0), (3, 0), (3, 1), (2, 1), (2, 2), (3, 2),
                               (3, 3), (2, 3), (1, 3), (1, 2), (0, 2), (0, 3)])]},
        "etape19": {"sm": 132, "blocs_par_sm": 2, "blocs": 264, "formes": [
            {"cote": 512, "tuiles": 16, "iterations_par_tuile": 8, "vagues": 1, "derniere_vague": 16,
             "efficacite_pour_mille": 61, "blocs_grille": 128, "tuiles_entieres": 0, "tuiles_partagees": 16,
             "part_max": 1, "part_min": 1},
            {"cote": 4096, "tuiles": 1024, "iterations_par_tuile": 64, "vagues": 4, "derniere_vague": 232,
             "efficacite_pour_mille": 970, "blocs_grille": 264, "tuiles_entieres": 1024, "tuiles_partagees": 0,
             "part_max": 0, "part_min": 0},
            # Forme inventée pour l'hybride : 3 vagues pleines et 100 tuiles en queue.
            {"cote": 1, "tuiles": 892, "iterations_par_tuile": 64, "vagues": 4, "derniere_vague": 100,
             "efficacite_pour_mille": 845, "blocs_grille": 264, "tuiles_entieres": 528, "tuiles_partagees": 364,
             "part_max": 89, "part_min": 88}]},
        "etape18": {"block_m": 128, "block_n": 256, "block_k": 64, "cluster": 2, "b_boxes_per_block": 2,
                    "box_cols": 64, "stages": 4, "a_bytes": 16384, "b_bytes": 32768, "consumers": 2},
        "etape15": {"block_m": 128, "block_n": 128, "block_k": 64, "stages": 4, "consumers": 1,
                    "threads": 256, "producer_registers": 40, "consumer_registers": 232, "entry_registers": 255,
                    "wgmma_m": 64,
                    "consumer_rows": 128},
        "etape16": {"block_m": 128, "block_n": 256, "block_k": 64, "stages": 3, "consumers": 2,
                    "threads": 384, "producer_registers": 40, "consumer_registers": 232, "entry_registers": 168,
                    "wgmma_m": 64,
                    "consumer_rows": 64},
        "megakernel_programme": {"files": 2, "compteurs": 3, "couches": 1, "instructions": [
            _instruction(0, 0, "rmsnorm", 0, 64, -1, 0, 0),
            _instruction(0, 1, "matvec+silu", 128, 256, 0, 1, 1),
            _instruction(1, 0, "matvec+silu", 0, 128, 0, 1, 1),
            _instruction(1, 1, "matvec+residuel", 0, 64, 1, 2, 2)]},
    }


def _mma_sync():
    """Étape 13 : tuiles de A (4 morceaux de 16 octets par ligne) et de B (16), permutées ou non
    comme ChunkLayout ; lectures ldmatrix du warp 0 au premier pas, en mots de 4 octets."""
    def chunk(row, c, row_chunks, swizzled):
        line_chunks = min(row_chunks, 8)
        key = (row // (8 // line_chunks)) % line_chunks if swizzled else 0
        return row * row_chunks + (c ^ key)

    def reads(swizzled):
        a = [4 * chunk(lane % 16, lane // 16, 4, swizzled) for lane in range(32)]
        b = [4 * chunk(lane % 16, lane // 16, 16, swizzled) for lane in range(32)]
        return {"lecture_a": _access(a, 4), "lecture_b": _access(b, 4)}
    return {"bancs": 32, "morceaux_a": 4, "morceaux_b": 16, "warp_m": 64, "warp_n": 32,
            "disposition_a_sans": [chunk(r, c, 4, False) for r in range(8) for c in range(4)],
            "disposition_a_avec": [chunk(r, c, 4, True) for r in range(8) for c in range(4)],
            "sans": reads(False), "avec": reads(True)}


def _order(name, tiles):
    return {"nom": name, "m": [m for m, _ in tiles], "n": [n for _, n in tiles]}


def _instruction(queue, rank, op, begin, end, wait, target, signal):
    return {"file": queue, "rang": rank, "op": op, "couche": 0, "debut": begin, "fin": end,
            "attend": wait, "cible": target, "signale": signal, "increment": 1}


class MegakernelStreamTest(unittest.TestCase):
    def test_each_wait_depends_on_every_signaler_of_its_counter(self):
        instructions = constants()["megakernel_programme"]["instructions"]
        self.assertEqual(sorted(figures.megakernel_dependencies(instructions)),
                         [(0, 1), (0, 2), (1, 3), (2, 3)])

    def test_one_box_per_instruction_and_one_arrow_per_dependency(self):
        figure = figures.megakernel_instruction_stream(constants())
        root = ET.fromstring(figure.svg)
        arrows = [e for e in root.iter() if e.get("marker-end")]
        self.assertEqual(len(arrows), 4)
        self.assertIn("4 instructions réparties à tour de rôle sur 2 files", figure.alt)

    def test_wait_on_a_counter_nobody_signals_is_refused(self):
        broken = copy.deepcopy(constants())
        broken["megakernel_programme"]["instructions"][3]["attend"] = 5
        with self.assertRaisesRegex(FigureError, "que rien ne signale"):
            figures.megakernel_instruction_stream(broken)


class BankModelTest(unittest.TestCase):
    def test_distinct_banks_take_one_pass(self):
        phases = figures.bank_passes(list(range(32)), 1)
        self.assertEqual(len(phases), 1)
        self.assertEqual(sorted(phases[0]), [0])

    def test_same_bank_different_words_take_one_pass_each(self):
        # Une colonne d'une tuile 32×32 : 32 mots distincts, tous dans le banc 0.
        phases = figures.bank_passes([32 * lane for lane in range(32)], 1)
        self.assertEqual(len(phases[0]), 32)

    def test_broadcast_word_counts_once(self):
        phases = figures.bank_passes([0] * 32, 1)
        self.assertEqual(len(phases[0]), 1)
        self.assertEqual(len(phases[0][0]), 32)  # les 32 lanes servis par la même passe

    def test_128_bit_access_has_four_phases_of_eight_lanes(self):
        phases = figures.bank_passes([4 * lane for lane in range(32)], 4)
        self.assertEqual(len(phases), 4)
        self.assertEqual([len(p) for p in phases], [1, 1, 1, 1])
        self.assertEqual({lane for lane, _ in phases[1][0]}, set(range(8, 16)))

    def test_step6_accesses_conflict_and_step7_ones_do_not(self):
        step7 = constants()["etape7"]
        self.assertEqual(step7["avant"]["ecriture_a"]["degre"], 2)
        self.assertEqual(step7["avant"]["lecture_b"]["degre"], 2)
        self.assertEqual(step7["apres"]["ecriture_a"]["degre"], 1)
        self.assertEqual(step7["apres"]["lecture_b"]["degre"], 1)

    def test_drawing_refuses_a_count_that_disagrees_with_the_analysis(self):
        data = constants()
        data["etape7"]["apres"]["lecture_b"]["passes"] += 1
        with self.assertRaisesRegex(FigureError, "l'analyse de l'étape 7"):
            figures.gemm_banks_step7(data)


class RooflineTest(unittest.TestCase):
    def test_intensity_of_a_tile(self):
        self.assertEqual(figures.intensity(1, 1), 0.25)
        self.assertEqual(figures.intensity(32, 32), 8)
        self.assertEqual(figures.intensity(128, 128), 32)

    def test_steps_sharing_an_intensity_are_grouped(self):
        self.assertEqual(figures._step_groups([5, 6, 7, 8, 9, 10]), "5 à 10")
        self.assertEqual(figures._step_groups([1, 2]), "1 et 2")
        self.assertEqual(figures._step_groups([3]), "3")

    def test_alt_places_each_step(self):
        alt = figures.gemm_roofline(constants()).alt
        self.assertIn("étapes 1 et 2 à 0,25 FLOP/octet, plafond 1,2 TFLOP/s", alt)
        self.assertIn("étape 3 à 8 FLOP/octet, plafond 38,4 TFLOP/s", alt)
        self.assertIn("étapes 5 à 10 à 32 FLOP/octet, plafond 67 TFLOP/s", alt)


class DrawingTest(unittest.TestCase):
    def test_every_figure_is_self_contained_svg_with_french_text(self):
        for name, figure in figures.render_all(constants()).items():
            with self.subTest(figure=name):
                root = ET.fromstring(figure.svg)
                self.assertEqual(root.tag, "{http://www.w3.org/2000/svg}svg")
                self.assertEqual(root.get("font-family"), "sans-serif")
                body = figure.svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
                self.assertNotRegex(body, r"https?:|@import|xlink:href|<image")
                self.assertGreater(len(figure.alt), 80)
                self.assertTrue(figure.caption.endswith("."))
                # Fond blanc explicite : lisible sur le thème sombre comme sur le clair.
                self.assertIn('fill="#ffffff"', figure.svg)

    def test_figures_follow_the_constants(self):
        data = constants()
        data["etape5"].update(block_m=64, block_n=64, threads=64)
        figure = figures.gemm_tiles_step5(data)
        self.assertIn("Tuile de C : 64 × 64", figure.svg)
        self.assertIn("un bloc de 64 threads", figure.alt)
        data["echelle"][2]["tuile_m"] = 16
        self.assertIn("Un bloc de 16 × 16 threads", figures.gemm_shared_tiles(data).svg)

    def test_inconsistent_tiling_is_refused(self):
        data = constants()
        data["etape5"]["threads"] = 128
        with self.assertRaisesRegex(FigureError, "ne pavent pas"):
            figures.gemm_tiles_step5(data)
        data = constants()
        data["etape9"]["thread_n"] = 8
        with self.assertRaisesRegex(FigureError, "32 threads par sous-tuile"):
            figures.gemm_warp_tiles(data)

    def test_missing_constant_is_named(self):
        data = constants()
        del data["transposition"]
        with self.assertRaisesRegex(FigureError, "« transposition »"):
            figures.transpose_banks(data)

    def test_ldmatrix_banks_show_the_swizzle_effect(self):
        figure = figures.gemm_ldmatrix_banks(constants())
        self.assertIn("Lecture de A (ldmatrix), sans permutation", figure.svg)
        self.assertIn("4 passes : conflit de degré 4", figure.svg)
        self.assertIn("8 passes : conflit de degré 8", figure.svg)
        self.assertIn("lecture de B (ldmatrix .trans) avec permutation : 1 passe", figure.alt)
        self.assertIn("ne tombent que dans 2 groupes de bancs", figure.alt)

    def test_ldmatrix_drawing_refuses_a_layout_that_disagrees_with_the_model(self):
        data = constants()
        # La disposition dessinée devient celle d'avant, le modèle reste celui d'après.
        data["etape13"]["disposition_a_avec"] = data["etape13"]["disposition_a_sans"]
        with self.assertRaisesRegex(FigureError, "la disposition dessinée"):
            figures.gemm_ldmatrix_banks(data)

    def test_transpose_banks_show_the_padding_effect(self):
        svg = figures.transpose_banks(constants()).svg
        self.assertIn("colonne lue : 32 lanes sur un même banc", svg)
        self.assertIn("colonne lue : 32 bancs différents", svg)
        data = copy.deepcopy(constants())
        data["transposition"]["decalage"] = 0
        self.assertNotIn("32 bancs différents", figures.transpose_banks(data).svg)


class WarpSpecializedTest(unittest.TestCase):
    def test_a_stage_is_refilled_only_once_empty(self):
        # Durées unitaires, 3 étages : la tuile 3 (étage 0) attend que l'étage soit rendu,
        # c'est-à-dire la fin du calcul de la tuile 1, sans que le calcul ne s'arrête.
        rows = figures._producer_consumer_schedule(3, 8)
        self.assertEqual([r["compute"] for r in rows], list(range(1, 9)))
        for r in rows[3:]:
            self.assertEqual(r["load"], rows[r["tile"] - 3]["empty"])
            self.assertLessEqual(r["full"], r["compute"])
        self.assertEqual(rows[0]["empty"], rows[1]["compute"] + 1)

    def test_one_row_per_consumer_and_per_stage(self):
        figure = figures.gemm_two_consumers(constants())
        self.assertIn("consommateur 1", figure.svg)
        self.assertIn("étage 2", figure.svg)
        self.assertNotIn("étage 3", figure.svg)
        self.assertIn("128 × (40 + 2 × 232) = 64", figure.svg)
        self.assertIn("au plus 384 × 168 = 64", figure.svg)
        self.assertIn("non mesurée", figure.alt)
        self.assertNotIn("consommateur 1", figures.gemm_warp_specialized(constants()).svg)

    def test_register_budget_beyond_the_sm_is_refused(self):
        data = copy.deepcopy(constants())
        data["etape16"]["consumer_registers"] = 256
        with self.assertRaises(FigureError):
            figures.gemm_two_consumers(data)

    def test_register_budget_beyond_the_block_reserve_is_refused(self):
        # 128 × (48 + 2 × 232) = 65 536 : tout le SM, mais 1 024 de plus que 384 × 168.
        data = copy.deepcopy(constants())
        data["etape16"]["producer_registers"] = 48
        with self.assertRaisesRegex(FigureError, "384 × 168 = 64512"):
            figures.gemm_two_consumers(data)


class ClusterMulticastTest(unittest.TestCase):
    def test_each_block_loads_one_part_of_b_and_broadcasts_it(self):
        figure = figures.gemm_cluster_multicast(constants())
        self.assertIn("coupée en 2 parts de 128 colonnes", figure.alt)
        self.assertIn("49\u202f152 octets", figure.alt)
        self.assertIn("16 arrivées", figure.alt)
        self.assertIn("étape 18", figure.caption.lower())

    def test_parts_that_do_not_cover_the_tile_of_b_are_refused(self):
        data = copy.deepcopy(constants())
        data["etape18"]["b_boxes_per_block"] = 1
        with self.assertRaisesRegex(FigureError, "ne couvrent pas"):
            figures.gemm_cluster_multicast(data)


class TmaWgmmaTest(unittest.TestCase):
    def test_one_box_per_tma_copy_and_one_band_per_wgmma(self):
        figure = figures.gemm_tma_wgmma(constants())
        self.assertIn("2 boîtes TMA de 64 colonnes", figure.alt)
        self.assertIn("2 bandes de 64 lignes", figure.alt)
        self.assertIn("chacun des 4 warps tient 16", figure.alt)
        self.assertIn("non mesurée", figure.alt)
        self.assertIn("wgmma m64n128k16 n° 1", figure.svg)
        self.assertIn("étage 2", figure.svg)
        self.assertNotIn("étage 3", figure.svg)

    def test_a_stage_is_reloaded_only_after_its_wgmma(self):
        # Tuile 3 (étage 0) : copiée après le calcul de la tuile 0, avant le sien.
        root = ET.fromstring(figures.gemm_tma_wgmma(constants()).svg)
        ns = "{http://www.w3.org/2000/svg}"
        texts = {t.text: float(t.get("x")) for t in root.iter(ns + "text")}
        self.assertGreater(texts["TMA 3"], texts["wgmma 0"])
        self.assertLess(texts["TMA 3"], texts["wgmma 3"])

    def test_a_block_that_is_not_a_warpgroup_is_refused(self):
        data = copy.deepcopy(constants())
        data["etape14"]["threads"] = 256
        with self.assertRaisesRegex(FigureError, "un warpgroup en compte 128"):
            figures.gemm_tma_wgmma(data)


class StreamKWavesTest(unittest.TestCase):
    def test_each_shape_shows_its_waves_and_last_wave(self):
        figure = figures.gemm_stream_k_waves(constants())
        self.assertIn("4\u202f096³, 1\u202f024 tuiles, 4 vagues, dernière remplie à 232 sur 264, efficacité 97,0 %", figure.alt)
        self.assertIn("efficacité 97,0 %, toutes les tuiles entières", figure.alt)
        self.assertIn("512³, 16 tuiles, 1 vague,", figure.alt)
        self.assertIn("toutes partagées (16), 1 itération de K par bloc", figure.alt)
        self.assertIn("528 entières, 364 partagées, 88 ou 89 itérations de K par bloc", figure.alt)

    def test_hybrid_counts_that_do_not_add_up_are_refused(self):
        data = copy.deepcopy(constants())
        data["etape19"]["formes"][2]["tuiles_partagees"] = 365
        with self.assertRaisesRegex(FigureError, "ne font pas 892"):
            figures.gemm_stream_k_waves(data)
        data = copy.deepcopy(constants())
        data["etape19"]["formes"][2]["part_max"] = 95
        with self.assertRaisesRegex(FigureError, "parts Stream-K"):
            figures.gemm_stream_k_waves(data)

    def test_waves_that_do_not_add_up_are_refused(self):
        data = copy.deepcopy(constants())
        data["etape19"]["formes"][1]["derniere_vague"] = 200
        with self.assertRaisesRegex(FigureError, "ne font pas 4 vagues"):
            figures.gemm_stream_k_waves(data)


class TileOrdersTest(unittest.TestCase):
    def test_each_order_counts_the_panels_its_first_wave_reads(self):
        figure = figures.gemm_tile_orders(constants())
        # Vague de 4 tuiles : une ligne de tuiles entière ; un carré 2 × 2 ; le premier quadrant.
        self.assertIn("en lignes, 1 bande de A et 4 de B", figure.alt)
        self.assertIn("groupé, 2 bandes de A et 2 de B", figure.alt)
        self.assertIn("Hilbert, 2 bandes de A et 2 de B", figure.alt)
        self.assertIn("bandes de 2 lignes", figure.alt)

    def test_an_order_that_misses_a_tile_is_refused(self):
        data = copy.deepcopy(constants())
        data["etape17"]["ordres"][2]["n"][-1] = 0   # (0, 3) devient (0, 0) : vue deux fois, (0, 3) jamais
        with self.assertRaisesRegex(FigureError, "ne visite pas chaque tuile une fois"):
            figures.gemm_tile_orders(data)


class MegakernelTimelineTest(unittest.TestCase):
    def test_schematic_figure_says_its_durations_are_not_measured(self):
        figure = figures.megakernel_timeline({})
        self.assertIn("non mesurées", figure.caption)
        self.assertIn("illustratives", figure.alt)
        self.assertNotRegex(figure.svg + figure.alt, r"µs|ms\b")   # aucune durée chiffrée

    def test_persistent_kernel_pays_one_launch_and_one_tail(self):
        root = ET.fromstring(figures.megakernel_timeline({}).svg)
        ns = "{http://www.w3.org/2000/svg}"
        launches = [r for r in root.iter(ns + "rect") if r.get("stroke-dasharray") == "3 2"]
        self.assertEqual(len(launches), 3 + 1)     # trois noyaux, puis un seul persistant
        profiles = list(root.iter(ns + "polygon"))
        self.assertEqual(len(profiles), 3 + 1)

    def test_profile_starts_after_the_launch_and_returns_to_zero(self):
        points = figures._occupancy_profile(0, 100, 50, 2)
        self.assertEqual(points[0], (figures._LAUNCH, 100))
        self.assertEqual(points[-1][1], 100)
        self.assertEqual(min(y for _, y in points), 50)


class MarkerTest(unittest.TestCase):
    def setUp(self):
        self.rendered = figures.render_all(constants())

    def test_marker_becomes_an_image_with_alt_and_caption(self):
        page = "Texte.\n\n<!-- noyaux:figure gemm-roofline -->\n\nSuite."
        out = figures.render_markers(page, self.rendered, "gemm/index.md")
        self.assertIn("](../figures/gemm-roofline.svg)", out)
        self.assertIn("![Modèle roofline du H200", out)
        self.assertIn("<figcaption>Modèle roofline du H200 :", out)
        self.assertNotIn("noyaux:figure", out)

    def test_path_is_relative_to_the_page(self):
        out = figures.render_markers("<!-- noyaux:figure gemm-roofline -->", self.rendered, "index.md")
        self.assertIn("](figures/gemm-roofline.svg)", out)

    def test_unknown_figure_is_refused(self):
        with self.assertRaisesRegex(FigureError, "figure inconnue « gemm-absente »"):
            figures.render_markers("<!-- noyaux:figure gemm-absente -->", self.rendered, "a.md")

    def test_missing_constants_file_says_what_to_build(self):
        with self.assertRaisesRegex(FigureError, "figures-constantes"):
            figures.load_constants(Path("/inexistant/constantes.json"))


class SourceMarkersTest(unittest.TestCase):
    """Les marqueurs écrits dans les sources : fiches du glossaire (glossary/) et pages (docs/)."""
    ROOT = Path(__file__).resolve().parents[2]

    def markers(self, folder: str) -> list[tuple[str, str]]:
        return [(path.relative_to(self.ROOT).as_posix(), match.group(1))
                for path in sorted((self.ROOT / folder).rglob("*.md"))
                for match in figures.MARKER.finditer(path.read_text(encoding="utf-8"))]

    def test_every_figure_named_by_a_glossary_entry_or_a_page_exists(self):
        unknown = [f"{source} : {name}" for source, name in self.markers("glossary") + self.markers("docs")
                   if name not in figures.FIGURES]
        self.assertEqual(unknown, [], "figures inconnues de figures.FIGURES")

    def test_glossary_entries_show_figures(self):
        shown = {name for _, name in self.markers("glossary")}
        self.assertGreaterEqual(len(shown), 5, "les fiches du glossaire ne montrent presque aucune figure")

    def test_term_page_links_to_the_figures_folder(self):
        rendered = figures.render_all(constants())
        out = figures.render_markers("<!-- noyaux:figure gemm-coalescence -->", rendered,
                                     "glossaire/coalescence.md")
        self.assertIn("](../figures/gemm-coalescence.svg)", out)


if __name__ == "__main__":
    unittest.main()
