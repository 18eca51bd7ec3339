// Kernels' CPU forms written by hand the way the translator emits them (DESIGN §11): the kernel's
// code with each raw access wrapped in carbide::cpu::touch and a carbide::cpu::at marker before
// each statement, a run_thread that copies each argument out of the launch's argument array,
// and the KernelEntry describing them. The tests launch them through detail::LoadedModule as a
// generated stub does.
#pragma once

#include <carbide/runtime.hpp>

#include <cstdint>

namespace cpu_kernels {

// The entries, in the order the tests' module lists them (kNames).
extern const carbide::cpu::KernelEntry vecadd, reduce_shared, warp_sums, histogram, transpose, halves,
    dynamic_scale, shared_race, global_race, read_next, divergent_barrier, missing_lanes, spin, plain_sync,
    memcpy_race, chunks, butterflies, regions, halo, tiles;
extern const carbide::cpu::TileKernelEntry tile_double;

// Lines the tests expect in messages.
extern const unsigned kVecaddWriteLine, kSharedRaceWriteLine, kSharedRaceReadLine, kGlobalRaceLine, kReadNextLine,
    kDivergentBarrierLine, kMissingLanesLine, kSpinLine, kPlainSyncLine, kMemcpyRaceLine;

constexpr unsigned kHistogramBins = 64;

}  // namespace cpu_kernels
