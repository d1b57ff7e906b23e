#include "gcc_captures.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>
#include <set>

#include "local_types.hpp"

namespace encore::outliner {
namespace {

// Whether a lambda between the kernel's closure and `v`'s function captures by reference: the path by which
// g++ turns the constant into a capture.
bool reached_by_reference(const clang::CXXRecordDecl* closure, const clang::VarDecl* v) {
    for (const clang::DeclContext* c = closure->getDeclContext(); c && c != v->getDeclContext(); c = c->getParent()) {
        const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(c);
        if (!method || !method->getParent()->isLambda()) continue;
        const clang::CXXRecordDecl* outer = method->getParent();
        if (outer->getLambdaCaptureDefault() == clang::LCD_ByRef) return true;
        for (const clang::LambdaCapture& capture : outer->captures())
            if (capture.capturesVariable() && capture.getCapturedVar() == v && capture.getCaptureKind() == clang::LCK_ByRef)
                return true;
    }
    return false;
}

// The variables the body names, in order of first use: the captured ones and the constants g++ captures too.
class first_uses : public clang::RecursiveASTVisitor<first_uses> {
public:
    first_uses(const clang::CXXRecordDecl* closure, const clang::FunctionDecl* op,
               const std::set<const clang::VarDecl*>& captured)
        : closure_(closure), op_(op), captured_(captured) {}

    bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
        const auto* v = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
        if (!v || !v->isLocalVarDeclOrParm() || within(v->getDeclContext(), op_) || !seen_.insert(v).second)
            return true;
        if (captured_.count(v)) {
            order.push_back(v);
        } else if (ref->isNonOdrUse() && reached_by_reference(closure_, v) && !v->getType()->isReferenceType()) {
            order.push_back(v);
            extras.insert(v);
        }
        return true;
    }
    // Lambdas inside the kernel capture from the kernel's captures: their uses count where they are.
    std::vector<const clang::VarDecl*> order;
    std::set<const clang::VarDecl*> extras;

private:
    const clang::CXXRecordDecl* closure_;
    const clang::FunctionDecl* op_;
    const std::set<const clang::VarDecl*>& captured_;
    std::set<const clang::VarDecl*> seen_;
};

} // namespace

gcc_layout gcc_captures(clang::ASTContext& context, const kernel_info& kernel) {
    const clang::CXXRecordDecl* closure = kernel.type;
    if (!kernel.is_lambda || kernel.operators.empty() || closure->getLambdaCaptureDefault() != clang::LCD_ByCopy)
        return {};
    llvm::DenseMap<const clang::VarDecl*, clang::FieldDecl*> fields;
    clang::FieldDecl* this_field = nullptr;
    closure->getCaptureFields(fields, this_field);
    if (this_field) return {};
    std::set<const clang::VarDecl*> captured;
    for (const auto& [v, f] : fields)
        captured.insert(v);

    const clang::FunctionDecl* op = kernel.operators.front();
    const clang::FunctionDecl* pattern = op->getTemplateInstantiationPattern();
    first_uses uses(closure, pattern ? pattern : op, captured);
    uses.TraverseStmt((pattern ? pattern : op)->getBody());
    if (uses.extras.empty()) return {};
    // Clang's fields must be in the order of first use too (both compilers order captures so); otherwise the
    // layout is not known, and the runtime's size check keeps the kernel host-only.
    std::vector<const clang::VarDecl*> clang_order;
    for (const clang::FieldDecl* f : closure->fields())
        for (const auto& [v, field] : fields)
            if (field == f) clang_order.push_back(v);
    std::vector<const clang::VarDecl*> without_extras;
    for (const clang::VarDecl* v : uses.order)
        if (!uses.extras.count(v)) without_extras.push_back(v);
    if (without_extras != clang_order) return {};

    gcc_layout layout;
    std::uint64_t at = 0;
    for (const clang::VarDecl* v : uses.order) {
        gcc_layout::slot s;
        clang::QualType type = v->getType();
        if (uses.extras.count(v))
            s.extra = v;
        else {
            s.field = fields.lookup(v);
            type = s.field->getType();
        }
        const std::uint64_t size = context.getTypeSizeInChars(type).getQuantity();
        const std::uint64_t align = context.getTypeAlignInChars(type).getQuantity();
        at = (at + align - 1) / align * align;
        s.offset = at;
        at += size;
        layout.align = std::max(layout.align, align);
        layout.slots.push_back(s);
    }
    layout.size = std::max<std::uint64_t>(1, (at + layout.align - 1) / layout.align * layout.align);
    return layout;
}

} // namespace encore::outliner
