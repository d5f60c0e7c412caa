/**
 * @file
 * @brief Écrit en JSON les constantes des noyaux que dessinent les figures du site
 *        (tools/mkdocs/figures.py) : tailles de tuiles, géométrie des warps, accès aux bancs
 *        de mémoire partagée. Les valeurs viennent des en-têtes des exemples eux-mêmes :
 *        une figure ne peut pas montrer autre chose que le noyau compilé.
 *
 * Usage : noyaux-figures-constantes FICHIER.json
 */
#include "gemm/common/stream_k.hpp"
#include "gemm/common/tile_scheduler.hpp"
#include "gemm/echelle/sizes.hpp"
#include "gemm/echelle/ladder.cuh"
#include "megakernels/04-megakernel-interpreteur/programme.hpp"
#include "ressources/02-transposition/transposition.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace noyaux::gemm;

/** @brief Un objet JSON écrit au fil de l'eau ; les clés sont des identifiants ASCII. */
class Json {
public:
    Json& open(const char* key) { key_(key) << "{"; first_ = true; return *this; }
    Json& close() { out_ << "}"; first_ = false; return *this; }
    Json& value(const char* key, long long v) { key_(key) << v; return *this; }
    Json& text(const char* key, const char* v) { key_(key) << '"' << v << '"'; return *this; }
    template <typename Range>
    Json& list(const char* key, const Range& values) {
        key_(key) << "[";
        const char* separator = "";
        for (const auto& v : values) out_ << std::exchange(separator, ",") << v;
        out_ << "]";
        return *this;
    }
    /** @brief Ouvre une liste d'objets : chaque item() en ajoute un. */
    Json& open_list(const char* key) { key_(key) << "["; first_ = true; return *this; }
    Json& item() { out_ << (first_ ? "{" : ",{"); first_ = true; return *this; }
    Json& end_item() { out_ << "}"; first_ = false; return *this; }
    Json& close_list() { out_ << "]"; first_ = false; return *this; }
    std::string str() const { return out_.str(); }

private:
    std::ostream& key_(const char* key) {
        out_ << (first_ ? "" : ",") << "\n\"" << key << "\":";
        first_ = false;
        return out_;
    }
    std::ostringstream out_;
    bool first_ = true;
};

/**
 * @brief Côté de la tuile de C dont un bloc (ou un thread, sans mémoire partagée) lit les
 *        opérandes une seule fois en mémoire globale : la granularité de forme, sauf à
 *        l'étape 3, qui accepte toute forme mais réutilise des tuiles de `tile`.
 */
template <typename Kernel>
constexpr Shape reuse_tile() {
    if constexpr (std::is_same_v<Kernel, SharedMemoryKernel>)
        return {SharedMemoryKernel::tile, SharedMemoryKernel::tile, SharedMemoryKernel::tile};
    else
        return Kernel::granularity;
}

void ladder(Json& json) {
    json.open_list("echelle");
    int step = 0;
    Ladder::for_each([&]<typename Kernel>() {
        constexpr Shape tile = reuse_tile<Kernel>();
        json.item().value("etape", ++step).text("noyau", Kernel::name)
            .value("tuile_m", tile.m).value("tuile_n", tile.n).value("tuile_k", tile.k).end_item();
    });
    json.close_list();
}

void tiling(Json& json) {
    using One = Blocktiling1dConfig;
    json.open("etape4").value("block_m", One::block_m).value("block_n", One::block_n)
        .value("block_k", One::block_k).value("thread_m", One::thread_m)
        .value("threads", One::threads).close();
    using Two = Blocktiling2dConfig;
    json.open("etape5").value("block_m", Two::block_m).value("block_n", Two::block_n)
        .value("block_k", Two::block_k).value("thread_m", Two::thread_m)
        .value("thread_n", Two::thread_n).value("threads", Two::threads).close();
    using W = WarptilingConfig;
    using Tile = WarpTile<W::block_m, W::block_n, W::warp_m, W::warp_n, W::warp_n_iterations,
                          W::thread_m, W::thread_n>;
    json.open("etape9").value("block_m", W::block_m).value("block_n", W::block_n)
        .value("block_k", W::block_k).value("warp_m", W::warp_m).value("warp_n", W::warp_n)
        .value("warp_m_iterations", Tile::WMITER).value("warp_n_iterations", W::warp_n_iterations)
        .value("warp_sub_m", Tile::WSUBM).value("warp_sub_n", Tile::WSUBN)
        .value("thread_m", W::thread_m).value("thread_n", W::thread_n)
        .value("threads", W::threads).value("accumulators", Tile::ACCUMULATORS).close();
}

