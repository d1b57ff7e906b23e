#include "cuda_module.hpp"

#include <elf.h>

#include <atomic>
#include <cstring>

#include "encore/backends/cuda/device_code.hpp"
#include "encore/graph/error.hpp"

namespace encore::cuda {

namespace {

std::uint64_t next_image_id() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

class module_kernel final : public kernel {
public:
    module_kernel(std::shared_ptr<const module> m, std::string name)
        : kernel(std::move(name)), module_(std::move(m)) {
        code_.convention = calling_convention::argument_list;
        code_.image_id = module_->id();
        code_.image = module_->image();
        code_.entry = this->name().c_str();
    }

    void run(const work_item&, std::span<const kernel_argument>) const override {
        throw error(errc::feature_not_supported,
                    "kernel '" + name() + "' was built for CUDA (NVRTC/PTX) and has no host form");
    }
    const void* device_code(std::string_view backend) const noexcept override {
        return backend == "cuda" ? &code_ : nullptr;
    }

private:
    std::shared_ptr<const module> module_;
    cuda::device_code code_;
};

// Whether the cubin (an ELF file) has a section `.text.<name>`: every kernel's code is in one. Every offset and
// size is checked against the image, so a damaged image answers false rather than reading past it.
bool cubin_has_function(const std::vector<char>& image, const std::string& name) {
    Elf64_Ehdr header;
    if (image.size() < sizeof header) return false;
    std::memcpy(&header, image.data(), sizeof header);
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
        header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shstrndx >= header.e_shnum)
        return false;
    if (header.e_shoff > image.size() || header.e_shnum > (image.size() - header.e_shoff) / sizeof(Elf64_Shdr))
        return false;
    auto section = [&](std::size_t i) {
        Elf64_Shdr s;
        std::memcpy(&s, image.data() + header.e_shoff + i * sizeof s, sizeof s);
        return s;
    };
    const Elf64_Shdr names = section(header.e_shstrndx);
    if (names.sh_offset > image.size() || names.sh_size > image.size() - names.sh_offset) return false;
    const std::string_view table(image.data() + names.sh_offset, names.sh_size);
    const std::string wanted = ".text." + name;
    for (std::size_t i = 0; i < header.e_shnum; ++i) {
        const auto at = section(i).sh_name;
        if (at >= table.size()) continue;
        const std::string_view section_name = table.substr(at, table.find('\0', at) - at);
        if (section_name == wanted) return true;
    }
    return false;
}

} // namespace

module::module(program_binary binary) : binary_(std::move(binary)), id_(next_image_id()) {
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
    if (binary_.kind == program_binary::format::cubin) return cubin_has_function(binary_.bytes, name);
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
    return std::make_shared<module_kernel>(std::move(m), std::move(name));
}

} // namespace encore::cuda
