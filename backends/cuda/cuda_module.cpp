#include "cuda_module.hpp"

#include "encore/backends/gpu/elf_image.hpp"
#include "encore/backends/gpu/module_kernel.hpp"
#include "encore/graph/error.hpp"

namespace encore::cuda {

module::module(program_binary binary) : binary_(std::move(binary)), id_(gpu::next_image_id()) {
    if (binary_.kind == program_binary::format::ptx && (binary_.bytes.empty() || binary_.bytes.back() != '\0'))
        binary_.bytes.push_back('\0');
}

std::shared_ptr<const module> module::load(program_binary binary) {
    if (binary.bytes.empty()) throw error(errc::invalid_argument, "cuda module: the image is empty");
    return std::make_shared<const module>(std::move(binary));
}

std::shared_ptr<const module> module::from_ptx(std::string ptx) {
    program_binary b;
    b.kind = program_binary::format::ptx;
    b.bytes.assign(ptx.begin(), ptx.end());
    return load(std::move(b));
}

bool module::has_kernel(const std::string& name) const {
    if (binary_.kind == program_binary::format::cubin) return gpu::elf_has_section(binary_.bytes, ".text." + name);
    const std::string_view text(binary_.bytes.data());
    for (std::size_t at = text.find(".entry"); at != std::string_view::npos; at = text.find(".entry", at + 6)) {
        std::size_t begin = at + 6;
        while (begin < text.size() && (text[begin] == ' ' || text[begin] == '\t'))
            ++begin;
        std::size_t end = begin;
        while (end < text.size() && text[end] != '(' && text[end] != ' ' && text[end] != '\n' && text[end] != '\r')
            ++end;
        if (text.substr(begin, end - begin) == name) return true;
    }
    return false;
}

std::shared_ptr<const kernel> get_kernel(std::shared_ptr<const module> m, std::string name) {
    if (!m) throw error(errc::invalid_argument, "get_kernel: no module");
    if (!m->has_kernel(name))
        throw error(errc::invalid_argument, "get_kernel: the module has no kernel named '" + name + "'");
    const auto id = m->id();
    const void* image = m->image();
    return std::make_shared<gpu::module_kernel>(std::move(m), id, image, std::move(name), "cuda", "CUDA (NVRTC/PTX)");
}

} // namespace encore::cuda
