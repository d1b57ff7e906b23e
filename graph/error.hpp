// encore::error — the one exception type the engine throws.
//
// Every misuse of the engine's API is reported as an encore::error carrying an errc that a program can branch on
// and a message that names the object and the rule it broke. The SYCL front end translates these into
// sycl::exception with the matching sycl::errc.
//
//     try { g.make_edge(a, a); }
//     catch (const encore::error& e) { assert(e.code() == encore::errc::self_edge); }
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace encore {

enum class errc {
    invalid_argument,      // a value outside what the call accepts
    unknown_node,          // a node handle that does not name a node of this graph
    foreign_node,          // a node handle that belongs to another graph
    self_edge,             // make_edge(a, a)
    duplicate_edge,        // make_edge(a, b) when a -> b already exists
    cycle,                 // make_edge(a, b) when b already reaches a
    topology_mismatch,     // whole-graph update between graphs of different shape
    feature_not_supported, // a backend cannot run this command or query
    backend_failure,       // a driver or the native runtime reported a failure
    user_exception,        // a kernel or host task threw
    kernel_not_supported,  // a kernel has no code for the device it was given to (SYCL's kernel_not_supported)
    build_failure,         // a program's source or IL does not build; the message holds the compiler's log
};

std::string_view to_string(errc code) noexcept;

class error : public std::runtime_error {
public:
    error(errc code, const std::string& message);
    errc code() const noexcept { return code_; }

private:
    errc code_;
};

} // namespace encore
