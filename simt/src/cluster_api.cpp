/**
 * @file
 * @brief Clusters de blocs, côté hôte : dimensions propres à un noyau (`__cluster_dims__`,
 *        cudaFuncAttributeRequiredCluster*), autorisation des tailles non portables, refus
 *        des lancements que le pilote refuserait, et occupation en clusters
 *        (cudaOccupancyMaxActiveClusters, cudaOccupancyMaxPotentialClusterSize).
 *
 * Limites de Hopper (guide de programmation CUDA, « Thread Block Clusters ») : 8 blocs par
 * cluster au plus sans cudaFuncAttributeNonPortableClusterSizeAllowed, 16 avec. Un cluster
 * doit en outre tenir en entier sur le périphérique émulé (ses blocs sont co-résidents).
 */
#include "internal.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>

namespace simt::detail {

namespace {

constexpr unsigned kPortableClusterSize = 8;
constexpr unsigned kMaxClusterSize = 16;

/** @brief Ce qu'un noyau dit de ses clusters. */
struct KernelClusters {
    dim3 declared{0, 0, 0};      // __cluster_dims__ (0 : aucun)
    int required[3] = {0, 0, 0};  // cudaFuncAttributeRequiredClusterWidth, Height, Depth
    bool must_be_set = false;     // cudaFuncAttributeClusterDimMustBeSet
    bool non_portable = false;    // cudaFuncAttributeNonPortableClusterSizeAllowed
    int policy = cudaClusterSchedulingPolicyDefault;
};

std::mutex table_mutex;

std::map<const void*, KernelClusters>& table() {
    static std::map<const void*, KernelClusters> kernels;
    return kernels;
}

KernelClusters lookup(const void* kernel) {
    std::lock_guard lock(table_mutex);
    const auto it = table().find(kernel);
    return it == table().end() ? KernelClusters{} : it->second;
}

unsigned volume(dim3 d) { return d.x * d.y * d.z; }

std::string dims_text(dim3 d) {
    return std::to_string(d.x) + "×" + std::to_string(d.y) + "×" + std::to_string(d.z);
}

/** @brief Les dimensions qu'exige le noyau, ou (0, 0, 0) ; @p why si elles sont incohérentes. */
dim3 kernel_dims(const KernelClusters& k, std::string& why) {
    if (k.declared.x != 0) return k.declared;
    const int* r = k.required;
    if (r[0] > 0 && r[1] > 0 && r[2] > 0) return dim3(unsigned(r[0]), unsigned(r[1]), unsigned(r[2]));
    if (r[0] != 0 || r[1] != 0 || r[2] != 0)
        why = "les dimensions de cluster exigées par cudaFuncAttributeRequiredCluster* (" + std::to_string(r[0]) +
              ", " + std::to_string(r[1]) + ", " + std::to_string(r[2]) +
              ") doivent être toutes nulles ou toutes positives";
    return dim3(0, 0, 0);
}

/** @brief Vide si un cluster de @p size blocs est permis à @p kernel ; sinon, pourquoi. */
std::string size_problem(const KernelClusters& k, unsigned size) {
    if (size > kMaxClusterSize)
        return "cluster de " + std::to_string(size) + " blocs : au plus " + std::to_string(kMaxClusterSize) +
               " (taille non portable maximale de Hopper)";
    if (size > kPortableClusterSize && !k.non_portable)
        return "cluster de " + std::to_string(size) + " blocs : au-delà de " + std::to_string(kPortableClusterSize) +
               " (taille portable), le noyau doit l'autoriser par cudaFuncSetAttribute(noyau, "
               "cudaFuncAttributeNonPortableClusterSizeAllowed, 1)";
    return {};
}

/** @brief Dimensions de cluster lues dans les attributs de @p config (false s'il n'y en a pas). */
bool config_cluster(const cudaLaunchConfig_t& config, dim3& dims) {
    for (unsigned i = 0; i < config.numAttrs && config.attrs != nullptr; ++i)
        if (config.attrs[i].id == cudaLaunchAttributeClusterDimension) {
            const auto& d = config.attrs[i].val.clusterDim;
            dims = dim3(d.x, d.y, d.z);
            return true;
        }
    return false;
}

}  // namespace

int register_cluster_dims(const void* kernel, unsigned x, unsigned y, unsigned z) {
    std::lock_guard lock(table_mutex);
    table()[kernel].declared = dim3(x, y, z);
    return 0;
}

cudaError_t apply_kernel_cluster_dims(const void* kernel, LaunchShape& shape, std::string& why) {
    const KernelClusters k = lookup(kernel);
    const dim3 required = kernel_dims(k, why);
    if (!why.empty()) return cudaErrorInvalidClusterSize;
    if (required.x == 0) {
        if (k.must_be_set && !shape.explicit_cluster) {
            why = "le noyau exige des dimensions de cluster au lancement (cudaFuncAttributeClusterDimMustBeSet)";
            return cudaErrorInvalidClusterSize;
        }
        return cudaSuccess;
    }
    if (shape.explicit_cluster && (shape.cluster.x != required.x || shape.cluster.y != required.y ||
                                   shape.cluster.z != required.z)) {
        why = "le lancement demande des clusters de " + dims_text(shape.cluster) + " blocs, le noyau exige " +
              dims_text(required) + " (__cluster_dims__ ou cudaFuncAttributeRequiredCluster*)";
        return cudaErrorInvalidClusterSize;
    }
    shape.cluster = required;
    shape.explicit_cluster = true;
    return cudaSuccess;
}

cudaError_t validate_cluster(const void* kernel, const LaunchShape& shape, unsigned resident_blocks,
                             std::string& why) {
    if (!shape.explicit_cluster) return cudaSuccess;
    const dim3 d = shape.cluster, g = shape.grid;
    if (d.x == 0 || d.y == 0 || d.z == 0) {
        why = "dimension de cluster nulle (" + dims_text(d) + ")";
        return cudaErrorInvalidClusterSize;
    }
    if (g.x % d.x != 0 || g.y % d.y != 0 || g.z % d.z != 0) {
        why = "la grille (" + dims_text(g) + " blocs) n'est pas un multiple du cluster (" + dims_text(d) + ")";
        return cudaErrorInvalidClusterSize;
    }
    const unsigned long long size = 1ull * d.x * d.y * d.z;
    why = size_problem(lookup(kernel), unsigned(std::min<unsigned long long>(size, ~0u)));
    if (why.empty() && size > resident_blocks)
        why = "cluster de " + std::to_string(size) + " blocs, plus que les " + std::to_string(resident_blocks) +
              " blocs que le périphérique émulé peut héberger à la fois (occupation)";
    return why.empty() ? cudaSuccess : cudaErrorInvalidClusterSize;
}

bool set_cluster_attribute(const void* kernel, cudaFuncAttribute attribute, int value, cudaError_t& result) {
    std::lock_guard lock(table_mutex);
    KernelClusters& k = table()[kernel];
    result = cudaSuccess;
    switch (attribute) {
        case cudaFuncAttributeRequiredClusterWidth:
        case cudaFuncAttributeRequiredClusterHeight:
        case cudaFuncAttributeRequiredClusterDepth:
            // Fixées à la compilation, elles ne se changent plus (driver_types.h, requiredClusterWidth).
            if (k.declared.x != 0) result = cudaErrorNotPermitted;
            else if (value < 0) result = cudaErrorInvalidValue;
            else k.required[attribute - cudaFuncAttributeRequiredClusterWidth] = value;
            return true;
        case cudaFuncAttributeClusterDimMustBeSet:
            if (value < 0) result = cudaErrorInvalidValue;
            else k.must_be_set = value != 0;
            return true;
        case cudaFuncAttributeNonPortableClusterSizeAllowed:
            if (value < 0) result = cudaErrorInvalidValue;
            else k.non_portable = value != 0;
            return true;
        case cudaFuncAttributeClusterSchedulingPolicyPreference:  // sans effet : un seul ordonnancement
            if (value < cudaClusterSchedulingPolicyDefault || value > cudaClusterSchedulingPolicyLoadBalancing)
                result = cudaErrorInvalidValue;
            else k.policy = value;
            return true;
        default: return false;
    }
}

void cluster_attributes(const void* kernel, cudaFuncAttributes& attributes) {
    const KernelClusters k = lookup(kernel);
    std::string ignored;
    const dim3 d = kernel_dims(k, ignored);
    attributes.requiredClusterWidth = k.declared.x != 0 ? int(d.x) : k.required[0];
    attributes.requiredClusterHeight = k.declared.x != 0 ? int(d.y) : k.required[1];
    attributes.requiredClusterDepth = k.declared.x != 0 ? int(d.z) : k.required[2];
    attributes.clusterDimMustBeSet = k.must_be_set || k.declared.x != 0;
    attributes.nonPortableClusterSizeAllowed = k.non_portable;
    attributes.clusterSchedulingPolicyPreference = k.policy;
}

}  // namespace simt::detail

