/**
 * @file
 * @brief Tests de l'exemple 11, sur GPU et sur l'émulateur : le journal des plages (profondeur,
 *        fermeture de trop refusée, fermeture garantie par une exception, arbre), la référence,
 *        et le programme annoté, qui rend le bon résultat et laisse des plages équilibrées.
 */
#include "plages-nvtx.cuh"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace nr = noyaux::glossaire::nvtx_ranges;

std::vector<std::string> names(const nr::RangeJournal& journal) {
    std::vector<std::string> result;
    for (const auto& e : journal.entries()) result.push_back(e.name);
    return result;
}

}  // namespace

TEST(NvtxRangesHost, NestedPhasesCloseInReverseOrder) {
    nr::RangeJournal journal;
    {
        const nr::Phase outer(journal, "extérieure");
        EXPECT_EQ(journal.depth(), 1);
        {
            const nr::Phase inner(journal, "intérieure");
            EXPECT_EQ(journal.depth(), 2);
        }
        EXPECT_EQ(journal.depth(), 1);
    }
    EXPECT_TRUE(journal.balanced());
    EXPECT_EQ(journal.tree(), "extérieure\n  intérieure\n");
}

TEST(NvtxRangesHost, AnExceptionStillClosesItsRanges) {
    nr::RangeJournal journal;
    try {
        const nr::Phase outer(journal, "a");
        const nr::Phase inner(journal, "b");
        throw std::runtime_error("panne simulée");
    } catch (const std::runtime_error&) {
    }
    EXPECT_TRUE(journal.balanced());
    EXPECT_EQ(journal.entries().size(), 2u);
}

TEST(NvtxRangesHost, RejectsAnExtraClose) {
    nr::RangeJournal journal;
    journal.open("seule");
    journal.close();
    EXPECT_THROW(journal.close(), std::logic_error);
    journal.open("ouverte");
    EXPECT_FALSE(journal.balanced());
}

TEST(NvtxRangesHost, ReferenceMultipliesInOrder) {
    EXPECT_EQ(nr::scaled_reference(2.0f, 1.5f, 0), 2.0f);
    EXPECT_EQ(nr::scaled_reference(2.0f, 1.5f, 3), 6.75f);
}

TEST(NvtxRangesProgram, AnnotatedProgramIsCorrectAndBalanced) {
    nr::RangeJournal journal;
    const std::vector<float> result = nr::run_phases(journal, 1000, 3, 1.5f);
    ASSERT_EQ(result.size(), 1000u);
    for (std::size_t i = 0; i < result.size(); ++i)
        ASSERT_EQ(result[i], nr::scaled_reference(static_cast<float>(i % 100) * 0.01f, 1.5f, 3)) << i;
    EXPECT_TRUE(journal.balanced());
    EXPECT_EQ(names(journal), (std::vector<std::string>{"programme", "préparation", "calcul", "itération 0",
                                                        "itération 1", "itération 2", "vérification"}));
    EXPECT_EQ(journal.entries()[3].depth, 2);
}

TEST(NvtxRangesProgram, RejectedRunOpensNoRange) {
    nr::RangeJournal journal;
    EXPECT_THROW(nr::run_phases(journal, 0, 3, 1.5f), std::invalid_argument);
    EXPECT_THROW(nr::run_phases(journal, 10, 0, 1.5f), std::invalid_argument);
    EXPECT_TRUE(journal.entries().empty());
}
