#include <carbide/runtime.hpp>

namespace carbide::detail {

namespace {
bool overlaps(const BufferArgument& a, const BufferArgument& b) {
  if (a.bytes == 0 || b.bytes == 0) return false;
  return a.ptr < b.ptr + b.bytes && b.ptr < a.ptr + a.bytes;
}
}  // namespace

void check_no_aliasing(const char* kernel, std::initializer_list<BufferArgument> buffers) {
  for (auto first = buffers.begin(); first != buffers.end(); ++first) {
    for (auto second = first + 1; second != buffers.end(); ++second) {
      if (!first->exclusive && !second->exclusive) continue;
      if (!overlaps(*first, *second)) continue;
      const BufferArgument& exclusive = first->exclusive ? *first : *second;
      const BufferArgument& other = first->exclusive ? *second : *first;
      throw AliasingError(kernel, exclusive.name, other.name);
    }
  }
}

}  // namespace carbide::detail
