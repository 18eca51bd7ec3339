// Runs nvcc on the generated CUDA C++ and reads its messages back as locations in the user's
// file (the generated code's #line directives make nvcc name them).
#pragma once

#include "nvcc/nvcc_messages.hpp"

#include "nvcc/ptx_directives.hpp"

#include <optional>
#include <string>
#include <vector>

namespace carbide::nvcc {

struct NvccOptions {
  std::string nvcc;  // explicit path; "" to search CUDA_HOME, PATH and /usr/local/cuda
  // What nvcc runs under, as `LAUNCHER... nvcc ...` (ccache, sccache): a program and its own
  // arguments, as CMAKE_CUDA_COMPILER_LAUNCHER lists them; empty for none. It takes no part in
  // the image's key: a launcher that changed what nvcc makes would be a broken one.
  std::vector<std::string> launcher;
  // Loads on every GPU from sm_80: cubins for the common architectures, PTX for the newest.
  std::vector<std::string> archs{"sm_80", "sm_86", "sm_89", "sm_90"};
  std::string include_dir;  // Carbide's runtime headers
  unsigned timeout_seconds = 600;  // per nvcc, ptxas or fatbinary run; 0 waits for ever
  bool line_info = false;     // -lineinfo: profilers and debuggers map PTX to the user's lines
  bool device_debug = false;  // -G: unoptimized, steppable device code
  std::vector<std::string> extra_flags;  // the user's own, for nvcc's compile
};

// A previous translation's image and the key it was built under.
struct ReusableImage {
  std::string key;
  std::string ptx;
  std::string fatbin;  // "" when it has none
};

struct NvccResult {
  bool ok = false;
  std::string ptx;     // for the first architecture
  std::string fatbin;  // only when several architectures were asked for
  std::string version; // "13.0"
  std::string cache_key;  // what the image depends on, hashed; the output manifest records it
  bool reused = false;    // the previous translation's image was still right
  std::vector<NvccMessage> messages;
  std::string failure;  // why nvcc could not run or what it said that had no location
};

// Finds nvcc; nullopt with `why` when there is none.
std::optional<std::string> find_nvcc(const NvccOptions& options, std::string& why);
// The probes below ask nvcc about itself, each within `timeout_seconds` (probe_timeout's): an
// nvcc that hangs must not hang the translation before its compile's own limit applies.
std::string nvcc_version(const std::string& nvcc, unsigned timeout_seconds = 60);
// The include directory of the toolkit `nvcc` belongs to ("" when it cannot be told), whether
// nvcc is the toolkit's own binary, a link to it, or a wrapper script elsewhere.
std::string toolkit_include_dir(const std::string& nvcc, unsigned timeout_seconds = 60);
// A probe's limit: --nvcc-timeout, at most a minute (a probe takes well under a second).
unsigned probe_timeout(const NvccOptions& options);

// The text of Carbide's device headers under `include_dir`/carbide, in name order: generated
// device code includes them, so an image is only as current as they are.
std::string device_headers(const std::string& include_dir);

// PTX for each architecture, with `exact_blocks` required of their entries; with several
// architectures, a fatbin of their cubins (ptxas) and the newest one's PTX (fatbinary).
// When `previous` was made from the same device code, architectures and nvcc (its key is this
// compile's), its image is reused and nvcc does not run. nvcc sees only names Carbide made, in a
// private scratch folder that is also its TMPDIR: none of the user's names reach its shell.
NvccResult compile(const NvccOptions& options, const std::string& cuda_source,
                   const ExactBlocks& exact_blocks, const std::optional<ReusableImage>& previous);

}  // namespace carbide::nvcc
