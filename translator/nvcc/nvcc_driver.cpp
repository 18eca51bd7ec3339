#include "nvcc/nvcc_driver.hpp"

#include "support/file_names.hpp"
#include "support/owned_dirs.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <unistd.h>  // environ

namespace carbide::nvcc {
namespace {

std::string read_file(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

constexpr const char* kScratchPrefix = "carbide_scratch";

// A scratch directory in $TMPDIR, removed with everything in it when this goes out of scope (and
// by a later run when this one is killed first).
class ScratchDir {
 public:
  ScratchDir() {
    support::remove_abandoned_dirs("", kScratchPrefix);
    path_ = support::create_owned_dir("", kScratchPrefix);
  }
  ~ScratchDir() {
    if (!path_.empty()) llvm::sys::fs::remove_directories(path_);
  }
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

bool write_file(const std::string& path, const std::string& content, std::string& failure) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error);
  if (error) failure = "cannot write " + path + ": " + error.message();
  else out << content;
  return !error;
}

struct RunResult {
  int exit_code = -1;
  std::string output;
  std::string error;
};

// This process's environment with TMPDIR set to `temporary_dir` (unchanged when it is ""):
// nvcc names its intermediate files after TMPDIR and hands those names to a shell.
std::vector<std::string> environment_with_tmpdir(const std::string& temporary_dir) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry)
    if (temporary_dir.empty() || !llvm::StringRef(*entry).starts_with("TMPDIR="))
      environment.push_back(*entry);
  if (!temporary_dir.empty()) environment.push_back("TMPDIR=" + temporary_dir);
  return environment;
}

// Runs `program args`, in `working_dir` when one is given: through env(1)'s --chdir, since
// LLVM's ExecuteAndWait takes no working directory and changing this process's own would race
// the other files' translations.
RunResult run(const std::string& program, const std::vector<std::string>& args,
              const std::string& log_path, unsigned timeout_seconds,
              const std::string& temporary_dir = "", const std::string& working_dir = "") {
  std::string executable = program;
  std::vector<llvm::StringRef> argv;
  if (!working_dir.empty()) {
    auto env = llvm::sys::findProgramByName("env");
    if (!env) {
      RunResult result;
      result.error = "env(1) was not found on PATH, to run " + program + " in its scratch folder";
      return result;
    }
    executable = *env;
    argv = {executable, "--chdir", working_dir};
  }
  argv.push_back(program);
  for (const std::string& arg : args) argv.push_back(arg);
  const std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log_path),
                                                      llvm::StringRef(log_path)};
  const std::vector<std::string> environment = environment_with_tmpdir(temporary_dir);
  const std::vector<llvm::StringRef> environment_refs(environment.begin(), environment.end());
  RunResult result;
  result.exit_code = llvm::sys::ExecuteAndWait(executable, argv, environment_refs, redirects,
                                               timeout_seconds, 0, &result.error);
  if (result.exit_code == -2 && timeout_seconds > 0)  // ExecuteAndWait's "timed out", child killed
    result.error = llvm::sys::path::filename(program).str() + " did not finish within " +
                   std::to_string(timeout_seconds) +
                   " s and was stopped; raise the limit with --nvcc-timeout SECONDS (0: none)";
  result.output = read_file(log_path);
  return result;
}

std::string compute_arch(const std::string& arch) {
  return "compute_" + (llvm::StringRef(arch).starts_with("sm_") ? arch.substr(3) : arch);
}

}  // namespace

std::optional<std::string> find_nvcc(const NvccOptions& options, std::string& why) {
  if (!options.nvcc.empty()) {
    // Absolute, since nvcc runs in a scratch folder: `--nvcc tools/nvcc` names it from here. A
    // bare name is looked up on PATH, as a shell would.
    llvm::SmallString<256> given(options.nvcc);
    if (llvm::sys::fs::can_execute(given) && given.str().contains('/')) {
      llvm::sys::fs::make_absolute(given);
      return given.str().str();
    }
    if (!given.str().contains('/'))
      if (auto found = llvm::sys::findProgramByName(options.nvcc)) return *found;
    why = "'" + options.nvcc + "' (given with --nvcc) is not an executable";
    return std::nullopt;
  }
  if (const char* home = std::getenv("CUDA_HOME")) {
    const std::string candidate = std::string(home) + "/bin/nvcc";
    if (llvm::sys::fs::can_execute(candidate)) return candidate;
  }
  if (auto found = llvm::sys::findProgramByName("nvcc")) return *found;
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  why = "nvcc was not found on PATH, in $CUDA_HOME/bin or in /usr/local/cuda/bin; install the "
        "CUDA toolkit or pass --nvcc PATH";
  return std::nullopt;
}

unsigned probe_timeout(const NvccOptions& options) {
  return options.timeout_seconds == 0 ? 60u : std::min(options.timeout_seconds, 60u);
}