using simt::detail::failure;

cudaError_t cudaOccupancyMaxActiveClusters(int* clusters, const void* kernel, const cudaLaunchConfig_t* config) {
    if (!clusters || !kernel || !config || config->blockDim.x * config->blockDim.y * config->blockDim.z == 0)
        return failure(cudaErrorInvalidValue);
    simt::LaunchShape shape{config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream, false};
    shape.explicit_cluster = simt::detail::config_cluster(*config, shape.cluster);
    std::string why;
    if (simt::detail::apply_kernel_cluster_dims(kernel, shape, why) != cudaSuccess || !shape.explicit_cluster)
        return failure(cudaErrorInvalidClusterSize);  // sans dimensions de cluster, ni au lancement ni au noyau
    const unsigned size = simt::detail::volume(shape.cluster);
    if (size == 0 || !simt::detail::size_problem(simt::detail::lookup(kernel), size).empty())
        return failure(cudaErrorInvalidClusterSize);
    *clusters = int(simt::detail::resident_blocks(kernel, shape) / size);
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxPotentialClusterSize(int* size, const void* kernel, const cudaLaunchConfig_t* config) {
    if (!size || !kernel || !config || config->blockDim.x * config->blockDim.y * config->blockDim.z == 0)
        return failure(cudaErrorInvalidValue);
    const simt::LaunchShape shape{config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream, false};
    const simt::detail::KernelClusters k = simt::detail::lookup(kernel);
    const unsigned limit = k.non_portable ? simt::detail::kMaxClusterSize : simt::detail::kPortableClusterSize;
    *size = int(std::min(limit, simt::detail::resident_blocks(kernel, shape)));
    return cudaSuccess;
}
