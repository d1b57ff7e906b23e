// encore::detail::built_program — a source_program (backends/source_program.hpp) over a backend's own program
// type: what the OpenCL and GPU backends' build_program return. `Program` answers has_kernel(name) and
// build_log(); `GetKernel` takes its kernels by name (throwing invalid_argument for an unknown one).
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "encore/backends/source_program.hpp"

namespace encore::detail {

template <typename Program,
          std::shared_ptr<const kernel> (*GetKernel)(std::shared_ptr<const Program>, std::string)>
class built_program final : public source_program {
public:
    explicit built_program(std::shared_ptr<const Program> p) : program_(std::move(p)) {}
    bool has_kernel(const std::string& name) const override { return program_->has_kernel(name); }
    std::shared_ptr<const kernel> get_kernel(const std::string& name) const override {
        return GetKernel(program_, name);
    }
    const std::string& build_log() const noexcept override { return program_->build_log(); }

private:
    std::shared_ptr<const Program> program_;
};

} // namespace encore::detail
