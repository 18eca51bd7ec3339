#include "output/atomic_output.hpp"

#include "support/owned_dirs.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Signals.h>
#include <llvm/Support/raw_ostream.h>

namespace carbide::output {
namespace {

constexpr const char* kStagingPrefix = ".carbide-staging";

// Removes the staging directory however write_set leaves.
class StagingDir {
 public:
  explicit StagingDir(const std::string& directory)
      : path_(support::create_owned_dir(directory, kStagingPrefix)) {}
  ~StagingDir() {
    if (!path_.empty()) llvm::sys::fs::remove_directories(path_, /*IgnoreErrors=*/true);
  }
  const std::string& path() const { return path_; }
  std::string file(const std::string& target) const {
    return path_ + "/" + llvm::sys::path::filename(target).str();
  }

 private:
  std::string path_;
};

std::string write_file(const std::string& path, const std::string& content) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error);  // 0666 less the umask, as a compiler's outputs
  if (error) return "cannot write '" + path + "': " + error.message();
  llvm::sys::RemoveFileOnSignal(path);
  out << content;
  out.close();
  if (out.has_error()) {
    const std::string message = out.error().message();
    out.clear_error();
    return "cannot write '" + path + "': " + message;
  }
  return "";
}

std::string rename_into_place(const std::string& staged, const std::string& target) {
  if (std::error_code error = llvm::sys::fs::rename(staged, target))
    return "cannot rename into '" + target + "': " + error.message();
  llvm::sys::DontRemoveFileOnSignal(staged);
  return "";
}

}  // namespace

std::string write_set(const std::string& directory, const std::vector<OutputFile>& files,
                      const std::optional<OutputFile>& manifest) {
  // all_all: the umask decides, as it does for the directories `mkdir -p` makes.
  if (std::error_code error = llvm::sys::fs::create_directories(
          directory, /*IgnoreExisting=*/true, llvm::sys::fs::all_all))
    return "cannot create output directory '" + directory + "': " + error.message();
  support::remove_abandoned_dirs(directory, kStagingPrefix);
  const StagingDir staging(directory);
  if (staging.path().empty()) return "cannot create a staging directory in '" + directory + "'";
  for (const OutputFile& file : files)
    if (std::string error = write_file(staging.file(file.path), file.content); !error.empty())
      return error;
  if (manifest) {
    if (std::string error = write_file(staging.file(manifest->path), manifest->content); !error.empty())
      return error;
    if (std::error_code error = llvm::sys::fs::remove(manifest->path))
      return "cannot remove '" + manifest->path + "': " + error.message();
  }
  for (const OutputFile& file : files)
    if (std::string error = rename_into_place(staging.file(file.path), file.path); !error.empty())
      return error;
  if (manifest) return rename_into_place(staging.file(manifest->path), manifest->path);
  return "";
}

}  // namespace carbide::output
