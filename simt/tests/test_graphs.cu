// Graphes CUDA : capture de flux (enregistrer sans exécuter), instanciation et relance dans un
// ordre topologique, API explicite, mise à jour d'un graphe instancié, fourche et jonction de
// flux ; et les refus : opérations interdites pendant la capture, qui l'invalident comme CUDA.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simt/control.hpp>

#include <vector>

using testing::HasSubstr;

namespace graphs {

__global__ void add_constant(int* values, int n, int constant) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) values[i] += constant;
}

__global__ void scale(int* values, int n, int factor) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) values[i] *= factor;
}

// Inscrit @p tag à la suite du journal : l'ordre des inscriptions est celui des lancements.
__global__ void append_tag(int* log, int tag) {
    if (threadIdx.x == 0) log[1 + atomicAdd(&log[0], 1)] = tag;
}

// Jamais lancé ni passé typé à l'API : simt ne connaît pas les types de ses paramètres.
__global__ void never_seen(int* values) { values[threadIdx.x] = 1; }

}  // namespace graphs

namespace {

class Graphs : public testing::Test {
protected:
    static constexpr int kCount = 100;

    void SetUp() override {
        simt::set_quiet(true);
        simt::clear_diagnostic();
        ASSERT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess);
        ASSERT_EQ(cudaMalloc(&values_, kCount * sizeof(int)), cudaSuccess);
        ASSERT_EQ(cudaMemset(values_, 0, kCount * sizeof(int)), cudaSuccess);
    }
    void TearDown() override {
        cudaFree(values_);
        cudaStreamDestroy(stream_);
        cudaGetLastError();
        simt::set_quiet(false);
    }
    std::vector<int> values() const {
        std::vector<int> host(kCount);
        cudaMemcpy(host.data(), values_, kCount * sizeof(int), cudaMemcpyDeviceToHost);
        return host;
    }
    cudaStreamCaptureStatus status(cudaStream_t stream) const {
        cudaStreamCaptureStatus result = cudaStreamCaptureStatusNone;
        EXPECT_EQ(cudaStreamIsCapturing(stream, &result), cudaSuccess);
        return result;
    }

    cudaStream_t stream_ = nullptr;
    int* values_ = nullptr;
};

