/**
 * @file
 * @brief Cible de la traduction du PTX en ligne (simt/rewrite/ptx) : un en-tête par famille
 *        d'instructions, sous simt/ptx/. Inclus par le prélude.
 */
#pragma once

#include "simt/shared_window.hpp"
#include "simt/ptx/base.hpp"
#include "simt/ptx/ampere.hpp"
