#include "fiber_stacks.hpp"

#include <carbide/errors.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace carbide::cpu {

namespace {
std::size_t page_bytes() {
  static const std::size_t bytes = std::size_t(sysconf(_SC_PAGESIZE));
  return bytes;
}
}  // namespace

FiberStacks::~FiberStacks() {
  for (void* mapping : mappings_) munmap(mapping, kStackBytes + page_bytes());
}

boost::context::stack_context FiberStacks::stack(std::size_t index) {
  while (mappings_.size() <= index) {
    const std::size_t guard = page_bytes();
    void* mapping = mmap(nullptr, kStackBytes + guard, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mapping == MAP_FAILED)
      throw Error(std::string("running a block on the CPU: no memory for its threads' stacks (mmap: ") +
                  std::strerror(errno) + ")");
    mprotect(mapping, guard, PROT_NONE);  // stacks grow down, into the guard
    mappings_.push_back(mapping);
  }
  boost::context::stack_context context;
  context.size = kStackBytes;
  context.sp = static_cast<char*>(mappings_[index]) + page_bytes() + kStackBytes;
  return context;
}

bool FiberStacks::holds(std::uintptr_t address, std::size_t bytes) const {
  for (void* mapping : mappings_) {
    const auto begin = reinterpret_cast<std::uintptr_t>(mapping) + page_bytes();
    if (address >= begin && address + bytes <= begin + kStackBytes) return true;
  }
  return false;
}

}  // namespace carbide::cpu
