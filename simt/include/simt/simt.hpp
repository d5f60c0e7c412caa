/**
 * @file
 * @brief Prélude de l'émulateur simt, inclus de force (g++ -include) avant chaque source
 *        CUDA compilée pour le processeur : qualificatifs, variables intégrées, lancement
 *        de noyaux et fonctions du périphérique.
 *
 * Les qualificatifs sont définis avant les en-têtes du toolkit : crt/host_defines.h garde
 * alors nos définitions. Les types et la déclaration de l'API runtime viennent du toolkit
 * lui-même (cuda_runtime.h) ; leurs définitions viennent de libsimt.
 */
#pragma once

#define SIMT_EMULATOR 1

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __constant__
#define __managed__
#define __grid_constant__
#define __launch_bounds__(...)
// Les dimensions de cluster sont lues par la réécriture, qui les inscrit après le noyau
// (register_cluster_dims) et les vérifie au début de son corps (check_cluster_dims).
#define __cluster_dims__(...)
// Chaque thread du système exécute un bloc à la fois : une variable statique par thread
// du système est donc une mémoire partagée par bloc (contenu indéfini au début du bloc,
// comme sur GPU). Alignée sur 32 octets au moins : g++ ne garantit à un tableau __half
// thread_local que 2 octets, et wmma::load_matrix_sync exige 32 (simt le vérifie) ; un
// __align__ plus grand l'emporte.
#define __shared__ static thread_local __attribute__((aligned(32)))

#include <cuda_runtime.h>

#include "simt/builtins.hpp"
#include "simt/device_functions.hpp"
#include "simt/launch.hpp"
#include "simt/cluster.hpp"
#include "simt/runtime_overloads.hpp"
#include "simt/ptx.hpp"
