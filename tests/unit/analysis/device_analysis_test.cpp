// DeviceAnalysis: the facts about a file's device code that several rules share: its
// CARBIDE_UNSAFE blocks, where each raw pointer came from, the device functions' definitions and
// the block shapes each runs in, with the per-shape analyses built once.
#include "analysis/device_analysis.hpp"

#include "analysis_test_support.hpp"
#include "model/model_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace carbide;
using namespace carbide::testing;
using analysis::BlockShape;
using analysis::PointerOrigin;

// The analysis holds the program by reference: both live here, and this does not move.
struct Analysed {
  explicit Analysed(const std::string& code) : ast(parse(code)) {
    EXPECT_TRUE(ast);
    EXPECT_FALSE(ast->getDiagnostics().hasErrorOccurred());
    program = model::build_program(ast->getASTContext());
    device = std::make_unique<analysis::DeviceAnalysis>(ast->getASTContext(), program);
  }
  Analysed(const Analysed&) = delete;
  Analysed& operator=(const Analysed&) = delete;

  const clang::FunctionDecl* function(const std::string& name) const {
    const clang::FunctionDecl* found = function_named(ast->getASTContext(), name);
    EXPECT_TRUE(found) << name;
    return found;
  }
  const clang::Expr* expr(const std::string& function_name, const std::string& spelled) const {
    const clang::Expr* found = expr_spelled(ast->getASTContext(), function(function_name), spelled);
    EXPECT_TRUE(found) << spelled;
    return found;
  }
  // Where the pointer spelled `spelled` in `function_name` came from.
  PointerOrigin origin(const std::string& function_name, const std::string& spelled) const {
    const clang::Expr* pointer = expr(function_name, spelled);
    return pointer ? device->provenance(pointer).origin : PointerOrigin::Unknown;
  }

  std::unique_ptr<clang::ASTUnit> ast;
  model::Program program;
  std::unique_ptr<analysis::DeviceAnalysis> device;
};

std::string kernel(const std::string& name, const std::string& block, const std::string& body,
                   const std::string& domain = "1") {
  return "CARBIDE_KERNEL\nCARBIDE_LAUNCH_CONTRACT(domain = " + domain + ", block = " + block + ")\n"
         "void " + name + "(carbide::span<const float> in, carbide::disjoint_span<float> out,\n"
         "    carbide::disjoint_span<float> other, unsigned n) {\n"
         "  auto idx = carbide::thread::index_1d();\n" + body + "\n}\n";
}

std::string in_namespace(const std::string& code) { return "namespace k {\n" + code + "}\n"; }

const std::string kPointers = in_namespace(
    "struct Pair { float a; float b; };\n"
    "void write_through(float* raw) { *raw = 1.f; }\n" +
    kernel("pointers", "(256, 1, 1)",
           "float a = 0.f, b = 0.f; Pair pair{0.f, 0.f}; float cells[4] = {};\n"
           "float* element = out.get_mut(idx);\n"
           "float* copied = element;\n"
           "float* moved = element + 1;\n"
           "float* own_a = &a;\n"
           "float* own_member = &pair.b;\n"
           "float* own_cell = &cells[2];\n"
           "float* decayed = cells;\n"
           "unsigned* own_parameter = &n;\n"
           "float* either_local = n > 2 ? &a : &b;\n"
           "float* reassigned = &a; if (n > 4) reassigned = &b;\n"
           "float* set_later = nullptr; if (n > 3) set_later = out.get_mut(idx);\n"
           "float* either_view = n > 2 ? out.get_mut(idx) : other.get_mut(idx);\n"
           "float* mixed = n > 2 ? &a : element;\n"
           "float* moved_local = cells + 1;\n"
           "const float* from_data = in.data();\n"
           "float* through_pointer = &*own_a;\n"
           "write_through(&a);\n"
           "(void)copied; (void)moved; (void)own_member; (void)own_cell; (void)decayed; (void)own_parameter;\n"
           "(void)either_local; (void)reassigned; (void)set_later; (void)either_view; (void)mixed;\n"
           "(void)moved_local; (void)from_data; (void)through_pointer;"));

TEST(DeviceAnalysis, GetMutGivesTheViewElementThroughCopies) {
  const Analysed a(kPointers);
  const auto* call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(a.expr("pointers", "out.get_mut(idx)"));
  ASSERT_TRUE(call);
  for (const char* pointer : {"element", "copied"}) {
    const auto provenance = a.device->provenance(a.expr("pointers", pointer));
    EXPECT_EQ(provenance.origin, PointerOrigin::ViewElement) << pointer;
    EXPECT_EQ(provenance.get_mut, call) << pointer;
  }
}

