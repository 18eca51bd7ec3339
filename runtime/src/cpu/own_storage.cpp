#include "own_storage.hpp"

#include "fiber_stacks.hpp"

#include <link.h>
#include <pthread.h>

#include <mutex>
#include <utility>
#include <vector>

namespace carbide::cpu {
namespace {

using Range = std::pair<std::uintptr_t, std::uintptr_t>;  // [begin, end)

bool within(const Range& range, std::uintptr_t address, std::size_t bytes) {
  return address >= range.first && address + bytes <= range.second;
}

// The calling OS thread's stack, asked once per thread.
Range native_stack() {
  thread_local const Range stack = [] {
    Range range{0, 0};
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
      void* low = nullptr;
      std::size_t size = 0;
      if (pthread_attr_getstack(&attributes, &low, &size) == 0)
        range = {reinterpret_cast<std::uintptr_t>(low), reinterpret_cast<std::uintptr_t>(low) + size};
      pthread_attr_destroy(&attributes);
    }
    return range;
  }();
  return stack;
}

// Every loaded segment of the program and its libraries, read once (kernels run after main's
// libraries are loaded; a library opened later is not counted).
const std::vector<Range>& loaded_segments() {
  static std::vector<Range> segments;
  static std::once_flag read;
  std::call_once(read, [] {
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void*) {
          for (unsigned i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr)& header = info->dlpi_phdr[i];
            if (header.p_type != PT_LOAD) continue;
            const std::uintptr_t begin = info->dlpi_addr + header.p_vaddr;
            segments.emplace_back(begin, begin + header.p_memsz);
          }
          return 0;
        },
        nullptr);
  });
  return segments;
}

}  // namespace

bool on_a_thread_stack(std::uintptr_t address, std::size_t bytes, const FiberStacks& stacks) {
  return stacks.holds(address, bytes) || within(native_stack(), address, bytes);
}

bool in_static_storage(std::uintptr_t address, std::size_t bytes) {
  for (const Range& segment : loaded_segments())
    if (within(segment, address, bytes)) return true;
  return false;
}

}  // namespace carbide::cpu
