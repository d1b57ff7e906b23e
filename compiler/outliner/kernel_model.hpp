// What the outliner knows about one SYCL kernel of the translation unit it parses: found by
// kernel_finder.cpp, decomposed by decomposition.cpp, checked by device_rules.cpp, written by
// integration_header.cpp and device_source.cpp.
#pragma once

#include <clang/AST/DeclCXX.h>
#include <clang/Basic/SourceLocation.h>

#include <cstdint>
#include <string>
#include <vector>

namespace encore::outliner {

enum class param_kind { std_layout, pointer, accessor, local_accessor };

struct kernel_param {
    param_kind kind = param_kind::std_layout;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::string name; // capture or field path: "acc", "s.in[1]"
    int dimensions = 0;
    std::uint64_t element_size = 0;
    int access_mode = -1;
    int target = -1;
};

// One field of the kernel object as the outlined struct repeats it: a field of Clang's closure, or a constant
// only g++ captures (gcc_captures.hpp), which the outlined struct holds as bytes of its size and alignment.
struct kernel_field {
    std::string name;
    const clang::FieldDecl* field = nullptr;
    const clang::VarDecl* gcc_constant = nullptr;
    std::uint64_t size = 0, align = 1; // gcc_constant only
};

struct kernel_info {
    const clang::CXXRecordDecl* type = nullptr;       // K
    const clang::FunctionDecl* call_kernel = nullptr; // sycl::detail::call_kernel<Launch, D, K, Extra...>
    std::string type_name;                            // typeid(K).name(): the Itanium mangling without "_ZTS"
    std::string name;
    std::string entry; // "__encore_kernel_" + FNV-1a 64 of type_name
    int launch = 1;    // the value of sycl::detail::launch
    int dimensions = 1;
    bool has_reduction = false;
    bool also_without_reduction = false; // the same kernel type is launched with and without reductions
    std::vector<clang::QualType> reducers; // with reductions: the sycl::reducer<T, Op> types it is called with
    // The kernel takes a sycl::kernel_handler: its entry takes sycl::detail::specialized<K> (the kernel object and
    // its launch's specialization constants) instead of K.
    bool takes_handler = false;
    bool is_lambda = false;
    std::uint64_t size = 0;
    std::uint64_t align = 0;
    clang::SourceLocation location;
    std::vector<kernel_field> fields;
    std::vector<kernel_param> params;
    std::string no_device_code; // empty: the kernel gets device code
    // The kernel reaches get_work_group_scratch_memory: its entry takes the launch's local layout (the scratch is
    // the last local allocation) although it may capture no local accessor.
    bool scratch_memory = false;
    // The call operators the kernel runs (one per instantiation of a generic lambda's or functor's template).
    std::vector<const clang::FunctionDecl*> operators;
    // A free-function kernel (sycl_ext_oneapi_free_function_kernels): the function, whose parameters are the
    // kernel's arguments (params, in order: `offset` is the parameter's index), and `type` is the front end's engine
    // kernel sycl::detail::free_function_kernel<&function> (its typeid names the kernel). `operators` holds the
    // function; the entry takes the parameters themselves, not an object.
    const clang::FunctionDecl* free_function = nullptr;
};

// Whether the kernel's entry takes the launch's local layout: it calls get_work_group_scratch_memory (which finds
// the scratch through the block's table), or it is a free function with local memory parameters (the entry makes
// their accessors from the layout). A lambda's or functor's local accessors need no layout: the launch writes where
// each one's memory is into the kernel object it passes (backends/gpu/gpu_kernel_launch.cpp).
inline bool takes_local_layout(const kernel_info& k) {
    if (k.scratch_memory) return true;
    if (!k.free_function) return false;
    for (const kernel_param& p : k.params)
        if (p.kind == param_kind::local_accessor) return true;
    return false;
}

// Why encore++'s spir64 compile does not take the kernel's entry, or "" when it does (docs/compiler.md, "The SPIR-V
// target"): it takes kernels whose object holds their state (local accessors included) and whose launch is a
// work_item entry's, without work-group scratch memory, reductions or a free function's parameters. The others'
// entries are left out of the SPIR-V (the device source guards them with ENCORE_DEVICE_SPIR), encore-outliner
// --spir reports them, and the front end gives them no OpenCL code (sycl/detail/kernel_wrapper.hpp's
// make_outlined_entry decides the same from the integration header).
inline std::string spir_missing(const kernel_info& k) {
    if (k.free_function) return "free-function kernels are not built for spir64 yet";
    if (k.has_reduction) return "reductions are not built for spir64 yet";
    if (takes_local_layout(k)) return "work-group scratch memory is not built for spir64 yet";
    return "";
}

// FNV-1a, 64 bits: the entry name's hash (stable across runs and hosts).
inline std::uint64_t fnv1a64(const std::string& text) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

} // namespace encore::outliner
