#include "contract/contract_parser.hpp"

#include <cctype>
#include <cstdint>
#include <set>
#include <vector>

namespace carbide::contract {
namespace {

constexpr std::string_view kFields[] = {"domain", "block", "dynamic_shared", "min_compute", "index_bits", "covers"};
constexpr std::string_view kFieldList = "domain, block, dynamic_shared, min_compute, index_bits, covers";

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

bool add(std::int64_t a, std::int64_t b, std::int64_t* sum) { return __builtin_add_overflow(a, b, sum); }
bool subtract(std::int64_t a, std::int64_t b, std::int64_t* difference) {
  return __builtin_sub_overflow(a, b, difference);
}
bool multiply(std::int64_t a, std::int64_t b, std::int64_t* product) {
  return __builtin_mul_overflow(a, b, product);
}

struct Failure {
  ContractError error;
};

class Parser {
 public:
  Parser(std::string_view text, const NameResolver& resolve) : text_(text), resolve_(resolve) {}

  Contract parse() {
    Contract contract;
    std::set<std::string> seen;
    skip_space();
    if (at_end()) fail("the contract is empty", "write `domain = 1, block = (256, 1, 1)`");
    while (true) {
      const std::string field = identifier("a field name");
      if (!seen.insert(field).second) fail("field '" + field + "' is given twice", "keep one");
      expect('=', "after '" + field + "'");
      assign(contract, field);
      skip_space();
      if (at_end()) break;
      expect(',', "between fields");
    }
    if (!seen.count("domain")) fail("the contract has no 'domain'", "add `domain = 1` (or 2, 3)");
    if (!seen.count("block"))
      fail("the contract has no 'block'", "add `block = (256, 1, 1)` with the kernel's block");
    check_block_matches_domain(contract);
    return contract;
  }

 private:
  [[noreturn]] void fail(std::string message, std::string fix) {
    throw Failure{ContractError{std::move(message), std::move(fix)}};
  }

  bool at_end() const { return pos_ >= text_.size(); }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  std::string rest() const {
    return at_end() ? std::string("the end") : "'" + std::string(text_.substr(pos_, 12)) + "'";
  }

  void expect(char c, const std::string& where) {
    skip_space();
    if (at_end() || text_[pos_] != c)
      fail(std::string("expected '") + c + "' " + where + ", found " + rest(),
           "fields are written `name = value`, separated by commas");
    ++pos_;
  }