// carbide-disjoint-foreign-write reports the move itself, so a use of the moved pointer must say
// where it was moved from rather than count as an unknown pointer.
TEST(DeviceAnalysis, ArithmeticOnAViewElementDisplacesIt) {
  const Analysed a(kPointers);
  const auto provenance = a.device->provenance(a.expr("pointers", "moved"));
  EXPECT_EQ(provenance.origin, PointerOrigin::DisplacedViewElement);
  EXPECT_EQ(provenance.get_mut, a.device->provenance(a.expr("pointers", "element")).get_mut);
  EXPECT_EQ(a.origin("pointers", "element + 1"), PointerOrigin::DisplacedViewElement);
  // Moving within (or out of) local storage is not a view's business: unknown.
  EXPECT_EQ(a.origin("pointers", "moved_local"), PointerOrigin::Unknown);
}

TEST(DeviceAnalysis, AddressesOfThisThreadsStorageAreLocal) {
  const Analysed a(kPointers);
  for (const char* pointer : {"own_a", "own_member", "own_cell", "decayed", "own_parameter", "&a"})
    EXPECT_EQ(a.origin("pointers", pointer), PointerOrigin::Local) << pointer;
}

// Every value a pointer is given counts: two of one origin keep it (a null pointer adds none),
// two different ones make it unknown.
TEST(DeviceAnalysis, EveryValueAPointerIsGivenMustAgree) {
  const Analysed a(kPointers);
  EXPECT_EQ(a.origin("pointers", "either_local"), PointerOrigin::Local);
  EXPECT_EQ(a.origin("pointers", "reassigned"), PointerOrigin::Local);
  EXPECT_EQ(a.origin("pointers", "set_later"), PointerOrigin::ViewElement);
  EXPECT_EQ(a.origin("pointers", "either_view"), PointerOrigin::ViewElement);  // one element of each
  EXPECT_EQ(a.origin("pointers", "mixed"), PointerOrigin::Unknown);
}

TEST(DeviceAnalysis, PointersFromElsewhereAreUnknown) {
  const Analysed a(kPointers);
  EXPECT_EQ(a.origin("pointers", "from_data"), PointerOrigin::Unknown);
  EXPECT_EQ(a.origin("pointers", "through_pointer"), PointerOrigin::Unknown);
  // A helper's pointer parameter is whatever its callers pass, whatever this caller passes.
  EXPECT_EQ(a.origin("write_through", "raw"), PointerOrigin::Unknown);
}

TEST(DeviceAnalysis, UnsafeBlocksAreFoundWithTheirReasons) {
  const Analysed a(in_namespace(kernel("guarded", "256",
                                       "float value = 0.f;\n"
                                       "CARBIDE_UNSAFE(\"in holds two values per thread\") {\n"
                                       "  const float* raw = in.data();\n  value = raw[2 * idx.get()];\n}\n"
                                       "CARBIDE_UNSAFE(\"\") { value += 1.f; }\n"
                                       "if (float* o = out.get_mut(idx)) *o = value;")));
  const auto& blocks = a.device->unsafe_blocks();
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].reason, "in holds two values per thread");
  EXPECT_EQ(blocks[1].reason, "");
  for (const auto& block : blocks) EXPECT_EQ(block.function, a.function("guarded"));
  EXPECT_TRUE(a.device->in_unsafe_block(a.expr("guarded", "raw[2 * idx.get()]")));
  EXPECT_TRUE(a.device->in_unsafe_block(a.expr("guarded", "value += 1.f")));
  EXPECT_FALSE(a.device->in_unsafe_block(a.expr("guarded", "*o = value")));
}

// A template is analysed in each instance, but its one block is one block.
TEST(DeviceAnalysis, ATemplatesInstancesShareItsUnsafeBlock) {
  const Analysed a(in_namespace("template <int N> float scaled(const float* raw) {\n"
                                "  float value = 0.f;\n"
                                "  CARBIDE_UNSAFE(\"raw holds N values\") { value = raw[N - 1]; }\n"
                                "  return value;\n}\n" +
                                kernel("twice", "256",
                                       "const float* raw = nullptr;\n"
                                       "CARBIDE_UNSAFE(\"in is not empty\") { raw = in.data(); }\n"
                                       "if (float* o = out.get_mut(idx)) *o = scaled<1>(raw) + scaled<2>(raw);")));
  const auto& definitions = a.device->definitions();
  const auto instances = std::count_if(definitions.begin(), definitions.end(), [](const clang::FunctionDecl* f) {
    return f->getName() == "scaled" && f->isTemplateInstantiation();
  });
  EXPECT_EQ(instances, 2);
  EXPECT_TRUE(std::none_of(definitions.begin(), definitions.end(), [](const clang::FunctionDecl* f) {
    return f->getName() == "scaled" && f->isDependentContext();
  }));
  const auto& blocks = a.device->unsafe_blocks();
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].reason, "raw holds N values");
  EXPECT_EQ(blocks[1].reason, "in is not empty");
}

