// Vérification côté hôte, en C++ ordinaire (verification.cpp n'a aucune syntaxe CUDA).
#pragma once

/// Nombre d'éléments de @p ints différents de @p expected_int et de @p floats différents de
/// @p expected_float, sur @p n éléments chacun.
int count_mismatches(const int* ints, int expected_int, const float* floats, float expected_float, int n);
