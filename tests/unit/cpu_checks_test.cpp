// The run-time checks of a CPU launch (DESIGN §11): each planted bug fails its launch with a
// KernelError that names the kernel, the lines, the threads and the memory, and the context goes
// on: the buffers stay valid and the next launch runs.
#include "cpu_test_support.hpp"

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <chrono>

namespace {

using namespace cpu_tests;
using testing::HasSubstr;

std::string at_line(unsigned line) { return kernels_file() + ":" + std::to_string(line); }

class CpuChecks : public testing::Test {
 protected:
  // Runs `failing` (a launch that must fail with a KernelError), then a vecadd on the same
  // context, whose results show the context still works, and gives the failure back.
  template <class Launch>
  carbide::KernelError failure_of(Launch failing) {
    std::optional<carbide::KernelError> caught;
    try {
      failing();
      ADD_FAILURE() << "the launch succeeded";
    } catch (const carbide::KernelError& error) {
      caught = error;
    }
    vecadd_still_runs();
    return caught.value_or(carbide::KernelError(carbide::KernelError::Kind::Timeout, "none", "none"));
  }

  void vecadd_still_runs() {
    const std::size_t n = 1000;
    std::vector<float> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = float(i), b[i] = float(2 * i);
    auto a_dev = carbide::DeviceBuffer<float>::from_host(stream_, a);
    auto b_dev = carbide::DeviceBuffer<float>::from_host(stream_, b);
    auto c_dev = carbide::DeviceBuffer<float>::zeroed(stream_, n);
    launch(module_, kVecadd, stream_, carbide::LaunchConfig1D(4, 256), carbide::detail::read_view(a_dev),
           carbide::detail::read_view(b_dev), carbide::detail::exclusive_view(c_dev));
    const auto c = c_dev.to_host_vec(stream_);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], float(3 * i)) << "the launch after the failed one, element " << i;
  }

  ScopedEnvironment checks_{"CARBIDE_CPU_CHECKS", std::nullopt};  // on, the default
  carbide::Context ctx_ = carbide::Context::create_cpu();
  carbide::Stream stream_ = ctx_.create_stream();
  carbide::detail::LoadedModule module_ = load(ctx_);
};

TEST_F(CpuChecks, SharedRaceNamesBothThreadsLinesAndTheSlot) {
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, 64);
  const auto error = failure_of([&] {
    launch(module_, kSharedRace, stream_, carbide::LaunchConfig1D(1, 64), carbide::detail::exclusive_view(out));
  });
  EXPECT_EQ(error.kind(), carbide::KernelError::Kind::DataRace);
  EXPECT_EQ(error.kernel(), "cpu_kernels::shared_race");
  EXPECT_EQ(error.location(), "slots[1]");
  // Thread 0 reads slot 1 before thread 1 writes it: the write finds the read.
  EXPECT_THAT(error.what(), HasSubstr("kernel cpu_kernels::shared_race: data race on slots[1]: block (0,0,0) thread "
                                      "(1,0,0) writes it at "));
  EXPECT_THAT(error.what(), HasSubstr(at_line(cpu_kernels::kSharedRaceWriteLine) +
                                      ", and thread (0,0,0) of the same block read it at "));
  EXPECT_THAT(error.what(), HasSubstr(at_line(cpu_kernels::kSharedRaceReadLine) +
                                      ", with no carbide::block::sync() between them"));
  ASSERT_EQ(error.accesses().size(), 2u);
  EXPECT_EQ(error.accesses()[0].thread, (std::array<unsigned, 3>{0, 0, 0}));
  EXPECT_EQ(error.accesses()[0].kind, carbide::KernelError::AccessKind::Read);
  EXPECT_EQ(error.accesses()[0].line, cpu_kernels::kSharedRaceReadLine);
  EXPECT_EQ(error.accesses()[1].thread, (std::array<unsigned, 3>{1, 0, 0}));
  EXPECT_EQ(error.accesses()[1].kind, carbide::KernelError::AccessKind::Write);
  EXPECT_EQ(error.accesses()[1].line, cpu_kernels::kSharedRaceWriteLine);
}

