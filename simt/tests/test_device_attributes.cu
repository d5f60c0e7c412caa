// Attributs du périphérique : chacun de l'énumération cudaDeviceAttr de CUDA 13 a une valeur
// (helper_cuda.h des échantillons de NVIDIA lit cudaDevAttrComputeMode et
// cudaDevAttrIntegrated avant tout), cohérente avec cudaGetDeviceProperties ; un attribut
// réservé ou inconnu est refusé sans plantage. Drapeaux du périphérique, profileur.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include <cuda_profiler_api.h>

namespace {

int attribute(cudaDeviceAttr which) {
    int value = -12345;
    EXPECT_EQ(cudaDeviceGetAttribute(&value, which, 0), cudaSuccess) << int(which);
    return value;
}

__global__ void do_nothing() {}

}  // namespace

// 4 multiprocesseurs, ou SIMT_SM (ctest : simt.simt-sm.cpu avec SIMT_SM=132, la taille d'un
// H100 SXM ou d'un H200) ; la co-résidence suit : une grille coopérative d'un bloc de plus que
// ce que les multiprocesseurs tiennent est refusée.
TEST(DeviceAttributes, MultiprocessorCountIsFourOrSimtSm) {
    const char* text = std::getenv("SIMT_SM");
    const int expected = text != nullptr ? std::atoi(text) : 4;
    EXPECT_EQ(attribute(cudaDevAttrMultiProcessorCount), expected);
    int per_multiprocessor = 0;
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, do_nothing, 1024, 0), cudaSuccess);
    EXPECT_EQ(per_multiprocessor, 2);  // 2 048 threads résidents par multiprocesseur
    const unsigned resident = unsigned(per_multiprocessor * expected);
    EXPECT_EQ(cudaLaunchCooperativeKernel(do_nothing, resident, 1024, nullptr), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaLaunchCooperativeKernel(do_nothing, resident + 1, 1024, nullptr),
              cudaErrorCooperativeLaunchTooLarge);
    cudaGetLastError();
}

TEST(DeviceAttributes, EveryAttributeOfTheEnumerationHasAValueOrIsRefused) {
    // De 1 à cudaDevAttrMax : seuls les réservés (sans valeur documentée) et les trous de
    // l'énumération rendent cudaErrorInvalidValue.
    const int reserved[] = {44, 92, 93, 94, 96, 102, 103, 104, 105, 107, 110, 122, 123, 124,
                            127, 128, 129, 132, 136, 137, 141, 145, 146};
    for (int raw = 1; raw < int(cudaDevAttrMax); ++raw) {
        int value = -12345;
        const cudaError_t error = cudaDeviceGetAttribute(&value, cudaDeviceAttr(raw), 0);
        const bool is_reserved = std::find(std::begin(reserved), std::end(reserved), raw) != std::end(reserved);
        EXPECT_EQ(error, is_reserved ? cudaErrorInvalidValue : cudaSuccess) << "attribut " << raw;
        if (error != cudaSuccess) {
            EXPECT_EQ(value, -12345) << "valeur écrite malgré le refus : " << raw;
        }
    }
    cudaGetLastError();
    int value = 0;
    EXPECT_EQ(cudaDeviceGetAttribute(&value, cudaDeviceAttr(100000), 0), cudaErrorInvalidValue);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    EXPECT_EQ(cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0), cudaErrorInvalidValue);
    EXPECT_EQ(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 1), cudaErrorInvalidDevice);
    cudaGetLastError();
}

TEST(DeviceAttributes, ValuesMatchTheProperties) {
    cudaDeviceProp p{};
    ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    EXPECT_EQ(attribute(cudaDevAttrComputeMode), int(cudaComputeModeDefault));
    EXPECT_EQ(attribute(cudaDevAttrIntegrated), p.integrated);
    EXPECT_EQ(attribute(cudaDevAttrIntegrated), 0);
    EXPECT_EQ(attribute(cudaDevAttrCanMapHostMemory), 1);
    EXPECT_EQ(attribute(cudaDevAttrCanMapHostMemory), p.canMapHostMemory);
    EXPECT_EQ(attribute(cudaDevAttrMaxBlockDimX), p.maxThreadsDim[0]);
    EXPECT_EQ(attribute(cudaDevAttrMaxBlockDimZ), p.maxThreadsDim[2]);
    EXPECT_EQ(attribute(cudaDevAttrMaxGridDimX), p.maxGridSize[0]);
    EXPECT_EQ(attribute(cudaDevAttrMaxGridDimY), p.maxGridSize[1]);
    EXPECT_EQ(attribute(cudaDevAttrTotalConstantMemory), int(p.totalConstMem));
    EXPECT_EQ(attribute(cudaDevAttrMaxRegistersPerBlock), p.regsPerBlock);
    EXPECT_EQ(attribute(cudaDevAttrMaxRegistersPerMultiprocessor), p.regsPerMultiprocessor);
    EXPECT_EQ(attribute(cudaDevAttrUnifiedAddressing), p.unifiedAddressing);
    EXPECT_EQ(attribute(cudaDevAttrManagedMemory), p.managedMemory);
    EXPECT_EQ(attribute(cudaDevAttrConcurrentKernels), p.concurrentKernels);
    EXPECT_EQ(attribute(cudaDevAttrAsyncEngineCount), p.asyncEngineCount);
    EXPECT_EQ(attribute(cudaDevAttrGpuOverlap), p.asyncEngineCount > 0);
    EXPECT_EQ(attribute(cudaDevAttrGlobalMemoryBusWidth), p.memoryBusWidth);
    EXPECT_EQ(attribute(cudaDevAttrL2CacheSize), p.l2CacheSize);
    EXPECT_EQ(attribute(cudaDevAttrMaxPitch), int(p.memPitch));
    EXPECT_EQ(attribute(cudaDevAttrTextureAlignment), int(p.textureAlignment));
    EXPECT_EQ(attribute(cudaDevAttrMemoryPoolsSupported), 1);
    EXPECT_EQ(attribute(cudaDevAttrHostRegisterSupported), 1);
    EXPECT_EQ(attribute(cudaDevAttrCooperativeLaunch), 1);
    EXPECT_EQ(attribute(cudaDevAttrClusterLaunch), 1);  // clusters de blocs émulés
    EXPECT_EQ(attribute(cudaDevAttrComputeCapabilityMinor), p.minor);
    // clock64() compte des nanosecondes : la fréquence annoncée est 1 GHz (en kHz).
    EXPECT_EQ(attribute(cudaDevAttrClockRate), 1000000);
}

