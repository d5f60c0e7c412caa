// Cadre des programmes : chaque erreur donne son code de sortie et un message préfixé.
#include "common/cli.hpp"
#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/program.cuh"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using testing::HasSubstr;

namespace {

struct Outcome {
    int code;
    std::string error_output;
};

template <typename F>
Outcome run(F&& body) {
    testing::internal::CaptureStderr();
    const int code = noyaux::run_program("exemple", body);
    return {code, testing::internal::GetCapturedStderr()};
}

}  // namespace

TEST(RunProgram, ReturnsBodyResult) {
    EXPECT_EQ(run([] { return 0; }).code, noyaux::kExitSuccess);
    EXPECT_EQ(run([] { return 1; }).code, noyaux::kExitFailure);
}

TEST(RunProgram, MapsEachErrorToItsExitCode) {
    const Outcome usage = run([]() -> int { throw noyaux::cli::UsageError("--taille : mauvais"); });
    EXPECT_EQ(usage.code, noyaux::kExitUsage);
    EXPECT_THAT(usage.error_output, HasSubstr("exemple : --taille : mauvais"));
    EXPECT_THAT(usage.error_output, HasSubstr("Essayez « exemple --aide »"));

    const Outcome device = run([]() -> int { throw noyaux::NoDeviceError("aucun GPU"); });
    EXPECT_EQ(device.code, noyaux::kExitNoDevice);

    const Outcome arch = run([]() -> int { throw noyaux::UnsupportedArchitectureError("sm_75"); });
    EXPECT_EQ(arch.code, noyaux::kExitUnsupportedArchitecture);

    const Outcome cuda = run([]() -> int {
        NOYAUX_CUDA_CHECK(cudaErrorInvalidValue);
        return 0;
    });
    EXPECT_EQ(cuda.code, noyaux::kExitCudaError);
    EXPECT_THAT(cuda.error_output, HasSubstr("cudaErrorInvalidValue"));
    EXPECT_THAT(cuda.error_output, HasSubstr("test_program.cpp"));
}

// Sur une machine sans pilote (l'intégration continue), la détection doit le dire
// clairement ; avec un GPU, elle doit en compter au moins un.
TEST(ProbeDevices, ExplainsWhyNoDeviceIsUsable) {
    const noyaux::DeviceProbe probe = noyaux::probe_devices();
    if (probe.usable) {
        EXPECT_GT(probe.count, 0);
        EXPECT_TRUE(probe.reason.empty());
    } else {
        EXPECT_EQ(probe.count, 0);
        EXPECT_THAT(probe.reason, HasSubstr("aucun GPU CUDA utilisable"));
        EXPECT_THAT(probe.reason, testing::AnyOf(HasSubstr("cudaGetDeviceCount a renvoyé"),
                                                 HasSubstr("aucune carte")));
        EXPECT_THROW(noyaux::require_device(), noyaux::NoDeviceError);
    }
}
