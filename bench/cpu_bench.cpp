// carbide_cpu_bench: the CPU engine (DESIGN §11) against plain C++ loops over the same elements
// split over the same number of std::threads, as ratios measured in one run. Kernels are CPU forms
// written by hand the way the translator emits them (tests/unit/cpu_kernels.cpp shows the form).
//
//   carbide_cpu_bench [elements]      (default 16M floats: memory-bound, as kernels on a GPU are)
//
// Each figure is the best of several runs. Targets (docs/decisions.md, "Kernels on the CPU"):
// barrier-free >= 0.5 of the loop, barrier kernels <= 10x the loop, checks on <= 10x checks off.
#include <carbide/runtime.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace {

using carbide::cpu::Access;
using carbide::cpu::at;
using carbide::cpu::ParamKind;
using carbide::cpu::touch;

template <class T>
T argument(void* const* args, unsigned i) {
  T value;
  std::memcpy(&value, args[i], sizeof value);
  return value;
}

constexpr std::size_t kView = sizeof(carbide::span<const float>);

// --- saxpy: y = a x + y, no barrier ------------------------------------------------------------

void saxpy_kernel(float a, carbide::span<const float> x, carbide::disjoint_span<float> y) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); if (float* e = y.get_mut(idx)) touch(Access::Write, __FILE__, __LINE__, *e) = a * x[idx.get()] + touch(Access::Read, __FILE__, __LINE__, *e);
}
void saxpy_thread(void* const* args) {
  saxpy_kernel(argument<float>(args, 0), argument<carbide::span<const float>>(args, 1),
               argument<carbide::disjoint_span<float>>(args, 2));
}
constexpr carbide::cpu::ParamInfo saxpy_params[] = {{"a", sizeof(float), ParamKind::Scalar, 0},
                                                     {"x", kView, ParamKind::View, sizeof(float)},
                                                     {"y", kView, ParamKind::View, sizeof(float)}};
const carbide::cpu::KernelEntry saxpy = {"bench::saxpy", saxpy_thread, saxpy_params, 3, nullptr, 0, 0, false,
                                         &carbide::cpu::run_threads<saxpy_thread>};

// --- sum: a grid-stride reduction, each thread's sum then a tree in shared memory with barriers,
// each block's sum added atomically (the cuda-samples reduction's shape) -------------------------

constexpr unsigned kBlock = 256;

void sum_kernel(carbide::span<const float> in, carbide::atomic_span<float> total) {
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  at(__FILE__, __LINE__); auto partial = carbide::block::shared_at<float, kBlock, 1>();
  at(__FILE__, __LINE__); float mine = 0.f;
  for (auto&& i : carbide::thread::grid_stride(in)) {
    at(__FILE__, __LINE__); mine += in[i.get()];
    carbide::cpu::tick(__FILE__, __LINE__);
  }
  at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, partial[lid]) = mine;
  at(__FILE__, __LINE__); carbide::block::sync();
  for (unsigned s = kBlock / 2; s > 0; s >>= 1) {
    at(__FILE__, __LINE__); if (lid.get() < s) touch(Access::ReadWrite, __FILE__, __LINE__, partial[lid]) += touch(Access::Read, __FILE__, __LINE__, partial[lid.get() + s]);
    at(__FILE__, __LINE__); carbide::block::sync();
    carbide::cpu::tick(__FILE__, __LINE__);
  }
  at(__FILE__, __LINE__); if (lid.get() == 0) total.fetch_add(0, touch(Access::Read, __FILE__, __LINE__, partial[0]));
}
void sum_thread(void* const* args) {
  sum_kernel(argument<carbide::span<const float>>(args, 0), argument<carbide::atomic_span<float>>(args, 1));
}
constexpr carbide::cpu::ParamInfo sum_params[] = {{"in", kView, ParamKind::View, sizeof(float)},
                                                   {"total", kView, ParamKind::View, sizeof(float)}};
constexpr carbide::cpu::SharedSite sum_sites[] = {{1, "partial", sizeof(float)}};
const carbide::cpu::KernelEntry sum = {"bench::sum", sum_thread, sum_params, 2, sum_sites, 1, kBlock * sizeof(float), true};

// --- barriers: nothing but barriers, to time one fiber's trip through one ----------------------

void barriers_kernel(carbide::span<const float>, unsigned rounds) {
  for (unsigned r = 0; r < rounds; ++r) {
    at(__FILE__, __LINE__); carbide::block::sync();
  }
}
void barriers_thread(void* const* args) {
  barriers_kernel(argument<carbide::span<const float>>(args, 0), argument<unsigned>(args, 1));
}
constexpr carbide::cpu::ParamInfo barriers_params[] = {{"unused", kView, ParamKind::View, sizeof(float)},
                                                        {"rounds", sizeof(unsigned), ParamKind::Scalar, 0}};
const carbide::cpu::KernelEntry barriers = {"bench::barriers", barriers_thread, barriers_params, 2, nullptr, 0, 0, true};

// --- Timing -------------------------------------------------------------------------------------

