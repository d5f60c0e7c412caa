/**
 * @file
 * @brief NOYAUX_HOST_DEVICE pour la logique hôte de la partie GEMM : la définition commune à
 *        tous les exemples est dans common/host_device.hpp.
 */
#pragma once

#include "common/host_device.hpp"