TEST_F(Graphs, CaptureRecordsWithoutExecutingAndEachLaunchReplays) {
    std::vector<int> host(kCount, 5);
    int* staging;
    ASSERT_EQ(cudaMalloc(&staging, kCount * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(staging, host.data(), kCount * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);

    EXPECT_EQ(status(stream_), cudaStreamCaptureStatusNone);
    ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
    EXPECT_EQ(status(stream_), cudaStreamCaptureStatusActive);
    EXPECT_EQ(cudaMemsetAsync(values_, 0, kCount * sizeof(int), stream_), cudaSuccess);
    EXPECT_EQ(cudaMemcpyAsync(values_, staging, kCount * sizeof(int), cudaMemcpyDeviceToDevice, stream_),
              cudaSuccess);
    graphs::add_constant<<<1, 128, 0, stream_>>>(values_, kCount, 3);  // 5 + 3
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    graphs::scale<<<1, 128, 0, stream_>>>(values_, kCount, 10);  // puis × 10 : l'ordre compte
    cudaGraph_t graph = nullptr;
    ASSERT_EQ(cudaStreamEndCapture(stream_, &graph), cudaSuccess);
    ASSERT_NE(graph, nullptr);
    EXPECT_EQ(status(stream_), cudaStreamCaptureStatusNone);
    EXPECT_EQ(values(), std::vector<int>(kCount, 0));  // la capture n'a rien exécuté

    size_t count = 0;
    ASSERT_EQ(cudaGraphGetNodes(graph, nullptr, &count), cudaSuccess);
    ASSERT_EQ(count, 4u);
    std::vector<cudaGraphNode_t> nodes(count);
    ASSERT_EQ(cudaGraphGetNodes(graph, nodes.data(), &count), cudaSuccess);
    const cudaGraphNodeType expected[] = {cudaGraphNodeTypeMemset, cudaGraphNodeTypeMemcpy,
                                          cudaGraphNodeTypeKernel, cudaGraphNodeTypeKernel};
    for (size_t i = 0; i < count; ++i) {
        cudaGraphNodeType type{};
        EXPECT_EQ(cudaGraphNodeGetType(nodes[i], &type), cudaSuccess);
        EXPECT_EQ(type, expected[i]) << i;
    }

    cudaGraphExec_t exec = nullptr;
    ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream_), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
    EXPECT_EQ(values(), std::vector<int>(kCount, 80));
    // Chaque relance rejoue tout, copie comprise : même résultat.
    ASSERT_EQ(cudaGraphLaunch(exec, stream_), cudaSuccess);
    EXPECT_EQ(values(), std::vector<int>(kCount, 80));
    EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
    EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(simt::last_diagnostic(), "");
    cudaFree(staging);
}

TEST_F(Graphs, ExplicitGraphRunsInTopologicalOrder) {
    int* log;
    ASSERT_EQ(cudaMalloc(&log, 8 * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMemset(log, 0, 8 * sizeof(int)), cudaSuccess);
    cudaFuncAttributes attributes{};
    ASSERT_EQ(cudaFuncGetAttributes(&attributes, graphs::append_tag), cudaSuccess);  // type retenu

    cudaGraph_t graph;
    ASSERT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    int tags[3] = {3, 1, 2};
    cudaGraphNode_t nodes[3];
    for (int i = 0; i < 3; ++i) {
        void* arguments[] = {&log, &tags[i]};
        cudaKernelNodeParams params{};
        params.func = reinterpret_cast<void*>(graphs::append_tag);
        params.gridDim = dim3(1);
        params.blockDim = dim3(32);
        params.kernelParams = arguments;
        ASSERT_EQ(cudaGraphAddKernelNode(&nodes[i], graph, nullptr, 0, &params), cudaSuccess);
    }
    tags[0] = 99;  // les arguments sont copiés à l'ajout du nœud, comme CUDA
    // Ajoutés 3, 1, 2 ; dépendances 1 → 2 → 3 : l'ordre topologique est 1, 2, 3.
    const cudaGraphNode_t from[] = {nodes[1], nodes[2]};
    const cudaGraphNode_t to[] = {nodes[2], nodes[0]};
    ASSERT_EQ(cudaGraphAddDependencies(graph, from, to, nullptr, 2), cudaSuccess);
    // Refus : une arête déjà présente, un nœud d'un autre graphe.
    EXPECT_EQ(cudaGraphAddDependencies(graph, from, to, nullptr, 1), cudaErrorInvalidValue);
    cudaGraph_t other;
    ASSERT_EQ(cudaGraphCreate(&other, 0), cudaSuccess);
    cudaGraphNode_t foreign;
    ASSERT_EQ(cudaGraphAddEmptyNode(&foreign, other, nullptr, 0), cudaSuccess);
    EXPECT_EQ(cudaGraphAddDependencies(graph, &foreign, &nodes[0], nullptr, 1), cudaErrorInvalidValue);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);

    cudaGraphExec_t exec;
    ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream_), cudaSuccess);
    std::vector<int> host(8);
    cudaMemcpy(host.data(), log, 8 * sizeof(int), cudaMemcpyDeviceToHost);
    EXPECT_EQ(host[0], 3);
    EXPECT_EQ((std::vector<int>{host[1], host[2], host[3]}), (std::vector<int>{1, 2, 3}));

    // Un cycle : l'instanciation le refuse.
    ASSERT_EQ(cudaGraphAddDependencies(graph, &nodes[0], &nodes[1], nullptr, 1), cudaSuccess);
    cudaGraphExec_t cyclic = nullptr;
    EXPECT_EQ(cudaGraphInstantiate(&cyclic, graph, 0), cudaErrorInvalidValue);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("cycle"));
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaGraphDestroy(other);
    cudaFree(log);
}

