#include "device_rules.hpp"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <vector>

#include "kernel_finder.hpp"

namespace encore::outliner {

// Walks the bodies a kernel reaches, depth first from its call operator; a call to a function on the current
// path closes a cycle (recursion). O(reached functions + their statements) per kernel.
class body_walker : public clang::RecursiveASTVisitor<body_walker> {
public:
    body_walker(device_rules& rules, kernel_info& kernel) : rules_(rules), kernel_(kernel) {}

    bool shouldVisitTemplateInstantiations() const { return true; }
    bool shouldVisitImplicitCode() const { return true; }
    // Nested lambdas are walked when they are called (their call operators are functions of the main file).
    bool TraverseLambdaExpr(clang::LambdaExpr* lambda) {
        for (clang::Expr* init : lambda->capture_inits())
            if (init) TraverseStmt(init);
        return true;
    }

    void walk(const clang::FunctionDecl* f, clang::SourceLocation from) {
        const clang::FunctionDecl* key = f->getCanonicalDecl();
        if (std::find(path_.begin(), path_.end(), key) != path_.end()) {
            error(from, "cannot call '" + f->getQualifiedNameAsString() +
                            "' recursively in device code (recursion: the call closes a cycle)");
            return;
        }
        if (!walked_.insert(key).second) return;
        const clang::FunctionDecl* definition = nullptr;
        if (!f->hasBody(definition) || !definition->getBody()) return;
        path_.push_back(key);
        sites_.push_back(from);
        TraverseStmt(definition->getBody());
        if (const auto* ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(definition))
            for (const clang::CXXCtorInitializer* init : ctor->inits())
                TraverseStmt(init->getInit());
        path_.pop_back();
        sites_.pop_back();
    }

    bool VisitCXXThrowExpr(clang::CXXThrowExpr* e) {
        error(e->getBeginLoc(), "cannot throw exceptions in device code");
        return true;
    }
    bool VisitCXXTryStmt(clang::CXXTryStmt* s) {
        error(s->getBeginLoc(), "cannot use try/catch in device code (exceptions)");
        return true;
    }
    bool VisitCXXTypeidExpr(clang::CXXTypeidExpr* e) {
        error(e->getBeginLoc(), "cannot use typeid in device code (RTTI)");
        return true;
    }
    bool VisitCXXDynamicCastExpr(clang::CXXDynamicCastExpr* e) {
        error(e->getBeginLoc(), "cannot use dynamic_cast in device code (RTTI)");
        return true;
    }
    bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
        const clang::CXXMethodDecl* method = call->getMethodDecl();
        const auto* member = llvm::dyn_cast<clang::MemberExpr>(call->getCallee()->IgnoreParens());
        if (method && method->isVirtual() && member && !member->hasQualifier() &&
            !method->hasAttr<clang::FinalAttr>() && !method->getParent()->hasAttr<clang::FinalAttr>())
            error(member->getMemberLoc(),
                  "cannot make virtual calls in device code ('" + method->getQualifiedNameAsString() + "')");
        return true;
    }
    bool VisitVarDecl(clang::VarDecl* v) {
        if (v->getTLSKind() != clang::VarDecl::TLS_None) {
            if (reported_vars_.insert(v).second)
                error(v->getLocation(),
                      "cannot use thread_local variable '" + v->getNameAsString() + "' in device code");
        } else if (is_work_group_static(v->getType())) {
            if (reported_vars_.insert(v).second) work_group_static_variable(v, v->getLocation());
        } else if (is_device_global(v->getType())) {
            if (reported_vars_.insert(v).second) device_global_variable(v, v->getLocation());
        } else if (v->isStaticLocal() && !constant(v)) {
            if (reported_vars_.insert(v).second)
                error(v->getLocation(),
                      "cannot use non-const static variable '" + v->getNameAsString() + "' in device code");
        }
        return true;
    }
    bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) {
            check_variable(v, ref->getLocation());
        } else if (const auto* f = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl())) {
            if (is_oneapi_function(f, "group_local_memory") || is_oneapi_function(f, "group_local_memory_for_overwrite")) {
                call_site(ref);
                constructed_in_library(f, ref->getLocation());
            }
            else if (is_oneapi_function(f, "get_work_group_scratch_memory"))
                kernel_.scratch_memory = true;
            callee(f, ref->getLocation());
        }
        return true;
    }
    bool VisitMemberExpr(clang::MemberExpr* member) {
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(member->getMemberDecl()))
            check_variable(v, member->getMemberLoc());
        else if (const auto* f = llvm::dyn_cast<clang::FunctionDecl>(member->getMemberDecl()))
            callee(f, member->getMemberLoc());
        return true;
    }
    bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
        callee(construct->getConstructor(), construct->getBeginLoc());
        return true;
    }

