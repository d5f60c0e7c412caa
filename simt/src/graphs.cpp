/**
 * @file
 * @brief Graphes CUDA : capture de flux (les lancements, copies et remplissages asynchrones
 *        d'un flux en capture sont enregistrés comme nœuds, pas exécutés), API explicite
 *        (cudaGraphCreate, cudaGraphAdd…Node, cudaGraphAddDependencies), instanciation dans
 *        un ordre topologique, relance (cudaGraphLaunch) et mise à jour (cudaGraphExecUpdate).
 *
 * Le flux émulé est séquentiel : relancer un graphe exécute ses nœuds l'un après l'autre, dans
 * un ordre topologique fixé à l'instanciation (à égalité, l'ordre d'ajout). Une opération que
 * CUDA interdit pendant une capture invalide celle-ci avec l'erreur de CUDA (check_capture).
 */
#include "internal.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

/** @brief Un nœud : son type et ses paramètres (noyau, copie ou remplissage), ses dépendances. */
struct CUgraphNode_st {
    cudaGraph_t graph = nullptr;
    cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    // Noyau.
    const void* kernel = nullptr;
    const char* name = "noyau";
    simt::LaunchShape shape{};
    simt::detail::ThreadBody body;
    // Copie (cudaGraphNodeTypeMemcpy) ou remplissage (cudaGraphNodeTypeMemset).
    void* destination = nullptr;
    const void* source = nullptr;
    std::size_t bytes = 0;
    cudaMemcpyKind kind = cudaMemcpyDefault;
    int value = 0;
    std::vector<cudaGraphNode_t> dependencies;
    cudaGraphNode_t origin = nullptr;  // dans un graphe instancié : le nœud du graphe copié
};

/** @brief Un graphe : ses nœuds, dans l'ordre d'ajout. */
struct CUgraph_st {
    std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};

/** @brief Un graphe instancié : copies des nœuds dans un ordre topologique. */
struct CUgraphExec_st {
    std::vector<CUgraphNode_st> nodes;
    std::vector<std::vector<std::size_t>> dependencies;  // indices dans nodes
};

