/**
 * @file
 * @brief Lecture des arguments des programmes d'exemple : options nommées, valeurs
 *        bornées, erreurs en français qui disent ce qui était attendu.
 */
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace noyaux::cli {

/** @brief Argument invalide : le message dit quelle option, quelle valeur et ce qui était attendu. */
class UsageError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/**
 * @brief Lit un entier décimal dans [@p min, @p max].
 * @throws UsageError si @p text n'est pas un entier, déborde ou sort des bornes.
 */
std::int64_t parse_integer(std::string_view text, std::string_view option, std::int64_t min,
                           std::int64_t max);

/**
 * @brief Lit un réel fini dans [@p min, @p max] (NaN et infinis refusés).
 * @throws UsageError si @p text n'est pas un réel fini ou sort des bornes.
 */
double parse_real(std::string_view text, std::string_view option, double min, double max);

/** @brief Analyseur d'options « --nom valeur » ou « --nom=valeur », plus « --aide ». */
class Parser {
public:
    /** @brief Analyseur du programme @p program, décrit par @p description dans l'aide. */
    Parser(std::string program, std::string description);

    /** @brief Déclare une option entière bornée ; @p target garde sa valeur si l'option est absente. */
    void add_integer(std::string name, std::int64_t* target, std::int64_t min, std::int64_t max,
                     std::string help);

    /** @brief Déclare une option réelle bornée. */
    void add_real(std::string name, double* target, double min, double max, std::string help);

    /**
     * @brief Analyse la ligne de commande.
     * @return false si « --aide » a été demandé (l'aide est alors affichée).
     * @throws UsageError pour une option inconnue, une valeur manquante ou invalide.
     */
    bool parse(int argc, const char* const* argv);

    /** @brief Texte d'aide : usage, description et options avec leurs bornes. */
    std::string help() const;

private:
    struct Option {
        std::string name;
        std::string help;
        bool is_integer;
        std::int64_t* integer_target;
        double* real_target;
        double min;
        double max;
    };
    const Option* find(std::string_view name) const;
    void assign(const Option& option, std::string_view value) const;

    std::string program_;
    std::string description_;
    std::vector<Option> options_;
};

}  // namespace noyaux::cli