/** @brief Un accès d'un warp (le premier du bloc, premier pas) dans une disposition. */
template <typename Layout>
void bank_access(Json& json, const char* key, conflict_free::SharedAccess which) {
    using namespace conflict_free;
    const WarpAccess access = warp_access<Layout>(which, 0, 0);
    json.open(key).list("mots", access.word).value("largeur", access.width)
        .value("passes", passes(access)).value("degre", conflict_degree(access))
        .value("pire_degre", worst_conflict_degree<Layout>(which)).close();
}

void banks(Json& json) {
    using namespace conflict_free;
    json.open("etape7").value("bancs", bank_count).value("warp", warp_size);
    json.open("avant");
    bank_access<PlainLayout>(json, "ecriture_a", SharedAccess::a_store);
    bank_access<PlainLayout>(json, "lecture_b", SharedAccess::b_read);
    json.close().open("apres");
    bank_access<ConflictFreeLayout>(json, "ecriture_a", SharedAccess::a_store);
    bank_access<ConflictFreeLayout>(json, "lecture_b", SharedAccess::b_read);
    json.close().close();
}

/** @brief Un accès de l'étape 13 (warp 0, premier pas) : mots, passes et degré selon bank_model. */
template <typename Access>
void mma_sync_access(Json& json, const char* key) {
    const bank_model::WarpAccess access = bank_model::warp_access_of<Access>(0, 0);
    json.open(key).list("mots", access.word).value("largeur", access.width)
        .value("passes", bank_model::passes(access)).value("degre", bank_model::conflict_degree(access))
        .value("pire_degre", bank_model::worst_degree<Access>()).close();
}

/** @brief Les 8 premières lignes de la tuile de A : indice du morceau rangé pour chaque morceau logique. */
template <bool Swizzled>
void mma_sync_a_layout(Json& json, const char* key) {
    using Layout = typename MmaSyncIndexing<Swizzled>::ALayout;
    std::vector<int> chunks;
    for (int row = 0; row < 8; ++row)
        for (int c = 0; c < Layout::row_chunks; ++c) chunks.push_back(Layout::chunk(row, c));
    json.list(key, chunks);
}

/** @brief Étape 13 : la tuile de A permutée ou non, et les bancs lus par ldmatrix. */
void mma_sync(Json& json) {
    using namespace bank_model;
    json.open("etape13").value("bancs", bank_count).value("morceaux_a", MmaSyncConfig::a_row_chunks)
        .value("morceaux_b", MmaSyncConfig::b_row_chunks).value("warp_m", MmaSyncConfig::warp_m)
        .value("warp_n", MmaSyncConfig::warp_n);
    mma_sync_a_layout<false>(json, "disposition_a_sans");
    mma_sync_a_layout<true>(json, "disposition_a_avec");
    json.open("sans");
    mma_sync_access<MmaSyncARead<false>>(json, "lecture_a");
    mma_sync_access<MmaSyncBRead<false>>(json, "lecture_b");
    json.close().open("avec");
    mma_sync_access<MmaSyncARead<true>>(json, "lecture_a");
    mma_sync_access<MmaSyncBRead<true>>(json, "lecture_b");
    json.close().close();
}

/** @brief L'étape 14 : tuile, warpgroup, étages et boîtes TMA. */
/** @brief Les tailles d'un noyau à warps spécialisés (étapes 15 et 16). */
template <typename W>
void warp_specialized_step(Json& json, const char* key) {
    json.open(key).value("block_m", W::block_m).value("block_n", W::block_n).value("block_k", W::block_k)
        .value("stages", W::stages).value("consumers", W::consumers).value("threads", W::threads)
        .value("producer_registers", W::producer_registers).value("consumer_registers", W::consumer_registers)
        .value("entry_registers", W::entry_registers)
        .value("wgmma_m", W::wgmma_m).value("consumer_rows", W::consumer_rows).close();
}