namespace simt::detail {

/** @brief Une séquence de capture, partagée par le flux d'origine et ceux qu'il a fourchés. */
struct Capture {
    cudaGraph_t graph = nullptr;
    cudaStream_t origin = nullptr;
    cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
    std::thread::id thread;
    unsigned long long id = 0;
    bool invalidated = false;
    bool blocking = false;  // flux d'origine bloquant envers le flux hérité
};

namespace {

/** @brief Un flux qui capture : sa séquence et les nœuds dont dépendra son prochain nœud. */
struct CapturingStream {
    std::shared_ptr<Capture> capture;
    std::vector<cudaGraphNode_t> tail;
};

std::mutex graphs_mutex;
std::map<cudaStream_t, CapturingStream> capturing;  // flux → capture en cours
unsigned long long next_capture_id = 1;

bool is_legacy(cudaStream_t stream) { return stream == nullptr || stream == cudaStreamLegacy; }

std::string stream_text(cudaStream_t stream) {
    if (is_legacy(stream)) return "flux hérité (0)";
    char text[40];
    std::snprintf(text, sizeof text, "flux %p", static_cast<void*>(stream));
    return text;
}

const char* mode_name(cudaStreamCaptureMode mode) {
    switch (mode) {
        case cudaStreamCaptureModeGlobal: return "cudaStreamCaptureModeGlobal";
        case cudaStreamCaptureModeThreadLocal: return "cudaStreamCaptureModeThreadLocal";
        default: return "cudaStreamCaptureModeRelaxed";
    }
}

/** @brief Invalide @p capture ; verrou tenu. */
void invalidate(Capture& capture) { capture.invalidated = true; }

/** @brief Ajoute @p node au graphe de @p stream, après sa queue ; verrou tenu. */
cudaGraphNode_t append(CapturingStream& stream, std::unique_ptr<CUgraphNode_st> node) {
    node->graph = stream.capture->graph;
    node->dependencies = stream.tail;
    cudaGraphNode_t added = node.get();
    stream.capture->graph->nodes.push_back(std::move(node));
    stream.tail = {added};
    return added;
}

/**
 * @brief Flux en capture, ou nullptr ; rend dans @p result l'erreur d'un flux dont la capture
 *        est invalidée, ou d'un travail asynchrone du flux hérité qui dépendrait d'une capture
 *        sur un flux bloquant. Verrou tenu.
 */
CapturingStream* capturing_stream(cudaStream_t stream, const char* api, cudaError_t& result) {
    result = cudaSuccess;
    if (const auto it = capturing.find(stream); it != capturing.end()) {
        if (it->second.capture->invalidated) result = cudaErrorStreamCaptureInvalidated;
        return &it->second;
    }
    if (is_legacy(stream)) {
        for (auto& [other, entry] : capturing) {
            if (!entry.capture->blocking || entry.capture->invalidated) continue;
            invalidate(*entry.capture);
            report(std::string("simt : ") + api + " sur le flux hérité pendant la capture du " +
                   stream_text(other) +
                   ", un flux bloquant : la dépendance implicite est interdite (cudaErrorStreamCaptureImplicit) ; "
                   "la capture est invalidée. Créez ce flux avec cudaStreamNonBlocking, ou lancez sur lui "
                   "plutôt que sur le flux hérité.");
            result = cudaErrorStreamCaptureImplicit;
        }
    }
    return nullptr;
}

/** @brief Ordre topologique de @p graph (à égalité, l'ordre d'ajout) ; vide s'il a un cycle. */
std::vector<cudaGraphNode_t> topological_order(const CUgraph_st& graph) {
    std::map<cudaGraphNode_t, std::size_t> index;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) index[graph.nodes[i].get()] = i;
    std::vector<std::size_t> waiting(graph.nodes.size(), 0);
    std::vector<std::vector<std::size_t>> successors(graph.nodes.size());
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        for (cudaGraphNode_t dependency : graph.nodes[i]->dependencies) {
            ++waiting[i];
            successors[index.at(dependency)].push_back(i);
        }
    std::set<std::size_t> ready;
    for (std::size_t i = 0; i < waiting.size(); ++i)
        if (waiting[i] == 0) ready.insert(i);
    std::vector<cudaGraphNode_t> order;
    while (!ready.empty()) {
        const std::size_t i = *ready.begin();
        ready.erase(ready.begin());
        order.push_back(graph.nodes[i].get());
        for (std::size_t next : successors[i])
            if (--waiting[next] == 0) ready.insert(next);
    }
    if (order.size() != graph.nodes.size()) order.clear();
    return order;
}

/** @brief Le graphe instancié de @p graph dans l'ordre @p order. */
void fill_exec(CUgraphExec_st& exec, const std::vector<cudaGraphNode_t>& order) {
    std::map<cudaGraphNode_t, std::size_t> position;
    for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
    exec.nodes.clear();
    exec.dependencies.clear();
    for (cudaGraphNode_t node : order) {
        exec.nodes.push_back(*node);
        exec.nodes.back().dependencies.clear();
        exec.nodes.back().origin = node;
        std::vector<std::size_t> dependencies;
        for (cudaGraphNode_t dependency : node->dependencies) dependencies.push_back(position.at(dependency));
        std::sort(dependencies.begin(), dependencies.end());
        exec.dependencies.push_back(std::move(dependencies));
    }
}

bool owns(cudaGraph_t graph, cudaGraphNode_t node) { return node != nullptr && node->graph == graph; }

cudaError_t add_node(cudaGraphNode_t* added, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                     std::size_t count, std::unique_ptr<CUgraphNode_st> node) {
    if (!added || !graph || (count > 0 && !dependencies)) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(graphs_mutex);
    for (std::size_t i = 0; i < count; ++i)
        if (!owns(graph, dependencies[i])) return failure(cudaErrorInvalidValue);
    node->graph = graph;
    node->dependencies.assign(dependencies, dependencies + count);
    *added = node.get();
    graph->nodes.push_back(std::move(node));
    return cudaSuccess;
}

}  // namespace

