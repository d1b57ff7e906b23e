// The device_globals of a source built for a GPU (sycl/ext/oneapi/device_global/device_global.hpp). Each one the
// kernels use is declared __device__ in the device source (device_source.cpp), so the image holds its instance;
// the host finds that instance through a pointer variable of the image with a name of its own,
// `__encore_global_<n>[_<suffix>]`, holding its address, and learns which host object it belongs to from a
// registration the host compile sees after the source (encore++ compiles the source and then this text as one
// translation unit, where the variable can be named):
//
//     device source:  extern "C" { __device__ const void* __encore_global_0 = &::ns::table; }
//     after source:   const ::encore::compiler::device_global_registration ...{&::ns::table, "app.cpp",
//                                                                             "__encore_global_0"};
#pragma once

#include <clang/AST/ASTContext.h>

#include <string>
#include <vector>

#include "device_rules.hpp"

namespace encore::outliner {

// The device_globals the kernels use, in source order.
std::vector<const clang::VarDecl*> used_device_globals(const clang::ASTContext& context, const device_rules& rules);
// The image's pointer variables (appended to the device source).
std::string device_global_pointers(clang::ASTContext& context, const device_rules& rules,
                                   const std::string& suffix);
// The registrations (the text the host compiles after the source); empty when the kernels use none.
std::string device_global_registrations(clang::ASTContext& context, const device_rules& rules,
                                        const std::string& source_name, const std::string& suffix);

} // namespace encore::outliner
