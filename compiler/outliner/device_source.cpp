#include "device_source.hpp"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "kernel_finder.hpp"
#include "local_types.hpp"

namespace encore::outliner {

clang::PrintingPolicy printing(const clang::ASTContext& context) {
    clang::PrintingPolicy policy(context.getLangOpts());
    policy.SuppressScope = false;
    policy.AnonymousTagLocations = false;
    policy.SuppressUnwrittenScope = true; // no "(anonymous namespace)::"
    return policy;
}

namespace {

// The function-local types the device source moved out of their functions, and their names there (set while
// device_source runs: local_types.hpp).
const std::map<const clang::CXXRecordDecl*, std::string>* moved_types = nullptr;

// `type` spelled so that it names the same type anywhere (e.g. "::sycl::_V1::accessor<int, 1, ...>").
std::string qualified(const clang::ASTContext& context, clang::QualType type, std::string declarator = "") {
    type = type.getCanonicalType();
    // getFullyQualifiedType leaves array elements alone: qualify the element, keep the bounds in the
    // declarator.
    while (const auto* array = llvm::dyn_cast<clang::ConstantArrayType>(type.getTypePtr())) {
        declarator += "[" + llvm::toString(array->getSize(), 10, false) + "]";
        type = array->getElementType().getCanonicalType();
    }
    if (const clang::CXXRecordDecl* r = type->getAsCXXRecordDecl(); r && moved_types) {
        const clang::CXXRecordDecl* definition = r->getDefinition() ? r->getDefinition() : r;
        if (auto moved = moved_types->find(definition); moved != moved_types->end())
            return (type.isConstQualified() ? "const " : "") + moved->second +
                   (declarator.empty() ? "" : " " + declarator);
    }
    clang::QualType full = clang::TypeName::getFullyQualifiedType(type, context, true);
    std::string text;
    llvm::raw_string_ostream out(text);
    full.print(out, printing(context), declarator);
    return out.str();
}


// The named namespaces around `context`, outermost first (anonymous ones are reopened too, marked by "").
std::vector<const clang::NamespaceDecl*> namespaces_of(const clang::DeclContext* context) {
    std::vector<const clang::NamespaceDecl*> result;
    for (; context && !context->isTranslationUnit(); context = context->getParent())
        if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(context)) result.insert(result.begin(), ns);
    return result;
}

// Collects what an outlined lambda body needs: edits that qualify names it used unqualified (class members of
// the enclosing class), members that stand for the enclosing function's constants and type aliases, and
// errors.
class body_fixer : public clang::RecursiveASTVisitor<body_fixer> {
public:
    body_fixer(clang::ASTContext& context, device_rules& rules, local_types& locals, const kernel_info& kernel,
               const clang::FunctionDecl* op, std::set<const clang::VarDecl*> captured)
        : context_(context), rules_(rules), locals_(locals), kernel_(kernel), op_(op), captured_(std::move(captured)) {}

    std::map<unsigned, std::string> edits; // file offset -> text inserted there
    std::vector<std::string> members;

    bool shouldVisitTemplateInstantiations() const { return true; }