/** @brief L'étape 18 : le cluster, la part de B que charge chaque bloc et les octets d'un étage. */
void cluster_step(Json& json) {
    using K = ClusterConfig;
    json.open("etape18").value("block_m", K::block_m).value("block_n", K::block_n).value("block_k", K::block_k)
        .value("cluster", K::cluster).value("b_boxes_per_block", K::b_boxes_per_block)
        .value("box_cols", K::box_cols).value("stages", K::stages)
        .value("a_bytes", K::a_bytes).value("b_bytes", K::b_bytes).value("consumers", K::consumers).close();
}

void tma_wgmma_step(Json& json) {
    using H = TmaWgmmaConfig;
    json.open("etape14").value("block_m", H::block_m).value("block_n", H::block_n)
        .value("block_k", H::block_k).value("stages", H::stages).value("threads", H::threads)
        .value("wgmma_m", H::wgmma_m).value("wgmma_k", H::wgmma_k).value("box_cols", H::box_cols).close();
}

/**
 * @brief Les trois ordres de l'étape 17 sur une grille d'illustration de 16 × 16 tuiles, tirés
 *        de tile_scheduler.hpp (le groupe, de l'étape elle-même), et la vague dessinée : 32 blocs.
 */
void tile_orders(Json& json) {
    namespace sc = schedule;
    constexpr int tiles = 16, wave = 32;
    json.open("etape17").value("tuiles_m", tiles).value("tuiles_n", tiles).value("groupe", PersistentConfig::group)
        .value("vague", wave);
    json.open_list("ordres");
    for (const auto& [order, name] : {std::pair{sc::Order::row_major, "en lignes"}, std::pair{sc::Order::grouped, "groupé"},
                                      std::pair{sc::Order::hilbert, "Hilbert"}}) {
        std::vector<int> rows, cols;
        for (const sc::Tile tile : sc::tile_order(order, tiles, tiles, PersistentConfig::group)) {
            rows.push_back(tile.m);
            cols.push_back(tile.n);
        }
        json.item().text("nom", name).list("m", rows).list("n", cols).end_item();
    }
    json.close_list().close();
}

// --- Étape 19 : faits matériels cités (pas des constantes de noyau) ----------------------
// H100 SXM et H200 : 132 SM (fiches techniques de NVIDIA) ; capacité de calcul 9.0 : 228 Kio
// de mémoire partagée par SM, dont 1 Kio réservé par bloc, et 64 Ki registres de 32 bits par SM
// (CUDA C++ Programming Guide, tableau des capacités de calcul).
constexpr int kHopperSms = 132;
constexpr int kHopperSharedPerSm = 228 * 1024;
constexpr int kHopperSharedReservedPerBlock = 1024;
constexpr int kHopperRegistersPerSm = 64 * 1024;

/**
 * @brief Blocs de l'étape 19 par SM, bornés par la mémoire partagée (étages + mbarrier). Les
 *        registres ne peuvent pas baisser ce nombre : même à 255 registres par thread (256
 *        alloués), un SM garde 64 Ki / (128 × 256) = 2 blocs de 128 threads.
 */
constexpr int stream_k_blocks_per_sm() {
    using C = StreamKConfig;
    const int per_block = int(C::shared_bytes) + C::stages * 8 + kHopperSharedReservedPerBlock;
    return kHopperSharedPerSm / per_block;
}
static_assert(stream_k_blocks_per_sm() <= kHopperRegistersPerSm / (StreamKConfig::threads * 256),
              "le nombre de blocs par SM ne doit pas dépendre du nombre de registres");

/**
 * @brief Quantification en vagues aux côtés du benchmark bf16 (harness.cuh) sur 132 SM : tuiles
 *        de C, vagues et remplissage de la dernière (stream_k::wave_efficiency), puis ce que
 *        choisit la partition hybride (tuiles entières, tuiles partagées) et la part Stream-K
 *        de chaque bloc (stream_k::first_iteration sur les tuiles partagées).
 */