cudaError_t check_capture(const char* api, StreamUse use, cudaStream_t stream) {
    std::lock_guard lock(graphs_mutex);
    cudaError_t result = cudaSuccess;
    const auto refuse = [&](Capture& capture, cudaStream_t where, cudaError_t error, const std::string& why) {
        if (capture.invalidated) return;
        invalidate(capture);
        report(std::string("simt : ") + api + " pendant la capture du " + stream_text(where) + " (" +
               mode_name(capture.mode) + ") : " + why + " ; la capture est invalidée, cudaStreamEndCapture "
               "rendra cudaErrorStreamCaptureInvalidated.");
        result = error;
    };
    if (use == StreamUse::stream_sync && !is_legacy(stream)) {
        if (const auto it = capturing.find(stream); it != capturing.end())
            refuse(*it->second.capture, stream, cudaErrorStreamCaptureUnsupported,
                   "attendre un flux en capture est interdit (cudaErrorStreamCaptureUnsupported), "
                   "son travail n'est qu'enregistré");
        return record_error(result), result;
    }
    for (auto& [where, entry] : capturing) {
        Capture& capture = *entry.capture;
        if (where != capture.origin) continue;  // une séquence, nommée par son flux d'origine
        if (use == StreamUse::device_sync) {
            refuse(capture, where, cudaErrorStreamCaptureUnsupported,
                   "synchroniser le périphérique attendrait un flux en capture (cudaErrorStreamCaptureUnsupported)");
        } else if (capture.blocking) {
            refuse(capture, where, cudaErrorStreamCaptureImplicit,
                   "une opération synchrone passe par le flux hérité, qui dépendrait implicitement de ce flux "
                   "bloquant (cudaErrorStreamCaptureImplicit) ; utilisez la version asynchrone sur le flux capturé");
        } else if (capture.mode == cudaStreamCaptureModeGlobal ||
                   (capture.mode == cudaStreamCaptureModeThreadLocal &&
                    capture.thread == std::this_thread::get_id())) {
            refuse(capture, where, cudaErrorStreamCaptureUnsupported,
                   "une opération synchrone est interdite dans ce mode de capture "
                   "(cudaErrorStreamCaptureUnsupported) ; utilisez la version asynchrone sur le flux capturé");
        }
    }
    record_error(result);
    return result;
}

bool capture_kernel(const void* kernel, const char* name, const LaunchShape& shape, const ThreadBody& body,
                    cudaError_t& result) {
    std::lock_guard lock(graphs_mutex);
    CapturingStream* stream = capturing_stream(shape.stream, "un lancement de noyau", result);
    if (result != cudaSuccess) return record_error(result), true;
    if (stream == nullptr) return false;
    auto node = std::make_unique<CUgraphNode_st>();
    node->type = cudaGraphNodeTypeKernel;
    node->kernel = kernel;
    node->name = name;
    node->shape = shape;
    node->body = body;
    append(*stream, std::move(node));
    return true;
}

bool capture_copy(void* destination, const void* source, std::size_t count, cudaMemcpyKind kind,
                  cudaStream_t stream_handle, cudaError_t& result) {
    std::lock_guard lock(graphs_mutex);
    CapturingStream* stream = capturing_stream(stream_handle, "cudaMemcpyAsync", result);
    if (result != cudaSuccess) return record_error(result), true;
    if (stream == nullptr) return false;
    if (count > 0 && (!destination || !source)) {
        result = failure(cudaErrorInvalidValue);
        invalidate(*stream->capture);
        return true;
    }
    auto node = std::make_unique<CUgraphNode_st>();
    node->type = cudaGraphNodeTypeMemcpy;
    node->destination = destination;
    node->source = source;
    node->bytes = count;
    node->kind = kind;
    append(*stream, std::move(node));
    return true;
}

