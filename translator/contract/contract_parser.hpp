// Parses the text of CARBIDE_LAUNCH_CONTRACT: `domain = 1, block = (256, 1, 1)`.
// Pure: names are resolved through a callback, so the parser is tested without Clang.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace carbide::contract {

struct Contract {
  int domain = 0;
  std::array<std::uint64_t, 3> block{1, 1, 1};
  std::uint64_t dynamic_shared_bytes = 0;
  int min_compute = 0;
  int index_bits = 64;  // 32: the kernel's indexes are computed in 32 bits, which the launch checks fit
  // A 1-D view parameter whose length the grid's threads must equal exactly (the launch checks),
  // so that every index_1d() witness lies inside it; empty when not asked for.
  std::string covers;
};

// What a name in the contract stands for: an integer, or why it is not one.
using NameValue = std::variant<std::int64_t, std::string>;
using NameResolver = std::function<NameValue(std::string_view name)>;

struct ContractError {
  std::string message;
  std::string fix;  // what to write instead
};

using ContractResult = std::variant<Contract, ContractError>;

ContractResult parse_contract(std::string_view text, const NameResolver& resolve);

}  // namespace carbide::contract
