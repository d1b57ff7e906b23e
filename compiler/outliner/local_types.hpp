// Function-local class types in the device source. A lambda kernel that captures an object of a struct declared
// in its function, a functor kernel declared in a function, a lambda body that names such a type: the outlined
// struct and the device entry sit at namespace scope, where the type has no name. The device source moves such a
// type's definition out of its function, into a namespace of its own just before the function's outermost
// declaration, and leaves an alias of the same name where it was, so the function reads as before:
//
//     void run(sycl::queue& q) {                   namespace __encore_local_0 { struct params { int n; }; }
//         struct params { int n; };         ->     void run(sycl::queue& q) {
//         ...                                          using params = ::__encore_local_0::params;
//
// A type can move when nothing else of its function appears in its definition (another local type, a local
// variable, a template parameter of the function), it has a name, and it is declared alone (`struct s {...};`).
// The host compile is not edited: the type's layout is the same definition's.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <map>
#include <string>
#include <vector>

#include "device_rules.hpp"

namespace encore::outliner {

// The function a declaration is local to, or null.
const clang::FunctionDecl* local_to(const clang::Decl* decl);
// Whether `context` is `outer` or lies inside it.
bool within(const clang::DeclContext* context, const clang::DeclContext* outer);

class local_types {
public:
    local_types(clang::ASTContext& context, clang::Rewriter& rewriter, const device_rules& rules)
        : context_(context), rewriter_(rewriter), rules_(rules) {}

    // The namespace-scope name of the function-local class `record` ("::app::__encore_local_0::params"), moving it
    // on first request; empty, with the reason in `why`, when it cannot move.
    std::string name_of(const clang::CXXRecordDecl* record, std::string& why);
    // The types moved so far and their names.
    const std::map<const clang::CXXRecordDecl*, std::string>& names() const { return names_; }
    // Makes the moves in the rewriter: after every other edit of the device source, whose edits inside a moved
    // definition move with it.
    void apply();

private:
    struct moved {
        const clang::CXXRecordDecl* record;
        const clang::Decl* top; // the outermost declaration around it, at namespace scope: the definition goes before
        std::string space;      // "__encore_local_<n>"
    };
    std::string why_not(const clang::CXXRecordDecl* record) const;

    clang::ASTContext& context_;
    clang::Rewriter& rewriter_;
    const device_rules& rules_;
    std::map<const clang::CXXRecordDecl*, std::string> names_;
    std::vector<moved> moves_;
};

} // namespace encore::outliner
