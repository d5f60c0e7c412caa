/**
 * @file
 * @brief Remplace <mma.h> du toolkit (écrit pour nvcc seul) : l'API nvcuda::wmma émulée par
 *        simt (voir simt/wmma.hpp). Ce dossier passe avant le toolkit dans les chemins
 *        d'inclusion.
 */
#pragma once

#include "simt/wmma.hpp"
