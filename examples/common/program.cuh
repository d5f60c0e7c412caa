/**
 * @file
 * @brief Cadre commun des programmes d'exemple : chaque type d'erreur devient un
 *        message en français et un code de sortie documenté.
 */
#pragma once

#include <functional>

namespace noyaux {

/** @brief Codes de sortie des programmes d'exemple. */
enum ExitCode : int {
    kExitSuccess = 0,                  ///< résultat vérifié
    kExitFailure = 1,                  ///< résultat faux ou erreur inattendue
    kExitUsage = 2,                    ///< arguments invalides
    kExitNoDevice = 3,                 ///< aucun GPU utilisable
    kExitCudaError = 4,                ///< un appel CUDA a échoué
    kExitUnsupportedArchitecture = 5,  ///< le binaire n'a pas de code pour ce GPU
};

/**
 * @brief Exécute @p body et traduit ses exceptions en message sur la sortie d'erreur
 *        (préfixé par @p program_name) et en code de sortie.
 * @return la valeur de @p body, ou le code qui correspond à l'exception levée.
 */
int run_program(const char* program_name, const std::function<int()>& body);

/**
 * @brief Conclusion d'un programme qui vérifie plusieurs résultats : affiche le verdict et
 *        renvoie kExitSuccess si @p all_correct, kExitFailure sinon.
 */
int conclude(bool all_correct);

}  // namespace noyaux
