// Source sites (file, line) as small numbers, so that a shadow cell can say where the access it
// remembers was made. Each engine has one table; each worker keeps a small cache in front of it.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace carbide::cpu {

struct Site {
  const char* file;
  unsigned line;
};

class SiteTable {
 public:
  // Numbers fit in the shadow cell's site field; 0 is "unknown" (past that many sites).
  static constexpr unsigned kBits = 20;

  SiteTable();
  unsigned number(const char* file, unsigned line);
  Site site(unsigned number) const;

 private:
  mutable std::mutex mutex_;
  std::vector<Site> sites_;
  std::unordered_map<std::string, unsigned> numbers_;  // keyed by file and line, so that copies of one
                                                       // file name from several translation units agree
};

// The last sites a worker numbered, keyed by the file pointer and line: a loop makes the same few
// accesses over and over.
class SiteCache {
 public:
  unsigned number(SiteTable& table, const char* file, unsigned line) {
    Entry& entry = entries_[(reinterpret_cast<std::uintptr_t>(file) >> 3 ^ line * 0x9e3779b1u) % entries_.size()];
    if (entry.file != file || entry.line != line) entry = {file, line, table.number(file, line)};
    return entry.number;
  }

 private:
  struct Entry {
    const char* file = nullptr;
    unsigned line = 0;
    unsigned number = 0;
  };
  std::array<Entry, 256> entries_{};
};

}  // namespace carbide::cpu
