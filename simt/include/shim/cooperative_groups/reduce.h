/** @file
 * @brief Réductions des groupes coopératifs : définies dans cooperative_groups.h pour simt. */
#pragma once
#include <cooperative_groups.h>