TEST_F(Graphs, ExplicitCopyKernelAndEmptyNodes) {
    std::vector<int> host(kCount, 4);
    int* staging;
    ASSERT_EQ(cudaMalloc(&staging, kCount * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(staging, host.data(), kCount * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    cudaFuncAttributes attributes{};
    ASSERT_EQ(cudaFuncGetAttributes(&attributes, graphs::add_constant), cudaSuccess);
    ASSERT_EQ(cudaFuncGetAttributes(&attributes, graphs::scale), cudaSuccess);

    // début (vide) → copie → noyau → fin (vide)
    const auto build = [&](void* kernel, int argument) {
        cudaGraph_t graph = nullptr;
        EXPECT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
        cudaGraphNode_t start, copy, work, end;
        EXPECT_EQ(cudaGraphAddEmptyNode(&start, graph, nullptr, 0), cudaSuccess);
        EXPECT_EQ(cudaGraphAddMemcpyNode1D(&copy, graph, &start, 1, values_, staging, kCount * sizeof(int),
                                           cudaMemcpyDeviceToDevice),
                  cudaSuccess);
        int count = kCount;
        void* arguments[] = {&values_, &count, &argument};
        cudaKernelNodeParams params{};
        params.func = kernel;
        params.gridDim = dim3(1);
        params.blockDim = dim3(128);
        params.kernelParams = arguments;
        EXPECT_EQ(cudaGraphAddKernelNode(&work, graph, &copy, 1, &params), cudaSuccess);
        EXPECT_EQ(cudaGraphAddEmptyNode(&end, graph, &work, 1), cudaSuccess);
        return graph;
    };
    cudaGraph_t graph = build(reinterpret_cast<void*>(graphs::add_constant), 2);
    cudaGraphExec_t exec;
    cudaGraphInstantiateParams instantiate{};
    ASSERT_EQ(cudaGraphInstantiateWithParams(&exec, graph, &instantiate), cudaSuccess);
    EXPECT_EQ(instantiate.result_out, cudaGraphInstantiateSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream_), cudaSuccess);
    EXPECT_EQ(values(), std::vector<int>(kCount, 6));

    // Nouveaux arguments du nœud noyau : dans l'instance seule, puis dans le graphe.
    size_t node_count = 4;
    std::vector<cudaGraphNode_t> nodes(node_count);
    ASSERT_EQ(cudaGraphGetNodes(graph, nodes.data(), &node_count), cudaSuccess);
    int n = kCount, constant = 5;
    void* arguments[] = {&values_, &n, &constant};
    cudaKernelNodeParams params{};
    params.func = reinterpret_cast<void*>(graphs::add_constant);
    params.gridDim = dim3(1);
    params.blockDim = dim3(128);
    params.kernelParams = arguments;
    ASSERT_EQ(cudaGraphExecKernelNodeSetParams(exec, nodes[2], &params), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream_), cudaSuccess);
    EXPECT_EQ(values(), std::vector<int>(kCount, 9));
    constant = 1;
    ASSERT_EQ(cudaGraphKernelNodeSetParams(nodes[2], &params), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream_), cudaSuccess);  // l'instance garde 5
    EXPECT_EQ(values(), std::vector<int>(kCount, 9));
    cudaGraphExec_t again;
    ASSERT_EQ(cudaGraphInstantiate(&again, graph, 0), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(again, stream_), cudaSuccess);
    EXPECT_EQ(values(), std::vector<int>(kCount, 5));
    cudaGraphExecDestroy(again);
    params.func = reinterpret_cast<void*>(graphs::scale);
    EXPECT_EQ(cudaGraphExecKernelNodeSetParams(exec, nodes[2], &params), cudaErrorInvalidValue);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("le noyau d'un graphe instancié ne peut pas changer"));
    EXPECT_EQ(cudaGraphExecKernelNodeSetParams(exec, nodes[0], &params), cudaErrorInvalidValue);  // nœud vide

    // Refus : copie sans adresse, dépendance prise dans un autre graphe, autre noyau à la mise à jour.
    cudaGraphNode_t node;
    EXPECT_EQ(cudaGraphAddMemcpyNode1D(&node, graph, nullptr, 0, nullptr, staging, 4, cudaMemcpyDeviceToDevice),
              cudaErrorInvalidValue);
    cudaGraph_t other = build(reinterpret_cast<void*>(graphs::scale), 3);
    size_t count = 4;
    std::vector<cudaGraphNode_t> foreign(count);
    ASSERT_EQ(cudaGraphGetNodes(other, foreign.data(), &count), cudaSuccess);
    EXPECT_EQ(cudaGraphAddEmptyNode(&node, graph, foreign.data(), 1), cudaErrorInvalidValue);
    cudaGraphExecUpdateResultInfo info{};
    EXPECT_EQ(cudaGraphExecUpdate(exec, other, &info), cudaErrorGraphExecUpdateFailure);
    EXPECT_EQ(info.result, cudaGraphExecUpdateErrorUnsupportedFunctionChange);
    EXPECT_EQ(info.errorNode, foreign[2]);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaGraphDestroy(other);
    cudaFree(staging);
}

