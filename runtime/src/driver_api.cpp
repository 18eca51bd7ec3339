#include "driver_api.hpp"

#include <carbide/errors.hpp>

#include <dlfcn.h>

namespace carbide::detail {
namespace {

#define CARBIDE_STRINGIFY_EXPANDED(x) CARBIDE_STRINGIFY(x)
#define CARBIDE_STRINGIFY(x) #x

struct LoadResult {
  DriverApi api;
  bool loaded = false;
  std::string why;
};

LoadResult load() {
  LoadResult result;
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    result.why = "the CUDA driver (libcuda.so.1) is not installed";
    return result;
  }
#define CARBIDE_RESOLVE_DRIVER_FUNCTION(name)                                           \
  result.api.name = reinterpret_cast<decltype(result.api.name)>(                        \
      dlsym(library, CARBIDE_STRINGIFY_EXPANDED(name)));                                 \
  if (result.api.name == nullptr) {                                                      \
    result.why = "the CUDA driver lacks " CARBIDE_STRINGIFY_EXPANDED(name) "; update it"; \
    return result;                                                                       \
  }
  CARBIDE_DRIVER_FUNCTIONS(CARBIDE_RESOLVE_DRIVER_FUNCTION)
#undef CARBIDE_RESOLVE_DRIVER_FUNCTION
  result.loaded = true;
  return result;
}

}  // namespace

const DriverApi* try_driver(std::string* why) {
  static const LoadResult result = load();
  if (!result.loaded && why != nullptr) *why = result.why;
  return result.loaded ? &result.api : nullptr;
}

const DriverApi& driver() {
  std::string why;
  if (const DriverApi* api = try_driver(&why)) return *api;
  throw DriverError(int(CUDA_ERROR_NO_DEVICE), "CUDA_ERROR_NO_DEVICE", "loading the CUDA driver", why);
}

}  // namespace carbide::detail
