// The checks the vocabulary's CPU forms make (cpu_vocabulary.hpp): each stops the calling thread's
// launch with a KernelError naming the kernel, the thread, the line and the memory.
#include "block_run.hpp"
#include "running_thread.hpp"

#include <carbide/cpu.hpp>
#include <carbide/cpu_vocabulary.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace carbide::cpu::detail {

namespace {

std::string site_text(const ThreadState& t) {
  if (t.file == nullptr || *t.file == '\0') return "an unknown line (no carbide::cpu::at before it)";
  return std::string(t.file) + ":" + std::to_string(t.line);
}

std::string thread_text(const ThreadState& t) {
  return "block " + coordinates_text(t.block_idx) + " thread " + coordinates_text(t.thread_idx);
}

KernelError::Access position(const ThreadState& t) {
  return {t.file != nullptr ? t.file : "", t.line, as_array(t.block_idx), as_array(t.thread_idx),
          KernelError::AccessKind::Read};
}

// Stops the launch with `kind`, saying `what` happened at the thread's current line, the memory
// named by `where` ("a[1024]", or ""); outside a launch (host code calling a kernel's function
// itself) stops the program, as the device would. Both run inside the error's making: the thread
// leaves its stack for good, so nothing it built may outlive that.
template <class Describe, class Locate>
[[noreturn]] void fail(KernelError::Kind kind, Describe what, Locate where) {
  ThreadState* t = running_thread;
  if (t == nullptr) {
    std::fprintf(stderr, "carbide: %s\n", what(nullptr).c_str());
    std::abort();
  }
  t->block->fail([&] {
    return KernelError(kind, t->block->launch().kernel(), what(t->block) + ", at " + site_text(*t) + " in " + thread_text(*t),
                       {position(*t)}, where(*t->block));
  });
}

template <class Describe>
[[noreturn]] void fail(KernelError::Kind kind, Describe what) {
  fail(kind, what, [](const BlockRun&) { return std::string(); });
}

std::string view_name(const BlockRun* block, const void* view) {
  return block != nullptr ? block->name_view(view) : "a view";
}

std::string unquoted(std::string name) {
  if (name.size() >= 2 && name.front() == '\'') return name.substr(1, name.size() - 2);
  return name;
}

}  // namespace

void index_past_end(const void* view, std::size_t index, std::size_t size) {
  fail(
      KernelError::Kind::IndexOutOfRange,
      [&](const BlockRun* block) {
        return "index " + std::to_string(index) + " is past the end of " + view_name(block, view) + " (" +
               std::to_string(size) + " elements)";
      },
      [&](const BlockRun& block) { return unquoted(block.name_view(view)) + "[" + std::to_string(index) + "]"; });
}

void chunk_past_end(const void* view, std::size_t first, std::size_t count, std::size_t size) {
  fail(KernelError::Kind::IndexOutOfRange, [&](const BlockRun* block) {
    return "the chunk of elements [" + std::to_string(first) + ", " + std::to_string(first + count) + ") of " +
           view_name(block, view) + " runs past its end (" + std::to_string(size) + " elements)";
  });
}

void position_past_edge(const void* view, std::size_t row, std::size_t col, std::size_t rows, std::size_t cols) {
  fail(KernelError::Kind::IndexOutOfRange, [&](const BlockRun* block) {
    return "(row " + std::to_string(row) + ", column " + std::to_string(col) + ") is past the edge of " +
           view_name(block, view) + " (" + std::to_string(rows) + " x " + std::to_string(cols) + ")";
  });
}

void piece_index_past_end(const char* what, long long index, long long count) {
  fail(KernelError::Kind::IndexOutOfRange, [&](const BlockRun*) {
    return std::string(what) + ": index " + std::to_string(index) + " is past the thread's " + std::to_string(count) +
           " elements";
  });
}

void stride_not_power_of_two(const char* what, std::size_t stride) {
  fail(KernelError::Kind::RequirementFailed, [&](const BlockRun*) {
    return std::string(what) + ": stride " + std::to_string(stride) +
           " is not a power of two, so the threads' elements would overlap";
  });
}

void requirement_failed(const char* condition, const char* file, unsigned line, const char* function) {
  at(file, line);  // CARBIDE_REQUIRE names its own line: the site the failure is reported at
  fail(KernelError::Kind::RequirementFailed, [&](const BlockRun*) {
    return std::string("requirement failed: ") + condition + " (in " + function + ")";
  });
}

void unsupported_atomic(const char* what, std::size_t element_bytes) {
  fail(KernelError::Kind::Unsupported, [&](const BlockRun*) {
    return std::string(what) + " on " + std::to_string(element_bytes) +
           "-byte elements: the CPU has atomics for int, unsigned, long long, unsigned long long, float and double, "
           "as CUDA has";
  });
}

void outside_launch(const char* what) {
  std::fprintf(stderr, "carbide: %s runs only on the device or inside a kernel launch\n", what);
  std::abort();
}

}  // namespace carbide::cpu::detail

namespace carbide::cpu {

void inline_assembly(const char* file, unsigned line) {
  at(file, line);
  detail::fail(KernelError::Kind::Unsupported, [&](const BlockRun*) {
    return std::string("inline assembly cannot run on the CPU (it is PTX); give the kernel a form without it for "
                       "CPU runs, or run it on a GPU");
  });
}

}  // namespace carbide::cpu
