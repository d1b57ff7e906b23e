#include "kernel_finder.hpp"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Mangle.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>

namespace encore::outliner {
namespace {

// The first namespace above `context` that is not inline, skipping inline ones (sycl::_V1).
const clang::DeclContext* skip_inline_namespaces(const clang::DeclContext* context) {
    while (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(context)) {
        if (!ns->isInline()) break;
        context = context->getParent();
    }
    return context;
}

bool in_sycl_detail(const clang::NamedDecl* decl) {
    const auto* detail = llvm::dyn_cast<clang::NamespaceDecl>(skip_inline_namespaces(decl->getDeclContext()));
    if (!detail || detail->getName() != "detail") return false;
    const auto* sycl = llvm::dyn_cast<clang::NamespaceDecl>(skip_inline_namespaces(detail->getParent()));
    return sycl && sycl->getName() == "sycl" && sycl->getParent()->isTranslationUnit();
}

// The two templates whose instantiations name the kernels.
class template_finder : public clang::RecursiveASTVisitor<template_finder> {
public:
    const clang::FunctionTemplateDecl* call_kernel = nullptr;
    const clang::FunctionTemplateDecl* kernel_name = nullptr;
    const clang::ClassTemplateDecl* free_function_kernel = nullptr;

    bool VisitClassTemplateDecl(clang::ClassTemplateDecl* t) {
        if (t->getDeclName().isIdentifier() && t->getName() == "free_function_kernel" && in_sycl_detail(t))
            free_function_kernel = t->getCanonicalDecl();
        return true;
    }

    bool VisitFunctionTemplateDecl(clang::FunctionTemplateDecl* t) {
        if (!t->getDeclName().isIdentifier()) return true;
        if (t->getName() == "call_kernel" && in_sycl_detail(t)) call_kernel = t->getCanonicalDecl();
        if (t->getName() == "kernel_name" && in_sycl_detail(t)) kernel_name = t->getCanonicalDecl();
        return true;
    }
};

// What call_kernel's instantiation calls on the kernel object: the call operator(s) the kernel runs.
class operator_finder : public clang::RecursiveASTVisitor<operator_finder> {
public:
    explicit operator_finder(const clang::CXXRecordDecl* kernel) : kernel_(kernel) {}
    std::vector<const clang::FunctionDecl*> found;

    bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* call) {
        if (const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call->getDirectCallee()))
            if (method->getParent()->getCanonicalDecl() == kernel_->getCanonicalDecl() &&
                method->getOverloadedOperator() == clang::OO_Call)
                found.push_back(method);
        return true;
    }

private:
    const clang::CXXRecordDecl* kernel_;
};

// g++ 12 numbers the lambdas of a function body in lexical order, whatever their signatures ("UliE_",
// "UldE0_"), and clang keeps no number for lambdas of non-inline functions ("$_0"); typeid(K).name() must be
// g++'s, so the mangler takes these numbers instead of clang's. One pass over the translation unit.
class lambda_numbering : public clang::RecursiveASTVisitor<lambda_numbering> {
public:
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitLambdaExpr(clang::LambdaExpr* lambda) {
        const clang::CXXRecordDecl* closure = lambda->getLambdaClass();
        if (const auto* f = llvm::dyn_cast<clang::FunctionDecl>(closure->getDeclContext()))
            numbers[closure] = ++count_[f];
        return true;
    }
    std::map<const clang::CXXRecordDecl*, unsigned> numbers;

private:
    std::map<const clang::FunctionDecl*, unsigned> count_;
};

// The mangler's discriminator hook is a plain function pointer: the numbering it reads is this one.
const lambda_numbering* current_numbering = nullptr;

llvm::Optional<unsigned> gcc_lambda_number(clang::ASTContext&, const clang::NamedDecl* decl) {
    const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl);
    if (!current_numbering || !record || !record->isLambda()) return llvm::None;
    auto found = current_numbering->numbers.find(record);
    if (found == current_numbering->numbers.end()) return llvm::None;
    return found->second;
}

std::string demangle_type(const std::string& mangled) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> readable(
        abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && readable ? std::string(readable.get()) : mangled;
}

// The name sycl::detail::kernel_name<Name, K>() gives at run time (the same rules, so messages agree).
std::string kernel_name_of(clang::ASTContext& context, const clang::QualType* name,
                           const std::string& type_name) {
    if (!name) return demangle_type(type_name);
    std::string readable = demangle_type(type_name_of(context, context.getPointerType(*name)));
    if (!readable.empty() && readable.back() == '*') readable.pop_back();
    if (auto paren = readable.rfind(')'); paren != std::string::npos)
        if (auto scope = readable.find("::", paren); scope != std::string::npos) readable.erase(0, scope + 2);
    return readable;
}

