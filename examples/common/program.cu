/**
 * @file
 * @brief Traduction des erreurs en messages et en codes de sortie.
 */
#include "program.cuh"

#include "cli.hpp"
#include "cuda_check.cuh"
#include "device.cuh"

#include <cstdio>
#include <exception>

namespace noyaux {

int run_program(const char* program_name, const std::function<int()>& body) {
    try {
        return body();
    } catch (const cli::UsageError& error) {
        std::fprintf(stderr, "%s : %s\nEssayez « %s --aide ».\n", program_name, error.what(),
                     program_name);
        return kExitUsage;
    } catch (const NoDeviceError& error) {
        std::fprintf(stderr, "%s : %s\n", program_name, error.what());
        return kExitNoDevice;
    } catch (const UnsupportedArchitectureError& error) {
        std::fprintf(stderr, "%s : %s\n", program_name, error.what());
        return kExitUnsupportedArchitecture;
    } catch (const CudaError& error) {
        std::fprintf(stderr, "%s : %s\n", program_name, error.what());
        return kExitCudaError;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "%s : erreur : %s\n", program_name, error.what());
        return kExitFailure;
    }
}

int conclude(bool all_correct) {
    if (!all_correct) {
        std::printf("ÉCHEC : un résultat diffère de la référence CPU.\n");
        return kExitFailure;
    }
    std::printf("Résultats vérifiés contre la référence CPU.\n");
    return kExitSuccess;
}

}  // namespace noyaux
