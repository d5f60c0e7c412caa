/**
 * @file
 * @brief Les côtés des matrices carrées que mesure le benchmark de l'échelle : partagés par
 *        le benchmark (harness.cuh) et par les figures du site (quantification en vagues).
 */
#pragma once

namespace noyaux::gemm::ladder_bench {

/** @brief Côtés mesurés ; 8192 seulement si la mémoire libre suffit. */
constexpr int kSizes[] = {128, 256, 512, 1024, 2048, 4096, 8192};
/** @brief Côtés mesurés en bf16 : les Tensor Cores ne s'occupent vraiment qu'à partir de 512. */
constexpr int kBf16Sizes[] = {512, 1024, 2048, 4096, 8192};

}  // namespace noyaux::gemm::ladder_bench
