#include "support/owned_dirs.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace carbide::support {
namespace {

// Absolute: LLVM makes unique names under relative models in $TMPDIR, not beside them.
std::string resolve_parent(const std::string& parent) {
  llvm::SmallString<256> directory(parent);
  if (parent.empty()) llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, directory);
  llvm::sys::fs::make_absolute(directory);
  return directory.str().str();
}

bool process_is_gone(pid_t pid) { return ::kill(pid, 0) == -1 && errno == ESRCH; }

}  // namespace

std::string create_owned_dir(const std::string& parent, const std::string& prefix) {
  llvm::SmallString<256> model(resolve_parent(parent));
  llvm::sys::path::append(model, prefix + "-" + std::to_string(::getpid()));
  llvm::SmallString<256> created;
  if (llvm::sys::fs::createUniqueDirectory(model, created)) return "";
  return created.str().str();
}

void remove_abandoned_dirs(const std::string& parent, const std::string& prefix) {
  const std::string directory = resolve_parent(parent);
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(directory, error), end; it != end && !error;
       it.increment(error)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!name.consume_front(prefix + "-")) continue;
    unsigned long long pid = 0;
    // <pid>-XXXXXX: the pid ends at the dash before the unique suffix.
    if (name.consumeInteger(10, pid) || !name.starts_with("-") || pid == 0) continue;
    // Only a real directory of this user: never a symlink someone planted in a shared $TMPDIR.
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(it->path(), status, /*Follow=*/false) ||
        status.type() != llvm::sys::fs::file_type::directory_file || status.getUser() != ::getuid())
      continue;
    if (process_is_gone(pid_t(pid))) llvm::sys::fs::remove_directories(it->path(), /*IgnoreErrors=*/true);
  }
}

}  // namespace carbide::support
