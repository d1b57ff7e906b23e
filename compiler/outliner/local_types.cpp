#include "local_types.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace encore::outliner {

const clang::FunctionDecl* local_to(const clang::Decl* decl) {
    return llvm::dyn_cast_or_null<clang::FunctionDecl>(decl->getParentFunctionOrMethod());
}

bool within(const clang::DeclContext* context, const clang::DeclContext* outer) {
    for (; context; context = context->getParent())
        if (context == outer) return true;
    return false;
}

namespace {

// The first thing of `function`'s that `record`'s definition names (a local variable, type or alias declared
// outside it), or null.
class local_reference_finder : public clang::RecursiveASTVisitor<local_reference_finder> {
public:
    explicit local_reference_finder(const clang::CXXRecordDecl* record) : record_(record) {}
    const clang::NamedDecl* found = nullptr;

    bool VisitDeclRefExpr(clang::DeclRefExpr* ref) { return check(ref->getDecl()); }
    bool VisitTagTypeLoc(clang::TagTypeLoc loc) { return check(loc.getDecl()); }
    bool VisitTypedefTypeLoc(clang::TypedefTypeLoc loc) { return check(loc.getTypedefNameDecl()); }

private:
    bool check(const clang::NamedDecl* decl) {
        if (!decl || found) return !found;
        const auto* context = llvm::dyn_cast<clang::DeclContext>(record_);
        if (local_to(decl) && !within(decl->getDeclContext(), context) && decl != record_) found = decl;
        return !found;
    }
    const clang::CXXRecordDecl* record_;
};

} // namespace

std::string local_types::why_not(const clang::CXXRecordDecl* record) const {
    const clang::SourceManager& sources = context_.getSourceManager();
    const clang::FunctionDecl* function = local_to(record);
    if (!record->getIdentifier()) return "it has no name";
    bool in_template = function->isTemplated() || record->isDependentContext();
    for (const clang::DeclContext* c = record->getDeclContext(); c && !in_template; c = c->getParent()) {
        const auto* f = llvm::dyn_cast<clang::FunctionDecl>(c);
        const auto* r = llvm::dyn_cast<clang::CXXRecordDecl>(c);
        in_template = (f && f->getTemplateInstantiationPattern()) || (r && r->getTemplateInstantiationPattern());
    }
    if (in_template) return "it is declared in a template (its definition depends on the template's parameters)";
    const clang::SourceRange range = record->getSourceRange();
    if (range.getBegin().isMacroID() || range.getEnd().isMacroID()) return "a macro writes its definition";
    if (!rules_.editable(range.getBegin())) return "it is declared in a system or library header";
    const llvm::Optional<clang::Token> next =
        clang::Lexer::findNextToken(range.getEnd(), sources, context_.getLangOpts());
    if (!next || !next->is(clang::tok::semi))
        return "it is declared together with a variable (declare the type alone: `struct name {...};`)";
    local_reference_finder finder(record);
    finder.TraverseDecl(const_cast<clang::CXXRecordDecl*>(record));
    if (finder.found)
        return "its definition uses '" + finder.found->getNameAsString() + "', another entity of function '" +
               function->getQualifiedNameAsString() + "'";
    return "";
}

std::string local_types::name_of(const clang::CXXRecordDecl* record, std::string& why) {
    if (const clang::CXXRecordDecl* definition = record->getDefinition()) record = definition;
    if (auto known = names_.find(record); known != names_.end()) return known->second;
    why = why_not(record);
    if (!why.empty()) return "";
    const clang::Decl* top = record;
    while (!top->getLexicalDeclContext()->isFileContext())
        top = llvm::cast<clang::Decl>(top->getLexicalDeclContext());
    std::string prefix = "::";
    std::vector<std::string> spaces;
    for (const clang::DeclContext* c = top->getLexicalDeclContext(); c && !c->isTranslationUnit(); c = c->getParent())
        if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(c); ns && !ns->isAnonymousNamespace())
            spaces.insert(spaces.begin(), ns->getName().str());
    for (const std::string& s : spaces)
        prefix += s + "::";
    const std::string space = "__encore_local_" + std::to_string(moves_.size());
    moves_.push_back({record, top, space});
    return names_[record] = prefix + space + "::" + record->getName().str();
}

void local_types::apply() {
    const clang::SourceManager& sources = context_.getSourceManager();
    for (const moved& m : moves_) {
        const clang::SourceRange range = m.record->getSourceRange();
        const std::string definition = rewriter_.getRewrittenText(range);
        const clang::SourceLocation at = sources.getExpansionRange(m.top->getBeginLoc()).getBegin();
        const clang::PresumedLoc from = sources.getPresumedLoc(range.getBegin());
        const clang::PresumedLoc back = sources.getPresumedLoc(at);
        // On lines of its own (`at` may be mid-line); #line keeps nvcc's messages on the user's lines.
        std::string text = "\nnamespace " + m.space + " {\n";
        if (from.isValid()) text += "#line " + std::to_string(from.getLine()) + " \"" + from.getFilename() + "\"\n";
        text += definition + ";\n}\n";
        if (back.isValid()) text += "#line " + std::to_string(back.getLine()) + " \"" + back.getFilename() + "\"\n";
        rewriter_.InsertTextBefore(at, text);
        rewriter_.ReplaceText(range, "using " + m.record->getName().str() + " = " + names_.at(m.record));
    }
}

} // namespace encore::outliner
