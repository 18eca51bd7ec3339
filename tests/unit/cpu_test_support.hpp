// The host side of a generated module, by hand, for the CPU tests: the module loaded with its
// kernels' CPU forms (cpu_kernels.hpp), a contract check before each launch, the views made from
// buffers as a stub makes them, and environment variables set for one test.
#pragma once

#include "cpu_kernels.hpp"

#include <carbide/runtime.hpp>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace cpu_tests {

// The kernels in the order the module lists them.
enum Kernel : std::size_t {
  kVecadd, kReduceShared, kWarpSums, kHistogram, kTranspose, kHalves, kDynamicScale, kSharedRace, kGlobalRace,
  kReadNext, kDivergentBarrier, kMissingLanes, kSpin, kPlainSync, kMemcpyRace, kTileDouble, kChunks, kButterflies,
  kRegions, kHalo, kTiles
};

inline carbide::detail::LoadedModule load(const carbide::Context& context) {
  // A CPU context never reads the image: a real stub passes its PTX.
  static const unsigned char kNoImage[] = {0};
  return carbide::detail::LoadedModule(
      context, kNoImage,
      {"vecadd", "reduce_shared", "warp_sums", "histogram", "transpose", "halves", "dynamic_scale", "shared_race",
       "global_race", "read_next", "divergent_barrier", "missing_lanes", "spin", "plain_sync", "memcpy_race",
       "tile_double", "chunks", "butterflies", "regions", "halo", "tiles"},
      {&cpu_kernels::vecadd, &cpu_kernels::reduce_shared, &cpu_kernels::warp_sums, &cpu_kernels::histogram,
       &cpu_kernels::transpose, &cpu_kernels::halves, &cpu_kernels::dynamic_scale, &cpu_kernels::shared_race,
       &cpu_kernels::global_race, &cpu_kernels::read_next, &cpu_kernels::divergent_barrier,
       &cpu_kernels::missing_lanes, &cpu_kernels::spin, &cpu_kernels::plain_sync, &cpu_kernels::memcpy_race,
       &cpu_kernels::tile_double, &cpu_kernels::chunks, &cpu_kernels::butterflies, &cpu_kernels::regions,
       &cpu_kernels::halo, &cpu_kernels::tiles});
}

// prepare_<k> of a generated module: the contract checked against the context's limits.
inline carbide::LaunchConfig prepare(const carbide::detail::LoadedModule& module, Kernel kernel,
                                     carbide::LaunchConfig config, carbide::Extent3 block,
                                     std::uint64_t dynamic_shared = 0) {
  carbide::LaunchContract contract;
  contract.kernel = "cpu_kernels::kernel";
  contract.domain = config.domain;
  contract.block = block;
  contract.dynamic_shared_bytes = dynamic_shared;
  carbide::validate_launch(contract, config, module.context().limits(), module.footprint(kernel));
  module.reserve_dynamic_shared(kernel, config.dynamic_shared_bytes);
  return config;
}

// The launch a generated stub makes: the argument array of the views and scalars.
template <class... Arguments>
void launch(const carbide::detail::LoadedModule& module, Kernel kernel, const carbide::Stream& stream,
            const carbide::LaunchConfig& config, Arguments... arguments) {
  void* args[] = {&arguments...};
  module.launch(kernel, stream, config, args);
}

// An environment variable set (or unset, for nullopt) for the life of the object.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value->c_str(), 1);
    else unsetenv(name);
  }
  ~ScopedEnvironment() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

inline std::string kernels_file() { return "cpu_kernels.cpp"; }

}  // namespace cpu_tests
