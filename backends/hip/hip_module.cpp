#include "hip_module.hpp"

#include "encore/backends/gpu/elf_image.hpp"
#include "encore/backends/gpu/module_kernel.hpp"
#include "encore/graph/error.hpp"

namespace encore::hip {

module::module(program_binary binary) : binary_(std::move(binary)), id_(gpu::next_image_id()) {}

std::shared_ptr<const module> module::load(program_binary binary) {
    if (binary.bytes.empty()) throw error(errc::invalid_argument, "hip module: the code object is empty");
    if (binary.bytes.size() < 5 || std::string_view(binary.bytes.data(), 5) != "\x7f" "ELF\x02")
        throw error(errc::invalid_argument, "hip module: the image is not a 64-bit ELF code object");
    return std::make_shared<const module>(std::move(binary));
}

bool module::has_kernel(const std::string& name) const {
    return gpu::elf_has_symbol(binary_.bytes, name);
}

std::shared_ptr<const kernel> get_kernel(std::shared_ptr<const module> m, std::string name) {
    if (!m) throw error(errc::invalid_argument, "hip get_kernel: no module");
    if (!m->has_kernel(name))
        throw error(errc::invalid_argument, "hip get_kernel: the code object has no kernel named '" + name + "'");
    const auto id = m->id();
    const void* image = m->image();
    return std::make_shared<gpu::module_kernel>(std::move(m), id, image, std::move(name), "hip", "HIP (code object)");
}

} // namespace encore::hip
