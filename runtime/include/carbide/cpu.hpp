// Kernels on the CPU (DESIGN §11): what the translator's CPU form of a kernel calls, and what
// it hands the runtime to launch it. The CPU form is the user's device code copied under #line
// into the host stubs, with every raw access wrapped in touch() (which names its own line), a site
// marker at() before each call of Carbide's vocabulary and tick() at each loop back-edge, so that
// a run can say where each access came from and where its threads were.
//
// This header is the contract between codegen/cpu (the translator) and runtime/src/cpu (the
// engine): generated code calls nothing in carbide::cpu that is not declared here.
#pragma once

#include <carbide/cpu_thread.hpp>

#include <cstddef>
#include <cstdint>

namespace carbide::cpu {

// How a wrapped access uses its memory.
enum class Access : unsigned char {
  Read,
  Write,
  ReadWrite,  // compound assignment, ++/--, bound to a non-const reference
};

// What a kernel parameter is, so that a run can name the view an address lies in ("c[1025]").
enum class ParamKind : unsigned char {
  Scalar,       // a value: not memory the kernel reaches
  View,         // span / disjoint_span / atomic_span: {T* data; std::size_t size}
  View2D,       // disjoint_span2d: {T* data; std::size_t rows, cols, pitch}
  ReadView2D,   // span2d: {{T* data; std::size_t size}; std::size_t rows, cols, pitch}
  TileInput,    // tile::detail::in_arg<T, Rank>
  TileOutput,   // tile::detail::out_arg<T, Rank>
};

struct ParamInfo {
  const char* name;            // as the kernel declares it
  std::size_t bytes;           // sizeof the argument as launched
  ParamKind kind;
  std::size_t element_bytes;   // sizeof the view's element; 0 for a scalar
};

// A block::shared call site of the module (the number the translator gave it, as in the .cu's
// shared_at<T, N, Site>), and the variable the kernel keeps it in, for messages ("tile[37]").
struct SharedSite {
  unsigned site;
  const char* name;            // "" when the handle is not kept in a named variable
  std::size_t element_bytes;
};

// One SIMT kernel's CPU form, one per entry point the .cu has, in the same order as the entry
// names given to detail::LoadedModule.
struct KernelEntry {
  const char* name;            // "kernels::vecadd"
  // Runs the kernel for the calling thread (its coordinates are the engine's current thread):
  // unpacks `args` (one pointer per parameter, as cuLaunchKernel takes them) and calls the
  // kernel's CPU copy.
  void (*run_thread)(void* const* args);
  const ParamInfo* params;
  unsigned param_count;
  const SharedSite* shared_sites;  // the sites the kernel reaches, helpers included
  unsigned shared_site_count;
  std::uint64_t static_shared_bytes;  // their storage together, as the contract check counts it
  // The kernel reaches block::sync() or a warp collective: its threads run as fibers that meet
  // there. Without, the engine runs a block's threads one after another in a plain loop.
  bool synchronizes;
  // For a kernel that never synchronizes, that loop compiled with the kernel, so that its code is
  // inlined into it: `&carbide::cpu::run_threads<vecadd_run_thread>`. Null: the engine's own loop
  // calls run_thread once a thread (several times slower for a short kernel).
  void (*run_threads)(void* const* args) = nullptr;
};

// One tile kernel's CPU form: the tile body, run once per tile block on the reference
// implementations of the tile operations (<carbide/tile.hpp> on the host).
struct TileKernelEntry {
  const char* name;
  // Runs tile block `block` (the flat index the grid's x counts) with the entry's arguments.
  void (*run_block)(void* const* args, std::uint64_t block);
  const ParamInfo* params;
  unsigned param_count;
};

// One entry point of a module's CPU form, in the order of the entry names given to
// detail::LoadedModule: a SIMT kernel's or a tile kernel's. It converts from a pointer to either,
// so a stub lists them as `{&vecadd_entry, &tile_add_entry}`.
struct ModuleEntry {
  ModuleEntry(const KernelEntry* kernel) : simt(kernel) {}     // NOLINT(google-explicit-constructor)
  ModuleEntry(const TileKernelEntry* kernel) : tile(kernel) {}  // NOLINT(google-explicit-constructor)
  const KernelEntry* simt = nullptr;
  const TileKernelEntry* tile = nullptr;
};

// --- What the CPU form of device code calls ---------------------------------------------------

// These three are inline, their slow paths in the runtime (detail:: below), so that a kernel with
// the checks off pays a load and a test for each, not a call.

// The user's source line the calling thread is about to run (the translator puts one before
// each vocabulary call of device code, under #line, so __FILE__ and __LINE__ are the user's):
// accesses made inside vocabulary calls are reported at it, and a stopped launch says where its
// threads were.
inline void at(const char* file, unsigned line) noexcept {
  if (detail::ThreadState* thread = detail::current_thread()) {
    thread->file = file;
    thread->line = line;
  }
}

namespace detail {
void record_access(ThreadState& thread, Access access, const void* address, std::size_t bytes, const char* file,
                   unsigned line);
void tick_slowly(ThreadState& thread);
}  // namespace detail

// Records one access of `bytes` at `address` by the calling thread, made at file:line, for the
// run-time race checks (nothing when CARBIDE_CPU_CHECKS is off). Addresses outside the launch's
// buffers and its block's shared memory (a thread's own locals) are not recorded.
inline void record(Access access, const void* address, std::size_t bytes, const char* file, unsigned line) {
  detail::ThreadState* thread = detail::current_thread();
  if (thread != nullptr && thread->recording) detail::record_access(*thread, access, address, bytes, file, line);
}

// record() for the lvalue, which it returns: `touch(Access::Write, __FILE__, __LINE__, *e) = v;`.
template <class T>
inline T& touch(Access access, const char* file, unsigned line, T& lvalue) {
  record(access, &lvalue, sizeof(T), file, line);
  return lvalue;
}

// At every loop back-edge of device code: a launch past CARBIDE_CPU_TIMEOUT (or one another
// block's failure stopped) stops here. It asks the engine once every few hundred calls.
inline void tick(const char* file, unsigned line) {
  if (detail::ThreadState* thread = detail::current_thread()) {
    thread->file = file;
    thread->line = line;
    if (--thread->ticks_left == 0) detail::tick_slowly(*thread);
  }
}

// In place of an inline assembly statement (PTX, inside CARBIDE_UNSAFE): the CPU cannot run it,
// so reaching it fails the launch (KernelError::Kind::Unsupported) naming the line.
[[noreturn]] void inline_assembly(const char* file, unsigned line);

// memcpy, memmove and memset on device memory, recorded (what the CPU form calls in their place).
void* memcpy(void* to, const void* from, std::size_t bytes, const char* file, unsigned line);
void* memmove(void* to, const void* from, std::size_t bytes, const char* file, unsigned line);
void* memset(void* to, int value, std::size_t bytes, const char* file, unsigned line);

// --- A barrier-free kernel's thread loop ---------------------------------------------------------

namespace detail {
// Runs every thread of the calling thread's block in turn, x fastest.
inline void each_thread(void (*run_thread)(void* const*), void* const* args) {
  ThreadState& thread = *current_thread();
  const Coordinates block = thread.block_dim;
  unsigned index = 0;
  for (unsigned z = 0; z < block.z; ++z)
    for (unsigned y = 0; y < block.y; ++y)
      for (unsigned x = 0; x < block.x; ++x) {
        thread.thread_idx = {x, y, z};
        thread.local_index = index++;
        thread.file = "";
        thread.line = 0;
        run_thread(args);
      }
}
}  // namespace detail

// KernelEntry::run_threads for the kernel whose run_thread is RunThread, instantiated beside it so
// that the compiler inlines the kernel into the loop.
template <void (*RunThread)(void* const*)>
void run_threads(void* const* args) {
  detail::each_thread(RunThread, args);
}

}  // namespace carbide::cpu
