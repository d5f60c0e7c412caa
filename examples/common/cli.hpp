/**
 * @file
 * @brief Lecture des arguments des programmes d'exemple : options nommées, valeurs
 *        bornées, choix parmi des noms, drapeaux, erreurs en français qui disent ce qui
 *        était attendu.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
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

/**
 * @brief Indice de @p text dans @p choices.
 * @throws UsageError si @p text n'est aucun des choix ; le message les énumère.
 */
std::size_t parse_choice(std::string_view text, std::string_view option,
                         const std::vector<std::string>& choices);

/**
 * @brief Analyseur d'options « --nom valeur » ou « --nom=valeur », de drapeaux « --nom »,
 *        plus « --aide ».
 */
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
     * @brief Déclare une option dont la valeur est un nom parmi @p choices, chacun associé à
     *        la valeur qu'il donne à @p target ; l'aide montre comme défaut le nom dont la
     *        valeur est celle de @p target à la déclaration.
     */
    template <typename T>
    void add_choice(std::string name, T* target, std::vector<std::pair<std::string, T>> choices,
                    std::string help) {
        std::vector<std::string> names;
        std::string initial;
        for (const auto& [choice, value] : choices) {
            names.push_back(choice);
            if (initial.empty() && value == *target) initial = choice;
        }
        add_choice_option(std::move(name), std::move(names), std::move(initial),
                          [target, choices = std::move(choices)](std::size_t index) {
                              *target = choices[index].second;
                          },
                          std::move(help));
    }

    /** @brief Déclare un drapeau sans valeur : @p target devient vrai s'il est présent. */
    void add_flag(std::string name, bool* target, std::string help);

    /**
     * @brief Analyse la ligne de commande.
     * @return false si « --aide » a été demandé (l'aide est alors affichée).
     * @throws UsageError pour une option inconnue, une valeur manquante ou invalide, ou une
     *         valeur donnée à un drapeau.
     */
    bool parse(int argc, const char* const* argv);

    /** @brief Texte d'aide : usage, description et options avec leurs bornes ou leurs choix. */
    std::string help() const;

private:
    struct Option {
        std::string name;
        std::string help;
        std::string placeholder;  ///< « N », « X », « NOM » ; vide pour un drapeau
        /// Lit et range une valeur ; vide pour un drapeau.
        std::function<void(std::string_view)> assign;
        /// Ce que l'aide ajoute entre parenthèses (bornes, choix, défaut).
        std::function<std::string()> describe;
        bool* flag = nullptr;  ///< cible d'un drapeau
    };
    void add_choice_option(std::string name, std::vector<std::string> choices, std::string initial,
                           std::function<void(std::size_t)> select, std::string help);
    const Option* find(std::string_view name) const;

    std::string program_;
    std::string description_;
    std::vector<Option> options_;
};

}  // namespace noyaux::cli
