/**
 * @file
 * @brief Tests de la requête de périphérique : propriétés cohérentes avec les attributs du
 *        runtime, code machine chargé compatible avec la carte, mises en forme.
 */
#include "requete-peripherique.cuh"

#include "common/cuda_check.cuh"
#include "common/device.cuh"

#include <gtest/gtest.h>

namespace {

namespace dq = noyaux::glossaire::device_query;

int attribute(cudaDeviceAttr which, int device) {
    int value = 0;
    NOYAUX_CUDA_CHECK(cudaDeviceGetAttribute(&value, which, device));
    return value;
}

}  // namespace

TEST(DeviceQuery, SummaryAgreesWithDeviceAttributes) {
    // Deux chemins du runtime vers la même information : la structure et l'attribut isolé.
    const dq::DeviceSummary s = dq::query_device(0);
    EXPECT_FALSE(s.name.empty());
    EXPECT_EQ(s.multiprocessors, attribute(cudaDevAttrMultiProcessorCount, 0));
    EXPECT_EQ(s.major, attribute(cudaDevAttrComputeCapabilityMajor, 0));
    EXPECT_EQ(s.minor, attribute(cudaDevAttrComputeCapabilityMinor, 0));
    EXPECT_EQ(s.l2_bytes, static_cast<std::size_t>(attribute(cudaDevAttrL2CacheSize, 0)));
    EXPECT_EQ(s.max_threads_per_multiprocessor, attribute(cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    EXPECT_GT(s.multiprocessors, 0);
    EXPECT_GT(s.global_memory_bytes, s.l2_bytes);
    EXPECT_GT(s.runtime_version, 0);
    EXPECT_GT(s.driver_version, 0);
}

TEST(DeviceQuery, LoadedMachineCodeSuitsTheDevice) {
    // Le code SASS d'une architecture XY s'exécute sur les cartes X.Y' avec Y' ≥ Y : le runtime
    // retient donc un code de même majeure, jamais plus récent que la carte.
    const dq::DeviceSummary s = dq::query_device(0);
    EXPECT_EQ(s.binary_version / 10, s.major);
    EXPECT_LE(s.binary_version, s.major * 10 + s.minor);
    EXPECT_GT(s.ptx_version, 0);
}

TEST(DeviceQuery, UnknownDeviceIsAnError) {
    int count = 0;
    NOYAUX_CUDA_CHECK(cudaGetDeviceCount(&count));
    EXPECT_THROW(dq::query_device(count), noyaux::CudaError);
    (void)cudaGetLastError();  // l'erreur attendue ne doit pas rester en attente
}

TEST(DeviceQueryText, ArchitectureNames) {
    EXPECT_EQ(dq::architecture_name(7, 0), "Volta");
    EXPECT_EQ(dq::architecture_name(7, 5), "Turing");
    EXPECT_EQ(dq::architecture_name(8, 0), "Ampere");
    EXPECT_EQ(dq::architecture_name(8, 6), "Ampere");
    EXPECT_EQ(dq::architecture_name(8, 9), "Ada Lovelace");
    EXPECT_EQ(dq::architecture_name(9, 0), "Hopper");
    EXPECT_EQ(dq::architecture_name(10, 0), "Blackwell");
    EXPECT_EQ(dq::architecture_name(12, 0), "Blackwell");
    EXPECT_EQ(dq::architecture_name(6, 1), "génération inconnue de cet exemple");
}

TEST(DeviceQueryText, BytesWithFrenchDecimalComma) {
    EXPECT_EQ(dq::format_bytes(0), "0 octets");
    EXPECT_EQ(dq::format_bytes(1023), "1023 octets");
    EXPECT_EQ(dq::format_bytes(1024), "1,0 Kio");
    EXPECT_EQ(dq::format_bytes(1536), "1,5 Kio");
    EXPECT_EQ(dq::format_bytes(std::size_t{50} << 20), "50,0 Mio");
    EXPECT_EQ(dq::format_bytes(std::size_t{80} << 30), "80,0 Gio");
}

TEST(DeviceQueryText, CudaVersions) {
    EXPECT_EQ(noyaux::cuda_version_text(13000), "13.0");
    EXPECT_EQ(noyaux::cuda_version_text(12080), "12.8");
    EXPECT_EQ(noyaux::cuda_version_text(11020), "11.2");
}
