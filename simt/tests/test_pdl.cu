// Lancement à dépendance programmatique (PDL) : cudaLaunchKernelEx avec les attributs
// programmatiques, cudaGridDependencySynchronize et cudaTriggerProgrammaticLaunchCompletion
// dans les noyaux, directement et sous capture de graphe ; les attributs mal formés sont refusés.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <vector>

using testing::HasSubstr;

namespace pdl {

// Noyau primaire : écrit ses valeurs puis autorise le démarrage du suivant.
__global__ void produce(int* values, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) values[i] = 3 * i;
    cudaTriggerProgrammaticLaunchCompletion();
}

// Noyau secondaire : signale avant d'attendre (permis), attend le primaire, puis le lit.
__global__ void consume(const int* values, int* out, int n) {
    cudaTriggerProgrammaticLaunchCompletion();
    cudaGridDependencySynchronize();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = values[i] + 1;
}

}  // namespace pdl

namespace {

class Pdl : public testing::Test {
protected:
    static constexpr int kCount = 300;

    void SetUp() override {
        simt::set_quiet(true);
        simt::clear_diagnostic();
        ASSERT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess);
        ASSERT_EQ(cudaMalloc(&values_, kCount * sizeof(int)), cudaSuccess);
        ASSERT_EQ(cudaMalloc(&out_, kCount * sizeof(int)), cudaSuccess);
        ASSERT_EQ(cudaMemset(values_, 0, kCount * sizeof(int)), cudaSuccess);
        ASSERT_EQ(cudaMemset(out_, 0, kCount * sizeof(int)), cudaSuccess);
        attribute_.id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attribute_.val.programmaticStreamSerializationAllowed = 1;
        config_.gridDim = dim3((kCount + 127) / 128);
        config_.blockDim = dim3(128);
        config_.stream = stream_;
        config_.attrs = &attribute_;
        config_.numAttrs = 1;
    }
    void TearDown() override {
        cudaFree(values_);
        cudaFree(out_);
        cudaStreamDestroy(stream_);
        cudaGetLastError();
        simt::set_quiet(false);
    }
    std::vector<int> out() const {
        std::vector<int> host(kCount);
        cudaMemcpy(host.data(), out_, kCount * sizeof(int), cudaMemcpyDeviceToHost);
        return host;
    }
    static std::vector<int> expected() {
        std::vector<int> result(kCount);
        for (int i = 0; i < kCount; ++i) result[i] = 3 * i + 1;
        return result;
    }
    void launch_pair() {
        pdl::produce<<<config_.gridDim, config_.blockDim, 0, stream_>>>(values_, kCount);
        ASSERT_EQ(cudaLaunchKernelEx(&config_, pdl::consume, values_, out_, kCount), cudaSuccess);
    }

    cudaStream_t stream_ = nullptr;
    int* values_ = nullptr;
    int* out_ = nullptr;
    cudaLaunchAttribute attribute_{};
    cudaLaunchConfig_t config_{};
};

TEST_F(Pdl, SecondaryKernelSeesThePrimaryResults) {
    launch_pair();
    ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
    EXPECT_EQ(out(), expected());
    EXPECT_EQ(simt::last_diagnostic(), "");
}

TEST_F(Pdl, PairCapturedInAGraph) {
    ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
    launch_pair();
    cudaGraph_t graph;
    ASSERT_EQ(cudaStreamEndCapture(stream_, &graph), cudaSuccess);
    EXPECT_EQ(out(), std::vector<int>(kCount, 0));  // capturé, pas exécuté
    size_t count = 0;
    ASSERT_EQ(cudaGraphGetNodes(graph, nullptr, &count), cudaSuccess);
    EXPECT_EQ(count, 2u);
    cudaGraphExec_t exec;
    ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream_), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
    EXPECT_EQ(out(), expected());
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
}

TEST_F(Pdl, ProgrammaticEventIsRecordedAfterTheGrid) {
    cudaEvent_t event;
    ASSERT_EQ(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), cudaSuccess);
    cudaLaunchAttribute attributes[2] = {attribute_, {}};
    attributes[1].id = cudaLaunchAttributeProgrammaticEvent;
    attributes[1].val.programmaticEvent.event = event;
    config_.attrs = attributes;
    config_.numAttrs = 2;
    pdl::produce<<<config_.gridDim, config_.blockDim, 0, stream_>>>(values_, kCount);
    ASSERT_EQ(cudaLaunchKernelEx(&config_, pdl::consume, values_, out_, kCount), cudaSuccess);
    EXPECT_EQ(cudaEventQuery(event), cudaSuccess);
    EXPECT_EQ(cudaEventSynchronize(event), cudaSuccess);
    EXPECT_EQ(out(), expected());

    // Refus : un événement programmatique nul, des attributs annoncés mais absents.
    attributes[1].val.programmaticEvent.event = nullptr;
    EXPECT_EQ(cudaLaunchKernelEx(&config_, pdl::consume, values_, out_, kCount), cudaErrorInvalidResourceHandle);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("cudaLaunchAttributeProgrammaticEvent sans événement"));
    config_.attrs = nullptr;
    EXPECT_EQ(cudaLaunchKernelEx(&config_, pdl::consume, values_, out_, kCount), cudaErrorInvalidValue);
    cudaEventDestroy(event);
}

}  // namespace