// simt exécute wgmma, la TMA et les clusters : il se présente comme un GPU de capacité 9.0,
// avec les limites de la colonne 9.0 du tableau « Technical Specifications per Compute
// Capability » du CUDA C++ Programming Guide (mémoire partagée : § « Compute Capability 9.0 »).
__global__ void empty_kernel() {}

TEST(DeviceAttributes, HopperComputeCapabilityAndItsLimits) {
    constexpr int kKiB = 1024;
    EXPECT_EQ(attribute(cudaDevAttrComputeCapabilityMajor), 9);
    EXPECT_EQ(attribute(cudaDevAttrComputeCapabilityMinor), 0);
    EXPECT_EQ(attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor), 228 * kKiB);
    EXPECT_EQ(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin), 227 * kKiB);
    EXPECT_EQ(attribute(cudaDevAttrMaxSharedMemoryPerBlock), 48 * kKiB);
    EXPECT_EQ(attribute(cudaDevAttrReservedSharedMemoryPerBlock), 1 * kKiB);
    EXPECT_EQ(attribute(cudaDevAttrMaxRegistersPerMultiprocessor), 64 * 1024);
    EXPECT_EQ(attribute(cudaDevAttrMaxRegistersPerBlock), 64 * 1024);
    EXPECT_EQ(attribute(cudaDevAttrMaxThreadsPerMultiProcessor), 2048);
    EXPECT_EQ(attribute(cudaDevAttrMaxBlocksPerMultiprocessor), 32);
    EXPECT_EQ(attribute(cudaDevAttrMaxThreadsPerBlock), 1024);
    // Le code d'un noyau est celui d'un sm_90 : une vérification d'architecture passe.
    cudaFuncAttributes attributes{};
    ASSERT_EQ(cudaFuncGetAttributes(&attributes, empty_kernel), cudaSuccess);
    EXPECT_EQ(attributes.ptxVersion, 90);
    EXPECT_EQ(attributes.binaryVersion, 90);
    // 227 Kio de mémoire partagée dynamique s'obtiennent sur option, pas un octet de plus.
    EXPECT_EQ(cudaFuncSetAttribute(empty_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * kKiB),
              cudaSuccess);
    EXPECT_EQ(cudaFuncSetAttribute(empty_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * kKiB + 1),
              cudaErrorInvalidValue);
    cudaGetLastError();
}

TEST(DeviceAttributes, DeviceFlagsAndProfiler) {
    unsigned flags = 0;
    EXPECT_EQ(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost), cudaSuccess);
    EXPECT_EQ(cudaGetDeviceFlags(&flags), cudaSuccess);
    EXPECT_EQ(flags, unsigned(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
    EXPECT_EQ(cudaSetDeviceFlags(cudaDeviceScheduleAuto), cudaSuccess);
    EXPECT_EQ(cudaGetDeviceFlags(&flags), cudaSuccess);
    EXPECT_EQ(flags, unsigned(cudaDeviceMapHost));  // la projection est toujours active
    // Deux modes d'ordonnancement à la fois, ou un bit inconnu : refusés.
    EXPECT_EQ(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield), cudaErrorInvalidValue);
    EXPECT_EQ(cudaSetDeviceFlags(0x100), cudaErrorInvalidValue);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    EXPECT_EQ(cudaGetDeviceFlags(nullptr), cudaErrorInvalidValue);
    cudaGetLastError();
    EXPECT_EQ(cudaProfilerStart(), cudaSuccess);
    EXPECT_EQ(cudaProfilerStop(), cudaSuccess);
    int least = 7, greatest = 7;
    EXPECT_EQ(cudaDeviceGetStreamPriorityRange(&least, &greatest), cudaSuccess);
    EXPECT_EQ(least, 0);
    EXPECT_EQ(greatest, 0);
}