bool capture_fill(void* destination, int value, std::size_t count, cudaStream_t stream_handle,
                  cudaError_t& result) {
    std::lock_guard lock(graphs_mutex);
    CapturingStream* stream = capturing_stream(stream_handle, "cudaMemsetAsync", result);
    if (result != cudaSuccess) return record_error(result), true;
    if (stream == nullptr) return false;
    auto node = std::make_unique<CUgraphNode_st>();
    node->type = cudaGraphNodeTypeMemset;
    node->destination = destination;
    node->value = value;
    node->bytes = count;
    append(*stream, std::move(node));
    return true;
}

bool capture_event_record(cudaEvent_t event, cudaStream_t stream_handle, cudaError_t& result) {
    std::lock_guard lock(graphs_mutex);
    event->capture.reset();
    event->nodes.clear();
    CapturingStream* stream = capturing_stream(stream_handle, "cudaEventRecord", result);
    if (result != cudaSuccess) return record_error(result), true;
    if (stream == nullptr) return false;
    event->capture = stream->capture;
    event->nodes = stream->tail;
    return true;
}

bool capture_event_wait(cudaStream_t stream_handle, cudaEvent_t event, cudaError_t& result) {
    std::lock_guard lock(graphs_mutex);
    result = cudaSuccess;
    const bool event_captured = event->capture && capturing.contains(event->capture->origin) &&
                                capturing.at(event->capture->origin).capture == event->capture;
    const auto it = capturing.find(stream_handle);
    if (!event_captured) return it != capturing.end();  // attente d'un travail déjà fait
    if (it == capturing.end()) {
        if (is_legacy(stream_handle)) {
            result = failure(cudaErrorStreamCaptureImplicit);
            report("simt : cudaStreamWaitEvent : le flux hérité ne peut pas rejoindre une capture "
                   "(cudaErrorStreamCaptureImplicit)");
            return true;
        }
        // Fourche : le flux rejoint la capture de l'événement, après ses nœuds.
        capturing[stream_handle] = CapturingStream{event->capture, event->nodes};
        return true;
    }
    if (it->second.capture != event->capture) {
        invalidate(*it->second.capture);
        report("simt : cudaStreamWaitEvent : l'événement appartient à une autre capture que celle du flux "
               "(cudaErrorStreamCaptureIsolation)");
        result = failure(cudaErrorStreamCaptureIsolation);
        return true;
    }
    // Jonction : le prochain nœud du flux attend aussi ceux de l'événement.
    for (cudaGraphNode_t node : event->nodes)
        if (std::find(it->second.tail.begin(), it->second.tail.end(), node) == it->second.tail.end())
            it->second.tail.push_back(node);
    return true;
}

void invalidate_capture(cudaStream_t stream) {
    std::lock_guard lock(graphs_mutex);
    if (const auto it = capturing.find(stream); it != capturing.end()) invalidate(*it->second.capture);
}

bool refused_during_capture(const char* api, cudaStream_t stream, const char* node_kind, cudaError_t error) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &status) != cudaSuccess || status == cudaStreamCaptureStatusNone)
        return false;
    report(std::string("simt : ") + api + " pendant la capture d'un flux : les nœuds " + node_kind +
           " ne sont pas émulés ; la capture est invalidée.");
    invalidate_capture(stream);
    record_error(error);
    return true;
}

void forget_stream(cudaStream_t stream) {
    std::lock_guard lock(graphs_mutex);
    capturing.erase(stream);
}

}  // namespace simt::detail

using simt::detail::failure;
using simt::detail::report;

