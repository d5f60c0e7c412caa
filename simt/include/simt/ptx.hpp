/**
 * @file
 * @brief Cible de la traduction du PTX en ligne (simt/rewrite/ptx) : un en-tête par famille
 *        d'instructions, sous simt/ptx/. Inclus par le prélude.
 */
#pragma once

#include "simt/shared_window.hpp"
#include "simt/ptx/base.hpp"
#include "simt/ptx/ampere.hpp"
#include "simt/ptx/wgmma.hpp"
#include "simt/ptx/mbarrier.hpp"
#include "simt/ptx/tma.hpp"
#include "simt/ptx/cluster.hpp"
