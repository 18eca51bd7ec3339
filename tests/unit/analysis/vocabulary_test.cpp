// The catalogue and the headers agree: every free function the device headers declare in the
// catalogued namespaces is known to the catalogue, and every catalogue entry exists. A function
// added to warp.hpp without an entry (as shfl_up and inclusive_scan_add once were) fails here
// instead of slipping past carbide-divergent-barrier.
#include "model/vocabulary.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

namespace vocabulary = carbide::model::vocabulary;
using namespace carbide::testing;

std::set<std::string> declared_device_functions(clang::ASTContext& context) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::set<std::string> found;
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitFunctionDecl(clang::FunctionDecl* function) {
      if (llvm::isa<clang::CXXMethodDecl>(function)) return true;
      const auto* space = llvm::dyn_cast<clang::NamespaceDecl>(function->getDeclContext());
      if (space == nullptr) return true;
      const std::string where = space->getQualifiedNameAsString();
      for (llvm::StringRef catalogued : vocabulary::catalogued_namespaces())
        if (where == catalogued) found.insert(function->getQualifiedNameAsString());
      return true;
    }
  } finder;
  finder.TraverseDecl(context.getTranslationUnitDecl());
  return finder.found;
}

TEST(Vocabulary, EveryDeviceFunctionOfTheHeadersIsCatalogued) {
  auto ast = parse("");
  ASSERT_TRUE(ast);
  const auto declared = declared_device_functions(ast->getASTContext());
  ASSERT_FALSE(declared.empty());
  std::set<std::string> catalogued;
  for (const vocabulary::DeviceFunction& entry : vocabulary::device_functions())
    catalogued.insert(entry.name.str());
  for (const std::string& name : declared)
    EXPECT_TRUE(catalogued.count(name)) << name << " is declared by a device header but missing from "
                                        << "translator/model/vocabulary.cpp";
  for (const std::string& name : catalogued)
    EXPECT_TRUE(declared.count(name)) << name << " is catalogued but no device header declares it";
}

TEST(Vocabulary, EveryWarpFunctionNeedsTheWholeWarp) {
  auto ast = parse(
      "void f(float v, bool p) {\n"
      "  carbide::warp::shfl_up(v, 1u); carbide::warp::inclusive_scan_add(v);\n"
      "  carbide::warp::shfl_down(v, 1u); carbide::warp::shfl_xor(v, 1u);\n"
      "  carbide::warp::reduce_add(v); carbide::warp::ballot(p); carbide::warp::any(p);\n"
      "  carbide::warp::all(p); carbide::block::sync();\n}\n");
  ASSERT_TRUE(ast);
  const clang::FunctionDecl* f = function_named(ast->getASTContext(), "f");
  int warp = 0, block = 0;
  for (const char* name : {"shfl_up", "inclusive_scan_add", "shfl_down", "shfl_xor", "reduce_add",
                           "ballot", "any", "all", "sync"})
    for (const clang::CallExpr* call : calls_of(f, name)) {
      const auto arrival = vocabulary::required_arrival(call);
      ASSERT_TRUE(arrival) << name;
      (*arrival == vocabulary::Arrival::Warp ? warp : block) += 1;
    }
  EXPECT_EQ(warp, 8);
  EXPECT_EQ(block, 1);
}

TEST(Vocabulary, WitnessesAndViews) {
  auto ast = parse(
      "void f(carbide::span<const float> a, carbide::disjoint_span<float> b,\n"
      "       carbide::disjoint_span2d<float> c, carbide::atomic_span<int> d) {\n"
      "  auto idx = carbide::thread::index_1d(); auto lane = carbide::thread::lane();\n"
      "  (void)idx.get(); (void)lane.get();\n}\n");
  ASSERT_TRUE(ast);
  const clang::FunctionDecl* f = function_named(ast->getASTContext(), "f");
  const vocabulary::View expected[] = {vocabulary::View::Read, vocabulary::View::Exclusive,
                                       vocabulary::View::Exclusive2D, vocabulary::View::Atomic};
  for (unsigned i = 0; i < 4; ++i)
    EXPECT_EQ(vocabulary::view_kind(f->getParamDecl(i)->getType()->getAsCXXRecordDecl()), expected[i]);
  const auto gets = calls_of(f, "get");
  ASSERT_EQ(gets.size(), 2u);
  EXPECT_TRUE(vocabulary::is_witness_read(gets[0], vocabulary::Witness::Global1D));
  EXPECT_TRUE(vocabulary::is_witness_read(gets[1], vocabulary::Witness::Lane));
  EXPECT_FALSE(vocabulary::is_witness_read(gets[1], vocabulary::Witness::Local));
  EXPECT_EQ(vocabulary::witness_made_by(calls_of(f, "index_1d").front()), vocabulary::Witness::Global1D);
}

// Halo witnesses are global witnesses of their dimension, and their blocks overlap by the halo,
// which index_2d()'s do not.
TEST(Vocabulary, HaloWitnesses) {
  auto ast = parse(
      "void f() {\n"
      "  auto one = carbide::thread::index_1d_halo<3>(); auto two = carbide::thread::index_2d_halo<1>();\n"
      "  auto plain = carbide::thread::index_2d();\n"
      "  (void)one.get(); (void)two.row();\n}\n");
  ASSERT_TRUE(ast);
  const clang::FunctionDecl* f = function_named(ast->getASTContext(), "f");
  const clang::CallExpr* one = calls_of(f, "index_1d_halo").front();
  const clang::CallExpr* two = calls_of(f, "index_2d_halo").front();
  const clang::CallExpr* plain = calls_of(f, "index_2d").front();
  EXPECT_EQ(vocabulary::witness_made_by(one), vocabulary::Witness::Global1D);
  EXPECT_EQ(vocabulary::witness_made_by(two), vocabulary::Witness::Global2D);
  EXPECT_EQ(vocabulary::halo_radius(one->getType()->getAsCXXRecordDecl()), 3u);
  EXPECT_EQ(vocabulary::halo_radius(two->getType()->getAsCXXRecordDecl()), 1u);
  EXPECT_FALSE(vocabulary::halo_radius(plain->getType()->getAsCXXRecordDecl()));
  EXPECT_TRUE(vocabulary::is_witness_read(calls_of(f, "get").front(), vocabulary::Witness::Global1D));
  EXPECT_TRUE(vocabulary::is_witness_read(calls_of(f, "row").front(), vocabulary::Witness::Global2D));
}

}  // namespace