// ---- Capture de flux -------------------------------------------------------------------

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
    if (simt::detail::is_legacy(stream)) {
        report("simt : cudaStreamBeginCapture : le flux hérité (0) ne peut pas être capturé ; "
               "créez un flux (cudaStreamCreateWithFlags(&flux, cudaStreamNonBlocking))");
        return failure(cudaErrorStreamCaptureUnsupported);
    }
    if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
        mode != cudaStreamCaptureModeRelaxed)
        return failure(cudaErrorInvalidValue);
    std::lock_guard lock(simt::detail::graphs_mutex);
    if (simt::detail::capturing.contains(stream)) {
        report("simt : cudaStreamBeginCapture : le " + simt::detail::stream_text(stream) + " capture déjà");
        return failure(cudaErrorIllegalState);
    }
    auto capture = std::make_shared<simt::detail::Capture>();
    capture->graph = new CUgraph_st{};
    capture->origin = stream;
    capture->mode = mode;
    capture->thread = std::this_thread::get_id();
    capture->id = simt::detail::next_capture_id++;
    capture->blocking = stream != cudaStreamPerThread && (stream->flags & cudaStreamNonBlocking) == 0;
    simt::detail::capturing[stream] = {std::move(capture), {}};
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
    if (!graph) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(simt::detail::graphs_mutex);
    auto& capturing = simt::detail::capturing;
    const auto it = capturing.find(stream);
    if (it == capturing.end()) {
        report("simt : cudaStreamEndCapture : le " + simt::detail::stream_text(stream) + " ne capture pas");
        return failure(cudaErrorIllegalState);
    }
    const std::shared_ptr<simt::detail::Capture> capture = it->second.capture;
    if (capture->origin != stream) {
        report("simt : cudaStreamEndCapture : la capture n'a pas été commencée sur le " +
               simt::detail::stream_text(stream) + ", qui l'a rejointe par un événement (fourche) ; "
               "terminez-la sur le " + simt::detail::stream_text(capture->origin));
        return failure(cudaErrorStreamCaptureUnmatched);
    }
    if (capture->mode != cudaStreamCaptureModeRelaxed && capture->thread != std::this_thread::get_id()) {
        report("simt : cudaStreamEndCapture : appelé depuis un autre thread que cudaStreamBeginCapture");
        return failure(cudaErrorStreamCaptureWrongThread);
    }
    // Les flux fourchés doivent avoir rejoint le flux d'origine : leur queue précède la sienne.
    std::set<cudaGraphNode_t> before;
    std::vector<cudaGraphNode_t> pending = it->second.tail;
    while (!pending.empty()) {
        cudaGraphNode_t node = pending.back();
        pending.pop_back();
        if (before.insert(node).second)
            pending.insert(pending.end(), node->dependencies.begin(), node->dependencies.end());
    }
    bool unjoined = false;
    for (auto other = capturing.begin(); other != capturing.end();) {
        if (other->second.capture == capture && other->first != stream) {
            for (cudaGraphNode_t node : other->second.tail) unjoined = unjoined || !before.contains(node);
            other = capturing.erase(other);
        } else {
            ++other;
        }
    }
    capturing.erase(stream);
    *graph = nullptr;
    if (capture->invalidated) {
        delete capture->graph;
        return failure(cudaErrorStreamCaptureInvalidated);
    }
    if (unjoined) {
        delete capture->graph;
        report("simt : cudaStreamEndCapture : un flux fourché pendant la capture n'a pas été rejoint "
               "(cudaStreamWaitEvent du flux d'origine sur un événement enregistré à la fin du flux fourché)");
        return failure(cudaErrorStreamCaptureUnjoined);
    }
    *graph = capture->graph;
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
    if (!status) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(simt::detail::graphs_mutex);
    const auto it = simt::detail::capturing.find(stream);
    if (it == simt::detail::capturing.end()) {
        if (simt::detail::is_legacy(stream))
            for (const auto& [other, entry] : simt::detail::capturing)
                if (entry.capture->blocking) return failure(cudaErrorStreamCaptureImplicit);
        *status = cudaStreamCaptureStatusNone;
    } else {
        *status = it->second.capture->invalidated ? cudaStreamCaptureStatusInvalidated
                                                  : cudaStreamCaptureStatusActive;
    }
    return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                     unsigned long long* id, cudaGraph_t* graph,
                                     const cudaGraphNode_t** dependencies, const cudaGraphEdgeData** edges,
                                     size_t* count) {
    if (!status) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(simt::detail::graphs_mutex);
    const auto it = simt::detail::capturing.find(stream);
    if (it == simt::detail::capturing.end()) {
        *status = cudaStreamCaptureStatusNone;
        return cudaSuccess;
    }
    const simt::detail::Capture& capture = *it->second.capture;
    *status = capture.invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
    if (id) *id = capture.id;
    if (graph) *graph = capture.graph;
    if (dependencies) *dependencies = it->second.tail.data();
    if (edges) *edges = nullptr;  // arêtes ordinaires
    if (count) *count = it->second.tail.size();
    return cudaSuccess;
}

