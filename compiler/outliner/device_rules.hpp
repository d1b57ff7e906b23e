// What device code cannot do, checked before any device compiler runs (docs/compiler.md, "Diagnostics"): the
// kernel body and every user function it reaches, transitively. Errors go through clang's DiagnosticsEngine,
// each naming the kernel and the rule, at the offending expression. The walk also collects the user functions
// the device source must mark ENCORE_HOST_DEVICE, and why a kernel cannot get device code yet (not an error:
// the kernel is listed without an entry).
#pragma once

#include <clang/AST/ASTContext.h>

#include <set>
#include <string>

#include "kernel_model.hpp"

namespace encore::outliner {

// Where a declaration comes from, which decides how the walk treats functions declared there.
enum class origin {
    main_file,   // the source being outlined: its functions are made device-callable
    user_header, // another user file: its functions must be marked ENCORE_HOST_DEVICE already
    library,     // the front end's and Encore's headers: marked where they can run on the device
    system,      // the standard library, the C library: left to the device compiler (CUDA provides libm)
};

class device_rules {
public:
    device_rules(clang::ASTContext& context, std::string frontend_root);
    ~device_rules();

    origin origin_of(clang::SourceLocation location) const;
    // Whether `f` (or its template pattern) carries ENCORE_HOST_DEVICE.
    static bool marked_host_device(const clang::FunctionDecl* f);

    // Checks one kernel; may set kernel.no_device_code.
    void check(kernel_info& kernel);
    // Main-file functions reached from kernels (template patterns, not instantiations), to mark
    // ENCORE_HOST_DEVICE.
    const std::set<const clang::FunctionDecl*>& functions_to_mark() const { return to_mark_; }

    // Reports "kernel '<kernel>' <message>" at `location` as an error (once per location and message).
    void error(const kernel_info& kernel, clang::SourceLocation location, const std::string& message);

private:
    friend class body_walker;
    clang::ASTContext& context_;
    std::string frontend_root_;
    unsigned error_id_;
    std::set<std::pair<unsigned, std::string>> reported_;
    std::set<const clang::FunctionDecl*> to_mark_;
};

} // namespace encore::outliner
