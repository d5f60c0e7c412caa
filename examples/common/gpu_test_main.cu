/**
 * @file
 * @brief Point d'entrée des tests GPU : sans GPU utilisable, le binaire rend le code
 *        « ignoré » (77) que ctest rapporte comme Skipped, au lieu d'un faux succès.
 */
#include "device.cuh"

#include <gtest/gtest.h>

#include <cstdio>

/** @brief Sans GPU utilisable, rend le code « ignoré » ; sinon lance les tests GoogleTest. */
int main(int argc, char** argv) {
    const noyaux::DeviceProbe probe = noyaux::probe_devices();
    if (!probe.usable) {
        std::printf("IGNORÉ : %s\n", probe.reason.c_str());
        return NOYAUX_SKIP_RETURN_CODE;
    }
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
