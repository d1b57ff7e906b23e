#include "gpu_module.hpp"

#include <atomic>
#include <cstring>

#include "encore/backends/gpu/elf_image.hpp"
#include "encore/backends/gpu/module_kernel.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

namespace {

bool is_elf64(const std::vector<char>& bytes) {
    return bytes.size() > EI_CLASS && std::memcmp(bytes.data(), ELFMAG, SELFMAG) == 0 && bytes[EI_CLASS] == ELFCLASS64;
}

// Whether PTX text has an entry `name`.
// Where the name of the PTX entry `name` ends in `text`, or npos.
std::size_t ptx_entry_end(std::string_view text, const std::string& name) {
    for (std::size_t at = text.find(".entry"); at != std::string_view::npos; at = text.find(".entry", at + 6)) {
        std::size_t begin = at + 6;
        while (begin < text.size() && (text[begin] == ' ' || text[begin] == '\t'))
            ++begin;
        std::size_t end = begin;
        while (end < text.size() && text[end] != '(' && text[end] != ' ' && text[end] != '\n' && text[end] != '\r')
            ++end;
        if (text.substr(begin, end - begin) == name) return end;
    }
    return std::string_view::npos;
}

bool ptx_has_entry(std::string_view text, const std::string& name) {
    return ptx_entry_end(text, name) != std::string_view::npos;
}

// The parameters of the PTX entry `name`: the `.param` declarations of its parameter list (PTX has no parentheses
// inside one), or nothing when the text does not say.
std::optional<std::size_t> ptx_parameter_count(std::string_view text, const std::string& name) {
    std::size_t at = ptx_entry_end(text, name);
    if (at == std::string_view::npos) return std::nullopt;
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r'))
        ++at;
    if (at >= text.size() || text[at] != '(') return std::nullopt;
    const std::size_t close = text.find(')', at);
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view list = text.substr(at, close - at);
    std::size_t count = 0;
    for (std::size_t p = list.find(".param"); p != std::string_view::npos; p = list.find(".param", p + 6))
        ++count;
    return count;
}

} // namespace

module::module(program_binary binary) : binary_(std::move(binary)), id_(next_image_id()) {
    if (binary_.kind == program_binary::format::ptx && (binary_.bytes.empty() || binary_.bytes.back() != '\0'))
        binary_.bytes.push_back('\0');
}

std::shared_ptr<const module> module::load(program_binary binary) {
    const std::string what = binary.kind == program_binary::format::code_object ? "hip module" : "cuda module";
    if (binary.bytes.empty()) throw error(errc::invalid_argument, what + ": the image is empty");
    if (binary.kind != program_binary::format::ptx && !is_elf64(binary.bytes))
        throw error(errc::invalid_argument, what + ": the image is not a 64-bit ELF file (" +
                                                (binary.kind == program_binary::format::cubin ? "a cubin"
                                                                                              : "a code object") +
                                                " is one)");
    return std::make_shared<const module>(std::move(binary));
}

std::shared_ptr<const module> module::from_ptx(std::string ptx) {
    program_binary b;
    b.kind = program_binary::format::ptx;
    b.bytes.assign(ptx.begin(), ptx.end());
    return load(std::move(b));
}

std::string_view module::api() const noexcept {
    return binary_.kind == program_binary::format::code_object ? "hip" : "cuda";
}

bool module::has_kernel(const std::string& name) const {
    switch (binary_.kind) {
    case program_binary::format::ptx:
        return ptx_has_entry(std::string_view(binary_.bytes.data()), name);
    case program_binary::format::cubin:
        return elf_has_section(binary_.bytes, ".text." + name);
    case program_binary::format::code_object:
        return elf_has_symbol(binary_.bytes, name);
    }
    return false;
}

std::shared_ptr<const kernel> get_kernel(std::shared_ptr<const module> m, std::string name) {
    if (!m) throw error(errc::invalid_argument, "get_kernel: no module");
    if (!m->has_kernel(name))
        throw error(errc::invalid_argument, "get_kernel: the module has no kernel named '" + name + "'");
    const auto id = m->id();
    const void* image = m->image();
    const std::string_view api = m->api();
    std::string built_by = api == "hip" ? "HIP (code object)" : "CUDA (NVRTC/PTX)";
    // PTX says how many parameters an entry has; cubins and code objects keep it in metadata not read here.
    std::optional<std::size_t> count;
    if (m->format() == program_binary::format::ptx)
        count = ptx_parameter_count(std::string_view(static_cast<const char*>(image)), name);
    return std::make_shared<module_kernel>(std::move(m), id, image, std::move(name), api, std::move(built_by), count);
}

} // namespace encore::gpu