    bool TraverseElaboratedTypeLoc(clang::ElaboratedTypeLoc loc) {
        if (loc.getQualifierLoc()) return true; // written qualified: it resolves anywhere
        return clang::RecursiveASTVisitor<body_fixer>::TraverseElaboratedTypeLoc(loc);
    }
    bool VisitTypedefTypeLoc(clang::TypedefTypeLoc loc) {
        named_type(loc.getTypedefNameDecl(), loc.getNameLoc());
        return true;
    }
    bool VisitTagTypeLoc(clang::TagTypeLoc loc) {
        named_type(loc.getDecl(), loc.getNameLoc());
        return true;
    }
    bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
        const clang::ValueDecl* decl = ref->getDecl();
        if (const int site = rules_.call_site_number(ref->getRAngleLoc()); site >= 0) {
            const unsigned offset = context_.getSourceManager().getFileOffset(ref->getRAngleLoc());
            if (edits[offset].find("call_site") == std::string::npos)
                edits[offset] += ", ::sycl::detail::call_site<" + std::to_string(site) + ">";
        }
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(decl);
            v && v->isLocalVarDeclOrParm() && !within(v->getDeclContext(), op_)) {
            if (captured_.count(v) || !seen_.insert(v).second) return true;
            clang::APValue* value = v->isConstexpr() || v->getType().isConstQualified()
                                        ? const_cast<clang::VarDecl*>(v)->evaluateValue()
                                        : nullptr;
            if (!value) {
                rules_.error(
                    kernel_, ref->getLocation(),
                    "uses '" + v->getNameAsString() +
                        "' of the enclosing function without capturing it (the outlined kernel cannot "
                        "reach it)");
                return true;
            }
            members.push_back("static constexpr " + qualified(context_, v->getType().getUnqualifiedType()) +
                              " " + v->getNameAsString() + " = " +
                              value->getAsString(context_, v->getType()) + ";");
            return true;
        }
        // Static data members, static member functions and enumerators of the enclosing class; operators and
        // other members are reached through an object.
        const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(decl);
        const bool named_member = decl->getDeclName().isIdentifier() && (!method || method->isStatic());
        if (!ref->hasQualifier() && named_member) qualify_member(decl, ref->getLocation());
        return true;
    }
    // A work_group_static declared in the lambda's body: __shared__ in the outlined copy (the lambda's original
    // stays in a host function, where nvcc refuses __shared__).
    bool VisitVarDecl(clang::VarDecl* v) {
        if (!rules_.shared_variables().count(v->getCanonicalDecl())) return true;
        const clang::SourceLocation at = v->getTypeSpecStartLoc();
        if (at.isInvalid() || at.isMacroID()) return true;
        const unsigned offset = context_.getSourceManager().getFileOffset(at);
        if (edits[offset].find("__shared__") == std::string::npos) edits[offset] += "__shared__ ";
        return true;
    }

private:
    void named_type(const clang::NamedDecl* decl, clang::SourceLocation at) {
        if (const clang::FunctionDecl* f = local_to(decl); f && !within(decl->getDeclContext(), op_)) {
            if (!seen_.insert(decl).second) return;
            if (const auto* alias = llvm::dyn_cast<clang::TypedefNameDecl>(decl)) {
                members.push_back("using " + alias->getNameAsString() + " = " +
                                  qualified(context_, alias->getUnderlyingType()) + ";");
                return;
            }
            std::string why = "it is not a class";
            if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl))
                if (const std::string name = locals_.name_of(record, why); !name.empty()) {
                    members.push_back("using " + decl->getNameAsString() + " = " + name + ";");
                    return;
                }
            rules_.error(kernel_, at,
                         "uses '" + decl->getNameAsString() + "', a type local to function '" +
                             f->getQualifiedNameAsString() + "' that the outlined kernel cannot name: " + why +
                             " (move it to namespace scope)");
            return;
        }
        qualify_member(decl, at);
    }

    // A member of an enclosing class named without its class: prefix the class.
    void qualify_member(const clang::NamedDecl* decl, clang::SourceLocation at) {
        const clang::DeclContext* context = decl->getDeclContext();
        if (const auto* e = llvm::dyn_cast<clang::EnumDecl>(context); e && !e->isScoped())
            context = e->getParent();
        const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(context);
        if (!record || record->isLambda() || local_to(record)) return;
        const clang::SourceManager& sources = context_.getSourceManager();
        if (at.isMacroID()) return;
        edits[sources.getFileOffset(at)] = qualified(context_, context_.getRecordType(record)) + "::";
    }

    clang::ASTContext& context_;
    device_rules& rules_;
    local_types& locals_;
    const kernel_info& kernel_;
    const clang::FunctionDecl* op_;
    std::set<const clang::VarDecl*> captured_;
    std::set<const clang::Decl*> seen_;
};

