// What device code cannot do, checked before any device compiler runs (docs/compiler.md, "Diagnostics"): the
// kernel body and every user function it reaches, transitively. Errors go through clang's DiagnosticsEngine,
// each naming the kernel and the rule, at the offending expression. The walk also collects the user functions
// the device source must mark ENCORE_HOST_DEVICE, and why a kernel cannot get device code yet (not an error:
// the kernel is listed without an entry).
#pragma once

#include <clang/AST/ASTContext.h>

#include <iterator>
#include <set>
#include <string>

#include "kernel_model.hpp"

namespace encore::outliner {

// Where a declaration comes from, which decides how the walk treats functions declared there.
enum class origin {
    main_file,   // the source being outlined: its functions are made device-callable
    user_header, // another file of the program (its headers, sources it includes): made device code as the source
    library,     // the front end's and Encore's headers: marked where they can run on the device
    system,      // the standard library, the C library: left to the device compiler (CUDA provides libm)
};

class device_rules {
public:
    // `host_fallback` (encore++'s -fsycl-allow-host-fallback): a kernel that breaks a rule gets no device code
    // (kernel.no_device_code says which rule, for the warning main.cpp writes) instead of an error.
    device_rules(clang::ASTContext& context, std::string frontend_root, bool host_fallback = false);
    ~device_rules();

    origin origin_of(clang::SourceLocation location) const;
    // Whether the outliner edits the file of `location` for the device compile: the source and the program's own
    // headers (their copies: device_source.hpp's user_files).
    bool editable(clang::SourceLocation location) const;
    // Whether `f` (or its template pattern) carries ENCORE_HOST_DEVICE.
    static bool marked_host_device(const clang::FunctionDecl* f);

    // Checks one kernel; may set kernel.no_device_code. A lambda that captures a parameter pack gets none: its
    // device entry cannot spell the expanded captures.
    void check(kernel_info& kernel);
    // The program's functions reached from kernels (template patterns, not instantiations), to mark
    // ENCORE_HOST_DEVICE.
    const std::set<const clang::FunctionDecl*>& functions_to_mark() const { return to_mark_; }

    // Work-group local memory named by objects of static storage, which the device source must declare
    // __shared__ (work_group_static variables of the main file), and the calls that need a call site of their own
    // (group_local_memory<T>(g) in the main file: where `, ::sycl::detail::call_site<N>` goes, before the `>`).
    const std::set<const clang::VarDecl*>& shared_variables() const { return shared_; }
    const std::set<unsigned>& call_sites() const { return call_sites_; } // raw source locations
    // The main file's device_globals the kernels use (canonical declarations), which the device source declares
    // __device__ and the host registers (device_source.hpp).
    const std::set<const clang::VarDecl*>& device_globals() const { return globals_; }
    // The number of the call site whose `>` is at `at` (its place among call_sites()), or -1.
    int call_site_number(clang::SourceLocation at) const {
        if (at.isInvalid()) return -1;
        const auto found = call_sites_.find(at.getRawEncoding());
        return found == call_sites_.end() ? -1 : static_cast<int>(std::distance(call_sites_.begin(), found));
    }

    // Reports "kernel '<kernel>' <message>" at `location` as an error (once per location and message: false when
    // it was reported before). While check() runs with host fallback, the first message becomes the kernel's
    // no_device_code instead (false: no notes follow).
    bool error(const kernel_info& kernel, clang::SourceLocation location, const std::string& message);
    // A note after an error (the calls that lead to it).
    void note(clang::SourceLocation location, const std::string& message);

private:
    friend class body_walker;
    void check_rules(kernel_info& kernel);
    clang::ASTContext& context_;
    std::string frontend_root_;
    unsigned error_id_;
    unsigned note_id_;
    std::set<std::pair<unsigned, std::string>> reported_;
    bool host_fallback_ = false;
    kernel_info* checking_ = nullptr; // the kernel check() walks, under host fallback
    std::set<const clang::FunctionDecl*> to_mark_;
    std::set<const clang::VarDecl*> shared_;
    std::set<const clang::VarDecl*> globals_;
    std::set<unsigned> call_sites_;
};

} // namespace encore::outliner