std::string nvcc_version(const std::string& nvcc, unsigned timeout_seconds) {
  ScratchDir scratch;
  const RunResult result = run(nvcc, {"--version"}, scratch.file("version.txt"), timeout_seconds);
  return release_of(result.output).value_or("unknown");
}

namespace {

bool holds_cuda_headers(const llvm::Twine& dir) {
  return llvm::sys::fs::exists(dir + "/cuda_runtime.h");
}

// The toolkit root nvcc itself names in a dry run ("#$ TOP=/usr/local/cuda-13.0/bin/.."): the
// answer for an nvcc that is a wrapper script in another directory (/usr/local/bin/nvcc).
std::string toolkit_top(const std::string& nvcc, unsigned timeout_seconds) {
  ScratchDir scratch;
  const RunResult result =
      run(nvcc, {"--dryrun", "-x", "cu", "-E", "/dev/null"}, scratch.file("dryrun.txt"), timeout_seconds);
  llvm::StringRef rest(result.output);
  while (!rest.empty()) {
    auto [line, after] = rest.split('\n');
    rest = after;
    if (line.consume_front("#$ TOP=")) return line.trim().str();
  }
  return "";
}

}  // namespace

std::string toolkit_include_dir(const std::string& nvcc, unsigned timeout_seconds) {
  llvm::SmallString<256> resolved;  // through links such as /usr/bin/nvcc -> the toolkit's bin/
  if (llvm::sys::fs::real_path(nvcc, resolved)) resolved = nvcc;
  llvm::SmallString<256> beside(llvm::sys::path::parent_path(llvm::sys::path::parent_path(resolved)));
  llvm::sys::path::append(beside, "include");
  if (holds_cuda_headers(beside)) return beside.str().str();
  const std::string top = toolkit_top(nvcc, timeout_seconds);
  if (top.empty()) return "";
  llvm::SmallString<256> named;
  if (llvm::sys::fs::real_path(top + "/include", named)) return "";
  return holds_cuda_headers(named) ? named.str().str() : "";
}

namespace {

// The name nvcc sees for Carbide's runtime headers: a link in the scratch folder. nvcc escapes
// '$' in an -I value but not '`', so the real folder's path, wherever Carbide was installed,
// never reaches its shell.
constexpr const char* kIncludeLink = "carbide-include";
// The generated device code's name in the scratch folder, whatever the user's file is called.
constexpr const char* kScratchSource = "module.carbide.cu";

// What the device code is compiled with besides the architecture and the output.
std::vector<std::string> compile_flags(const NvccOptions& options, const std::string& include_dir) {
  std::vector<std::string> flags = {"-std=c++17", "--expt-relaxed-constexpr", "-I" + include_dir};
  if (options.line_info) flags.push_back("-lineinfo");
  if (options.device_debug) flags.push_back("-G");
  flags.insert(flags.end(), options.extra_flags.begin(), options.extra_flags.end());
  return flags;
}

std::string cache_key(const NvccOptions& options, const std::string& nvcc,
                      const std::string& version, const std::string& cuda_source,
                      const ExactBlocks& exact_blocks) {
  std::string material = nvcc + "\n" + version + "\n" + options.include_dir + "\n" +
                         device_headers(options.include_dir) + "\n";
  for (const std::string& arch : options.archs) material += arch + ",";
  for (const std::string& flag : compile_flags(options, options.include_dir)) material += "\n" + flag;
  for (const auto& [entry, block] : exact_blocks)
    material += "\n" + entry + ":" + std::to_string(block[0]) + "," + std::to_string(block[1]) +
                "," + std::to_string(block[2]);
  material += "\n" + cuda_source;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(llvm::xxh3_64bits(llvm::StringRef(material))));
  return hex;
}

}  // namespace

std::string device_headers(const std::string& include_dir) {
  std::vector<std::string> paths;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(include_dir + "/carbide", error), end; it != end && !error;
       it.increment(error))
    paths.push_back(it->path());
  std::sort(paths.begin(), paths.end());
  std::string text;
  for (const std::string& path : paths) text += path + "\n" + read_file(path) + "\n";
  return text;
}