// Source text of [begin, end] (token range) with `edits` applied.
std::string edited_text(const clang::SourceManager& sources, const clang::LangOptions& options,
                        clang::SourceRange range, const std::map<unsigned, std::string>& edits) {
    const clang::CharSourceRange chars = clang::CharSourceRange::getTokenRange(range);
    const std::string text = clang::Lexer::getSourceText(chars, sources, options).str();
    const unsigned begin = sources.getFileOffset(range.getBegin());
    std::string out;
    for (unsigned i = 0; i < text.size(); ++i) {
        if (auto edit = edits.find(begin + i); edit != edits.end()) out += edit->second;
        out += text[i];
    }
    return out;
}

// Members standing for the enclosing templates' parameters: `using T = float;`, `static constexpr int N =
// 4;`.
void template_members(const clang::ASTContext& context, const clang::DeclContext* from,
                      std::vector<std::string>& out) {
    std::vector<std::string> found;
    auto add = [&](const clang::TemplateParameterList* params, llvm::ArrayRef<clang::TemplateArgument> args) {
        std::vector<std::string> level;
        for (unsigned i = 0; i < params->size() && i < args.size(); ++i) {
            const clang::NamedDecl* p = params->getParam(i);
            if (p->isImplicit() || p->isTemplateParameterPack() || p->getName().empty()) continue;
            const clang::TemplateArgument& a = args[i];
            if (a.getKind() == clang::TemplateArgument::Type) {
                level.push_back("using " + p->getNameAsString() + " = " + qualified(context, a.getAsType()) +
                                ";");
            } else if (a.getKind() == clang::TemplateArgument::Integral) {
                const clang::QualType type = a.getIntegralType();
                std::string value = llvm::toString(a.getAsIntegral(), 10);
                if (type->isBooleanType())
                    value = a.getAsIntegral().getBoolValue() ? "true" : "false";
                else if (type->isEnumeralType())
                    value = "static_cast<" + qualified(context, type) + ">(" + value + ")";
                level.push_back("static constexpr " + qualified(context, type) + " " + p->getNameAsString() +
                                " = " + value + ";");
            }
        }
        found.insert(found.begin(), level.begin(), level.end()); // outer levels first
    };
    for (const clang::DeclContext* c = from; c && !c->isTranslationUnit(); c = c->getParent()) {
        if (const auto* f = llvm::dyn_cast<clang::FunctionDecl>(c)) {
            if (const clang::TemplateArgumentList* args = f->getTemplateSpecializationArgs())
                if (const clang::FunctionTemplateDecl* t = f->getPrimaryTemplate())
                    add(t->getTemplateParameters(), args->asArray());
        } else if (const auto* s = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(c)) {
            add(s->getSpecializedTemplate()->getTemplateParameters(), s->getTemplateArgs().asArray());
        }
    }
    out.insert(out.end(), found.begin(), found.end());
}

const char* launch_enumerator(int launch) {
    return launch == 0 ? "single_task" : launch == 2 ? "nd_range" : launch == 3 ? "work_group" : "range";
}

