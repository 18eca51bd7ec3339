// The record of one translation's output set, written last into the output directory (as
// .<stem>.carbide-manifest): the nvcc cache key of its image and the BLAKE3 hash of every file.
// A later translation reuses the image only when the manifest is there and the image files on
// disk still hash to what it says, so a truncated, edited or half-replaced image is never
// embedded again.
#pragma once

#include "nvcc/nvcc_driver.hpp"
#include "output/atomic_output.hpp"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace carbide::output {

// BLAKE3, 128 bits, in hex.
std::string content_hash(llvm::StringRef bytes);

std::string manifest_path(const std::string& directory, const std::string& stem);

// The manifest of `files` (in `directory`) whose image was built under `image_key`.
OutputFile make_manifest(const std::string& directory, const std::string& stem,
                         const std::string& image_key, const std::vector<OutputFile>& files);

// The image of the set in `directory` for `stem`, when its manifest is there and its .ptx (and
// .fatbin) are byte for byte what the manifest recorded.
std::optional<nvcc::ReusableImage> read_previous_image(const std::string& directory, const std::string& stem);

}  // namespace carbide::output