TEST_F(CpuChecks, RaceBetweenBlocksNamesBothBlocks) {
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, 512);
  const auto error = failure_of([&] {
    launch(module_, kGlobalRace, stream_, carbide::LaunchConfig1D(2, 256), carbide::detail::exclusive_view(out));
  });
  EXPECT_EQ(error.kind(), carbide::KernelError::Kind::DataRace);
  EXPECT_EQ(error.location(), "out[0]");
  // The two blocks run on different workers, in either order.
  EXPECT_THAT(error.what(), testing::MatchesRegex(
                                ".*data race on out\\[0\\]: block \\(([01]),0,0\\) thread \\(0,0,0\\) writes it at .*"
                                ", and block \\(([01]),0,0\\) thread \\(0,0,0\\) wrote it at .*; the blocks of a launch "
                                "never synchronize with each other.*"));
  ASSERT_EQ(error.accesses().size(), 2u);
  EXPECT_NE(error.accesses()[0].block, error.accesses()[1].block);
  EXPECT_EQ(error.accesses()[0].line, cpu_kernels::kGlobalRaceLine);
  EXPECT_EQ(error.accesses()[1].line, cpu_kernels::kGlobalRaceLine);
}

TEST_F(CpuChecks, RaceThroughMemcpyIsRecorded) {
  auto a = carbide::DeviceBuffer<float>::zeroed(stream_, 64);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, 64);
  const auto error = failure_of([&] {
    launch(module_, kMemcpyRace, stream_, carbide::LaunchConfig1D(1, 64), carbide::detail::read_view(a),
           carbide::detail::exclusive_view(out));
  });
  EXPECT_EQ(error.location(), "out[0]");
  EXPECT_THAT(error.what(), HasSubstr("data race on out[0]: block (0,0,0) thread (1,0,0) writes it at "));
  EXPECT_THAT(error.what(), HasSubstr(at_line(cpu_kernels::kMemcpyRaceLine) +
                                      ", and thread (0,0,0) of the same block wrote it at "));
}

TEST_F(CpuChecks, IndexPastTheEndNamesTheViewTheIndexAndTheLine) {
  auto a = carbide::DeviceBuffer<float>::zeroed(stream_, 1024);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, 1024);
  const auto error = failure_of([&] {
    launch(module_, kReadNext, stream_, carbide::LaunchConfig1D(4, 256), carbide::detail::read_view(a),
           carbide::detail::exclusive_view(out));
  });
  EXPECT_EQ(error.kind(), carbide::KernelError::Kind::IndexOutOfRange);
  EXPECT_EQ(error.location(), "a[1024]");
  EXPECT_THAT(error.what(), HasSubstr("kernel cpu_kernels::read_next: index 1024 is past the end of 'a' (1024 elements), "
                                     "at "));
  EXPECT_THAT(error.what(), HasSubstr(at_line(cpu_kernels::kReadNextLine) + " in block (3,0,0) thread (255,0,0)"));
}

TEST_F(CpuChecks, BarrierSomeThreadsNeverReachIsNamedWithWhereTheOthersAre) {
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, 4);
  const auto error = failure_of([&] {
    launch(module_, kDivergentBarrier, stream_, carbide::LaunchConfig1D(4, 256), carbide::detail::exclusive_view(out));
  });
  EXPECT_EQ(error.kind(), carbide::KernelError::Kind::DivergentBarrier);
  EXPECT_THAT(error.what(), testing::MatchesRegex(
                                ".*block \\([0-3],0,0\\): the barrier at .*cpu_kernels.cpp:" +
                                std::to_string(cpu_kernels::kDivergentBarrierLine) +
                                " was reached by 128 of the block's 256 threads; the others will never reach it: 128 "
                                "had returned"));
  ASSERT_EQ(error.accesses().size(), 1u);
  EXPECT_EQ(error.accesses()[0].kind, carbide::KernelError::AccessKind::Wait);
  EXPECT_EQ(error.accesses()[0].line, cpu_kernels::kDivergentBarrierLine);
}

TEST_F(CpuChecks, CollectiveMissingLanesIsNamed) {
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, 64);
  const auto error = failure_of([&] {
    launch(module_, kMissingLanes, stream_, carbide::LaunchConfig1D(1, 64), carbide::detail::exclusive_view(out));
  });
  EXPECT_EQ(error.kind(), carbide::KernelError::Kind::DivergentCollective);
  EXPECT_THAT(error.what(), HasSubstr("block (0,0,0): carbide::warp::shfl_down at "));
  EXPECT_THAT(error.what(), HasSubstr(at_line(cpu_kernels::kMissingLanesLine) +
                                      " was reached by 16 of the 32 lanes of warp 0; the others will never reach it: 16 "
                                      "had returned"));
}