// ---- Construction explicite ------------------------------------------------------------

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags) {
    if (!graph || flags != 0) return failure(cudaErrorInvalidValue);
    *graph = new CUgraph_st{};
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    if (!graph) return failure(cudaErrorInvalidValue);
    delete graph;
    return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* added, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                  size_t count) {
    return simt::detail::add_node(added, graph, dependencies, count, std::make_unique<CUgraphNode_st>());
}

namespace simt::detail {
namespace {

/**
 * @brief Remplit @p node (type, noyau, forme, corps qui possède une copie des arguments)
 *        d'après @p params de l'API C ; @p api nomme l'appel dans les diagnostics.
 */
cudaError_t kernel_node_from(CUgraphNode_st& node, const cudaKernelNodeParams* params, const char* api) {
    if (!params || !params->func) return failure(cudaErrorInvalidValue);
    if (params->extra != nullptr) {
        report(std::string("simt : ") + api + " : les arguments au format « extra » ne sont pas émulés ; "
               "passez-les par kernelParams");
        return failure(cudaErrorNotSupported);
    }
    const BodyFactory factory = kernel_body_factory(params->func);
    const char* name = kernel_name(params->func);
    if (factory == nullptr) {
        report(std::string("simt : ") + api + " : le noyau " + name +
               " n'a jamais été vu avec son type, si bien que simt ne sait pas lire ses kernelParams "
               "(un void* ne dit pas les types des paramètres). Capturez plutôt son lancement dans un flux "
               "(cudaStreamBeginCapture), ou passez d'abord le noyau lui-même, sans conversion, à un appel "
               "typé : un lancement <<<>>>, cudaFuncGetAttributes(&attributs, noyau)…");
        return failure(cudaErrorNotSupported);
    }
    if (!params->kernelParams) return failure(cudaErrorInvalidValue);
    node.type = cudaGraphNodeTypeKernel;
    node.kernel = params->func;
    node.name = name;
    node.shape = {params->gridDim, params->blockDim, params->sharedMemBytes, nullptr, false};
    node.body = factory(params->func, params->kernelParams);
    return cudaSuccess;
}

}  // namespace
}  // namespace simt::detail

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* added, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   size_t count, const cudaKernelNodeParams* params) {
    auto node = std::make_unique<CUgraphNode_st>();
    if (const cudaError_t error = simt::detail::kernel_node_from(*node, params, "cudaGraphAddKernelNode");
        error != cudaSuccess)
        return error;
    return simt::detail::add_node(added, graph, dependencies, count, std::move(node));
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* params) {
    if (!node || node->type != cudaGraphNodeTypeKernel) return failure(cudaErrorInvalidValue);
    CUgraphNode_st updated = *node;
    if (const cudaError_t error = simt::detail::kernel_node_from(updated, params, "cudaGraphKernelNodeSetParams");
        error != cudaSuccess)
        return error;
    std::lock_guard lock(simt::detail::graphs_mutex);
    *node = std::move(updated);
    return cudaSuccess;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params) {
    if (!exec || !node) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(simt::detail::graphs_mutex);
    const auto it = std::find_if(exec->nodes.begin(), exec->nodes.end(),
                                 [node](const CUgraphNode_st& copy) { return copy.origin == node; });
    if (it == exec->nodes.end() || it->type != cudaGraphNodeTypeKernel) return failure(cudaErrorInvalidValue);
    CUgraphNode_st updated = *it;
    if (const cudaError_t error =
            simt::detail::kernel_node_from(updated, params, "cudaGraphExecKernelNodeSetParams");
        error != cudaSuccess)
        return error;
    if (updated.kernel != it->kernel) {
        report("simt : cudaGraphExecKernelNodeSetParams : le noyau d'un graphe instancié ne peut pas changer "
               "(de " + std::string(it->name) + " à " + updated.name + ")");
        return failure(cudaErrorInvalidValue);
    }
    *it = std::move(updated);
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* added, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                     size_t count, void* destination, const void* source, size_t bytes,
                                     cudaMemcpyKind kind) {
    if (bytes > 0 && (!destination || !source)) return failure(cudaErrorInvalidValue);
    auto node = std::make_unique<CUgraphNode_st>();
    node->type = cudaGraphNodeTypeMemcpy;
    node->destination = destination;
    node->source = source;
    node->bytes = bytes;
    node->kind = kind;
    return simt::detail::add_node(added, graph, dependencies, count, std::move(node));
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     const cudaGraphEdgeData* edges, size_t count) {
    if (!graph || (count > 0 && (!from || !to))) return failure(cudaErrorInvalidValue);
    if (edges != nullptr)
        for (size_t i = 0; i < count; ++i)
            if (edges[i].type != cudaGraphDependencyTypeDefault && edges[i].type != cudaGraphDependencyTypeProgrammatic)
                return failure(cudaErrorInvalidValue);
    std::lock_guard lock(simt::detail::graphs_mutex);
    for (size_t i = 0; i < count; ++i)
        if (!simt::detail::owns(graph, from[i]) || !simt::detail::owns(graph, to[i]) || from[i] == to[i])
            return failure(cudaErrorInvalidValue);
    for (size_t i = 0; i < count; ++i) {
        auto& dependencies = to[i]->dependencies;
        if (std::find(dependencies.begin(), dependencies.end(), from[i]) != dependencies.end())
            return failure(cudaErrorInvalidValue);  // arête déjà présente, comme CUDA
        dependencies.push_back(from[i]);
    }
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
    if (!graph || !count) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(simt::detail::graphs_mutex);
    if (nodes != nullptr) {
        const std::size_t copied = std::min(*count, graph->nodes.size());
        for (std::size_t i = 0; i < copied; ++i) nodes[i] = graph->nodes[i].get();
        for (std::size_t i = copied; i < *count; ++i) nodes[i] = nullptr;
    }
    *count = graph->nodes.size();
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
    if (!node || !type) return failure(cudaErrorInvalidValue);
    *type = node->type;
    return cudaSuccess;
}

