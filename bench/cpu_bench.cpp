// carbide_cpu_bench: the CPU engine (DESIGN §11) against plain C++ loops over the same elements
// split over the same number of std::threads, as ratios measured in one run. Kernels are CPU forms
// written by hand the way the translator emits them (tests/unit/cpu_kernels.cpp shows the form).
//
//   carbide_cpu_bench [elements]      (default 2^26 floats: memory-bound, as kernels on a GPU are)
//
// Each figure is the best of several runs. Targets (docs/decisions.md, "Kernels on the CPU"):
// barrier-free >= 0.5 of the loop, barrier kernels <= 10x the loop, checks on <= 10x checks off.
#include <carbide/runtime.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
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

// --- sum: samples/reduction's kernel: a grid-stride sum of 4-float chunks per thread, a warp
// sum, the warps' sums through shared memory after a barrier, one atomic add per block ---------

constexpr unsigned kBlock = 512, kWarps = kBlock / 32;

void sum_kernel(carbide::span<const float> in, carbide::atomic_span<float> total) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  at(__FILE__, __LINE__); auto lane = carbide::thread::lane();
  at(__FILE__, __LINE__); const std::size_t chunks = (in.size() + 3) / 4;
  at(__FILE__, __LINE__); const std::size_t stride = std::size_t(carbide::thread::grid_dim().x) * kBlock;
  at(__FILE__, __LINE__); float partial = 0.f, other = 0.f;
  at(__FILE__, __LINE__); std::size_t c = idx.get();
  for (; c + stride < chunks; c += 2 * stride) {
    at(__FILE__, __LINE__); const carbide::vec<float, 4> first = in.chunk<4>(c), second = in.chunk<4>(c + stride);
    at(__FILE__, __LINE__); partial += (first[0] + first[1]) + (first[2] + first[3]);
    at(__FILE__, __LINE__); other += (second[0] + second[1]) + (second[2] + second[3]);
    carbide::cpu::tick(__FILE__, __LINE__);
  }
  at(__FILE__, __LINE__); if (c < chunks) {
    at(__FILE__, __LINE__); const carbide::vec<float, 4> last = in.chunk<4>(c);
    at(__FILE__, __LINE__); partial += (last[0] + last[1]) + (last[2] + last[3]);
  }
  at(__FILE__, __LINE__); partial += other;
  at(__FILE__, __LINE__); partial = carbide::warp::reduce_add(partial);
  at(__FILE__, __LINE__); auto warp_sums = carbide::block::shared_at<float, kWarps, 1>();
  at(__FILE__, __LINE__); if (lane.get() == 0) touch(Access::Write, __FILE__, __LINE__, warp_sums[lid.get() / 32]) = partial;
  at(__FILE__, __LINE__); carbide::block::sync();
  at(__FILE__, __LINE__); if (lid.get() / 32 == 0) {
    at(__FILE__, __LINE__); float block_sum = carbide::warp::reduce_add(lane.get() < kWarps ? touch(Access::Read, __FILE__, __LINE__, warp_sums[lane.get()]) : 0.f);
    at(__FILE__, __LINE__); if (lane.get() == 0) total.fetch_add(0, block_sum);
  }
}
void sum_thread(void* const* args) {
  sum_kernel(argument<carbide::span<const float>>(args, 0), argument<carbide::atomic_span<float>>(args, 1));
}
constexpr carbide::cpu::ParamInfo sum_params[] = {{"in", kView, ParamKind::View, sizeof(float)},
                                                   {"total", kView, ParamKind::View, sizeof(float)}};
constexpr carbide::cpu::SharedSite sum_sites[] = {{1, "warp_sums", sizeof(float)}};
const carbide::cpu::KernelEntry sum = {"bench::sum", sum_thread, sum_params, 2, sum_sites, 1, kWarps * sizeof(float), true};

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

// Wall-clock and CPU milliseconds (every thread of the process), each the best of `repeats` runs:
// on a machine others share, CPU time still counts the work done, where wall time counts the wait.
struct Time {
  double wall, cpu;
};