private:
    static bool constant(const clang::VarDecl* v) {
        return v->isConstexpr() || v->getType().isConstQualified();
    }

    // The error, then the calls that lead to it from the kernel, innermost first (notes at each call).
    void error(clang::SourceLocation location, const std::string& message) {
        if (!rules_.error(kernel_, location, message)) return;
        for (std::size_t i = path_.size(); i-- > 1;)
            rules_.note(sites_[i], "'" + path_[i]->getQualifiedNameAsString() + "' is called here" +
                                       (i == 1 ? " by the kernel" : ""));
    }

    // Whether `type` is sycl::ext::oneapi::experimental::work_group_static<T>.
    static bool is_work_group_static(clang::QualType type) {
        const clang::CXXRecordDecl* r = type.getCanonicalType()->getAsCXXRecordDecl();
        return r && r->getDeclName().isIdentifier() && r->getName() == "work_group_static" &&
               sycl_extension_namespace(r->getDeclContext(), "experimental");
    }
    // Whether `type` is sycl::ext::oneapi::experimental::device_global<T, Properties> (or an array of them).
    static bool is_device_global(clang::QualType type) {
        type = type.getCanonicalType();
        while (const clang::ArrayType* array = type->getAsArrayTypeUnsafe())
            type = array->getElementType().getCanonicalType();
        const clang::CXXRecordDecl* r = type->getAsCXXRecordDecl();
        return r && r->getDeclName().isIdentifier() && r->getName() == "device_global" &&
               sycl_extension_namespace(r->getDeclContext(), "experimental");
    }
    // Whether `f` is sycl::ext::oneapi[::experimental]::<name>.
    static bool is_oneapi_function(const clang::FunctionDecl* f, llvm::StringRef name) {
        return f->getDeclName().isIdentifier() && f->getName() == name &&
               (sycl_extension_namespace(f->getDeclContext(), "oneapi") ||
                sycl_extension_namespace(f->getDeclContext(), "experimental"));
    }
    // Whether `context` is sycl::ext::oneapi (innermost "oneapi") or sycl::ext::oneapi::experimental.
    static bool sycl_extension_namespace(const clang::DeclContext* context, llvm::StringRef innermost) {
        std::vector<std::string> names;
        for (; context && !context->isTranslationUnit(); context = context->getParent())
            if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(context); ns && !ns->isInline())
                names.push_back(ns->getName().str());
        const std::vector<std::string> oneapi{"oneapi", "ext", "sycl"};
        const std::vector<std::string> experimental{"experimental", "oneapi", "ext", "sycl"};
        return names == (innermost == "oneapi" ? oneapi : experimental);
    }

    // A work_group_static the kernel declares or uses: __shared__ in the device source, where it must be.
    void work_group_static_variable(const clang::VarDecl* v, clang::SourceLocation location) {
        if (v->isLocalVarDecl() && !v->isStaticLocal()) {
            error(location, "declares work_group_static '" + v->getNameAsString() +
                                "' without 'static' (Encore takes the extension's reduced feature set: declare it "
                                "'static')");
            return;
        }
        if (!rules_.editable(v->getLocation())) {
            error(location, "uses work_group_static '" + v->getQualifiedNameAsString() +
                                "', declared in a system or library header (declare it in the program's own files, "
                                "where the device code can make it __shared__)");
            return;
        }
        rules_.shared_.insert(v->getCanonicalDecl());
    }

    // A device_global the kernel uses: __device__ in the device source, its instance found by the host through the
    // image (device_source.cpp, the registration after the source).
    void device_global_variable(const clang::VarDecl* v, clang::SourceLocation location) {
        if (v->isLocalVarDecl()) {
            error(location, "declares device_global '" + v->getNameAsString() +
                                "' in a function (declare it at namespace scope)");
            return;
        }
        if (v->getType()->isArrayType()) {
            error(location, "uses '" + v->getQualifiedNameAsString() +
                                "', an array of device_globals (declare a device_global of an array)");
            return;
        }
        if (rules_.origin_of(v->getLocation()) != origin::main_file) {
            error(location, "uses device_global '" + v->getQualifiedNameAsString() +
                                "', declared in another file (declare it in the source that launches the kernels "
                                "using it, where the device code can make it __device__)");
            return;
        }
        if (v->isStaticDataMember()) {
            error(location, "uses device_global '" + v->getQualifiedNameAsString() +
                                "', a static data member: CUDA has no __device__ data members (declare it at "
                                "namespace scope)");
            return;
        }
        rules_.globals_.insert(v->getCanonicalDecl());
    }

    // group_local_memory<T>(g, args...) constructs its T inside the front end, whose bodies the walk does not enter:
    // T's constructors are device code too.
    void constructed_in_library(const clang::FunctionDecl* f, clang::SourceLocation location) {
        const clang::TemplateArgumentList* arguments = f->getTemplateSpecializationArgs();
        if (!arguments || arguments->size() == 0 || (*arguments)[0].getKind() != clang::TemplateArgument::Type) return;
        clang::QualType t = (*arguments)[0].getAsType().getCanonicalType();
        while (const clang::ArrayType* array = t->getAsArrayTypeUnsafe())
            t = array->getElementType().getCanonicalType();
        if (const clang::CXXRecordDecl* r = t->getAsCXXRecordDecl(); r && r->hasDefinition())
            for (const clang::CXXConstructorDecl* c : r->ctors())
                if (!c->isImplicit() && !c->isDeleted()) callee(c, location);
    }

    // group_local_memory<T>(g): the call gets a site of its own in the device source (before the `>` of its
    // template arguments). A call that names the site itself keeps it.
    void call_site(const clang::DeclRefExpr* ref) {
        if (!rules_.editable(ref->getLocation()) || ref->getNumTemplateArgs() != 1 ||
            ref->getRAngleLoc().isMacroID())
            return;
        rules_.call_sites_.insert(ref->getRAngleLoc().getRawEncoding());
    }

    void check_variable(const clang::VarDecl* v, clang::SourceLocation location) {
        if (!v->hasGlobalStorage() || reported_vars_.count(v)) return;
        if (is_work_group_static(v->getType())) {
            reported_vars_.insert(v);
            work_group_static_variable(v, location);
            return;
        }
        if (is_device_global(v->getType())) {
            reported_vars_.insert(v);
            device_global_variable(v, location);
            return;
        }
        if (rules_.origin_of(v->getLocation()) == origin::library && constant(v)) return;
        if (v->getTLSKind() != clang::VarDecl::TLS_None) {
            reported_vars_.insert(v);
            error(location, "cannot use thread_local variable '" + v->getNameAsString() + "' in device code");
        } else if (!constant(v)) {
            reported_vars_.insert(v);
            error(location, "cannot use non-const global or static variable '" +
                                v->getQualifiedNameAsString() + "' in device code");
        } else if (v->getType()->isArrayType() && rules_.origin_of(v->getLocation()) != origin::library) {
            // nvcc folds constant scalars into device code, but an array would need a device copy.
            reported_vars_.insert(v);
            error(location,
                  "cannot use global or static array '" + v->getQualifiedNameAsString() +
                      "' in device code: the device has no copy of it (capture a copy, e.g. a std::array, "
                      "or pass it through a buffer or USM)");
        }
    }

    void callee(const clang::FunctionDecl* f, clang::SourceLocation location) {
        if (f->isImplicit() || f->isDefaulted() || f->isDeleted() || f->getBuiltinID() != 0) return;
        const origin where = rules_.origin_of(f->getLocation());
        if (where == origin::system) return;
        if (where == origin::library) {
            // The front end's own functions run on the device where they say so (or are constexpr, which nvcc
            // allows with --expt-relaxed-constexpr); a kernel calling another one gets no device code yet.
            if (kernel_.no_device_code.empty() && !f->isConstexpr() && !device_rules::marked_host_device(f))
                kernel_.no_device_code = "it calls '" + f->getQualifiedNameAsString() +
                                         "', which the front end does not provide in device code yet";
            return;
        }
        if (!f->isDefined()) {
            error(location,
                  "cannot call '" + f->getQualifiedNameAsString() +
                      "' in device code: it has no visible body (define it in this translation unit)");
            return;
        }
        // The program's own functions, in the source or in its headers, become device code.
        if (where == origin::main_file || where == origin::user_header) {
            const clang::FunctionDecl* pattern = f->getTemplateInstantiationPattern();
            const clang::FunctionDecl* marked = pattern ? pattern : f;
            const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(marked);
            if (!(method && method->getParent()->isLambda()) && !device_rules::marked_host_device(marked))
                rules_.to_mark_.insert(marked->getCanonicalDecl());
        }
        walk(f, location);
    }

    device_rules& rules_;
    kernel_info& kernel_;
    std::vector<const clang::FunctionDecl*> path_;
    std::vector<clang::SourceLocation> sites_; // where each function of path_ is called
    std::set<const clang::FunctionDecl*> walked_;
    std::set<const clang::VarDecl*> reported_vars_;
};

