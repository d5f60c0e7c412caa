/** @file
 * @brief Scans des groupes coopératifs : définis dans cooperative_groups.h pour simt. */
#pragma once
#include <cooperative_groups.h>