void stream_k_waves(Json& json) {
    using C = StreamKConfig;
    const int workers = kHopperSms * stream_k_blocks_per_sm();
    json.open("etape19").value("sm", kHopperSms).value("blocs_par_sm", stream_k_blocks_per_sm())
        .value("blocs", workers);
    json.open_list("formes");
    for (const int side : ladder_bench::kBf16Sizes) {
        const std::int64_t tiles = std::int64_t(side / C::block_m) * (side / C::block_n);
        const std::int64_t per_tile = side / C::block_k;
        const std::int64_t waves = (tiles + workers - 1) / workers;
        // La grille du noyau : autant de blocs que d'itérations au plus (StreamKKernel::geometry).
        const stream_k::Work work{tiles, per_tile, int(std::min<std::int64_t>(workers, tiles * per_tile))};
        const stream_k::Work shared = stream_k::shared_work(work);
        json.item().value("cote", side).value("tuiles", tiles).value("iterations_par_tuile", per_tile)
            .value("vagues", waves).value("derniere_vague", tiles - (waves - 1) * workers)
            .value("efficacite_pour_mille", std::llround(1000.0 * stream_k::wave_efficiency(tiles, workers)))
            .value("blocs_grille", work.workers)
            .value("tuiles_entieres", stream_k::whole_tiles(work))
            .value("tuiles_partagees", shared.tiles)
            .value("part_max", stream_k::first_iteration(shared, 1) - stream_k::first_iteration(shared, 0))
            .value("part_min", stream_k::first_iteration(shared, shared.workers) -
                                   stream_k::first_iteration(shared, shared.workers - 1))
            .end_item();
    }
    json.close_list().close();
}

void transpose(Json& json) {
    using namespace noyaux::ressources;
    json.open("transposition").value("tuile", kTileDim).value("lignes_de_threads", kBlockRows)
        .value("decalage", kPadding).close();
}

/** @brief Le programme du megakernel de l'exemple 4, construit par l'exemple lui-même. */
void megakernel_program(Json& json) {
    namespace mi = noyaux::megakernels::interpreter;
    const mi::Program program = mi::build_decoder_program(mi::kIllustratedShape, mi::kIllustratedQueues);
    json.open("megakernel_programme").value("files", program.queue_count())
        .value("compteurs", program.counter_count).value("couches", mi::kIllustratedShape.layers);
    auto counter = [](std::uint32_t c) { return c == mi::kNoCounter ? -1LL : static_cast<long long>(c); };
    json.open_list("instructions");
    for (int q = 0; q < program.queue_count(); ++q)
        for (std::uint32_t i = program.queue_begin[q]; i < program.queue_begin[q + 1]; ++i) {
            const mi::Instruction& ins = program.instructions[i];
            json.item().value("file", q).value("rang", i - program.queue_begin[q])
                .text("op", noyaux::megakernels::opcode_name(ins.opcode)).value("couche", ins.layer)
                .value("debut", ins.begin).value("fin", ins.end).value("attend", counter(ins.wait_counter))
                .value("cible", ins.wait_target).value("signale", counter(ins.signal_counter))
                .value("increment", ins.signal_amount).end_item();
        }
    json.close_list().close();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage : noyaux-figures-constantes FICHIER.json\n";
        return 2;
    }
    Json json;
    ladder(json);
    tiling(json);
    banks(json);
    mma_sync(json);
    tma_wgmma_step(json);
    tile_orders(json);
    stream_k_waves(json);
    warp_specialized_step<WarpSpecializedConfig>(json, "etape15");
    warp_specialized_step<TwoConsumersConfig>(json, "etape16");
    cluster_step(json);
    transpose(json);
    megakernel_program(json);
    std::ofstream file(argv[1]);
    file << "{" << json.str() << "\n}\n";
    if (!file) {
        std::cerr << "noyaux-figures-constantes : écriture impossible : " << argv[1] << "\n";
        return 1;
    }
    return 0;
}
