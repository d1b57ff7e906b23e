// encore::compiler::kernel_descriptor — what the outliner (encore-outliner) tells the host side about each
// SYCL kernel of a translation unit: its identity, name, device entry and how its kernel object decomposes
// into device parameters (docs/compiler.md).
//
// The integration header the outliner generates for a source file holds constant tables of these and one
// static object that registers them with libencore when the program starts. Everything here is a constant
// aggregate (no allocation), so a table is built at compile time. A kernel is found by its type's
// `typeid(K).name()`:
//
//     if (const auto* d = encore::compiler::find_kernel(typeid(K).name()); d && d->entry)
//         for (const auto& p : d->parameters()) { ... p.offset, p.size, p.kind ... }
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace encore::compiler {

// How one parameter of a decomposed kernel object reaches the device.
enum class param_kind : std::uint8_t {
    std_layout,     // bytes copied as they are: scalars, std-layout structs without accessors, their arrays
    pointer,        // a pointer (USM or a pointer value captured by the kernel)
    accessor,       // a sycl::accessor: the runtime turns it into the device's view of the buffer
    local_accessor, // a sycl::local_accessor: work-group local memory of the given size per element
};

// The launch form of sycl::detail::call_kernel (the same values as sycl::detail::launch).
enum class launch : std::uint8_t { single_task, range, nd_range };

struct kernel_param {
    param_kind kind = param_kind::std_layout;
    std::size_t offset = 0; // in the kernel object, as the host compiler lays it out
    std::size_t size = 0;
    const char* name = ""; // the capture or field path it comes from ("acc", "s.in[1]")
    // accessor and local_accessor: their dimensions and element size.
    int dimensions = 0;
    std::size_t element_size = 0;
    // accessor: the integral values of its sycl::access_mode and sycl::target; -1 otherwise.
    int access_mode = -1;
    int target = -1;
};

struct kernel_descriptor {
    const char* type_name = "";  // typeid(K).name() of the kernel type (Itanium mangling, without "_ZTS")
    const char* name = "";       // parallel_for<Name>'s name, else one derived from the kernel type
    const char* entry = nullptr; // the device entry's symbol; null when the kernel has no device code
    launch kind = launch::range;
    int dimensions = 1;
    std::size_t size = 0;  // sizeof(K)
    std::size_t align = 0; // alignof(K)
    const kernel_param* params = nullptr;
    std::size_t param_count = 0;
    const char* location = ""; // file:line:col of the kernel's definition
    bool has_reduction = false;
    const char* no_device_code = nullptr; // why entry is null
    // The entry takes the launch's local layout although the kernel has no local accessor parameter: it calls
    // get_work_group_scratch_memory (the launch's last local allocation).
    bool local_layout = false;

    constexpr std::span<const kernel_param> parameters() const noexcept { return {params, param_count}; }
};

// Adds a translation unit's kernels; the descriptors must live as long as the program (the generated tables
// do). A type already registered keeps its first descriptor (the same kernel type seen by two translation
// units).
void register_kernels(std::span<const kernel_descriptor> kernels, const char* translation_unit);
// The descriptor of the kernel whose typeid(K).name() is `type_name`, or nullptr.
const kernel_descriptor* find_kernel(std::string_view type_name) noexcept;
// Every registered kernel, in registration order.
std::vector<const kernel_descriptor*> registered_kernels();

// A device image of one translation unit's kernels for one backend ("cuda": a fat binary), embedded into the
// program by encore++ (its offload wrapper) and registered when the program starts: all the unit's kernels, or
// with -fsycl-device-code-split=per_kernel one kernel (`entry`), or with =off the whole program's device code,
// registered once for each unit it holds. `id` is unique in the process for each image's bytes (backends key
// loaded modules on it); a backend loads the image the first time one of its kernels runs there.
struct device_image {
    const char* backend = "";
    const void* data = nullptr;
    std::size_t size = 0;
    std::uint64_t id = 0;
    const char* translation_unit = "";
    const char* entry = nullptr; // the one kernel's entry, or null: every kernel of the unit
    // The architectures the image has machine code for ("sm_90,sm_80"), and the same kernels as portable code
    // (CUDA: PTX of the lowest architecture named), which a backend compiles through the kernel/program cache for
    // a device of another architecture. Empty / null when not known.
    const char* architectures = "";
    const void* portable = nullptr;
    std::size_t portable_size = 0;
};

// Adds an image; the bytes must live as long as the program (the embedded ones do). Also notes that the
// program carries device code for `backend` (runtime/program_device_code.hpp: default device selection).
void register_image(const char* backend, const void* data, std::size_t size, const char* translation_unit,
                    const char* entry = nullptr, const char* architectures = "", const void* portable = nullptr,
                    std::size_t portable_size = 0);
// The image for `backend` of the translation unit that registered `kernel`, or nullptr.
const device_image* find_image(std::string_view backend, const kernel_descriptor& kernel) noexcept;

// The image for `backend` holding all the kernels of `translation_unit` (not a per_kernel image), or nullptr.
const device_image* find_image(std::string_view backend, std::string_view translation_unit) noexcept;

// A device_global of a translation unit built for a device: its host object, and the symbol of the unit's device
// images that holds the address of its instance there (compiler/outliner/device_globals.hpp). Registered after
// the source, one per variable the unit's kernels use.
struct device_global_symbol {
    const void* host_object = nullptr;
    const char* translation_unit = "";
    const char* symbol = "";
};
void register_device_global(const void* host_object, const char* translation_unit, const char* symbol);
// The registrations of `host_object` (one per unit whose kernels use it), in registration order.
std::vector<device_global_symbol> find_device_globals(const void* host_object);

// What an integration header declares once: registers its table during static initialization.
struct registration {
    registration(std::span<const kernel_descriptor> kernels, const char* translation_unit) {
        register_kernels(kernels, translation_unit);
    }
};

// What encore-outliner's registrations after the source declare, one per device_global.
struct device_global_registration {
    device_global_registration(const void* host_object, const char* translation_unit, const char* symbol) {
        register_device_global(host_object, translation_unit, symbol);
    }
};

// What encore++'s offload wrapper declares once per image.
struct image_registration {
    image_registration(const char* backend, const void* data, std::size_t size, const char* translation_unit,
                       const char* entry = nullptr, const char* architectures = "", const void* portable = nullptr,
                       std::size_t portable_size = 0) {
        register_image(backend, data, size, translation_unit, entry, architectures, portable, portable_size);
    }
};

} // namespace encore::compiler