// A free-function kernel's entry: the function's parameters as the kernel's (argument_list convention), the
// work-item built from CUDA's indices and published for this_work_item::get_nd_item, then the call.
void free_function_entry(const clang::ASTContext& context, const kernel_info& k, const std::string& hash,
                         std::ostringstream& tail) {
    const clang::FunctionDecl* f = k.free_function;
    std::string parameters, arguments;
    unsigned allocation = 0; // local allocation k is the k-th local memory parameter (then the scratch memory)
    for (unsigned i = 0; i < f->getNumParams(); ++i) {
        const std::string name = "__encore_p" + std::to_string(i);
        const clang::QualType type = f->getParamDecl(i)->getType().getUnqualifiedType();
        if (k.params[i].kind == param_kind::local_accessor) {
            parameters += (i ? ", " : "") + std::string("unsigned long long ") + name;
            const std::string index = std::to_string(allocation++);
            arguments += (i ? ", " : "") + std::string("::sycl::detail::local_parameter<") + qualified(context, type) +
                         ">::make(" + name + ", " + index + ", __encore_layout.offset[" + index + "])";
        } else {
            parameters += (i ? ", " : "") + qualified(context, type, name);
            arguments += (i ? ", " : "") + name;
        }
    }
    const bool local = takes_local_layout(k);
    if (local) parameters += std::string(f->getNumParams() ? ", " : "") + "::encore::gpu::local_layout __encore_layout";
    std::string callee;
    llvm::raw_string_ostream out(callee);
    f->printQualifiedName(out, printing(context));
    out.flush();
    // Free-function kernels are CUDA's only so far: the spir64 compile leaves their entries out.
    tail << "#if (!defined(ENCORE_DEVICE_KERNELS_SELECTED) || defined(ENCORE_DEVICE_KERNEL_" << hash
         << ")) && !defined(ENCORE_DEVICE_SPIR)\n"
         << "extern \"C\" __global__ void " << k.entry << "(" << parameters << ") {\n"
         << (k.scratch_memory ? "    ::encore::device_entry::enter_local_memory(__encore_layout);\n" : "")
         << "    ::encore::work_item item;\n"
         << "    ::encore::device_entry::make_exact_work_item<" << k.dimensions << ">(item);\n"
         << "    ::sycl::detail::device_work_item_slot() = &item;\n"
         << "    ::" << callee << "(" << arguments << ");\n"
         << "}\n#endif\n";
}

} // namespace

