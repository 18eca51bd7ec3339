// narrow_witness_sources: the witness calls that may become 32-bit are those in functions only
// kernels with `index_bits = 32` reach; a function any 64-bit kernel reaches keeps its 64-bit
// witnesses, and so do templates and member functions.
#include "analysis/index_width.hpp"

#include "analysis_test_support.hpp"
#include "model/model_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace carbide;
using namespace carbide::testing;

const char* const kKernels = R"(
namespace k {
void only_narrow(carbide::disjoint_span<float> out) {
  if (float* e = out.get_mut(carbide::thread::index_1d())) *e = 1.f;
}
void both(carbide::disjoint_span<float> out) {
  if (float* e = out.get_mut(carbide::thread::index_1d())) *e = 2.f;
}
template <int N>
void templated(carbide::disjoint_span<float> out) {
  if (float* e = out.get_mut(carbide::thread::index_1d())) *e = float(N);
}
struct Writer {
  void write(carbide::disjoint_span<float> out) const {
    if (float* e = out.get_mut(carbide::thread::index_1d())) *e = 3.f;
  }
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1), index_bits = 32)
void narrow(carbide::disjoint_span<float> out, carbide::disjoint_span2d<float> grid) {
  if (float* e = grid.get_mut(carbide::thread::index_2d())) *e = 0.f;
  if (float* e = grid.get_mut(carbide::thread::index_2d_transposed())) *e = 0.f;
  only_narrow(out);
  both(out);
  templated<1>(out);
  Writer{}.write(out);
  (void)carbide::thread::local_index();
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void wide(carbide::disjoint_span<float> out) {
  if (float* e = out.get_mut(carbide::thread::index_1d())) *e = 0.f;
  both(out);
}
}
)";

struct Narrowed {
  std::unique_ptr<clang::ASTUnit> ast;
  model::Program program;
  std::vector<const clang::CallExpr*> sources;
  // How many of `function`'s calls of `source` are among the narrowed ones, and how many it has.
  std::pair<std::size_t, std::size_t> narrowed_in(const std::string& function, const std::string& source) {
    const clang::FunctionDecl* found = function_named(ast->getASTContext(), function);
    EXPECT_TRUE(found) << function;
    if (!found) return {0, 0};
    const auto calls = calls_of(found, source);
    const auto narrowed = std::count_if(calls.begin(), calls.end(), [&](const clang::CallExpr* call) {
      return std::find(sources.begin(), sources.end(), call) != sources.end();
    });
    return {std::size_t(narrowed), calls.size()};
  }
};

Narrowed narrowed_of(const std::string& code) {
  Narrowed result;
  result.ast = parse(code);
  EXPECT_TRUE(result.ast);
  result.program = model::build_program(result.ast->getASTContext());
  result.sources = analysis::narrow_witness_sources(result.ast->getASTContext(), result.program);
  return result;
}

using Count = std::pair<std::size_t, std::size_t>;

TEST(NarrowWitnessSources, OnlyWhereNo64BitKernelReaches) {
  Narrowed n = narrowed_of(kKernels);
  EXPECT_EQ(n.narrowed_in("narrow", "index_2d"), (Count{1, 1}));
  EXPECT_EQ(n.narrowed_in("narrow", "index_2d_transposed"), (Count{1, 1}));
  EXPECT_EQ(n.narrowed_in("narrow", "local_index"), (Count{0, 1}));  // already 32-bit
  EXPECT_EQ(n.narrowed_in("only_narrow", "index_1d"), (Count{1, 1}));
  EXPECT_EQ(n.narrowed_in("both", "index_1d"), (Count{0, 1}));
  EXPECT_EQ(n.narrowed_in("wide", "index_1d"), (Count{0, 1}));
  EXPECT_EQ(n.narrowed_in("templated", "index_1d"), (Count{0, 1}));
  EXPECT_EQ(n.narrowed_in("write", "index_1d"), (Count{0, 1}));
  EXPECT_EQ(n.sources.size(), 3u);
}

TEST(NarrowWitnessSources, NoneWithoutTheContractField) {
  std::string code = kKernels;
  code.replace(code.find(", index_bits = 32"), std::string(", index_bits = 32").size(), "");
  EXPECT_TRUE(narrowed_of(code).sources.empty());
}

}  // namespace
