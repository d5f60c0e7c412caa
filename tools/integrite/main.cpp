/**
 * @file main.cpp
 * @brief noyaux-integrite : vérifie que pages, exemples et extraits de code se tiennent.
 *        Voir integrity.hpp pour les règles, program.hpp pour les codes de sortie.
 */
#include <iostream>
#include <string_view>
#include <vector>

#include "program.hpp"

int main(int argc, char** argv) {
    const std::vector<std::string_view> arguments(argv + 1, argv + argc);
    return noyaux::integrity::run(arguments, std::cout, std::cerr);
}