TEST_F(Graphs, KernelNodeOfAnUnknownKernelIsRefused) {
    cudaGraph_t graph;
    ASSERT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    void* arguments[] = {&values_};
    cudaKernelNodeParams params{};
    params.func = reinterpret_cast<void*>(graphs::never_seen);
    params.gridDim = dim3(1);
    params.blockDim = dim3(32);
    params.kernelParams = arguments;
    cudaGraphNode_t node = nullptr;
    EXPECT_EQ(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params), cudaErrorNotSupported);
    EXPECT_EQ(cudaGetLastError(), cudaErrorNotSupported);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("graphs::never_seen n'a jamais été vu avec son type"));
    size_t count = 1;
    EXPECT_EQ(cudaGraphGetNodes(graph, nullptr, &count), cudaSuccess);
    EXPECT_EQ(count, 0u);
    cudaGraphDestroy(graph);
}

TEST_F(Graphs, ExecUpdateChangesParametersButNotTopology) {
    const auto capture = [&](int constant, int launches) {
        cudaGraph_t graph = nullptr;
        EXPECT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), cudaSuccess);
        for (int l = 0; l < launches; ++l) graphs::add_constant<<<1, 128, 0, stream_>>>(values_, kCount, constant);
        EXPECT_EQ(cudaStreamEndCapture(stream_, &graph), cudaSuccess);
        return graph;
    };
    cudaGraph_t first = capture(1, 1);
    cudaGraphExec_t exec;
    ASSERT_EQ(cudaGraphInstantiate(&exec, first, 0), cudaSuccess);
    cudaGraph_t second = capture(7, 1);
    cudaGraphExecUpdateResultInfo info{};
    ASSERT_EQ(cudaGraphExecUpdate(exec, second, &info), cudaSuccess);
    EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream_), cudaSuccess);
    EXPECT_EQ(values(), std::vector<int>(kCount, 7));  // le nouvel argument

    cudaGraph_t longer = capture(1, 2);
    EXPECT_EQ(cudaGraphExecUpdate(exec, longer, &info), cudaErrorGraphExecUpdateFailure);
    EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
    EXPECT_EQ(cudaGetLastError(), cudaErrorGraphExecUpdateFailure);
    ASSERT_EQ(cudaGraphLaunch(exec, stream_), cudaSuccess);  // l'instance garde ses paramètres
    EXPECT_EQ(values(), std::vector<int>(kCount, 14));
    cudaGraphExecDestroy(exec);
    for (cudaGraph_t graph : {first, second, longer}) cudaGraphDestroy(graph);
}

