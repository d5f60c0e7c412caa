/**
 * @file
 * @brief Tests de l'exemple 12. Partout, émulateur compris, sans GPU : NVRTC compile la source
 *        vers de la PTX, le déroulement choisi à l'exécution se retrouve dans le code, une faute
 *        est rapportée avec le journal, une architecture inconnue est refusée. Sur GPU : le
 *        noyau compilé (cubin ou PTX) se charge, se lance et rend le résultat de référence.
 */
#include "compilation.hpp"

#ifndef SIMT_EMULATOR
#include "nvrtc.cuh"

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace rc = noyaux::glossaire::runtime_compilation;

std::size_t occurrences(const std::string& text, const std::string& pattern) {
    std::size_t count = 0;
    for (std::size_t at = text.find(pattern); at != std::string::npos; at = text.find(pattern, at + 1)) ++count;
    return count;
}

std::string ptx_text(const rc::CompiledKernel& k) { return std::string(k.image.data()); }

}  // namespace

TEST(NvrtcHost, CompilesToPtxWithoutAGpu) {
    const rc::CompiledKernel k =
        rc::compile_kernel(rc::kSaxpySource, "saxpy.cu", "saxpy<4>", rc::architecture_option(8, 0, false));
    EXPECT_FALSE(k.cubin);
    EXPECT_EQ(k.lowered_name, "_Z5saxpyILi4EEvfPKfPfi");  // saxpy<4>(float, const float*, float*, int)
    const std::string ptx = ptx_text(k);
    EXPECT_NE(ptx.find(".target sm_80"), std::string::npos);
    EXPECT_NE(ptx.find(".entry " + k.lowered_name), std::string::npos);
}

TEST(NvrtcHost, UnrollChosenAtRunTimeIsACompileTimeConstant) {
    // Chaque élément traité par un thread donne une FMA dans la PTX : le déroulement est complet.
    for (int unroll : {1, 2, 8}) {
        const rc::CompiledKernel k = rc::compile_kernel(rc::kSaxpySource, "saxpy.cu", rc::saxpy_expression(unroll),
                                                        rc::architecture_option(9, 0, false));
        EXPECT_EQ(occurrences(ptx_text(k), "fma.rn.f32"), static_cast<std::size_t>(unroll)) << "saxpy<" << unroll << ">";
    }
}

TEST(NvrtcHost, CompilationErrorCarriesTheLogInFrench) {
    std::string faulty = rc::kSaxpySource;
    faulty.replace(faulty.find("fmaf("), 5, "fmaff(");
    try {
        rc::compile_kernel(faulty, "saxpy-fautif.cu", "saxpy<4>", rc::architecture_option(8, 0, false));
        FAIL() << "la source fautive a été compilée";
    } catch (const rc::CompilationError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("la compilation de « saxpy-fautif.cu » par NVRTC a échoué"), std::string::npos);
        EXPECT_NE(message.find("Journal de NVRTC"), std::string::npos);
        EXPECT_NE(message.find("saxpy-fautif.cu(8)"), std::string::npos) << message;  // fichier et ligne
        EXPECT_NE(message.find("fmaff"), std::string::npos) << message;
    }
}

TEST(NvrtcHost, RejectsUnknownArchitecturesAndUnrolls) {
    const std::vector<int> archs = rc::supported_architectures();
    EXPECT_NE(std::find(archs.begin(), archs.end(), 90), archs.end());
    EXPECT_EQ(rc::architecture_option(9, 0, true), "--gpu-architecture=sm_90");
    EXPECT_THROW(rc::architecture_option(6, 1, true), std::invalid_argument);  // Pascal : plus pris en charge
    EXPECT_THROW(rc::saxpy_expression(3), std::invalid_argument);
    EXPECT_THROW(rc::compile_kernel(rc::kSaxpySource, "saxpy.cu", "saxpy<4>", "--gpu-architecture=sm_12"),
                 rc::CompilationError);
}

#ifndef SIMT_EMULATOR
namespace {

int current_architecture(bool cubin, std::string* option) {
    int device = 0;
    cudaDeviceProp p{};
    NOYAUX_CUDA_CHECK(cudaGetDevice(&device));
    NOYAUX_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    *option = rc::architecture_option(p.major, p.minor, cubin);
    return 10 * p.major + p.minor;
}

void expect_saxpy_runs(bool cubin, int unroll) {
    std::string option;
    current_architecture(cubin, &option);
    const rc::CompiledKernel compiled =
        rc::compile_kernel(rc::kSaxpySource, "saxpy.cu", rc::saxpy_expression(unroll), option);
    EXPECT_EQ(compiled.cubin, cubin);
    const rc::LoadedKernel kernel(compiled);
    std::vector<float> x(1001), y(1001);  // pas un multiple de 128·unroll : dernier bloc partiel
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = static_cast<float>(i) * 0.01f;
        y[i] = 3.0f - static_cast<float>(i % 5);
    }
    noyaux::DeviceBuffer<float> dx(x), dy(y);
    rc::run_saxpy(kernel, unroll, -1.25f, dx.data(), dy.data(), static_cast<int>(x.size()));
    EXPECT_EQ(dy.download(), rc::saxpy_reference(-1.25f, x, y)) << (cubin ? "cubin" : "PTX") << ", saxpy<" << unroll << ">";
}

}  // namespace

TEST(NvrtcDevice, CubinLoadsAndRuns) {
    for (int unroll : {1, 4, 8}) expect_saxpy_runs(true, unroll);
}

TEST(NvrtcDevice, PtxIsCompiledByTheDriverAndRuns) { expect_saxpy_runs(false, 2); }

TEST(NvrtcDevice, UnknownKernelNameIsACudaError) {
    std::string option;
    current_architecture(true, &option);
    rc::CompiledKernel compiled = rc::compile_kernel(rc::kSaxpySource, "saxpy.cu", "saxpy<1>", option);
    compiled.lowered_name = "absent";
    EXPECT_THROW(rc::LoadedKernel{compiled}, noyaux::CudaError);
}
#endif