std::string hex16(std::uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

// A free-function kernel: sycl::detail::free_function_kernel<&f>, instantiated by get_kernel_id<f> and its kin.
std::optional<kernel_info> free_function_kernel_of(clang::ASTContext& context,
                                                   const clang::ClassTemplateSpecializationDecl* spec) {
    const clang::TemplateArgumentList& args = spec->getTemplateArgs();
    if (args.size() != 1 || args[0].getKind() != clang::TemplateArgument::Declaration) return std::nullopt;
    const auto* f = llvm::dyn_cast<clang::FunctionDecl>(args[0].getAsDecl());
    if (!f) return std::nullopt;
    kernel_info kernel;
    kernel.type = spec;
    kernel.free_function = f;
    kernel.operators = {f};
    kernel.type_name = type_name_of(context, context.getRecordType(spec));
    kernel.name = f->getQualifiedNameAsString();
    kernel.entry = "__encore_kernel_" + hex16(fnv1a64(kernel.type_name));
    kernel.location = f->getLocation();
    // SYCL_EXT_ONEAPI_FUNCTION_PROPERTY's annotation: the launch's dimensions, 0 for single_task.
    std::optional<int> dimensions;
    for (const clang::FunctionDecl* r : f->redecls())
        for (const auto* a : r->specific_attrs<clang::AnnotateAttr>())
            if (a->getAnnotation() == "sycl_ext_oneapi_free_function" && a->args_size() == 1)
                if (auto value = (*a->args_begin())->getIntegerConstantExpr(context))
                    dimensions = static_cast<int>(value->getExtValue());
    if (!dimensions)
        kernel.no_device_code = "function '" + kernel.name +
                                "' is not marked SYCL_EXT_ONEAPI_FUNCTION_PROPERTY (its launch is not known)";
    kernel.launch = dimensions.value_or(0) == 0 ? 0 : 2;
    kernel.dimensions = std::max(dimensions.value_or(0), 1);
    for (unsigned i = 0; i < f->getNumParams(); ++i) {
        const clang::QualType t = f->getParamDecl(i)->getType().getCanonicalType();
        const clang::CXXRecordDecl* r = t->getAsCXXRecordDecl();
        const llvm::StringRef record = r && r->getDeclName().isIdentifier() ? r->getName() : "";
        if (record == "dynamic_work_group_memory" && kernel.no_device_code.empty())
            kernel.no_device_code = "its parameter '" + f->getParamDecl(i)->getNameAsString() +
                                    "' is a dynamic_work_group_memory, which holds host state the CUDA entry cannot "
                                    "make (it runs on the native backend)";
        kernel_param p;
        // Local memory (local_accessor<T, 1>, work_group_memory): the entry takes its size and makes it.
        p.kind = record == "local_accessor" || record == "work_group_memory" || record == "dynamic_work_group_memory"
                     ? param_kind::local_accessor
                 : t->isPointerType() ? param_kind::pointer
                                      : param_kind::std_layout;
        p.offset = i;
        p.size = t->isDependentType() || t->isIncompleteType()
                     ? 0
                     : static_cast<std::uint64_t>(context.getTypeSizeInChars(t).getQuantity());
        p.name = f->getParamDecl(i)->getNameAsString();
        kernel.params.push_back(std::move(p));
    }
    return kernel;
}

} // namespace

bool is_sycl_entity(const clang::NamedDecl* decl, llvm::StringRef name) {
    if (!decl || !decl->getDeclName().isIdentifier() || decl->getName() != name) return false;
    const auto* sycl = llvm::dyn_cast<clang::NamespaceDecl>(skip_inline_namespaces(decl->getDeclContext()));
    return sycl && sycl->getName() == "sycl" && sycl->getParent()->isTranslationUnit();
}

std::string type_name_of(clang::ASTContext& context, clang::QualType type) {
    std::unique_ptr<clang::MangleContext> mangler(
        clang::ItaniumMangleContext::create(context, context.getDiagnostics(), &gcc_lambda_number));
    std::string text;
    llvm::raw_string_ostream out(text);
    mangler->mangleCXXRTTIName(type, out);
    out.flush();
    return text.rfind("_ZTS", 0) == 0 ? text.substr(4) : text;
}

std::string describe_location(const clang::SourceManager& sources, clang::SourceLocation location) {
    const clang::PresumedLoc presumed = sources.getPresumedLoc(sources.getFileLoc(location));
    if (presumed.isInvalid()) return "<unknown>";
    return std::string(presumed.getFilename()) + ":" + std::to_string(presumed.getLine()) + ":" +
           std::to_string(presumed.getColumn());
}