NvccResult compile(const NvccOptions& options, const std::string& cuda_source,
                   const ExactBlocks& exact_blocks, const std::optional<ReusableImage>& previous) {
  NvccResult result;
  std::string why;
  const auto nvcc = find_nvcc(options, why);
  if (!nvcc) {
    result.failure = why;
    return result;
  }
  result.version = nvcc_version(*nvcc, probe_timeout(options));
  result.cache_key = cache_key(options, *nvcc, result.version, cuda_source, exact_blocks);
  // The key covers the architectures, so a reusable image already has the fatbin it needs.
  if (previous && previous->key == result.cache_key) {
    result.ptx = previous->ptx;
    result.fatbin = previous->fatbin;
    result.ok = result.reused = true;
    return result;
  }
  ScratchDir scratch;
  if (scratch.path().empty()) {
    result.failure = "cannot create a temporary directory for nvcc";
    return result;
  }
  // Every path nvcc sees lies in this folder, under a name Carbide chose.
  if (!support::is_plain_path(scratch.path())) {
    result.failure = "the temporary folder " + scratch.path() +
                     " holds characters other than letters, digits and /._+-, which nvcc would "
                     "hand to a shell; set TMPDIR to a folder with a plain path";
    return result;
  }
  const std::string source = scratch.file(kScratchSource);
  if (!write_file(source, cuda_source, result.failure)) return result;
  const std::string include_link = scratch.file(kIncludeLink);
  if (std::error_code error = llvm::sys::fs::create_link(options.include_dir, include_link)) {
    result.failure = "cannot link " + include_link + " to Carbide's headers: " + error.message();
    return result;
  }
  const std::string tools = llvm::sys::path::parent_path(*nvcc).str();
  // nvcc's arguments as the launcher takes them: its own words, then nvcc's command.
  const std::vector<std::string>& launcher = options.launcher;
  auto launched = [&](const std::vector<std::string>& args) {
    if (launcher.empty()) return args;
    std::vector<std::string> command(launcher.begin() + 1, launcher.end());
    command.push_back(*nvcc);
    command.insert(command.end(), args.begin(), args.end());
    return command;
  };

  // Runs a CUDA tool in the scratch folder; its located messages become findings, anything else
  // a failure.
  auto run_tool = [&](const std::string& program, const std::vector<std::string>& args,
                      const std::string& log) {
    const RunResult run_result =
        run(program, args, scratch.file(log), options.timeout_seconds, scratch.path(), scratch.path());
    auto messages = parse_messages(run_result.output);
    result.messages.insert(result.messages.end(), messages.begin(), messages.end());
    if (run_result.exit_code != 0 && messages.empty())
      result.failure = run_result.error.empty() ? run_result.output : run_result.error;
    return run_result.exit_code == 0;
  };

  std::vector<std::string> fatbin_images;
  for (std::size_t i = 0; i < options.archs.size(); ++i) {
    const std::string& arch = options.archs[i];
    const std::string ptx_path = scratch.file(arch + ".ptx");
    // Warnings come once, from the first architecture's pass.
    const std::size_t known = result.messages.size();
    // Names relative to the scratch folder, where nvcc runs: the command and its inputs are the
    // same wherever the checkout and $TMPDIR lie, so a launcher finds its earlier result. `-c`
    // makes it a compile to launchers that cache only compiles (ccache); nvcc stops at -ptx.
    std::vector<std::string> args = {"-c", "-ptx", "-arch=" + compute_arch(arch)};
    for (const std::string& flag : compile_flags(options, kIncludeLink)) args.push_back(flag);
    args.insert(args.end(), {"-o", arch + ".ptx", kScratchSource});
    if (!run_tool(launcher.empty() ? *nvcc : launcher.front(), launched(args), arch + ".log"))
      return result;
    if (i > 0) result.messages.resize(known);
    std::string missing;
    const std::string ptx = require_exact_blocks(read_file(ptx_path), exact_blocks, missing);
    if (!missing.empty()) {
      result.failure = "nvcc emitted no .maxntid for entry " + missing + " to make exact";
      return result;
    }
    if (i == 0) result.ptx = ptx;
    if (options.archs.size() == 1) break;
    if (!write_file(ptx_path, ptx, result.failure)) return result;
    const std::string cubin = scratch.file(arch + ".cubin");
    std::vector<std::string> ptxas_args = {"-arch=" + arch, "-o", cubin, ptx_path};
    if (options.line_info) ptxas_args.push_back("-lineinfo");
    if (options.device_debug) ptxas_args.push_back("-g");
    if (!run_tool(tools + "/ptxas", ptxas_args, arch + ".ptxas.log")) return result;
    const std::string number = arch.substr(3);
    fatbin_images.push_back("--image3=kind=elf,sm=" + number + ",file=" + cubin);
    if (i + 1 == options.archs.size())
      fatbin_images.push_back("--image3=kind=ptx,sm=" + number + ",file=" + ptx_path);
  }
  if (!fatbin_images.empty()) {
    const std::string fatbin = scratch.file("module.fatbin");
    std::vector<std::string> args = {"--create=" + fatbin, "-64"};
    args.insert(args.end(), fatbin_images.begin(), fatbin_images.end());
    if (!run_tool(tools + "/fatbinary", args, "fatbinary.log")) return result;
    result.fatbin = read_file(fatbin);
  }
  result.ok = true;
  return result;
}

}  // namespace carbide::nvcc
