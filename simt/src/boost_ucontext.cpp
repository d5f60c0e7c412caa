/**
 * @file
 * @brief Enregistrement d'activation courant des fibres ucontext de Boost.Context.
 *
 * Le preset sanitize utilise les fibres ucontext (les seules que Boost annonce à
 * AddressSanitizer) ; la bibliothèque Boost de Debian est construite pour fcontext et
 * ne fournit pas cette fonction : on la définit ici, une par thread du système.
 */
#include <boost/context/fiber.hpp>

#include <memory>

namespace boost::context::detail {

fiber_activation_record*& fiber_activation_record::current() noexcept {
    // L'enregistrement du contexte principal du thread, créé à la première fibre.
    thread_local std::unique_ptr<fiber_activation_record> main_record{new fiber_activation_record()};
    thread_local fiber_activation_record* current_record = main_record.get();
    return current_record;
}

}  // namespace boost::context::detail
