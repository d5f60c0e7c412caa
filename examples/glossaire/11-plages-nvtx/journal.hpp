/**
 * @file
 * @brief Logique hôte de l'exemple 11 : des plages NVTX (en-têtes nvtx3, rien à lier) doublées
 *        d'un journal qui vérifie leur équilibre. Sans noyau : testée aussi sur l'émulateur.
 *
 * Un profileur n'affiche que ce qui lui est envoyé ; sans outil attaché, les appels NVTX ne
 * rendent rien d'utile (nvtxRangePush renvoie un code « pas de suivi »). Le journal garde donc
 * sa propre trace des plages ouvertes et fermées : c'est elle que les tests examinent.
 */
#pragma once

#include <nvtx3/nvtx3.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace noyaux::glossaire::nvtx_ranges {

// --8<-- [start:domaine]
/** @brief Domaine NVTX de l'exemple : Nsight Systems range ses plages sous « Noyaux ». */
struct NoyauxDomain {
    static constexpr const char* name{"Noyaux"};  ///< nom affiché par le profileur
};
// --8<-- [end:domaine]

/** @brief Trace des plages : ouvertures et fermetures, profondeur courante. */
class RangeJournal {
public:
    /** @brief Une plage ouverte : son nom et sa profondeur (0 pour une plage de premier niveau). */
    struct Entry {
        std::string name;  ///< nom de la plage
        int depth;         ///< nombre de plages qui l'englobent
    };

    /** @brief Note l'ouverture de la plage @p name, à la profondeur courante. */
    void open(const std::string& name) { entries_.push_back({name, depth_++}); }

    /**
     * @brief Note la fermeture de la plage la plus récemment ouverte.
     * @throws std::logic_error si aucune plage n'est ouverte (une fermeture de trop)
     */
    void close() {
        if (depth_ == 0) throw std::logic_error("plage NVTX fermée alors qu'aucune n'est ouverte");
        --depth_;
    }

    /** @brief Plages ouvertes et pas encore fermées. */
    int depth() const { return depth_; }
    /** @brief Vrai si chaque plage ouverte a été fermée. */
    bool balanced() const { return depth_ == 0; }
    /** @brief Les plages, dans l'ordre d'ouverture. */
    const std::vector<Entry>& entries() const { return entries_; }

    /** @brief Les plages en arbre, une par ligne, indentées de deux espaces par niveau. */
    std::string tree() const {
        std::string text;
        for (const Entry& e : entries_) text += std::string(2 * static_cast<std::size_t>(e.depth), ' ') + e.name + "\n";
        return text;
    }

private:
    std::vector<Entry> entries_;
    int depth_ = 0;
};

// --8<-- [start:phase]
/**
 * @brief Une phase du programme : une plage NVTX du domaine « Noyaux », ouverte à la
 *        construction et fermée à la destruction (même si une exception traverse la portée),
 *        et notée dans le journal.
 */
class Phase {
public:
    /** @brief Ouvre la plage @p name, de couleur @p color sur la frise du profileur. */
    Phase(RangeJournal& journal, const std::string& name, nvtx3::rgb color = nvtx3::rgb{118, 185, 0})
        : journal_(journal), range_(nvtx3::event_attributes{nvtx3::message{name}, nvtx3::color{color}}) {
        journal_.open(name);
    }
    Phase(const Phase&) = delete;
    Phase& operator=(const Phase&) = delete;
    /** @brief Ferme la plage : le journal d'abord, puis NVTX (destruction de range_). */
    ~Phase() { journal_.close(); }

private:
    RangeJournal& journal_;
    nvtx3::scoped_range_in<NoyauxDomain> range_;
};
// --8<-- [end:phase]

/** @brief Référence CPU du calcul de l'exemple : @p x multiplié @p iterations fois par @p factor. */
inline float scaled_reference(float x, float factor, int iterations) {
    for (int k = 0; k < iterations; ++k) x *= factor;
    return x;
}

}  // namespace noyaux::glossaire::nvtx_ranges
