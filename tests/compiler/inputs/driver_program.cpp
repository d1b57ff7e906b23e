// A plain SYCL program of two sources (this one and driver_second.cpp) built by encore++
// (tests/compiler/meson.build) for `native` alone, for `cuda:sm_90,native`, with -fsycl-device-code-split=
// per_kernel, and with =off in one command and in steps (objects, an archive, a link with no split flag). It
// runs its kernels (on the native backend in CI) and checks what encore++ embedded: the integration header's
// kernels, one CUDA image per source, per kernel or for the whole program, and that the program says it carries
// CUDA code. Argument: native | per_source | per_kernel | split_off | split_off_steps.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <string>
#include <string_view>
#include <typeinfo>

#include "driver_shared.hpp"
#include "encore/runtime/program_device_code.hpp"
#include "encore/compiler/kernel_descriptor.hpp"

const encore::compiler::kernel_descriptor* second_source(sycl::queue& q, float* y, std::size_t n);

namespace {

int failures = 0;
bool one_image(const std::string& build) {
    return build.rfind("split_off", 0) == 0;
}
void expect(bool ok, const std::string& what) {
    if (!ok) {
        std::printf("FAILED: %s\n", what.c_str());
        ++failures;
    }
}

// The CUDA image of the kernel `d` describes (nullptr: none is expected to be registered).
const encore::compiler::device_image* check_kernel(const std::string& build, const char* name,
                                                   const encore::compiler::kernel_descriptor* d) {
    if (build == "native") {
        // Described all the same (encore-outliner --host-only: set_arg on lambdas), with no device code.
        expect(d != nullptr && d->entry == nullptr && d->no_device_code != nullptr,
               std::string(name) + ": described, without a device entry, in a native-only build");
        expect(!d || encore::compiler::find_image("cuda", *d) == nullptr,
               std::string(name) + ": no CUDA image without a GPU target");
        return nullptr;
    }
    expect(d != nullptr, std::string(name) + ": the integration header registered the kernel");
    if (!d) return nullptr;
    expect(d->entry != nullptr, std::string(name) + ": it has a device entry");
    const auto* image = encore::compiler::find_image("cuda", *d);
    expect(image != nullptr && image->size > 0, std::string(name) + ": its CUDA image is registered");
    if (!image || !d->entry) return image;
    expect(std::string(image->architectures) == "sm_90", std::string(name) + ": its image names sm_90");
    // SASS for sm_90 and the PTX of the same compile (compiled through the kernel cache on other GPUs); with one
    // image for the program, every source's PTX one after the other (NUL-separated), linked there.
    const auto* ptx = static_cast<const char*>(image->portable);
    expect(ptx && image->portable_size > 0 && ptx[image->portable_size] == '\0' &&
               std::string_view(ptx, image->portable_size).find(d->entry) != std::string_view::npos,
           std::string(name) + ": its PTX is embedded, NUL-terminated, with its entry");
    if (build == "per_kernel")
        expect(image->entry && std::string(image->entry) == d->entry, std::string(name) + ": an image of its own");
    else
        expect(image->entry == nullptr,
               std::string(name) + (one_image(build) ? ": the program's image" : ": the image of its source"));
    return image;
}
template <typename K> const encore::compiler::device_image* check_kernel(const std::string& build, const char* name) {
    return check_kernel(build, name, encore::compiler::find_kernel(typeid(K).name()));
}

} // namespace

int main(int argc, char** argv) {
    const std::string build = argc > 1 ? argv[1] : "native";
    sycl::queue q;
    constexpr std::size_t n = 1024;
    float* x = sycl::malloc_shared<float>(n, q);
    float* y = sycl::malloc_shared<float>(n, q);
    const float a = 2.5f;
    auto fill = [=](sycl::id<1> i) {
        x[i] = static_cast<float>(i[0]);
        y[i] = 1.0f;
    };
    auto saxpy = [=](sycl::item<1> it) { y[it] = a * x[it] + y[it]; };
    q.parallel_for(sycl::range<1>{n}, fill).wait();
    q.parallel_for(sycl::range<1>{n}, saxpy).wait();
    const auto* second = second_source(q, y, n);      // y = 2 * (a * i + 2)
    q.parallel_for(sycl::range<1>{n}, scale_by{y, 0.5f}).wait();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
        wrong += y[i] != a * static_cast<float>(i) + 2.0f;
    expect(wrong == 0, std::to_string(wrong) + " wrong results");
    const auto* fill_image = check_kernel<decltype(fill)>(build, "fill");
    check_kernel<decltype(saxpy)>(build, "saxpy");
    check_kernel<scale_by>(build, "scale_by (launched by both sources)");
    const auto* second_image = check_kernel(build, "the second source's kernel", second);
    if (fill_image && second_image) {
        if (one_image(build))
            expect(fill_image->data == second_image->data && fill_image->id == second_image->id,
                   "both sources' kernels are in the program's one image (loaded once)");
        else
            expect(fill_image->data != second_image->data, "each source has images of its own");
    }
    expect(encore::program_has_device_code("cuda") == (build != "native"),
           "the program says whether it carries CUDA code");
    sycl::free(x, q);
    sycl::free(y, q);
    std::printf("%s build on %s: %s\n", build.c_str(), q.get_device().get_info<sycl::info::device::name>().c_str(),
                failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
