#include "commands/doctor.hpp"

#include "support/version.hpp"

#include <carbide/runtime.hpp>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>

namespace carbide::commands {
namespace {

void line(bool ok, const std::string& what, const std::string& detail) {
  llvm::outs() << (ok ? "ok    " : "fix   ") << what << ": " << detail << "\n";
}

std::string host_compiler() {
  const char* cxx = std::getenv("CXX");
  if (cxx != nullptr && llvm::sys::fs::can_execute(cxx)) return cxx;
  for (const char* name : {"c++", "g++", "clang++"})
    if (auto found = llvm::sys::findProgramByName(name)) return *found;
  return "";
}

}  // namespace

int doctor(const pipeline::PipelineOptions& options) {
  bool healthy = true;
  line(true, "carbide", std::string(version()) + " (Clang " CARBIDE_CLANG_VERSION ")");

  std::string why;
  if (auto nvcc = nvcc::find_nvcc(options.nvcc, why)) {
    line(true, "nvcc", *nvcc + " (CUDA " + nvcc::nvcc_version(*nvcc) + ")");
  } else {
    line(false, "nvcc", why);
    healthy = false;
  }

  const bool headers = llvm::sys::fs::exists(options.frontend.include_dir + "/carbide/carbide.hpp");
  line(headers, "Carbide headers",
       headers ? options.frontend.include_dir
               : "carbide/carbide.hpp is not in " + options.frontend.include_dir +
                     "; reinstall Carbide");
  healthy = healthy && headers;

  const bool resource = llvm::sys::fs::exists(options.frontend.resource_dir + "/include/stddef.h");
  line(resource, "Clang resource directory",
       resource ? options.frontend.resource_dir
                : options.frontend.resource_dir + " has no builtin headers; install libclang-common-19-dev");
  healthy = healthy && resource;

  const std::string cxx = host_compiler();
  line(!cxx.empty(), "host compiler", cxx.empty() ? "none found; install g++ or set CXX" : cxx);
  healthy = healthy && !cxx.empty();

  // A machine without a GPU still translates; it only cannot run what it builds.
  const int devices = Context::device_count();
  if (devices == 0) {
    line(true, "GPU", "none here (" + Context::unavailable_reason() +
                          "); translation works, and programs run their kernels on the CPU (CARBIDE_DEVICE=cpu)");
  }
  for (int ordinal = 0; ordinal < devices; ++ordinal) {
    const DeviceLimits& limits = Context::create(ordinal).limits();
    line(true, "GPU " + std::to_string(ordinal),
         limits.name + " (sm_" + std::to_string(limits.compute_capability) + ")");
  }
  return healthy ? 0 : 1;
}

}  // namespace carbide::commands
