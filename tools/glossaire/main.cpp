/**
 * @file main.cpp
 * @brief glossaire : cherche un terme du glossaire de Noyaux depuis un terminal.
 */
#include <iostream>
#include <string_view>
#include <vector>

#include "program.hpp"

int main(int argc, char** argv) {
    const std::vector<std::string_view> arguments(argv + 1, argv + argc);
    // Le dossier glossary/ du dépôt, fixé à la configuration ; --dossier le remplace.
    return noyaux::glossary::run(arguments, NOYAUX_GLOSSARY_DIR, std::cout, std::cerr);
}
