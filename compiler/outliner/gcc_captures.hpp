// g++'s extra captures: the one place where g++ 12 and Clang lay a kernel lambda out differently.
//
// An inner [=] lambda that names a constant of an enclosing function (a `constexpr` or const-initialized local,
// which it reads without odr-using it) captures nothing for it in Clang, as the standard says. g++ 12 captures it
// by copy when the name reaches the inner lambda through an enclosing lambda that captures by reference -- the
// usual SYCL shape, `q.submit([&](handler& h) { h.parallel_for(r, [=](id<1> i) { ... n ... }); })`. The host object
// is g++'s, so the outliner gives such a kernel g++'s layout: the constant takes a slot of its size and alignment
// among the captures, in order of first use, as g++ orders captures; the outlined struct keeps the constant as a
// static member the body reads, and a byte array of the same size and alignment stands in the slot.
#pragma once

#include <clang/AST/ASTContext.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kernel_model.hpp"

namespace encore::outliner {

// The kernel object as g++ lays it out, when that differs from Clang's layout.
struct gcc_layout {
    struct slot {
        const clang::FieldDecl* field = nullptr; // a capture both compilers make
        const clang::VarDecl* extra = nullptr;   // or a constant only g++ captures
        std::uint64_t offset = 0;
    };
    std::vector<slot> slots; // in layout order
    std::uint64_t size = 0;
    std::uint64_t align = 1;
};

// g++'s layout of lambda kernel `kernel`, or an empty layout (no slots) when g++ captures what Clang does.
gcc_layout gcc_captures(clang::ASTContext& context, const kernel_info& kernel);

} // namespace encore::outliner
