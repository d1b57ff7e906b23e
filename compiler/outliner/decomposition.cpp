#include "decomposition.hpp"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecordLayout.h>

#include <map>

#include "gcc_captures.hpp"
#include "kernel_finder.hpp"

namespace encore::outliner {
namespace {

const clang::ClassTemplateSpecializationDecl* sycl_specialization(clang::QualType type,
                                                                  llvm::StringRef name) {
    const auto* spec =
        llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(type->getAsCXXRecordDecl());
    return spec && is_sycl_entity(spec->getSpecializedTemplate(), name) ? spec : nullptr;
}

class decomposer {
public:
    explicit decomposer(clang::ASTContext& context) : context_(context) {}

    // Whether a value of `type` holds an accessor or local accessor anywhere (memoized: types repeat).
    bool holds_accessor(clang::QualType type) {
        type = type.getCanonicalType().getUnqualifiedType();
        if (const auto* array = context_.getAsConstantArrayType(type))
            return holds_accessor(array->getElementType());
        const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
        if (!record || !record->hasDefinition()) return false;
        if (sycl_specialization(type, "accessor") || sycl_specialization(type, "local_accessor")) return true;
        auto [at, inserted] = holds_.emplace(record, false);
        if (!inserted) return at->second;
        bool holds = false;
        for (const clang::CXXBaseSpecifier& base : record->bases())
            holds = holds || holds_accessor(base.getType());
        for (const clang::FieldDecl* field : record->fields())
            holds = holds || holds_accessor(field->getType());
        holds_[record] = holds;
        return holds;
    }

    void flatten(clang::QualType type, std::uint64_t offset, const std::string& name,
                 std::vector<kernel_param>& out) {
        type = type.getCanonicalType().getUnqualifiedType();
        const std::uint64_t size = type->isReferenceType()
                                       ? context_.getTypeSizeInChars(context_.VoidPtrTy).getQuantity()
                                       : context_.getTypeSizeInChars(type).getQuantity();
        if (const auto* array = context_.getAsConstantArrayType(type); array && holds_accessor(type)) {
            const clang::QualType element = array->getElementType();
            const std::uint64_t step = context_.getTypeSizeInChars(element).getQuantity();
            for (std::uint64_t i = 0; i < array->getSize().getZExtValue(); ++i)
                flatten(element, offset + i * step, name + "[" + std::to_string(i) + "]", out);
            return;
        }
        if (const auto* accessor = sycl_specialization(type, "accessor")) {
            const clang::TemplateArgumentList& args = accessor->getTemplateArgs();
            kernel_param p{param_kind::accessor, offset, size, name};
            p.element_size = context_.getTypeSizeInChars(args.get(0).getAsType()).getQuantity();
            p.dimensions = static_cast<int>(args.get(1).getAsIntegral().getExtValue());
            p.access_mode = static_cast<int>(args.get(2).getAsIntegral().getExtValue());
            p.target = static_cast<int>(args.get(3).getAsIntegral().getExtValue());
            out.push_back(p);
            return;
        }
        if (const auto* local = sycl_specialization(type, "local_accessor")) {
            const clang::TemplateArgumentList& args = local->getTemplateArgs();
            kernel_param p{param_kind::local_accessor, offset, size, name};
            p.element_size = context_.getTypeSizeInChars(args.get(0).getAsType()).getQuantity();
            p.dimensions = static_cast<int>(args.get(1).getAsIntegral().getExtValue());
            out.push_back(p);
            return;
        }
        if (const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl(); record && holds_accessor(type)) {
            // A struct holding accessors: its members one by one, at the struct's offset plus theirs.
            const clang::ASTRecordLayout& layout = context_.getASTRecordLayout(record);
            for (const clang::CXXBaseSpecifier& base : record->bases()) {
                const clang::CXXRecordDecl* base_record = base.getType()->getAsCXXRecordDecl();
                flatten(base.getType(), offset + layout.getBaseClassOffset(base_record).getQuantity(),
                        name + "::" + base_record->getNameAsString(), out);
            }
            for (const clang::FieldDecl* field : record->fields())
                flatten(field->getType(), offset + layout.getFieldOffset(field->getFieldIndex()) / 8,
                        name + "." + field->getNameAsString(), out);
            return;
        }
        const bool pointer = type->isPointerType() || type->isReferenceType();
        out.push_back(
            kernel_param{pointer ? param_kind::pointer : param_kind::std_layout, offset, size, name});
    }

private:
    clang::ASTContext& context_;
    std::map<const clang::CXXRecordDecl*, bool> holds_;
};

} // namespace

void decompose(clang::ASTContext& context, kernel_info& kernel) {
    if (kernel.free_function) return; // its parameters are the function's (kernel_finder.cpp)
    const clang::CXXRecordDecl* record = kernel.type;
    const clang::ASTRecordLayout& layout = context.getASTRecordLayout(record);
    std::map<const clang::FieldDecl*, std::string> capture_names;
    if (record->isLambda()) {
        llvm::DenseMap<const clang::VarDecl*, clang::FieldDecl*> captures;
        clang::FieldDecl* this_capture = nullptr;
        record->getCaptureFields(captures, this_capture);
        for (const auto& [var, field] : captures)
            capture_names[field] = var->getNameAsString();
        if (this_capture) capture_names[this_capture] = "this";
    }
    decomposer d(context);
    if (const gcc_layout g = gcc_captures(context, kernel); !g.slots.empty()) {
        for (const gcc_layout::slot& s : g.slots) {
            if (s.field) {
                kernel.fields.push_back({capture_names[s.field], s.field});
                d.flatten(s.field->getType(), s.offset, capture_names[s.field], kernel.params);
            } else {
                const clang::QualType type = s.extra->getType();
                kernel_field f{s.extra->getNameAsString(), nullptr, s.extra};
                f.size = static_cast<std::uint64_t>(context.getTypeSizeInChars(type).getQuantity());
                f.align = static_cast<std::uint64_t>(context.getTypeAlignInChars(type).getQuantity());
                kernel.fields.push_back(f);
                kernel.params.push_back({param_kind::std_layout, s.offset, f.size, f.name});
            }
        }
        kernel.size = g.size;
        kernel.align = g.align;
        return;
    }
    for (const clang::CXXBaseSpecifier& base : record->bases()) {
        const clang::CXXRecordDecl* base_record = base.getType()->getAsCXXRecordDecl();
        d.flatten(base.getType(), layout.getBaseClassOffset(base_record).getQuantity(),
                  base_record->getNameAsString(), kernel.params);
    }
    for (const clang::FieldDecl* field : record->fields()) {
        auto captured = capture_names.find(field);
        std::string name = captured != capture_names.end() ? captured->second : field->getNameAsString();
        kernel.fields.push_back({name, field});
        d.flatten(field->getType(), layout.getFieldOffset(field->getFieldIndex()) / 8, name, kernel.params);
    }
}

} // namespace encore::outliner
