#include "output/atomic_output.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

namespace carbide::output {
std::string write_all(const std::string& directory, const std::vector<OutputFile>& files) {
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return "cannot create output directory '" + directory + "': " + error.message();
  std::vector<std::pair<std::string, std::string>> staged;  // temporary, final
  auto discard = [&] {
    for (const auto& [temporary, final_path] : staged) llvm::sys::fs::remove(temporary);
  };
  for (const OutputFile& file : files) {
    llvm::SmallString<256> temporary;
    int fd = -1;
    if (std::error_code error = llvm::sys::fs::createUniqueFile(file.path + ".tmp-%%%%%%", fd,
                                                                temporary)) {
      discard();
      return "cannot write into '" + directory + "': " + error.message();
    }
    staged.emplace_back(temporary.str().str(), file.path);
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << file.content;
    out.close();
    if (out.has_error()) {
      const std::string message = out.error().message();
      out.clear_error();
      discard();
      return "cannot write '" + file.path + "': " + message;
    }
  }
  for (const auto& [temporary, final_path] : staged) {
    if (std::error_code error = llvm::sys::fs::rename(temporary, final_path)) {
      discard();
      return "cannot rename into '" + final_path + "': " + error.message();
    }
  }
  return "";
}

}  // namespace carbide::output