// ---- Instanciation, relance, mise à jour -----------------------------------------------

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
    if (!exec || !graph) return failure(cudaErrorInvalidValue);
    // Libération automatique, envoi anticipé, priorités : sans objet pour un flux séquentiel.
    constexpr unsigned long long kAccepted = cudaGraphInstantiateFlagAutoFreeOnLaunch |
                                             cudaGraphInstantiateFlagUpload |
                                             cudaGraphInstantiateFlagUseNodePriority;
    if ((flags & ~kAccepted) != 0) {
        report("simt : cudaGraphInstantiate : drapeaux " + std::to_string(flags) +
               " non émulés (cudaGraphInstantiateFlagDeviceLaunch : lancement depuis le périphérique)");
        return failure(cudaErrorNotSupported);
    }
    std::lock_guard lock(simt::detail::graphs_mutex);
    const std::vector<cudaGraphNode_t> order = simt::detail::topological_order(*graph);
    if (order.size() != graph->nodes.size()) {
        report("simt : cudaGraphInstantiate : le graphe contient un cycle (cudaGraphAddDependencies)");
        return failure(cudaErrorInvalidValue);
    }
    auto instance = std::make_unique<CUgraphExec_st>();
    simt::detail::fill_exec(*instance, order);
    *exec = instance.release();
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t* exec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams* params) {
    if (!params) return failure(cudaErrorInvalidValue);
    const cudaError_t error = cudaGraphInstantiate(exec, graph, params->flags);
    params->errNode_out = nullptr;
    params->result_out = error == cudaSuccess                 ? cudaGraphInstantiateSuccess
                         : error == cudaErrorNotSupported     ? cudaGraphInstantiateNodeOperationNotSupported
                         : graph != nullptr && exec != nullptr ? cudaGraphInstantiateInvalidStructure
                                                               : cudaGraphInstantiateError;
    return error;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
    return cudaGraphInstantiate(exec, graph, flags);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
    if (!exec) return failure(cudaErrorInvalidValue);
    delete exec;
    return cudaSuccess;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t) {
    return exec ? cudaSuccess : failure(cudaErrorInvalidValue);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
    if (!exec) return failure(cudaErrorInvalidValue);
    {
        // Relancé dans un flux en capture : ses nœuds rejoignent la capture, après la queue du flux.
        std::lock_guard lock(simt::detail::graphs_mutex);
        cudaError_t result = cudaSuccess;
        simt::detail::CapturingStream* capturing =
            simt::detail::capturing_stream(stream, "cudaGraphLaunch", result);
        if (result != cudaSuccess) return failure(result);
        if (capturing != nullptr) {
            std::vector<cudaGraphNode_t> copies;
            std::vector<bool> has_successor(exec->nodes.size(), false);
            for (std::size_t i = 0; i < exec->nodes.size(); ++i) {
                auto node = std::make_unique<CUgraphNode_st>(exec->nodes[i]);
                node->graph = capturing->capture->graph;
                if (exec->dependencies[i].empty()) node->dependencies = capturing->tail;
                for (std::size_t d : exec->dependencies[i]) {
                    node->dependencies.push_back(copies[d]);
                    has_successor[d] = true;
                }
                copies.push_back(node.get());
                capturing->capture->graph->nodes.push_back(std::move(node));
            }
            if (!copies.empty()) {
                capturing->tail.clear();
                for (std::size_t i = 0; i < copies.size(); ++i)
                    if (!has_successor[i]) capturing->tail.push_back(copies[i]);
            }
            return cudaSuccess;
        }
    }
    // Flux séquentiel : les nœuds l'un après l'autre, dans l'ordre topologique de l'instance.
    for (const CUgraphNode_st& node : exec->nodes) {
        cudaError_t error = cudaSuccess;
        switch (node.type) {
            case cudaGraphNodeTypeKernel: {
                simt::LaunchShape shape = node.shape;
                shape.stream = stream;
                error = simt::detail::launch_grid(node.kernel, node.name, shape, node.body);
                break;
            }
            case cudaGraphNodeTypeMemcpy:
                error = simt::detail::copy_memory(node.destination, node.source, node.bytes, node.kind);
                break;
            case cudaGraphNodeTypeMemset:
                error = simt::detail::fill_memory(node.destination, node.value, node.bytes);
                break;
            default: break;
        }
        if (error != cudaSuccess) return error;
    }
    return simt::detail::sticky_error();
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo* info) {
    if (!exec || !graph || !info) return failure(cudaErrorInvalidValue);
    std::lock_guard lock(simt::detail::graphs_mutex);
    *info = {cudaGraphExecUpdateSuccess, nullptr, nullptr};
    const std::vector<cudaGraphNode_t> order = simt::detail::topological_order(*graph);
    CUgraphExec_st updated;
    simt::detail::fill_exec(updated, order);
    const auto refuse = [&](cudaGraphExecUpdateResult result, cudaGraphNode_t node) {
        *info = {result, node, nullptr};
        return failure(cudaErrorGraphExecUpdateFailure);
    };
    if (order.size() != graph->nodes.size() || updated.nodes.size() != exec->nodes.size())
        return refuse(cudaGraphExecUpdateErrorTopologyChanged, nullptr);
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (updated.dependencies[i] != exec->dependencies[i])
            return refuse(cudaGraphExecUpdateErrorTopologyChanged, order[i]);
        if (updated.nodes[i].type != exec->nodes[i].type)
            return refuse(cudaGraphExecUpdateErrorNodeTypeChanged, order[i]);
        if (updated.nodes[i].type == cudaGraphNodeTypeKernel && updated.nodes[i].kernel != exec->nodes[i].kernel)
            return refuse(cudaGraphExecUpdateErrorUnsupportedFunctionChange, order[i]);
    }
    // Même topologie, mêmes noyaux : seuls les paramètres (arguments, formes, adresses) changent.
    exec->nodes = std::move(updated.nodes);
    return cudaSuccess;
}