device_rules::device_rules(clang::ASTContext& context, std::string frontend_root, bool host_fallback)
    : context_(context), frontend_root_(std::move(frontend_root)),
      error_id_(context.getDiagnostics().getCustomDiagID(clang::DiagnosticsEngine::Error, "kernel '%0' %1")),
      note_id_(context.getDiagnostics().getCustomDiagID(clang::DiagnosticsEngine::Note, "%0")),
      host_fallback_(host_fallback) {
}

device_rules::~device_rules() = default;

bool device_rules::editable(clang::SourceLocation location) const {
    const origin where = origin_of(location);
    return where == origin::main_file || where == origin::user_header;
}

origin device_rules::origin_of(clang::SourceLocation location) const {
    const clang::SourceManager& sources = context_.getSourceManager();
    location = sources.getFileLoc(location);
    if (sources.isInMainFile(location)) return origin::main_file;
    if (sources.isInSystemHeader(location)) return origin::system;
    const std::string file = sources.getFilename(location).str();
    if ((!frontend_root_.empty() && file.rfind(frontend_root_, 0) == 0) ||
        file.find("/encore/") != std::string::npos || file.rfind("encore/", 0) == 0)
        return origin::library;
    return origin::user_header;
}

bool device_rules::marked_host_device(const clang::FunctionDecl* f) {
    auto marked = [](const clang::FunctionDecl* d) {
        for (const clang::FunctionDecl* r : d->redecls())
            for (const auto* a : r->specific_attrs<clang::AnnotateAttr>())
                if (a->getAnnotation() == "encore_host_device") return true;
        return false;
    };
    if (marked(f)) return true;
    if (const clang::FunctionDecl* pattern = f->getTemplateInstantiationPattern()) return marked(pattern);
    return false;
}

