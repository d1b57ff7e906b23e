// Finds every SYCL kernel of a translation unit: each instantiation of sycl::detail::call_kernel<Launch, D,
// K, Extra...>, the one function every launch form goes through (handler and queue methods, the enqueue
// functions, command groups recorded into graphs or added to them). One kernel per distinct K.
#pragma once

#include <clang/AST/ASTContext.h>

#include <string>
#include <vector>

#include "kernel_model.hpp"

namespace encore::outliner {

// The kernels in the order their types were first instantiated; also the front end's include root (the folder
// above sycl/), which tells library headers from the user's.
struct found_kernels {
    std::vector<kernel_info> kernels;
    std::string frontend_root;
};
found_kernels find_kernels(clang::ASTContext& context);

// typeid(T).name() as the Itanium C++ ABI (g++) spells it.
std::string type_name_of(clang::ASTContext& context, clang::QualType type);
// file:line:col of `location` (where the file was included from does not matter).
std::string describe_location(const clang::SourceManager& sources, clang::SourceLocation location);
// Whether `decl` is in namespace sycl (or one inline in it, such as sycl::_V1) and named `name`.
bool is_sycl_entity(const clang::NamedDecl* decl, llvm::StringRef name);

} // namespace encore::outliner
