/**
 * @file
 * @brief assert pour l'émulateur simt : dans un noyau, une assertion fausse se comporte
 *        comme sur GPU (message avec bloc et thread, noyau arrêté, cudaErrorAssert à la
 *        synchronisation suivante) au lieu d'arrêter le processus. Hors d'un noyau, c'est
 *        l'assert de la bibliothèque C. Pas de garde d'inclusion : comme l'original, cet
 *        en-tête se relit à chaque inclusion pour suivre NDEBUG. <cassert> l'inclut aussi.
 */
#include_next <assert.h>

namespace simt::detail {
[[noreturn]] void assert_fail(const char* expression, const char* file, unsigned line, const char* function);
}  // namespace simt::detail

#ifndef NDEBUG
#undef assert
#define assert(expression)                                                                   \
    (static_cast<bool>(expression) ? void(0)                                                 \
                                   : ::simt::detail::assert_fail(#expression, __FILE__, __LINE__, \
                                                                 __PRETTY_FUNCTION__))
#endif