TEST_F(CpuChecks, KernelThatNeverReturnsIsStoppedAtTheTimeout) {
  ScopedEnvironment timeout("CARBIDE_CPU_TIMEOUT", "1");
  // More blocks than any machine has cores (a 16-core GPU host started all of 16), so some wait.
  constexpr unsigned kBlocks = 1024;
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, kBlocks * 256);
  const auto start = std::chrono::steady_clock::now();
  const auto error = failure_of([&] {
    launch(module_, kSpin, stream_, carbide::LaunchConfig1D(kBlocks, 256), carbide::detail::exclusive_view(out));
  });
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(error.kind(), carbide::KernelError::Kind::Timeout);
  EXPECT_THAT(error.what(), HasSubstr("kernel cpu_kernels::spin: ran past CARBIDE_CPU_TIMEOUT (1 s) and was stopped; its "
                                      "threads were at:\n  block ("));
  EXPECT_THAT(error.what(), HasSubstr("): thread (0,0,0) ran at " + std::string()));
  EXPECT_THAT(error.what(), HasSubstr(at_line(cpu_kernels::kSpinLine) + "; 255 had not started"));
  EXPECT_THAT(error.what(), HasSubstr("blocks had not started"));
}

TEST_F(CpuChecks, BarrierInAnEntrySaidNotToSynchronizeIsReported) {
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, 64);
  const auto error = failure_of([&] {
    launch(module_, kPlainSync, stream_, carbide::LaunchConfig1D(1, 64), carbide::detail::exclusive_view(out));
  });
  EXPECT_EQ(error.kind(), carbide::KernelError::Kind::Unsupported);
  EXPECT_THAT(error.what(), HasSubstr("kernel cpu_kernels::plain_sync: reached carbide::block::sync() at "));
  EXPECT_THAT(error.what(), HasSubstr(at_line(cpu_kernels::kPlainSyncLine) + ", but its CPU entry says it never synchronizes"));
}

TEST_F(CpuChecks, ChecksOffRecordsNothing) {
  ScopedEnvironment off("CARBIDE_CPU_CHECKS", "off");
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, 64);
  launch(module_, kSharedRace, stream_, carbide::LaunchConfig1D(1, 64), carbide::detail::exclusive_view(out));
  // Bounds are checked still: they cost a comparison.
  auto a = carbide::DeviceBuffer<float>::zeroed(stream_, 256);
  auto b = carbide::DeviceBuffer<float>::zeroed(stream_, 256);
  EXPECT_THROW(launch(module_, kReadNext, stream_, carbide::LaunchConfig1D(1, 256), carbide::detail::read_view(a),
                      carbide::detail::exclusive_view(b)),
               carbide::KernelError);
}

TEST_F(CpuChecks, AFailedLaunchLeavesOtherBuffersIntact) {
  const std::vector<float> kept(300, 42.f);
  auto keep = carbide::DeviceBuffer<float>::from_host(stream_, kept);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, 64);
  failure_of([&] {
    launch(module_, kSharedRace, stream_, carbide::LaunchConfig1D(1, 64), carbide::detail::exclusive_view(out));
  });
  EXPECT_EQ(keep.to_host_vec(stream_), kept);
}

TEST_F(CpuChecks, BadEnvironmentValuesAreErrors) {
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, 64);
  {
    ScopedEnvironment bad("CARBIDE_CPU_TIMEOUT", "soon");
    EXPECT_THROW(launch(module_, kVecadd, stream_, carbide::LaunchConfig1D(1, 64), carbide::detail::read_view(out),
                        carbide::detail::read_view(out), carbide::detail::exclusive_view(out)),
                 carbide::Error);
  }
  ScopedEnvironment bad("CARBIDE_CPU_CHECKS", "sometimes");
  EXPECT_THROW(launch(module_, kVecadd, stream_, carbide::LaunchConfig1D(1, 64), carbide::detail::read_view(out),
                      carbide::detail::read_view(out), carbide::detail::exclusive_view(out)),
               carbide::Error);
}

// Outside a launch the vocabulary has no thread to stand for, and says so.
TEST(CpuVocabularyDeathTest, OutsideALaunchStopsTheProgramSayingWhy) {
  EXPECT_DEATH(carbide::thread::index_1d(), "carbide::thread::index_1d runs only on the device or inside a kernel launch");
  EXPECT_DEATH(carbide::block::sync(), "carbide::block::sync runs only on the device or inside a kernel launch");
}

}  // namespace