TEST_F(Graphs, ForkAndJoinAcrossStreams) {
    cudaStream_t side;
    ASSERT_EQ(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking), cudaSuccess);
    cudaEvent_t fork, join;
    cudaEventCreate(&fork);
    cudaEventCreate(&join);
    ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
    graphs::add_constant<<<1, 128, 0, stream_>>>(values_, kCount, 2);
    ASSERT_EQ(cudaEventRecord(fork, stream_), cudaSuccess);
    ASSERT_EQ(cudaStreamWaitEvent(side, fork, 0), cudaSuccess);
    EXPECT_EQ(status(side), cudaStreamCaptureStatusActive);  // le flux a rejoint la capture
    graphs::scale<<<1, 128, 0, side>>>(values_, kCount, 5);
    ASSERT_EQ(cudaEventRecord(join, side), cudaSuccess);
    ASSERT_EQ(cudaStreamWaitEvent(stream_, join, 0), cudaSuccess);
    graphs::add_constant<<<1, 128, 0, stream_>>>(values_, kCount, 1);
    cudaGraph_t graph;
    ASSERT_EQ(cudaStreamEndCapture(stream_, &graph), cudaSuccess);
    EXPECT_EQ(status(side), cudaStreamCaptureStatusNone);
    cudaGraphExec_t exec;
    ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream_), cudaSuccess);
    EXPECT_EQ(values(), std::vector<int>(kCount, 11));  // (0 + 2) × 5 + 1
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);

    // Fourche jamais rejointe : la capture est refusée.
    ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
    ASSERT_EQ(cudaEventRecord(fork, stream_), cudaSuccess);
    ASSERT_EQ(cudaStreamWaitEvent(side, fork, 0), cudaSuccess);
    graphs::scale<<<1, 128, 0, side>>>(values_, kCount, 5);
    EXPECT_EQ(cudaStreamEndCapture(side, &graph), cudaErrorStreamCaptureUnmatched);  // pas son origine
    graph = reinterpret_cast<cudaGraph_t>(1);
    EXPECT_EQ(cudaStreamEndCapture(stream_, &graph), cudaErrorStreamCaptureUnjoined);
    EXPECT_EQ(graph, nullptr);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("n'a pas été rejoint"));
    EXPECT_EQ(status(side), cudaStreamCaptureStatusNone);
    cudaEventDestroy(fork);
    cudaEventDestroy(join);
    cudaStreamDestroy(side);
}

TEST_F(Graphs, GraphLaunchedIntoACaptureJoinsIt) {
    cudaGraph_t inner;
    ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
    graphs::add_constant<<<1, 128, 0, stream_>>>(values_, kCount, 1);
    graphs::scale<<<1, 128, 0, stream_>>>(values_, kCount, 3);
    ASSERT_EQ(cudaStreamEndCapture(stream_, &inner), cudaSuccess);
    cudaGraphExec_t inner_exec;
    ASSERT_EQ(cudaGraphInstantiate(&inner_exec, inner, 0), cudaSuccess);

    cudaGraph_t outer;
    ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(inner_exec, stream_), cudaSuccess);  // enregistré, pas exécuté
    graphs::add_constant<<<1, 128, 0, stream_>>>(values_, kCount, 2);
    ASSERT_EQ(cudaStreamEndCapture(stream_, &outer), cudaSuccess);
    EXPECT_EQ(values(), std::vector<int>(kCount, 0));
    size_t count = 0;
    ASSERT_EQ(cudaGraphGetNodes(outer, nullptr, &count), cudaSuccess);
    EXPECT_EQ(count, 3u);
    cudaGraphExec_t outer_exec;
    ASSERT_EQ(cudaGraphInstantiate(&outer_exec, outer, 0), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(outer_exec, stream_), cudaSuccess);
    EXPECT_EQ(values(), std::vector<int>(kCount, 5));  // (0 + 1) × 3 + 2
    cudaGraphExecDestroy(outer_exec);
    cudaGraphExecDestroy(inner_exec);
    cudaGraphDestroy(outer);
    cudaGraphDestroy(inner);
}

TEST_F(Graphs, DeviceSynchronizeInvalidatesTheCapture) {
    ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
    graphs::add_constant<<<1, 128, 0, stream_>>>(values_, kCount, 1);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorStreamCaptureUnsupported);
    EXPECT_EQ(cudaGetLastError(), cudaErrorStreamCaptureUnsupported);
    EXPECT_THAT(simt::last_diagnostic(),
                HasSubstr("cudaDeviceSynchronize pendant la capture du flux"));
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("la capture est invalidée"));
    EXPECT_EQ(status(stream_), cudaStreamCaptureStatusInvalidated);
    graphs::add_constant<<<1, 128, 0, stream_>>>(values_, kCount, 1);
    EXPECT_EQ(cudaGetLastError(), cudaErrorStreamCaptureInvalidated);
    cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(1);
    EXPECT_EQ(cudaStreamEndCapture(stream_, &graph), cudaErrorStreamCaptureInvalidated);
    EXPECT_EQ(graph, nullptr);
    // La capture est close : le flux sert de nouveau, et rien n'a été exécuté.
    EXPECT_EQ(status(stream_), cudaStreamCaptureStatusNone);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(values(), std::vector<int>(kCount, 0));
}

