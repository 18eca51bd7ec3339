#include "output/manifest.hpp"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/BLAKE3.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <map>

namespace carbide::output {
namespace {

constexpr llvm::StringLiteral kHeader = "carbide manifest 1";
constexpr llvm::StringLiteral kKeyField = "image-key ";

std::optional<std::string> read_bytes(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer) return std::nullopt;
  return (*buffer)->getBuffer().str();
}

}  // namespace

std::string content_hash(llvm::StringRef bytes) {
  const auto digest = llvm::BLAKE3::hash<16>(llvm::arrayRefFromStringRef(bytes));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string manifest_path(const std::string& directory, const std::string& stem) {
  return directory + "/." + stem + ".carbide-manifest";
}

OutputFile make_manifest(const std::string& directory, const std::string& stem,
                         const std::string& image_key, const std::vector<OutputFile>& files) {
  std::string text = kHeader.str() + "\n" + kKeyField.str() + image_key + "\n";
  for (const OutputFile& file : files)
    text += content_hash(file.content) + " " + llvm::sys::path::filename(file.path).str() + "\n";
  return {manifest_path(directory, stem), text};
}

std::optional<nvcc::ReusableImage> read_previous_image(const std::string& directory, const std::string& stem) {
  const std::optional<std::string> text = read_bytes(manifest_path(directory, stem));
  if (!text) return std::nullopt;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(*text).split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.size() < 2 || lines[0] != kHeader || !lines[1].starts_with(kKeyField)) return std::nullopt;
  nvcc::ReusableImage image;
  image.key = lines[1].drop_front(kKeyField.size()).str();
  std::map<std::string, std::string> hashes;  // file name → hash
  for (llvm::StringRef line : llvm::ArrayRef(lines).drop_front(2)) {
    auto [hash, name] = line.split(' ');
    hashes[name.str()] = hash.str();
  }
  // The image is the .ptx, or the .fatbin beside it when the set has one.
  auto verified = [&](const std::string& name, std::string& into) {
    const auto bytes = read_bytes(directory + "/" + name);
    if (!bytes || content_hash(*bytes) != hashes[name]) return false;
    into = *bytes;
    return true;
  };
  if (!hashes.count(stem + ".ptx") || !verified(stem + ".ptx", image.ptx)) return std::nullopt;
  if (hashes.count(stem + ".fatbin") && !verified(stem + ".fatbin", image.fatbin)) return std::nullopt;
  return image;
}

}  // namespace carbide::output
