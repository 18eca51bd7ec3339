#include "nvcc/nvcc_driver.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <regex>

namespace carbide::nvcc {
namespace {

std::string read_file(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

// A scratch directory removed with everything in it when this goes out of scope.
class ScratchDir {
 public:
  ScratchDir() {
    llvm::SmallString<128> dir;
    if (!llvm::sys::fs::createUniqueDirectory("carbide-scratch", dir)) path_ = dir.str().str();
  }
  ~ScratchDir() {
    if (!path_.empty()) llvm::sys::fs::remove_directories(path_);
  }
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

struct RunResult {
  int exit_code = -1;
  std::string output;
  std::string error;
};

RunResult run(const std::string& program, const std::vector<std::string>& args,
              const std::string& log_path) {
  std::vector<llvm::StringRef> argv = {program};
  for (const std::string& arg : args) argv.push_back(arg);
  const std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log_path),
                                                      llvm::StringRef(log_path)};
  RunResult result;
  result.exit_code =
      llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects, 0, 0, &result.error);
  result.output = read_file(log_path);
  return result;
}

std::vector<NvccMessage> parse_messages(const std::string& output) {
  // nvcc's front end writes `file(line): error: ...`; its preprocessor, `file:line:col: error: ...`.
  static const std::regex front_end(R"(^(.+)\((\d+)\): (error|warning)( #[0-9A-Za-z-]+)?: (.*)$)");
  static const std::regex preprocessor(R"(^(.+):(\d+):\d+: (error|warning)(): (.*)$)");
  std::vector<NvccMessage> messages;
  llvm::StringRef rest(output);
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    rest = tail;
    std::smatch match;
    const std::string text = line.rtrim().str();
    if (std::regex_match(text, match, front_end) || std::regex_match(text, match, preprocessor))
      messages.push_back({match[1], unsigned(std::stoul(match[2])), match[3] == "error", match[5]});
  }
  return messages;
}

std::string compute_arch(const std::string& arch) {
  return "compute_" + (llvm::StringRef(arch).starts_with("sm_") ? arch.substr(3) : arch);
}

}  // namespace

std::optional<std::string> find_nvcc(const NvccOptions& options, std::string& why) {
  if (!options.nvcc.empty()) {
    if (llvm::sys::fs::can_execute(options.nvcc)) return options.nvcc;
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

std::string nvcc_version(const std::string& nvcc) {
  ScratchDir scratch;
  const RunResult result = run(nvcc, {"--version"}, scratch.file("version.txt"));
  static const std::regex release(R"(release ([0-9]+\.[0-9]+))");
  std::smatch match;
  if (std::regex_search(result.output, match, release)) return match[1];
  return "unknown";
}

NvccResult compile(const NvccOptions& options, const std::string& cuda_source,
                   const std::string& cu_file_name) {
  NvccResult result;
  std::string why;
  const auto nvcc = find_nvcc(options, why);
  if (!nvcc) {
    result.failure = why;
    return result;
  }
  result.version = nvcc_version(*nvcc);
  ScratchDir scratch;
  if (scratch.path().empty()) {
    result.failure = "cannot create a temporary directory for nvcc";
    return result;
  }
  const std::string source = scratch.file(cu_file_name);
  {
    std::error_code error;
    llvm::raw_fd_ostream out(source, error);
    if (error) {
      result.failure = "cannot write " + source + ": " + error.message();
      return result;
    }
    out << cuda_source;
  }
  const std::vector<std::string> common = {"-std=c++17", "--expt-relaxed-constexpr",
                                           "-I" + options.include_dir, source};
  auto compile_to = [&](std::vector<std::string> args, const std::string& log) {
    args.insert(args.end(), common.begin(), common.end());
    const RunResult run_result = run(*nvcc, args, scratch.file(log));
    auto messages = parse_messages(run_result.output);
    result.messages.insert(result.messages.end(), messages.begin(), messages.end());
    if (run_result.exit_code != 0 && messages.empty())
      result.failure = run_result.error.empty() ? run_result.output : run_result.error;
    return run_result.exit_code == 0;
  };
  const std::string& first = options.archs.front();
  if (!compile_to({"-ptx", "-arch=" + compute_arch(first), "-o", scratch.file("module.ptx")},
                  "ptx.log"))
    return result;
  result.ptx = read_file(scratch.file("module.ptx"));
  if (options.archs.size() > 1) {
    std::vector<std::string> args = {"-fatbin", "-o", scratch.file("module.fatbin")};
    for (const std::string& arch : options.archs)
      args.push_back("-gencode=arch=" + compute_arch(arch) + ",code=[" + arch + "," +
                     compute_arch(arch) + "]");
    // The PTX pass already reported the warnings; the fatbin pass would repeat them.
    const std::size_t known = result.messages.size();
    if (!compile_to(args, "fatbin.log")) return result;
    result.messages.resize(known);
    result.fatbin = read_file(scratch.file("module.fatbin"));
  }
  result.ok = true;
  return result;
}

}  // namespace carbide::nvcc