TEST_F(Graphs, SynchronousCopiesAndStreamWaitsDuringCapture) {
    std::vector<int> host(kCount, 1);
    // Mode global : une copie synchrone (flux hérité) est interdite.
    ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(values_, host.data(), kCount * sizeof(int), cudaMemcpyHostToDevice),
              cudaErrorStreamCaptureUnsupported);
    cudaGraph_t graph;
    EXPECT_EQ(cudaStreamEndCapture(stream_, &graph), cudaErrorStreamCaptureInvalidated);
    EXPECT_EQ(values(), std::vector<int>(kCount, 0));

    // Mode relâché, flux non bloquant : la copie synchrone est permise, et s'exécute.
    ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeRelaxed), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(values_, host.data(), kCount * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    // Attendre le flux capturé, lui, est toujours interdit.
    EXPECT_EQ(cudaStreamSynchronize(stream_), cudaErrorStreamCaptureUnsupported);
    EXPECT_EQ(cudaStreamEndCapture(stream_, &graph), cudaErrorStreamCaptureInvalidated);
    EXPECT_EQ(values(), std::vector<int>(kCount, 1));

    // Flux bloquant : le flux hérité en dépendrait implicitement.
    cudaStream_t blocking;
    ASSERT_EQ(cudaStreamCreate(&blocking), cudaSuccess);
    ASSERT_EQ(cudaStreamBeginCapture(blocking, cudaStreamCaptureModeRelaxed), cudaSuccess);
    graphs::add_constant<<<1, 128>>>(values_, kCount, 1);  // sur le flux hérité
    EXPECT_EQ(cudaGetLastError(), cudaErrorStreamCaptureImplicit);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("(cudaErrorStreamCaptureImplicit)"));
    EXPECT_EQ(cudaStreamEndCapture(blocking, &graph), cudaErrorStreamCaptureInvalidated);
    EXPECT_EQ(values(), std::vector<int>(kCount, 1));
    cudaStreamDestroy(blocking);
}

TEST_F(Graphs, MisuseOfCaptureIsRefused) {
    cudaGraph_t graph = nullptr;
    EXPECT_EQ(cudaStreamBeginCapture(nullptr, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
    EXPECT_THAT(simt::last_diagnostic(), HasSubstr("le flux hérité (0) ne peut pas être capturé"));
    EXPECT_EQ(cudaStreamEndCapture(stream_, &graph), cudaErrorIllegalState);
    EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalState);
    ASSERT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaSuccess);
    EXPECT_EQ(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
    // Un lancement refusé pendant la capture l'invalide.
    graphs::add_constant<<<1, 2048, 0, stream_>>>(values_, kCount, 1);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
    EXPECT_EQ(cudaStreamEndCapture(stream_, &graph), cudaErrorStreamCaptureInvalidated);
    EXPECT_EQ(cudaGraphInstantiate(nullptr, nullptr, 0), cudaErrorInvalidValue);
    EXPECT_EQ(cudaGraphLaunch(nullptr, stream_), cudaErrorInvalidValue);
    EXPECT_STREQ(cudaGetErrorName(cudaErrorStreamCaptureInvalidated), "cudaErrorStreamCaptureInvalidated");
    EXPECT_STREQ(cudaGetErrorString(cudaErrorStreamCaptureUnsupported),
                 "opération interdite pendant la capture d'un flux");
    EXPECT_STREQ(cudaGetErrorName(cudaErrorGraphExecUpdateFailure), "cudaErrorGraphExecUpdateFailure");
}

}  // namespace
