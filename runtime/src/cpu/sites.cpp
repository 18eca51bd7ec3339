#include "sites.hpp"

namespace carbide::cpu {

SiteTable::SiteTable() : sites_{{"", 0}} {}

unsigned SiteTable::number(const char* file, unsigned line) {
  std::string key = std::string(file != nullptr ? file : "") + ':' + std::to_string(line);
  std::lock_guard lock(mutex_);
  if (auto found = numbers_.find(key); found != numbers_.end()) return found->second;
  if (sites_.size() >= (1u << kBits)) return 0;
  const unsigned number = unsigned(sites_.size());
  sites_.push_back({file, line});
  numbers_.emplace(std::move(key), number);
  return number;
}

Site SiteTable::site(unsigned number) const {
  std::lock_guard lock(mutex_);
  return number < sites_.size() ? sites_[number] : sites_[0];
}

}  // namespace carbide::cpu
