#include <carbide/errors.hpp>

#include <utility>

namespace carbide {

DriverError::DriverError(int result, std::string result_name, const std::string& call,
                         const std::string& detail)
    : Error(call + " failed: " + result_name + " (" + std::to_string(result) + ")" +
            (detail.empty() ? "" : ": " + detail)),
      result_(result),
      result_name_(std::move(result_name)) {}

LaunchContractError::LaunchContractError(std::string kernel, std::string field,
                                         std::string expected, std::string got)
    : Error("launch of " + kernel + " rejected: " + field + " must be " + expected + ", got " +
            got),
      kernel_(std::move(kernel)),
      field_(std::move(field)),
      expected_(std::move(expected)),
      got_(std::move(got)) {}

AliasingError::AliasingError(std::string kernel, std::string exclusive_param,
                             std::string other_param)
    : Error("launch of " + kernel + " rejected: exclusive parameter '" + exclusive_param +
            "' overlaps the memory of parameter '" + other_param +
            "'; pass distinct buffers"),
      kernel_(std::move(kernel)),
      exclusive_param_(std::move(exclusive_param)),
      other_param_(std::move(other_param)) {}

}  // namespace carbide