found_kernels find_kernels(clang::ASTContext& context) {
    static lambda_numbering numbering;
    numbering.TraverseDecl(context.getTranslationUnitDecl());
    current_numbering = &numbering;
    template_finder templates;
    templates.TraverseDecl(context.getTranslationUnitDecl());
    found_kernels result;
    if (!templates.call_kernel) return result;

    const clang::SourceManager& sources = context.getSourceManager();
    std::string wrapper = sources.getFilename(sources.getFileLoc(templates.call_kernel->getLocation())).str();
    if (auto at = wrapper.rfind("sycl/detail/"); at != std::string::npos)
        result.frontend_root = wrapper.substr(0, at);

    // kernel_name<Name, K>: K -> Name, for parallel_for<Name>.
    std::map<const clang::Type*, clang::QualType> names;
    if (templates.kernel_name)
        for (const clang::FunctionDecl* f : templates.kernel_name->specializations()) {
            const clang::TemplateArgumentList* args = f->getTemplateSpecializationArgs();
            if (!args || args->size() < 2) continue;
            clang::QualType name = args->get(0).getAsType();
            const auto* record = name->getAsCXXRecordDecl();
            if (record && record->getName() == "auto_name" && in_sycl_detail(record)) continue;
            names[args->get(1).getAsType().getCanonicalType().getTypePtr()] = name;
        }

    // call_kernel's Extra: the kernel's reducers, then a sycl::kernel_handler when it takes one.
    auto extras_of = [](const clang::TemplateArgumentList* args, bool& handler) {
        std::vector<clang::QualType> reducers;
        handler = false;
        if (args->size() <= 3 || args->get(3).getKind() != clang::TemplateArgument::Pack) return reducers;
        for (const clang::TemplateArgument& a : args->get(3).pack_elements()) {
            const clang::QualType t = a.getAsType().getCanonicalType();
            if (is_sycl_entity(t->getAsCXXRecordDecl(), "kernel_handler"))
                handler = true;
            else
                reducers.push_back(t);
        }
        return reducers;
    };
    std::map<const clang::Type*, std::size_t> by_type;
    for (const clang::FunctionDecl* f : templates.call_kernel->specializations()) {
        const clang::TemplateArgumentList* args = f->getTemplateSpecializationArgs();
        if (!args || args->size() < 3) continue;
        clang::QualType k = args->get(2).getAsType().getCanonicalType();
        const clang::CXXRecordDecl* record = k->getAsCXXRecordDecl();
        if (!record || k->isDependentType()) continue;
        bool handler = false;
        std::vector<clang::QualType> reducers = extras_of(args, handler);
        const bool extra = !reducers.empty();
        auto [at, inserted] = by_type.emplace(k.getTypePtr(), result.kernels.size());
        if (!inserted) {
            // The same kernel type launched again (or with reductions): one kernel, flagged if any has them.
            kernel_info& known = result.kernels[at->second];
            if (extra != known.has_reduction) known.also_without_reduction = true;
            known.has_reduction = known.has_reduction || extra;
            known.takes_handler = known.takes_handler || handler;
            if (extra) {
                known.call_kernel = f;
                known.reducers = std::move(reducers);
            }
            continue;
        }
        kernel_info kernel;
        kernel.type = record;
        kernel.call_kernel = f;
        kernel.launch = static_cast<int>(args->get(0).getAsIntegral().getExtValue());
        kernel.dimensions = static_cast<int>(args->get(1).getAsIntegral().getExtValue());
        kernel.has_reduction = extra;
        kernel.takes_handler = handler;
        kernel.reducers = std::move(reducers);
        kernel.is_lambda = record->isLambda();
        kernel.type_name = type_name_of(context, k);
        auto name = names.find(k.getTypePtr());
        kernel.name =
            kernel_name_of(context, name == names.end() ? nullptr : &name->second, kernel.type_name);
        kernel.entry = "__encore_kernel_" + hex16(fnv1a64(kernel.type_name));
        kernel.size = static_cast<std::uint64_t>(context.getTypeSizeInChars(k).getQuantity());
        kernel.align = static_cast<std::uint64_t>(context.getTypeAlignInChars(k).getQuantity());
        kernel.location = record->getLocation();
        result.kernels.push_back(std::move(kernel));
    }
    if (templates.free_function_kernel)
        for (const clang::ClassTemplateSpecializationDecl* spec : templates.free_function_kernel->specializations())
            if (auto k = free_function_kernel_of(context, spec)) result.kernels.push_back(std::move(*k));
    for (kernel_info& kernel : result.kernels) {
        if (kernel.free_function) continue;
        operator_finder finder(kernel.type);
        for (const clang::FunctionDecl* f : templates.call_kernel->specializations())
            if (f->getTemplateSpecializationArgs()
                    ->get(2)
                    .getAsType()
                    .getCanonicalType()
                    ->getAsCXXRecordDecl() == kernel.type)
                finder.TraverseStmt(f->getBody());
        for (const clang::FunctionDecl* op : finder.found)
            if (std::find(kernel.operators.begin(), kernel.operators.end(), op) == kernel.operators.end())
                kernel.operators.push_back(op);
    }
    return result;
}

} // namespace encore::outliner
