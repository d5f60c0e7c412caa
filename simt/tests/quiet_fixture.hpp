// Base des suites de tests qui provoquent des fautes : diagnostics silencieux pendant le test,
// erreur collante effacée à la fin (cudaDeviceReset) et réglages de l'émulateur rendus à leur
// valeur par défaut, pour que le test suivant parte d'un état neuf.
#pragma once

#include <gtest/gtest.h>
#include <simt/control.hpp>

/** @brief Diagnostics silencieux pendant le test ; l'erreur collante est effacée à la fin. */
class QuietDiagnostics : public testing::Test {
protected:
    void SetUp() override {
        simt::set_quiet(true);
        simt::clear_diagnostic();
    }
    void TearDown() override {
        cudaDeviceReset();
        simt::set_thread_orders(1);
        simt::set_quiet(false);
    }
};
