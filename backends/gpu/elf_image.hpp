// encore::gpu::elf_has_section / elf_has_symbol — what a GPU binary (an ELF file: a CUDA cubin, an AMD code
// object) holds, read without trusting it: every offset and size is checked against the image, so a damaged
// image answers false rather than reading past its end. Only 64-bit ELF files are recognized.
//
//     bool cubin_kernel = elf_has_section(cubin, ".text.saxpy");
//     bool code_object_kernel = elf_has_symbol(code_object, "saxpy");
#pragma once

#include <elf.h>

#include <cstring>
#include <optional>
#include <span>
#include <string_view>

namespace encore::gpu {

namespace detail {

// The section headers of a 64-bit ELF image, bounds-checked.
class elf_sections {
public:
    static std::optional<elf_sections> of(std::span<const char> image) {
        Elf64_Ehdr header;
        if (image.size() < sizeof header) return std::nullopt;
        std::memcpy(&header, image.data(), sizeof header);
        if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
            header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shstrndx >= header.e_shnum)
            return std::nullopt;
        if (header.e_shoff > image.size() || header.e_shnum > (image.size() - header.e_shoff) / sizeof(Elf64_Shdr))
            return std::nullopt;
        return elf_sections(image, header);
    }

    std::size_t count() const noexcept { return header_.e_shnum; }
    Elf64_Shdr operator[](std::size_t i) const noexcept {
        Elf64_Shdr s;
        std::memcpy(&s, image_.data() + header_.e_shoff + i * sizeof s, sizeof s);
        return s;
    }
    // The bytes of section `s`, or empty when they lie outside the image.
    std::string_view contents(const Elf64_Shdr& s) const noexcept {
        if (s.sh_type == SHT_NOBITS || s.sh_offset > image_.size() || s.sh_size > image_.size() - s.sh_offset)
            return {};
        return {image_.data() + s.sh_offset, s.sh_size};
    }
    // The NUL-terminated string at `at` of string table `table`, or empty.
    static std::string_view string_at(std::string_view table, std::size_t at) noexcept {
        if (at >= table.size()) return {};
        const auto end = table.find('\0', at);
        return table.substr(at, (end == std::string_view::npos ? table.size() : end) - at);
    }
    std::string_view section_names() const noexcept { return contents((*this)[header_.e_shstrndx]); }

private:
    elf_sections(std::span<const char> image, const Elf64_Ehdr& header) : image_(image), header_(header) {}
    std::span<const char> image_;
    Elf64_Ehdr header_;
};

} // namespace detail

// Whether the image has a section named `name` (a cubin keeps each kernel's code in `.text.<kernel>`).
inline bool elf_has_section(std::span<const char> image, std::string_view name) {
    const auto sections = detail::elf_sections::of(image);
    if (!sections) return false;
    const std::string_view names = sections->section_names();
    for (std::size_t i = 0; i < sections->count(); ++i)
        if (detail::elf_sections::string_at(names, (*sections)[i].sh_name) == name) return true;
    return false;
}

// Whether the image's symbol tables (.symtab, .dynsym) define a function named `name` (an AMD code object's
// kernels are such symbols).
inline bool elf_has_symbol(std::span<const char> image, std::string_view name) {
    const auto sections = detail::elf_sections::of(image);
    if (!sections) return false;
    for (std::size_t i = 0; i < sections->count(); ++i) {
        const Elf64_Shdr table = (*sections)[i];
        if ((table.sh_type != SHT_SYMTAB && table.sh_type != SHT_DYNSYM) || table.sh_link >= sections->count())
            continue;
        const std::string_view symbols = sections->contents(table);
        const std::string_view strings = sections->contents((*sections)[table.sh_link]);
        for (std::size_t at = 0; at + sizeof(Elf64_Sym) <= symbols.size(); at += sizeof(Elf64_Sym)) {
            Elf64_Sym symbol;
            std::memcpy(&symbol, symbols.data() + at, sizeof symbol);
            if (ELF64_ST_TYPE(symbol.st_info) == STT_FUNC && symbol.st_shndx != SHN_UNDEF &&
                detail::elf_sections::string_at(strings, symbol.st_name) == name)
                return true;
        }
    }
    return false;
}

} // namespace encore::gpu