const BlockShape k256{{256, 1, 1}};
const BlockShape k32x8{{32, 8, 1}};

const std::string kTwoKernels = in_namespace(
    "void deeper(float* e) { *e += 1.f; }\n"
    "void shared_helper(float* e) { deeper(e); }\n"
    "void only_wide(float* e) { *e = 0.f; }\n"
    "void called_by_no_kernel(float* e) { *e = 2.f; }\n" +
    kernel("wide", "(256, 1, 1)", "if (float* e = out.get_mut(idx)) { shared_helper(e); only_wide(e); }") +
    kernel("tall", "(32, 8, 1)", "if (float* e = out.get_mut(idx)) shared_helper(e);", "2"));

std::vector<BlockShape> shapes(const Analysed& a, const std::string& function) {
  return a.device->calling_shapes(a.function(function));
}

// A helper is analysed once per block shape its kernels run in, through any depth of helpers.
TEST(DeviceAnalysis, HelpersRunInTheBlocksOfTheKernelsThatReachThem) {
  const Analysed a(kTwoKernels);
  EXPECT_EQ(shapes(a, "wide"), std::vector<BlockShape>{k256});
  EXPECT_EQ(shapes(a, "tall"), std::vector<BlockShape>{k32x8});
  EXPECT_EQ(shapes(a, "shared_helper"), (std::vector<BlockShape>{k256, k32x8}));
  EXPECT_EQ(shapes(a, "deeper"), (std::vector<BlockShape>{k256, k32x8}));
  EXPECT_EQ(shapes(a, "only_wide"), std::vector<BlockShape>{k256});
  // Reached by no kernel: one shape, unknown, so that it is still analysed.
  const auto unreached = shapes(a, "called_by_no_kernel");
  ASSERT_EQ(unreached.size(), 1u);
  EXPECT_FALSE(unreached[0].known());
}

// A chain of helpers 40 calls deep: the last still runs in the kernel's block. Were it given no
// shape, it would be analysed in none, and a race in it would go unreported.
TEST(DeviceAnalysis, AHelperFarBelowItsKernelRunsInItsBlock) {
  constexpr int kDepth = 40;
  std::string helpers = "void h" + std::to_string(kDepth) + "(float* e) { *e = 1.f; }\n";
  for (int level = kDepth - 1; level >= 0; --level)
    helpers += "void h" + std::to_string(level) + "(float* e) { h" + std::to_string(level + 1) + "(e); }\n";
  const Analysed a(in_namespace(helpers + kernel("deep", "(256, 1, 1)", "if (float* e = out.get_mut(idx)) h0(e);")));
  EXPECT_EQ(shapes(a, "h" + std::to_string(kDepth)), std::vector<BlockShape>{k256});
}

TEST(DeviceAnalysis, PerShapeAnalysesAreBuiltOnce) {
  const Analysed a(kTwoKernels);
  const clang::FunctionDecl* helper = a.function("shared_helper");
  const analysis::ThreadValues& wide = a.device->thread_values(helper, k256);
  EXPECT_EQ(&wide, &a.device->thread_values(helper, k256));
  EXPECT_TRUE(wide.shape() == k256);
  const analysis::ThreadValues& tall = a.device->thread_values(helper, k32x8);
  EXPECT_NE(&wide, &tall);
  EXPECT_TRUE(tall.shape() == k32x8);
  EXPECT_EQ(&a.device->barrier_phases(helper, k256), &a.device->barrier_phases(helper, k256));
  EXPECT_NE(&a.device->barrier_phases(helper, k256), &a.device->barrier_phases(helper, k32x8));
}

TEST(DeviceAnalysis, DefinitionsAreTheDeviceFunctionsOnly) {
  const Analysed a(kTwoKernels);
  const auto& definitions = a.device->definitions();
  for (const char* name : {"deeper", "shared_helper", "only_wide", "wide", "tall"})
    EXPECT_NE(std::find(definitions.begin(), definitions.end(), a.function(name)), definitions.end()) << name;
  EXPECT_EQ(std::find(definitions.begin(), definitions.end(), a.function("called_by_no_kernel")), definitions.end());
}

}  // namespace