std::string device_source(clang::ASTContext& context, clang::Rewriter& rewriter,
                          const std::vector<kernel_info>& kernels, device_rules& rules) {
    const clang::SourceManager& sources = context.getSourceManager();
    const clang::LangOptions& options = context.getLangOpts();
    local_types locals(context, rewriter, rules);
    moved_types = &locals.names();

    // ENCORE_HOST_DEVICE on every declaration, in the source and the program's headers, of the functions the kernels
    // reach.
    std::set<unsigned> marked;
    for (const clang::FunctionDecl* f : rules.functions_to_mark())
        for (const clang::FunctionDecl* r : f->redecls()) {
            clang::SourceLocation at = r->getInnerLocStart();
            // A declaration that starts with a macro (SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(...)): marked before its type.
            if (at.isMacroID()) at = r->getTypeSpecStartLoc();
            if (at.isInvalid() || at.isMacroID() || !rules.editable(at) ||
                !marked.insert(at.getRawEncoding()).second)
                continue;
            rewriter.InsertTextBefore(at, "ENCORE_HOST_DEVICE ");
        }
    // __shared__ on the work_group_static variables the kernels use, at namespace or class scope and in the
    // program's functions (those in lambda bodies are the outlined copies', body_fixer), and a site of its own for
    // each group_local_memory call (sycl/ext/oneapi/group_local_memory.hpp).
    for (const clang::VarDecl* v : rules.shared_variables()) {
        const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(v->getDeclContext());
        if (method && method->getParent()->isLambda()) continue;
        for (const clang::VarDecl* r : v->redecls()) {
            const clang::SourceLocation at = r->getTypeSpecStartLoc();
            if (at.isInvalid() || at.isMacroID() || !rules.editable(at)) continue;
            rewriter.InsertTextBefore(at, "__shared__ ");
        }
    }
    // __device__ on the device_globals the kernels use (every declaration of the main file: a static member's too).
    for (const clang::VarDecl* v : rules.device_globals())
        for (const clang::VarDecl* r : v->redecls()) {
            const clang::SourceLocation at = r->getTypeSpecStartLoc();
            if (at.isInvalid() || at.isMacroID() || !rules.editable(at)) continue;
            rewriter.InsertTextBefore(at, "__device__ ");
        }
    for (unsigned raw : rules.call_sites()) {
        const auto at = clang::SourceLocation::getFromRawEncoding(raw);
        rewriter.InsertTextBefore(at, ", ::sycl::detail::call_site<" + std::to_string(rules.call_site_number(at)) + ">");
    }

    std::ostringstream tail;
    tail << "\n\n// ---- Generated by encore-outliner: the kernels' device entries. ----\n"
         << "#include \"encore/compiler/device_entry.hpp\"\n";
    if (std::any_of(kernels.begin(), kernels.end(), [](const kernel_info& k) { return k.has_reduction && k.no_device_code.empty(); }))
        tail << "#if !defined(ENCORE_DEVICE_SPIR)\n#include \"sycl/detail/device_reduction.hpp\"\n#endif\n";
    for (const kernel_info& k : kernels) {
        if (!k.no_device_code.empty() || k.operators.empty()) continue;
        const std::string hash = k.entry.substr(std::string("__encore_kernel_").size());
        std::string type;
        tail << "\n// kernel '" << k.name << "' (" << describe_location(sources, k.location) << ")\n";
        if (k.free_function) {
            free_function_entry(context, k, hash, tail);
            continue;
        }
        if (k.is_lambda) {
            const clang::FunctionDecl* op = k.operators.front();
            const clang::FunctionDecl* pattern = op->getTemplateInstantiationPattern();
            const clang::FunctionDecl* written = pattern ? pattern : op;
            std::set<const clang::VarDecl*> captured;
            bool fields_ok = true;
            for (const clang::LambdaCapture& c : k.type->captures())
                if (c.capturesVariable()) captured.insert(llvm::cast<clang::VarDecl>(c.getCapturedVar()));
            for (const kernel_field& f : k.fields) {
                if (!f.field) continue;
                clang::QualType t = f.field->getType().getCanonicalType();
                while (const auto* array = context.getAsArrayType(t))
                    t = array->getElementType().getCanonicalType();
                std::string why;
                if (const clang::CXXRecordDecl* r = t->getAsCXXRecordDecl();
                    r && local_to(r) && locals.name_of(r, why).empty()) {
                    rules.error(k, k.location,
                                "captures '" + f.name + "' of type '" + r->getNameAsString() +
                                    "', local to function '" + local_to(r)->getQualifiedNameAsString() +
                                    "': the outlined kernel cannot name it: " + why +
                                    " (move the type to namespace scope)");
                    fields_ok = false;
                }
            }
            body_fixer fixer(context, rules, locals, k, op, captured);
            fixer.TraverseStmt(op->getBody());
            if (const clang::TypeSourceInfo* info = written->getTypeSourceInfo())
                fixer.TraverseTypeLoc(info->getTypeLoc());
            if (!fields_ok) continue;

            std::string parameters = "()";
            if (const clang::TypeSourceInfo* info = written->getTypeSourceInfo())
                if (auto fn = info->getTypeLoc().getAsAdjusted<clang::FunctionTypeLoc>()) {
                    clang::SourceLocation open = fn.getLParenLoc(), close = fn.getRParenLoc();
                    // A lambda written in a macro's argument (CHECK(q.submit(...))): its text is the argument's.
                    if (open.isMacroID() && close.isMacroID() && sources.isMacroArgExpansion(open) &&
                        sources.isMacroArgExpansion(close)) {
                        open = sources.getSpellingLoc(open);
                        close = sources.getSpellingLoc(close);
                    }
                    if (open.isValid() && !open.isMacroID())
                        parameters = edited_text(sources, options, {open, close}, fixer.edits);
                }
            const std::string body =
                edited_text(sources, options, written->getBody()->getSourceRange(), fixer.edits);

            const auto spaces = namespaces_of(k.type->getDeclContext());
            std::string prefix = "::";
            for (const clang::NamespaceDecl* ns : spaces) {
                tail << (ns->isInline() ? "inline " : "") << "namespace " << ns->getName().str()
                     << (ns->isAnonymousNamespace() ? "" : " ") << "{\n";
                if (!ns->isAnonymousNamespace()) prefix += ns->getName().str() + "::";
            }
            const std::string outlined = "__encore_outlined_" + hash;
            tail << "struct " << outlined << " {\n";
            std::vector<std::string> members;
            template_members(context, k.type->getDeclContext(), members);
            members.insert(members.end(), fixer.members.begin(), fixer.members.end());
            for (const std::string& m : members)
                tail << "    " << m << "\n";
            for (const kernel_field& f : k.fields)
                if (f.field)
                    tail << "    " << qualified(context, f.field->getType(), f.name) << ";\n";
                else // g++ captured the constant (gcc_captures.hpp); the body reads the static member
                    tail << "    alignas(" << f.align << ") unsigned char __encore_gcc_capture_" << f.name << "["
                         << f.size << "];\n";
            tail << "    __device__ void operator()" << parameters << " const " << body << "\n};\n";
            for (auto ns = spaces.rbegin(); ns != spaces.rend(); ++ns)
                tail << "} // namespace " << (*ns)->getName().str() << "\n";
            type = prefix + outlined;
        } else {
            std::string why;
            if (const clang::FunctionDecl* f = local_to(k.type); f && locals.name_of(k.type, why).empty()) {
                rules.error(k, k.location,
                            "is a functor type local to function '" + f->getQualifiedNameAsString() +
                                "': its device entry cannot name it: " + why + " (move it to namespace scope)");
                continue;
            }
            type = qualified(context, context.getRecordType(k.type));
        }
        tail << "static_assert(sizeof(" << type << ") == " << k.size << ", \"encore-outliner: kernel '"
             << k.name << "' has another size on the device\");\n"
             << "static_assert(alignof(" << type << ") == " << k.align << ", \"encore-outliner: kernel '"
             << k.name << "' has another alignment on the device\");\n"
             // -fsycl-device-code-split=per_kernel: encore++ compiles this file once per kernel, keeping one entry;
             // the spir64 compile leaves out the entries of kernels it cannot take yet (spir_missing).
             << "#if (!defined(ENCORE_DEVICE_KERNELS_SELECTED) || defined(ENCORE_DEVICE_KERNEL_" << hash << "))"
             << (spir_missing(k).empty() ? "" : " && !defined(ENCORE_DEVICE_SPIR)") << "\n";
        // A kernel taking a kernel_handler gets its launch's specialization constants after its object.
        if (k.takes_handler) type = "::sycl::detail::specialized<" + type + ">";
        const bool has_local = takes_local_layout(k);
        const std::string launch =
            std::string("::sycl::detail::launch::") + launch_enumerator(k.launch) + ", " + std::to_string(k.dimensions);
        // Kernels calling get_work_group_scratch_memory take where the local allocations are (local_layout) and
        // set up the block's table first; local accessors come bound (takes_local_layout).
        const std::string local_parameter = has_local ? ", ::encore::gpu::local_layout l" : "";
        const std::string enter_local = has_local ? "    ::encore::device_entry::enter_local_memory(l);\n" : "";
        if (k.has_reduction) {
            // The kernel object and its reductions (sycl/reduction.hpp's reduction_call), and the launch's
            // scratch (sycl/detail/device_reduction.hpp).
            std::ostringstream call_type;
            call_type << "::sycl::detail::reduction_call<" << type;
            for (clang::QualType r : k.reducers) {
                const auto* reducer = llvm::cast<clang::ClassTemplateSpecializationDecl>(r->getAsCXXRecordDecl());
                call_type << ", ::sycl::detail::device_reduction<"
                          << qualified(context, reducer->getTemplateArgs()[0].getAsType()) << ", "
                          << qualified(context, reducer->getTemplateArgs()[1].getAsType()) << ">";
            }
            call_type << ">";
            tail << "extern \"C\" __global__ void " << k.entry << "(" << call_type.str()
                 << " k, ::encore::gpu::geometry<" << std::max(k.dimensions, 1) << "> g" << local_parameter << ", void* scratch) {\n"
                 << enter_local << "    ::sycl::detail::run_reduction_kernel<" << launch << ">(k, g, scratch);\n"
                 << "}\n"
                 // The finishing launch (one block), after the kernel's.
                 << "extern \"C\" __global__ void " << k.entry << "_finish(" << call_type.str()
                 << " k, void* scratch, unsigned groups) {\n"
                 << "    ::sycl::detail::finish_reductions(k, scratch, groups);\n"
                 << "}\n";
        } else {
            // In SPIR-V, a kernel with local accessors also takes the work-group's local memory, and runs a copy of
            // its object with the accessors pointed there (compiler/device_entry.hpp); on CUDA the launch bound
            // them (offsets in the block's dynamic shared memory).
            std::string positions;
            for (const kernel_param& p : k.params)
                if (p.kind == param_kind::local_accessor)
                    positions += (positions.empty() ? "" : ", ") + std::to_string(p.offset) + "u";
            const std::string call = "    ::sycl::detail::call_kernel<" + launch + ">(";
            const std::string item = ", static_cast<const ::encore::work_item&>(item));\n";
            const std::string spir_local_parameter =
                positions.empty() ? ""
                                  : "\n#if defined(ENCORE_DEVICE_SPIR)\n"
                                    "    , ::encore::device_entry::local_block block\n"
                                    "#endif\n";
            tail << "extern \"C\" __global__ void " << k.entry << "(" << type
                 << " k, ::encore::gpu::geometry<" << std::max(k.dimensions, 1) << "> g" << local_parameter
                 << spir_local_parameter << ") {\n"
                 << enter_local << "    ::encore::work_item item;\n"
                 << "    if (!::encore::device_entry::make_work_item<" << std::max(k.dimensions, 1)
                 << ">(g, item)) return;\n";
            if (positions.empty())
                tail << call << "k" << item;
            else
                tail << "#if defined(ENCORE_DEVICE_SPIR)\n"
                     << "    const ::encore::device_entry::bound_object<" << type << "> bound(k, block, {" << positions
                     << "});\n"
                     << call << "bound.get()" << item << "#else\n"
                     << call << "k" << item << "#endif\n";
            tail << "}\n";
        }
        tail << "#endif\n";
    }

    locals.apply();
    moved_types = nullptr;
    const clang::FileID main = sources.getMainFileID();
    const std::string path = sources.getFileEntryForID(main)->tryGetRealPathName().str();
    rewriter.InsertTextBefore(sources.getLocForStartOfFile(main),
                              "#include <sycl/detail/host_device.hpp>\n#line 1 \"" + path + "\"\n");
    std::string text;
    llvm::raw_string_ostream out(text);
    rewriter.getEditBuffer(main).write(out);
    out << tail.str();
    return out.str();
}

std::vector<user_file> user_files(const clang::ASTContext& context, const clang::Rewriter& rewriter,
                                  const device_rules& rules) {
    const clang::SourceManager& sources = context.getSourceManager();
    std::vector<user_file> files;
    std::set<std::string> seen;
    for (auto it = sources.fileinfo_begin(); it != sources.fileinfo_end(); ++it) {
        const clang::FileEntry* entry = it->first;
        const clang::FileID id = sources.translateFile(entry);
        if (id.isInvalid() || id == sources.getMainFileID()) continue;
        const clang::SourceLocation start = sources.getLocForStartOfFile(id);
        if (rules.origin_of(start) != origin::user_header) continue;
        std::string path = entry->tryGetRealPathName().str();
        if (path.empty() || !seen.insert(path).second) continue;
        std::string text = "#line 1 \"" + path + "\"\n";
        if (const clang::RewriteBuffer* edited = rewriter.getRewriteBufferFor(id))
            text += std::string(edited->begin(), edited->end());
        else
            text += sources.getBufferData(id).str();
        files.push_back({std::move(path), std::move(text)});
    }
    return files;
}

} // namespace encore::outliner
