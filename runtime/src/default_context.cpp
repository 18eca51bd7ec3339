// Context::create_default (DESIGN §11): GPU 0 where there is one, else the CPU, or what
// CARBIDE_DEVICE says.
#include <carbide/runtime.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace carbide {

namespace {

// "gpu:N" -> N; -1 when `choice` is not of that form.
int gpu_ordinal(const std::string& choice) {
  const std::string prefix = "gpu:";
  if (choice.compare(0, prefix.size(), prefix) != 0 || choice.size() == prefix.size() || choice.size() > prefix.size() + 9)
    return -1;
  for (std::size_t i = prefix.size(); i < choice.size(); ++i)
    if (choice[i] < '0' || choice[i] > '9') return -1;
  return std::stoi(choice.substr(prefix.size()));
}

}  // namespace

Context Context::create_default() {
  if (const char* forced = std::getenv("CARBIDE_DEVICE"); forced != nullptr && *forced != '\0') {
    const std::string choice = forced;
    if (choice == "cpu") {
      std::fprintf(stderr, "carbide: running kernels on the CPU (CARBIDE_DEVICE=cpu)\n");
      return create_cpu();
    }
    if (choice == "gpu") return create(0);
    if (const int ordinal = gpu_ordinal(choice); ordinal >= 0) return create(ordinal);
    throw Error("CARBIDE_DEVICE=" + choice + ": expected cpu, gpu or gpu:N (N the ordinal of a CUDA device)");
  }
  if (device_count() > 0) return create(0);
  std::fprintf(stderr, "carbide: no CUDA device (%s); running kernels on the CPU\n", unavailable_reason().c_str());
  return create_cpu();
}

}  // namespace carbide
