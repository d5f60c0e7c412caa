/**
 * @file
 * @brief Tests des puzzles : chaque solution contre sa référence CPU (un test par puzzle),
 *        et le harnais lui-même, qui doit prendre en défaut un noyau qui ne fait rien.
 */
#include "harnais.cuh"

#include <gtest/gtest.h>

namespace {

using noyaux::puzzles::KernelSet;
using noyaux::puzzles::Verdict;

/** Noyau qui ne fait rien, pour toute signature : le plus mauvais élève possible. */
template <typename... Params>
__global__ void do_nothing(Params...) {}

/** Le jeu de noyaux qui ne font rien, indépendant des squelettes que le lecteur modifie. */
KernelSet empty_kernels() {
    return {do_nothing<float*, const float*, int>,
            do_nothing<float*, const float*, const float*, int>,
            do_nothing<float*, const float*, int>,
            do_nothing<float*, const float*, int>,
            do_nothing<float*, const float*, const float*, int, int>,
            do_nothing<float*, const float*, int>,
            do_nothing<float*, const float*, int>,
            do_nothing<float*, const float*, int>,
            do_nothing<float*, const float*, const float*, int>,
            do_nothing<float*, const float*, const float*, int, int>,
            do_nothing<float*, const float*, int>,
            do_nothing<float*, const float*, int, int>,
            do_nothing<float*, const float*, const float*, int>,
            do_nothing<float*, const float*, int>};
}

/** Oubli de la garde du puzzle 3 : les threads en trop écrivent (sans lire a hors limites). */
__global__ void add_ten_without_guard(float* out, const float* a, int n) {
    const int i = threadIdx.x;
    out[i] = i < n ? a[i] + 10.0f : 1.0f;
}

// --8<-- [start:garanties]
void expect_solution_solves(int number) {
    const auto& puzzle = noyaux::puzzles::all_puzzles().at(std::size_t(number - 1));
    ASSERT_EQ(puzzle.number, number);
    const Verdict verdict = puzzle.check(noyaux::puzzles::solution_kernels());
    EXPECT_TRUE(verdict.solved) << "puzzle " << number << " : " << verdict.detail;
}

}  // namespace

TEST(Puzzles, P01Map) { expect_solution_solves(1); }
TEST(Puzzles, P02Zip) { expect_solution_solves(2); }
TEST(Puzzles, P03Guards) { expect_solution_solves(3); }
TEST(Puzzles, P04Map2d) { expect_solution_solves(4); }
TEST(Puzzles, P05Broadcast) { expect_solution_solves(5); }
TEST(Puzzles, P06Blocks) { expect_solution_solves(6); }
TEST(Puzzles, P07Shared) { expect_solution_solves(7); }
TEST(Puzzles, P08Pooling) { expect_solution_solves(8); }
TEST(Puzzles, P09DotProduct) { expect_solution_solves(9); }
TEST(Puzzles, P10Convolution1d) { expect_solution_solves(10); }
TEST(Puzzles, P11PrefixSum) { expect_solution_solves(11); }
TEST(Puzzles, P12AxisSum) { expect_solution_solves(12); }
TEST(Puzzles, P13MatrixMultiply) { expect_solution_solves(13); }
TEST(Puzzles, P14WarpSum) { expect_solution_solves(14); }

// Un harnais qui accepterait un noyau vide ne vérifierait rien : chaque puzzle doit le refuser,
// et dire que la sortie n'a jamais été écrite.
TEST(Harness, RejectsKernelsThatWriteNothing) {
    const KernelSet empty = empty_kernels();
    for (const auto& puzzle : noyaux::puzzles::all_puzzles()) {
        const Verdict verdict = puzzle.check(empty);
        EXPECT_FALSE(verdict.solved) << "puzzle " << puzzle.number;
        EXPECT_FALSE(verdict.detail.empty()) << "puzzle " << puzzle.number;
    }
}

// Un noyau qui écrit au-delà de n (la garde oubliée du puzzle 3) est pris en défaut.
TEST(Harness, DetectsWritesPastTheEnd) {
    const Verdict verdict = noyaux::puzzles::check_add_ten(
        add_ten_without_guard, 20, 1, 24, "n = 20, 24 threads sans garde");
    EXPECT_FALSE(verdict.solved);
    EXPECT_NE(verdict.detail.find("hors limites"), std::string::npos) << verdict.detail;
}
// --8<-- [end:garanties]