Time best_ms(const std::function<void()>& run, int repeats = 5) {
  Time best{1e300, 1e300};
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    run();
    best.cpu = std::min(best.cpu, double(std::clock() - cpu_start) * 1000 / CLOCKS_PER_SEC);
    best.wall = std::min(best.wall, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// "12.3 ms (cpu 24.1)"
std::string text(Time t) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%8.2f ms (cpu %8.2f)", t.wall, t.cpu);
  return buffer;
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
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t(1) << 26;
  const auto ctx = carbide::Context::create_cpu();
  auto stream = ctx.create_stream();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  static const unsigned char kNoImage[] = {0};
  carbide::detail::LoadedModule module(ctx, kNoImage, {"saxpy", "sum", "barriers"}, {&saxpy, &sum, &barriers});
  std::printf("carbide_cpu_bench: %zu floats, %s; wall time, and CPU time of all threads in brackets\n", n,
              ctx.limits().name.c_str());

  std::vector<float> x_host(n), y_host(n);
  for (std::size_t i = 0; i < n; ++i) x_host[i] = float(i % 7) * 0.25f, y_host[i] = float(i % 5);
  auto x = carbide::DeviceBuffer<float>::from_host(stream, x_host);
  auto y = carbide::DeviceBuffer<float>::from_host(stream, y_host);
  auto total = carbide::DeviceBuffer<float>::zeroed(stream, 1);
  float* xs = x.device_data();
  float* ys = y.device_data();

  // saxpy, blocks of 256
  const Time loop_saxpy = best_ms([&] {
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
  const Time saxpy_off = best_ms(run_saxpy);
  set_checks(true);
  const Time saxpy_on = best_ms(run_saxpy);
  std::printf("saxpy  plain loop %s\n       engine     %s checks off: %.2f of the loop's speed (cpu %.2f)\n"
              "       engine     %s checks on: %.1fx checks off (cpu %.1fx)\n",
              text(loop_saxpy).c_str(), text(saxpy_off).c_str(), loop_saxpy.wall / saxpy_off.wall,
              loop_saxpy.cpu / saxpy_off.cpu, text(saxpy_on).c_str(), saxpy_on.wall / saxpy_off.wall,
              saxpy_on.cpu / saxpy_off.cpu);

  // sum, at samples/reduction's geometry: 528 blocks of 512
  std::vector<float> sums(threads);
  const Time loop_sum = best_ms([&] {
    split_loop(n, threads, [&](std::size_t begin, std::size_t end, unsigned t) {
      float s = 0.f;
      for (std::size_t i = begin; i < end; ++i) s += xs[i];
      sums[t] = s;
    });
  });
  auto run_sum = [&] {
    auto in = carbide::detail::read_view(x);
    auto out = carbide::detail::atomic_view(total);
    void* args[] = {&in, &out};
    module.launch(1, stream, carbide::LaunchConfig1D(132 * 4, kBlock), args);
  };
  set_checks(false);
  const Time sum_off = best_ms(run_sum);
  set_checks(true);
  const Time sum_on = best_ms(run_sum);
  std::printf("sum    plain loop %s\n       engine     %s checks off: %.1fx the loop (cpu %.1fx)\n"
              "       engine     %s checks on: %.1fx checks off (cpu %.1fx)\n",
              text(loop_sum).c_str(), text(sum_off).c_str(), sum_off.wall / loop_sum.wall, sum_off.cpu / loop_sum.cpu,
              text(sum_on).c_str(), sum_on.wall / sum_off.wall, sum_on.cpu / sum_off.cpu);

  // barriers: every thread of every block through `rounds` barriers, nothing else
  const unsigned rounds = 200, blocks = 8 * threads;
  set_checks(false);
  const Time barrier = best_ms([&] {
    auto unused = carbide::detail::read_view(x);
    unsigned r = rounds;
    void* args[] = {&unused, &r};
    module.launch(2, stream, carbide::LaunchConfig1D(blocks, 1024), args);
  });
  const double per_trip = barrier.cpu * 1e6 / (double(blocks) * 1024 * rounds);
  std::printf("barrier %u blocks of 1024 threads x %u barriers: %s, %.1f cpu-ns per thread per barrier (one switch "
              "out of its fiber and one back in)\n",
              blocks, rounds, text(barrier).c_str(), per_trip);
  return 0;
} catch (const std::exception& error) {
  return carbide::report_error(argv[0], error);
}