  std::string identifier(const std::string& what) {
    skip_space();
    const std::size_t start = pos_;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                         text_[pos_] == '_' || text_[pos_] == ':'))
      ++pos_;
    if (start == pos_ || std::isdigit(static_cast<unsigned char>(text_[start]))) {
      pos_ = start;  // show what was found from where the identifier should have begun
      fail("expected " + what + ", found " + rest(),
           std::string("the fields are ") + std::string(kFieldList));
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  // A value is an integer constant expression over literals, constexpr names and sizeof of a
  // type, with + - * / % << >> and parentheses, as C++ evaluates it (`kLimit / 2`,
  // `N * sizeof(float)`); overflow and division by zero are errors, not wrapped values.
  std::int64_t value(const std::string& field) { return shift(field); }

  bool take(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }

  // `a op b` with op one of __builtin_{add,sub,mul}_overflow; overflow is an error.
  template <class Op>
  std::int64_t checked(const std::string& field, Op op, std::int64_t a, std::int64_t b) {
    std::int64_t result = 0;
    if (op(a, b, &result)) fail("'" + field + "' overflows a 64-bit integer", "use smaller values");
    return result;
  }

  std::int64_t shift(const std::string& field) {
    std::int64_t result = sum(field);
    while (true) {
      const bool left = take("<<");
      if (!left && !take(">>")) return result;
      const std::int64_t by = sum(field);
      if (by < 0 || by > 62) fail("a shift by " + std::to_string(by) + " in '" + field + "'", "shift by 0 to 62");
      if (left && (result < 0 || result > (INT64_MAX >> by)))
        fail("'" + field + "' overflows a 64-bit integer", "use smaller values");
      result = left ? result << by : result >> by;
    }
  }

  std::int64_t sum(const std::string& field) {
    std::int64_t result = product(field);
    while (true) {
      if (take("+")) result = checked(field, add, result, product(field));
      else if (take("-")) result = checked(field, subtract, result, product(field));
      else return result;
    }
  }

  std::int64_t product(const std::string& field) {
    std::int64_t result = unary(field);
    while (true) {
      if (take("*")) {
        result = checked(field, multiply, result, unary(field));
        continue;
      }
      const bool divide = take("/");
      if (!divide && !take("%")) return result;
      const std::int64_t by = unary(field);
      if (by == 0) fail("'" + field + "' divides by zero", "fix the divisor");
      if (result == INT64_MIN && by == -1) fail("'" + field + "' overflows a 64-bit integer", "use smaller values");
      result = divide ? result / by : result % by;
    }
  }

  std::int64_t unary(const std::string& field) {
    if (take("-")) return checked(field, subtract, 0, unary(field));
    if (take("+")) return unary(field);
    return primary(field);
  }

  std::int64_t primary(const std::string& field) {
    skip_space();
    if (at_end()) fail("'" + field + "' has no value", "write an integer or a constexpr name");
    if (take("(")) {
      const std::int64_t inner = shift(field);
      expect(')', "to close the parenthesis in '" + field + "'");
      return inner;
    }
    if (text_.substr(pos_, 6) == "sizeof") {
      pos_ += 6;
      expect('(', "after sizeof");
      const std::size_t start = pos_;
      const std::size_t close = text_.find(')', pos_);
      if (close == std::string_view::npos) fail("'sizeof(' is not closed", "write sizeof(type)");
      pos_ = close + 1;
      return size_of(field, trimmed(text_.substr(start, close - start)));
    }
    return literal_or_name(field);
  }

  static std::string trimmed(std::string_view text) {
    std::string words;
    for (std::size_t i = 0; i < text.size();) {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      const std::size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (i > start) words += (words.empty() ? "" : " ") + std::string(text.substr(start, i - start));
    }
    return words;
  }

  // The fundamental types have their device sizes; any other type is the resolver's.
  std::int64_t size_of(const std::string& field, const std::string& type) {
    static const std::pair<std::string_view, std::int64_t> kSizes[] = {
        {"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"bool", 1}, {"short", 2},
        {"unsigned short", 2}, {"int", 4}, {"unsigned", 4}, {"unsigned int", 4}, {"float", 4},
        {"long", 8}, {"unsigned long", 8}, {"long long", 8}, {"unsigned long long", 8},
        {"double", 8}, {"std::size_t", 8}, {"size_t", 8}, {"std::int8_t", 1}, {"std::uint8_t", 1},
        {"std::int16_t", 2}, {"std::uint16_t", 2}, {"std::int32_t", 4}, {"std::uint32_t", 4},
        {"std::int64_t", 8}, {"std::uint64_t", 8}};
    for (const auto& [name, bytes] : kSizes)
      if (type == name) return bytes;
    NameValue resolved = resolve_("sizeof(" + type + ")");
    if (auto* why = std::get_if<std::string>(&resolved))
      fail("'sizeof(" + type + ")' in '" + field + "' is not usable: " + *why,
           "name a type declared where the kernel is, or write the byte count");
    return std::get<std::int64_t>(resolved);
  }

  std::int64_t literal_or_name(const std::string& field) {
    if (std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const std::size_t start = pos_;
      while (!at_end() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                           text_[pos_] == '\''))
        ++pos_;
      std::string digits;
      for (char c : text_.substr(start, pos_ - start))
        if (c != '\'') digits += c;
      while (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U' ||
                                 digits.back() == 'l' || digits.back() == 'L'))
        digits.pop_back();
      try {
        std::size_t used = 0;
        const long long parsed = std::stoll(digits, &used, 0);
        if (used == digits.size()) return parsed;
      } catch (const std::exception&) {
      }
      fail("'" + std::string(text_.substr(start, pos_ - start)) + "' is not an integer literal",
           "write a decimal or hexadecimal integer");
    }
    const std::string name = identifier("an integer or a constexpr name for '" + field + "'");
    NameValue resolved = resolve_(name);
    if (auto* why = std::get_if<std::string>(&resolved))
      fail("'" + name + "' in '" + field + "' is not usable: " + *why,
           "use an integer literal or a constexpr integral variable");
    return std::get<std::int64_t>(resolved);
  }

