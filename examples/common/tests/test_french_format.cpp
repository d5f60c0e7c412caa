/**
 * @file
 * @brief Tests de l'écriture des nombres à la française.
 */
#include "common/french_format.hpp"

#include <gtest/gtest.h>

TEST(FrenchFormat, DecimalComma) {
    EXPECT_EQ(noyaux::decimal_text(12.5), "12,5");
    EXPECT_EQ(noyaux::decimal_text(3.14159, 3), "3,142");
    EXPECT_EQ(noyaux::decimal_text(7.0, 0), "7");
}

TEST(FrenchFormat, PercentWithNoBreakSpace) {
    EXPECT_EQ(noyaux::percent_text(100.0), "100,0\u00a0%");
    EXPECT_EQ(noyaux::percent_text(12.5), "12,5\u00a0%");
}