bool device_rules::error(const kernel_info& kernel, clang::SourceLocation location,
                         const std::string& message) {
    if (checking_ && checking_ == &kernel) {
        if (checking_->no_device_code.empty()) checking_->no_device_code = message;
        return false;
    }
    location = context_.getSourceManager().getFileLoc(location);
    if (!reported_.emplace(location.getRawEncoding(), message).second) return false;
    context_.getDiagnostics().Report(location, error_id_) << kernel.name << message;
    return true;
}

void device_rules::note(clang::SourceLocation location, const std::string& message) {
    context_.getDiagnostics().Report(context_.getSourceManager().getFileLoc(location), note_id_) << message;
}

void device_rules::check(kernel_info& kernel) {
    if (!host_fallback_) {
        check_rules(kernel);
        return;
    }
    // Under host fallback a kernel that breaks a rule leaves nothing for the device source: what its walk would
    // have marked is put back as it was.
    const auto marked = to_mark_;
    const auto shared = shared_;
    const auto globals = globals_;
    const auto call_sites = call_sites_;
    checking_ = &kernel;
    check_rules(kernel);
    checking_ = nullptr;
    if (!kernel.no_device_code.empty()) {
        to_mark_ = marked;
        shared_ = shared;
        globals_ = globals;
        call_sites_ = call_sites;
    }
}