  std::uint64_t positive(const std::string& field, std::int64_t v) {
    if (v <= 0)
      fail("'" + field + "' must be positive, got " + std::to_string(v), "use a value >= 1");
    return std::uint64_t(v);
  }

  void assign(Contract& contract, const std::string& field) {
    if (field == "domain") {
      const std::int64_t d = value(field);
      if (d < 1 || d > 3)
        fail("'domain' must be 1, 2 or 3, got " + std::to_string(d),
             "use domain = 1 with index_1d(), 2 with index_2d()");
      contract.domain = int(d);
    } else if (field == "block") {
      skip_space();
      if (!at_end() && text_[pos_] == '(') {
        ++pos_;
        for (int axis = 0; axis < 3; ++axis) {
          contract.block[axis] = positive("block", value(field));
          skip_space();
          if (!at_end() && text_[pos_] == ')') break;
          if (axis == 2) expect(')', "after three block extents");
          else expect(',', "between block extents");
        }
        expect(')', "to close 'block'");
      } else {
        contract.block[0] = positive("block", value(field));
      }
    } else if (field == "dynamic_shared") {
      const std::int64_t bytes = value(field);
      if (bytes < 0) fail("'dynamic_shared' must not be negative", "use a byte count >= 0");
      contract.dynamic_shared_bytes = std::uint64_t(bytes);
    } else if (field == "min_compute") {
      const std::int64_t cc = value(field);
      if (cc < 10 || cc > 199)
        fail("'min_compute' is a compute capability written major*10+minor, got " +
                 std::to_string(cc),
             "write e.g. min_compute = 80 for sm_80");
      contract.min_compute = int(cc);
    } else if (field == "index_bits") {
      const std::int64_t bits = value(field);
      if (bits != 32 && bits != 64)
        fail("'index_bits' is 32 or 64, got " + std::to_string(bits),
             "write index_bits = 32 for 32-bit index arithmetic (the launch checks that the views fit)");
      contract.index_bits = int(bits);
    } else if (field == "covers") {
      // A parameter's name, not a constant: which parameter it is, the model checks.
      contract.covers = identifier("a view parameter's name for 'covers'");
    } else {
      std::string closest;
      std::size_t best = std::string::npos;
      for (std::string_view known : kFields) {
        const std::size_t distance = edit_distance(field, known);
        if (distance <= known.size() / 3 && distance < best) {
          best = distance;
          closest = std::string(known);
        }
      }
      fail("unknown contract field '" + field + "'",
           closest.empty() ? "the fields are " + std::string(kFieldList)
                           : "did you mean '" + closest + "'?");
    }
  }

  void check_block_matches_domain(const Contract& contract) {
    for (int axis = contract.domain; axis < 3; ++axis) {
      if (contract.block[axis] != 1)
        fail("a domain = " + std::to_string(contract.domain) + " contract has block extent " +
                 std::to_string(contract.block[axis]) + " along " + "xyz"[axis],
             "keep the extents past the domain at 1, or raise the domain");
    }
  }

  std::string_view text_;
  const NameResolver& resolve_;
  std::size_t pos_ = 0;
};

}  // namespace

ContractResult parse_contract(std::string_view text, const NameResolver& resolve) {
  try {
    return Parser(text, resolve).parse();
  } catch (const Failure& failure) {
    return failure.error;
  }
}

}  // namespace carbide::contract
