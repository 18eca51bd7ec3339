#include "diagnostics/sarif_log.hpp"

#include "support/version.hpp"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace carbide::diag {
namespace {

// RFC 8089: the absolute path with every byte outside the unreserved set and '/' escaped, so a
// space or '#' in a directory name still makes one well-formed URI.
std::string file_uri(llvm::StringRef path) {
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, true);
  std::string uri = "file://";
  for (const unsigned char c : absolute.str()) {
    if (llvm::isAlnum(c) || llvm::StringRef("-._~/").contains(c)) uri += char(c);
    else uri += "%" + llvm::utohexstr(c, /*LowerCase=*/false, /*Width=*/2);
  }
  return uri;
}

llvm::json::Object location(clang::SourceLocation at, const clang::SourceManager& sources,
                            const std::string& message = "") {
  const clang::PresumedLoc presumed = sources.getPresumedLoc(sources.getExpansionLoc(at));
  llvm::json::Object physical{
      {"artifactLocation", llvm::json::Object{{"uri", file_uri(presumed.getFilename())}}},
      {"region", llvm::json::Object{{"startLine", presumed.getLine()},
                                    {"startColumn", presumed.getColumn()}}}};
  llvm::json::Object result{{"physicalLocation", std::move(physical)}};
  if (!message.empty()) result["message"] = llvm::json::Object{{"text", message}};
  return result;
}

}  // namespace

SarifLog::SarifLog(std::vector<RuleDescriptor> rules, std::string rule_pages_dir)
    : rules_(std::move(rules)), rule_pages_dir_(std::move(rule_pages_dir)) {}

void SarifLog::add(const std::vector<Finding>& findings, const clang::SourceManager& sources) {
  for (const Finding& finding : findings) {
    llvm::json::Object result{
        {"ruleId", finding.rule},
        {"level", finding.severity == Severity::Error ? "error" : "warning"},
        {"message", llvm::json::Object{{"text", finding.message}}},
        {"locations", llvm::json::Array{location(finding.location, sources)}}};
    for (std::size_t i = 0; i < rules_.size(); ++i)
      if (rules_[i].id == finding.rule) result["ruleIndex"] = int64_t(i);
    llvm::json::Array related;
    for (const Note& note : finding.notes) related.push_back(location(note.location, sources, note.message));
    if (!related.empty()) result["relatedLocations"] = std::move(related);
    results_.push_back(std::move(result));
  }
}

std::string SarifLog::str() const {
  llvm::json::Array rules;
  for (const RuleDescriptor& rule : rules_) {
    llvm::json::Object descriptor{{"id", rule.id},
                                  {"shortDescription", llvm::json::Object{{"text", rule.summary}}}};
    if (!rule_pages_dir_.empty())
      descriptor["helpUri"] = file_uri(rule_pages_dir_ + "/" + rule.id + ".md");
    rules.push_back(std::move(descriptor));
  }
  llvm::json::Object driver{{"name", "carbide"},
                            {"version", version()},
                            {"rules", std::move(rules)}};
  llvm::json::Object run{{"tool", llvm::json::Object{{"driver", std::move(driver)}}},
                         {"results", llvm::json::Array(results_)}};
  llvm::json::Object log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                         {"version", "2.1.0"},
                         {"runs", llvm::json::Array{std::move(run)}}};
  std::string text;
  llvm::raw_string_ostream out(text);
  out << llvm::formatv("{0:2}", llvm::json::Value(std::move(log))) << "\n";
  return text;
}

}  // namespace carbide::diag