double best_ms(const std::function<void()>& run, int repeats = 5) {
  double best = 1e300;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// The baseline: the same loop body over [0, n) split into one contiguous range per thread.
void split_loop(std::size_t n, unsigned threads, const std::function<void(std::size_t, std::size_t, unsigned)>& body) {
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] { body(n * t / threads, n * (t + 1) / threads, t); });
  for (std::thread& thread : pool) thread.join();
}

void set_checks(bool on) { setenv("CARBIDE_CPU_CHECKS", on ? "on" : "off", 1); }

}  // namespace

int main(int argc, char** argv) try {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t(16) << 20;
  const auto ctx = carbide::Context::create_cpu();
  auto stream = ctx.create_stream();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  static const unsigned char kNoImage[] = {0};
  carbide::detail::LoadedModule module(ctx, kNoImage, {"saxpy", "sum", "barriers"}, {&saxpy, &sum, &barriers});
  std::printf("carbide_cpu_bench: %zu floats, %s\n", n, ctx.limits().name.c_str());

  std::vector<float> x_host(n), y_host(n);
  for (std::size_t i = 0; i < n; ++i) x_host[i] = float(i % 7) * 0.25f, y_host[i] = float(i % 5);
  auto x = carbide::DeviceBuffer<float>::from_host(stream, x_host);
  auto y = carbide::DeviceBuffer<float>::from_host(stream, y_host);
  auto total = carbide::DeviceBuffer<float>::zeroed(stream, 1);
  float* xs = x.device_data();
  float* ys = y.device_data();

  // saxpy
  const double loop_saxpy = best_ms([&] {
    split_loop(n, threads, [&](std::size_t begin, std::size_t end, unsigned) {
      for (std::size_t i = begin; i < end; ++i) ys[i] = 0.5f * xs[i] + ys[i];
    });
  });
  auto run_saxpy = [&] {
    float a = 0.5f;
    auto xv = carbide::detail::read_view(x);
    auto yv = carbide::detail::exclusive_view(y);
    void* args[] = {&a, &xv, &yv};
    module.launch(0, stream, carbide::LaunchConfig1D(carbide::div_ceil(n, 256), 256), args);
  };
  set_checks(false);
  const double saxpy_off = best_ms(run_saxpy);
  set_checks(true);
  const double saxpy_on = best_ms(run_saxpy);
  std::printf("saxpy     loop %8.2f ms | engine, checks off %8.2f ms (%.2f of the loop's speed) | checks on %8.2f ms "
              "(%.1fx checks off)\n",
              loop_saxpy, saxpy_off, loop_saxpy / saxpy_off, saxpy_on, saxpy_on / saxpy_off);

  // sum, grid-stride: 2 blocks a worker, so each thread sums many elements before the barriers
  std::vector<double> sums(threads);
  const double loop_sum = best_ms([&] {
    split_loop(n, threads, [&](std::size_t begin, std::size_t end, unsigned t) {
      float s = 0.f;
      for (std::size_t i = begin; i < end; ++i) s += xs[i];
      sums[t] = s;
    });
  });
  auto run_sum = [&](std::uint64_t blocks) {
    return [&, blocks] {
      auto in = carbide::detail::read_view(x);
      auto out = carbide::detail::atomic_view(total);
      void* args[] = {&in, &out};
      module.launch(1, stream, carbide::LaunchConfig1D(blocks, kBlock), args);
    };
  };
  const std::uint64_t few = 2 * threads, one_each = carbide::div_ceil(n, kBlock);
  set_checks(false);
  const double sum_off = best_ms(run_sum(few));
  const double sum_one_each = best_ms(run_sum(one_each), 3);
  set_checks(true);
  const double sum_on = best_ms(run_sum(few));
  std::printf("sum       loop %8.2f ms | engine, %llu blocks, checks off %8.2f ms (%.1fx the loop) | checks on %8.2f ms "
              "(%.1fx checks off)\n",
              loop_sum, static_cast<unsigned long long>(few), sum_off, sum_off / loop_sum, sum_on, sum_on / sum_off);
  std::printf("sum       one element a thread (%llu blocks), checks off %8.2f ms (%.1fx the loop)\n",
              static_cast<unsigned long long>(one_each), sum_one_each, sum_one_each / loop_sum);

  // barriers: every thread of every block through `rounds` barriers, nothing else
  const unsigned rounds = 200, blocks = 8 * threads;
  set_checks(false);
  const double barrier_ms = best_ms([&] {
    auto unused = carbide::detail::read_view(x);
    unsigned r = rounds;
    void* args[] = {&unused, &r};
    module.launch(2, stream, carbide::LaunchConfig1D(blocks, 1024), args);
  });
  const double per_trip = barrier_ms * 1e6 * threads / (double(blocks) * 1024 * rounds);
  std::printf("barriers  %u blocks of 1024 threads x %u barriers: %.2f ms, %.1f ns per thread per barrier on one "
              "worker (a trip out of the fiber and back in: two switches, %.1f ns each)\n",
              blocks, rounds, barrier_ms, per_trip, per_trip / 2);
  return 0;
} catch (const std::exception& error) {
  return carbide::report_error(argv[0], error);
}