void device_rules::check_rules(kernel_info& kernel) {
    if (kernel.also_without_reduction)
        kernel.no_device_code = "its type is launched both with and without reductions (one entry cannot take both)";
    // A reduction's operation runs in device code only if it is one of SYCL's or the standard library's function
    // objects (a user's operation is not reached from the kernel body, so it would not be made device-callable).
    for (clang::QualType r : kernel.reducers) {
        const auto* reducer = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(r->getAsCXXRecordDecl());
        if (!reducer || reducer->getTemplateArgs().size() < 2) continue;
        const clang::QualType op = reducer->getTemplateArgs()[1].getAsType();
        const clang::CXXRecordDecl* op_class = op->getAsCXXRecordDecl();
        const clang::DeclContext* space = op_class ? op_class->getEnclosingNamespaceContext() : nullptr;
        while (space && llvm::isa<clang::NamespaceDecl>(space) && llvm::cast<clang::NamespaceDecl>(space)->isInline())
            space = space->getParent();
        const auto* ns = llvm::dyn_cast_or_null<clang::NamespaceDecl>(space);
        const bool known = ns && llvm::isa<clang::TranslationUnitDecl>(ns->getParent()) &&
                           (ns->getName() == "sycl" || ns->getName() == "std");
        if (!known && kernel.no_device_code.empty())
            kernel.no_device_code = "its reduction's operation '" + op.getAsString() +
                                    "' is not a SYCL or standard function object (only those run in device code)";
    }

    if (kernel.is_lambda) {
        // A pack capture (`... a = f(args)`, `args...`) becomes one field per element, all named as the pack: seen
        // on the lambda as written (the pattern of an instantiation in a template).
        std::vector<const clang::CXXRecordDecl*> closures{kernel.type};
        for (const clang::FunctionDecl* op : kernel.operators)
            if (const clang::FunctionDecl* pattern = op->getTemplateInstantiationPattern())
                if (const auto* c = llvm::dyn_cast<clang::CXXRecordDecl>(pattern->getParent())) closures.push_back(c);
        for (const clang::CXXRecordDecl* closure : closures)
            for (const clang::LambdaCapture& capture : closure->captures())
                if (capture.capturesVariable() && kernel.no_device_code.empty() &&
                    (capture.isPackExpansion() || capture.getCapturedVar()->isParameterPack()))
                    kernel.no_device_code = "it captures the parameter pack '" +
                                            capture.getCapturedVar()->getNameAsString() +
                                            "' (its device entry cannot spell the expanded captures)";
    }
    if (kernel.is_lambda)
        for (const clang::LambdaCapture& capture : kernel.type->captures()) {
            if (capture.capturesThis())
                error(kernel, capture.getLocation(),
                      "cannot capture 'this' (the kernel object is copied to the device; capture the members "
                      "it uses by value)");
            else if (capture.capturesVariable() && capture.getCaptureKind() == clang::LCK_ByRef)
                error(kernel, capture.getLocation(),
                      "cannot capture '" + capture.getCapturedVar()->getNameAsString() +
                          "' by reference (device code cannot reach host variables; capture it by value)");
        }

    body_walker walker(*this, kernel);
    for (const clang::FunctionDecl* op : kernel.operators) {
        if (!kernel.is_lambda) {
            if (editable(op->getLocation()) && !marked_host_device(op)) {
                const clang::FunctionDecl* pattern = op->getTemplateInstantiationPattern();
                to_mark_.insert((pattern ? pattern : op)->getCanonicalDecl());
            }
        }
        walker.walk(op, op->getLocation());
    }
}

} // namespace encore::outliner
