/**
 * @file
 * @brief Lecture des arguments des programmes d'exemple.
 */
#include "cli.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace noyaux::cli {
namespace {

std::string quoted(std::string_view text) { return "« " + std::string(text) + " »"; }

std::string bounds(double min, double max) {
    // 15 chiffres significatifs : les bornes entières s'affichent sans notation scientifique.
    std::ostringstream out;
    out << std::setprecision(15) << "entre " << min << " et " << max;
    return out.str();
}

/** @brief « a », « a ou b », « a, b ou c » : les choix, comme on les dit. */
std::string enumeration(const std::vector<std::string>& choices) {
    std::string text;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        if (i > 0) text += i + 1 == choices.size() ? " ou " : ", ";
        text += choices[i];
    }
    return text;
}

}  // namespace

std::int64_t parse_integer(std::string_view text, std::string_view option, std::int64_t min,
                           std::int64_t max) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error == std::errc::result_out_of_range)
        throw UsageError(std::string(option) + " : " + quoted(text) +
                         " est trop grand ; attendu un entier " +
                         bounds(static_cast<double>(min), static_cast<double>(max)));
    if (text.empty() || error != std::errc() || stop != end)
        throw UsageError(std::string(option) + " : " + quoted(text) +
                         " n'est pas un entier ; attendu un entier " +
                         bounds(static_cast<double>(min), static_cast<double>(max)));
    if (value < 0 && min >= 0)
        throw UsageError(std::string(option) + " : " + quoted(text) +
                         " est négatif ; attendu un entier " +
                         bounds(static_cast<double>(min), static_cast<double>(max)));
    if (value < min || value > max)
        throw UsageError(std::string(option) + " : " + quoted(text) +
                         " est hors limites ; attendu un entier " +
                         bounds(static_cast<double>(min), static_cast<double>(max)));
    return value;
}

double parse_real(std::string_view text, std::string_view option, double min, double max) {
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value))
        throw UsageError(std::string(option) + " : " + quoted(text) +
                         " n'est pas un réel fini ; attendu un réel " + bounds(min, max));
    if (value < min || value > max)
        throw UsageError(std::string(option) + " : " + quoted(text) +
                         " est hors limites ; attendu un réel " + bounds(min, max));
    return value;
}

std::size_t parse_choice(std::string_view text, std::string_view option,
                         const std::vector<std::string>& choices) {
    for (std::size_t i = 0; i < choices.size(); ++i)
        if (choices[i] == text) return i;
    throw UsageError(std::string(option) + " : " + quoted(text) +
                     " n'est pas un choix valide ; attendu " + enumeration(choices));
}

Parser::Parser(std::string program, std::string description)
    : program_(std::move(program)), description_(std::move(description)) {}

void Parser::add_integer(std::string name, std::int64_t* target, std::int64_t min,
                         std::int64_t max, std::string help) {
    const std::string option = name;
    options_.push_back(
        {std::move(name), std::move(help), "N",
         [=](std::string_view text) { *target = parse_integer(text, option, min, max); },
         [=] {
             return bounds(static_cast<double>(min), static_cast<double>(max)) + ", défaut " +
                    std::to_string(*target);
         }});
}

void Parser::add_real(std::string name, double* target, double min, double max,
                      std::string help) {
    const std::string option = name;
    options_.push_back({std::move(name), std::move(help), "X",
                        [=](std::string_view text) { *target = parse_real(text, option, min, max); },
                        [=] {
                            std::ostringstream out;
                            out << bounds(min, max) << ", défaut " << *target;
                            return out.str();
                        }});
}

void Parser::add_choice_option(std::string name, std::vector<std::string> choices,
                               std::string initial, std::function<void(std::size_t)> select,
                               std::string help) {
    const std::string option = name;
    std::string described = enumeration(choices);
    if (!initial.empty()) described += ", défaut " + initial;
    options_.push_back({std::move(name), std::move(help), "NOM",
                        [=](std::string_view text) { select(parse_choice(text, option, choices)); },
                        [=] { return described; }});
}

void Parser::add_flag(std::string name, bool* target, std::string help) {
    options_.push_back({std::move(name), std::move(help), "", {}, {}, target});
}

const Parser::Option* Parser::find(std::string_view name) const {
    for (const Option& option : options_)
        if (option.name == name) return &option;
    return nullptr;
}

bool Parser::parse(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        if (argument == "--aide" || argument == "-h" || argument == "--help") {
            std::fputs(help().c_str(), stdout);
            return false;
        }
        const std::size_t equal = argument.find('=');
        const std::string_view name = argument.substr(0, equal);
        const Option* option = find(name);
        if (option == nullptr) {
            std::string known;
            for (const Option& candidate : options_) known += " " + candidate.name;
            throw UsageError("option inconnue " + quoted(argument) + " ; options reconnues :" +
                             known);
        }
        if (option->flag != nullptr) {
            if (equal != std::string_view::npos)
                throw UsageError(std::string(name) + " : c'est un drapeau, il ne prend pas de valeur (" +
                                 quoted(argument.substr(equal + 1)) + " donné)");
            *option->flag = true;
        } else if (equal != std::string_view::npos) {
            option->assign(argument.substr(equal + 1));
        } else if (i + 1 < argc) {
            option->assign(argv[++i]);
        } else {
            throw UsageError(std::string(name) + " : valeur manquante");
        }
    }
    return true;
}

std::string Parser::help() const {
    std::ostringstream out;
    out << "Usage : " << program_ << " [options]\n" << description_ << "\n\nOptions :\n";
    for (const Option& option : options_) {
        out << "  " << option.name;
        if (!option.placeholder.empty()) out << " " << option.placeholder;
        out << "\n      " << option.help;
        if (option.describe) out << " (" << option.describe() << ")";
        out << "\n";
    }
    out << "  --aide\n      affiche cette aide\n";
    return out.str();
}

}  // namespace noyaux::cli
