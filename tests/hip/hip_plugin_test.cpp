// What of the HIP backend runs without an AMD GPU: the plugin loads and reports why it has no device (the HIP
// runtime's own reason, in the registry's trace, which ENCORE_TRACE=1 prints); hiprtc reports compile errors with
// its log; code objects are checked before use. With a GPU, the plugin's device is listed instead.
#include <doctest/doctest.h>

#include <elf.h>

#include <cstring>
#include <string>
#include <vector>

#include "encore/runtime/backend_registry.hpp"
#include "encore/backends/hip/hip_module.hpp"
#include "encore/runtime/runtime.hpp"
#include "support/error_code.hpp"

using namespace encore;
using encore::testing::code_of;

namespace {

const std::vector<std::string> gfx90a{"--offload-arch=gfx90a"};

hip::program_binary code_object(std::vector<char> bytes) {
    return {hip::program_binary::format::code_object, std::move(bytes), ""};
}

std::string hip_trace_line() {
    for (const auto& line : backend_registry::global().trace())
        if (line.find("'hip'") != std::string::npos) return line;
    return {};
}

// A minimal 64-bit ELF file with a symbol table defining the function `name` (as an AMD code object defines each
// kernel) and an object `name.kd`.
std::vector<char> code_object_with(const std::string& name) {
    const std::string strings = std::string("\0", 1) + name + '\0' + name + ".kd" + '\0';
    const std::string section_names = std::string("\0.symtab\0.strtab\0.shstrtab\0.text\0", 32);
    Elf64_Sym symbols[3]{};
    symbols[1].st_name = 1;
    symbols[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
    symbols[1].st_shndx = 4;
    symbols[2].st_name = static_cast<Elf64_Word>(2 + name.size());
    symbols[2].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
    symbols[2].st_shndx = 4;
    std::vector<char> image(sizeof(Elf64_Ehdr));
    auto append = [&](const void* data, std::size_t bytes) {
        const auto at = image.size();
        image.insert(image.end(), static_cast<const char*>(data), static_cast<const char*>(data) + bytes);
        return at;
    };
    const auto symbols_at = append(symbols, sizeof symbols);
    const auto strings_at = append(strings.data(), strings.size());
    const auto names_at = append(section_names.data(), section_names.size());
    const char code[4] = {0, 0, 0, 0};
    const auto code_at = append(code, sizeof code);
    Elf64_Shdr sections[5]{};
    sections[1] = {.sh_name = 1, .sh_type = SHT_SYMTAB, .sh_flags = 0, .sh_addr = 0, .sh_offset = symbols_at,
                   .sh_size = sizeof symbols, .sh_link = 2, .sh_info = 1, .sh_addralign = 8,
                   .sh_entsize = sizeof(Elf64_Sym)};
    sections[2] = {.sh_name = 9, .sh_type = SHT_STRTAB, .sh_flags = 0, .sh_addr = 0, .sh_offset = strings_at,
                   .sh_size = strings.size(), .sh_link = 0, .sh_info = 0, .sh_addralign = 1, .sh_entsize = 0};
    sections[3] = {.sh_name = 17, .sh_type = SHT_STRTAB, .sh_flags = 0, .sh_addr = 0, .sh_offset = names_at,
                   .sh_size = section_names.size(), .sh_link = 0, .sh_info = 0, .sh_addralign = 1, .sh_entsize = 0};
    sections[4] = {.sh_name = 27, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR, .sh_addr = 0,
                   .sh_offset = code_at, .sh_size = sizeof code, .sh_link = 0, .sh_info = 0, .sh_addralign = 4,
                   .sh_entsize = 0};
    const auto sections_at = append(sections, sizeof sections);
    Elf64_Ehdr header{};
    std::memcpy(header.e_ident, ELFMAG, SELFMAG);
    header.e_ident[EI_CLASS] = ELFCLASS64;
    header.e_ident[EI_DATA] = ELFDATA2LSB;
    header.e_ident[EI_VERSION] = EV_CURRENT;
    header.e_type = ET_DYN;
    header.e_machine = EM_AMDGPU;
    header.e_version = EV_CURRENT;
    header.e_ehsize = sizeof header;
    header.e_shoff = sections_at;
    header.e_shentsize = sizeof(Elf64_Shdr);
    header.e_shnum = 5;
    header.e_shstrndx = 3;
    std::memcpy(image.data(), &header, sizeof header);
    return image;
}

} // namespace

TEST_CASE("the hip plugin is loaded, and either lists its devices or says why it has none") {
    auto& registry = backend_registry::global();
    if (registry.find("hip")) {
        bool listed = false;
        for (const auto& d : device::all())
            listed = listed || d.backend_name() == "hip";
        CHECK(listed);
        return;
    }
    const std::string line = hip_trace_line();
    INFO("trace line: " << line);
    REQUIRE(!line.empty());
    // Loaded, but unavailable in the HIP runtime's own words (hipInit's error, or no library at all).
    CHECK(line.find("unavailable") != std::string::npos);
    CHECK((line.find("hipInit: hipError") != std::string::npos ||
           line.find("the HIP runtime could not be loaded") != std::string::npos ||
           line.find("no hip device") != std::string::npos ||
           line.find("hipGetDeviceCount") != std::string::npos));
}

TEST_CASE("hiprtc: a source that does not compile is a build_failure with hiprtc's log and the program's name") {
    try {
        hip::build_program("extern \"C\" __global__ void broken( { }", gfx90a, "broken.hip");
        FAIL("a broken source compiled");
    } catch (const error& e) {
        if (e.code() == errc::backend_failure && std::string(e.what()).find("could not be loaded") != std::string::npos)
            return; // no HIP runtime: nothing to compile with (the plugin test above says so too)
        CHECK(e.code() == errc::build_failure);
        const std::string what = e.what();
        CHECK(what.find("broken.hip") != std::string::npos);
        CHECK(what.find("error") != std::string::npos); // the compiler's diagnostic
    }
}

TEST_CASE("hiprtc: a source that compiles gives a code object, never an empty one") {
    try {
        auto binary = hip::build_program("extern \"C\" __global__ void three(int* p) { p[threadIdx.x] = 3; }",
                                         gfx90a, "three.hip");
        REQUIRE(binary.bytes.size() > 4);
        CHECK(binary.kind == hip::program_binary::format::code_object);
        CHECK(std::memcmp(binary.bytes.data(), ELFMAG, SELFMAG) == 0);
        CHECK(hip::module::load(std::move(binary))->has_kernel("three"));
    } catch (const error& e) {
        // Debian's HIP on a machine without an AMD GPU compiles to nothing: refused as a build failure, by name.
        INFO(e.what());
        CHECK((e.code() == errc::build_failure || e.code() == errc::backend_failure));
        CHECK(std::string(e.what()).find("three.hip") != std::string::npos);
    }
}

TEST_CASE("code objects: kernels are found by their symbols; damaged or foreign images are refused") {
    auto image = code_object_with("saxpy");
    auto m = hip::module::load(code_object(image));
    CHECK(m->has_kernel("saxpy"));
    CHECK_FALSE(m->has_kernel("saxpy.kd")); // an object, not a function
    CHECK_FALSE(m->has_kernel("sax"));
    auto k = hip::get_kernel(m, "saxpy");
    CHECK(k->device_code("hip") != nullptr);
    CHECK(k->device_code("cuda") == nullptr);
    CHECK(code_of([&] { hip::get_kernel(m, "no_such_kernel"); }) == errc::invalid_argument);

    // A module kernel has no host form.
    for (const auto& d : device::all()) {
        if (d.backend_name() != "native") continue;
        queue cpu(d);
        cpu.submit(kernel_command{k, {}, range(4)});
        CHECK(code_of([&] { cpu.wait_and_throw(); }) == errc::feature_not_supported);
    }

    CHECK(code_of([] { hip::module::load(code_object({})); }) == errc::invalid_argument);
    CHECK(code_of([] { hip::module::load(code_object({'n', 'o', 't', ' ', 'e', 'l', 'f'})); }) ==
          errc::invalid_argument);
    for (std::size_t cut : {std::size_t{70}, image.size() / 2, image.size() - 8}) {
        CAPTURE(cut);
        std::vector<char> truncated(image.begin(), image.begin() + static_cast<std::ptrdiff_t>(cut));
        CHECK_FALSE(hip::module::load(code_object(truncated))->has_kernel("saxpy")); // never read past the end
    }
}
