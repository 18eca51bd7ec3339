#include "cli/command_line.hpp"

#include "pipeline/translate.hpp"
#include "support/file_names.hpp"

#include <boost/program_options.hpp>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>

#include <algorithm>

#include <sstream>
#include <stdexcept>

namespace carbide::cli {
namespace po = boost::program_options;

namespace {

constexpr const char* kUsage =
    "usage: carbide translate FILE|DIR... -o OUT [--cuda-arch sm_90 ...] [--nvcc PATH]\n"
    "                         [-p BUILD_DIR] [-j N] [--checks GLOBS] [--file-prefix-map OLD=NEW]\n"
    "                         [--nvcc-timeout SECONDS] [--debug | --device-debug]\n"
    "                         [--nvcc-flag FLAG ...] [--device-checks on|off] [-- CLANG_ARGS]\n"
    "       carbide check FILE... [-p BUILD_DIR] [--format clang|sarif] [--export-fixes F]\n"
    "                     [--checks GLOBS] [--warnings-as-errors GLOBS] [--report-unsafe]\n"
    "                     [--cuda-arch sm_90 ...] [-- CLANG_ARGS]\n"
    "       carbide doctor [--nvcc PATH]\n"
    "       carbide new NAME\n"
    "       carbide --version | --help\n";

po::options_description common_options() {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("build-dir,p", po::value<std::string>(), "read compile flags from BUILD_DIR/compile_commands.json")
      ("checks", po::value<std::string>()->default_value("*"), "rules to run, as globs: 'carbide-*,-carbide-missing-contract'")
      ("warnings-as-errors", po::value<std::string>()->default_value(""), "rules whose warnings count as errors")
      ("color", po::value<std::string>()->default_value("auto"), "colour diagnostics: auto, always, never")
      ("cuda-arch", po::value<std::vector<std::string>>()->composing(),
       "target architecture, e.g. sm_90; repeat for a fatbin (translate) or to check the lowering for each (check)");
  return options;
}

po::options_description check_options() {
  po::options_description options("Checking");
  options.add_options()
      ("format", po::value<std::string>()->default_value("clang"), "clang (text on stderr) or sarif (SARIF 2.1.0 on stdout)")
      ("export-fixes", po::value<std::string>(), "write fix-its as YAML for clang-apply-replacements")
      ("sarif-file", po::value<std::string>(), "also write the findings as SARIF 2.1.0 into this file (for code scanning), beside the text on stderr")
      ("report-unsafe", "list every CARBIDE_UNSAFE block and its reason on stdout");
  return options;
}

po::options_description translate_options() {
  po::options_description options("Translation");
  options.add_options()
      ("output,o", po::value<std::string>(), "directory for the generated files")
      ("jobs,j", po::value<int>(), "files translated at once (default: one per core)")
      ("nvcc", po::value<std::string>()->default_value(""), "the nvcc to run (default: $CUDA_HOME/bin, PATH, /usr/local/cuda/bin)")
      ("nvcc-timeout", po::value<int>(), "seconds each nvcc, ptxas or fatbinary run may take before it is stopped (default 600; 0: no limit)")
      ("file-prefix-map", po::value<std::vector<std::string>>()->composing(), "OLD=NEW: generated files name paths under OLD as under NEW (repeatable; the last match wins)")
      ("debug", "line information for profilers and debuggers (nvcc -lineinfo): Nsight Compute and cuda-gdb show your own lines")
      ("device-debug", "full device debugging (nvcc -G): unoptimized device code that cuda-gdb can step through")
      ("nvcc-flag", po::value<std::vector<std::string>>()->composing(), "a flag for nvcc's compile of the device code, e.g. --nvcc-flag=-maxrregcount=64 (repeatable)")
      ("device-checks", po::value<std::string>(), "on (the default) or off: off compiles views without their bounds checks, only to measure what the checks cost")
      ("nvcc-launcher", po::value<std::vector<std::string>>()->composing(), "a program nvcc runs under, as with CMAKE_CUDA_COMPILER_LAUNCHER: ccache or sccache (repeatable: the program, then its own arguments)")
      ("cpu-only", "no GPU code: nvcc does not run and no .ptx is written; the module runs on CPU contexts only (a machine without the CUDA toolkit)");
  return options;
}

bool valid_arch(const std::string& arch) {
  if (arch.size() < 5 || arch.compare(0, 3, "sm_") != 0) return false;
  for (std::size_t i = 3; i < arch.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(arch[i])) && !(i + 1 == arch.size() && arch[i] == 'a'))
      return false;
  return true;
}

// A glob that names no rule is a typo, and a --checks that enables none would pass every file:
// both are errors, with the rules listed.
void validate_rule_globs(const std::string& option, const std::string& globs, bool must_enable) {
  std::vector<std::string> names;
  for (const diag::RuleDescriptor& rule : pipeline::rule_descriptors()) names.push_back(rule.id);
  const diag::GlobList list(globs);
  const std::string known = "the rules are " + llvm::join(names, ", ");
  for (const std::string& pattern : list.positive_patterns_matching_none(names))
    throw std::invalid_argument(option + ": '" + pattern + "' matches no rule; " + known);
  if (must_enable && std::none_of(names.begin(), names.end(),
                                  [&](const std::string& name) { return list.matches(name); }))
    throw std::invalid_argument(option + " '" + globs + "' enables no rule, so nothing would be "
                                "checked; name at least one, e.g. 'carbide-*'");
}

}  // namespace

CommandLine parse_command_line(int argc, const char* const* argv) {
  CommandLine result;
  std::vector<std::string> args(argv + 1, argv + argc);
  // Everything after `--` goes to Clang untouched.
  std::vector<std::string> clang_args;
  for (auto it = args.begin(); it != args.end(); ++it) {
    if (*it == "--") {
      clang_args.assign(it + 1, args.end());
      args.erase(it, args.end());
      break;
    }
  }
  po::options_description visible = common_options();
  visible.add(check_options());
  visible.add(translate_options());
  std::ostringstream help;
  help << kUsage << "\n" << visible;
  result.help_text = help.str();

  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") return result;
  if (args[0] == "--version") {
    result.command = Command::Version;
    return result;
  }
  if (args[0] == "translate") result.command = Command::Translate;
  else if (args[0] == "check") result.command = Command::Check;
  else if (args[0] == "doctor") result.command = Command::Doctor;
  else if (args[0] == "new") result.command = Command::New;
  else
    throw std::invalid_argument("unknown command '" + args[0] +
                                "'; the commands are translate, check, doctor and new");

  po::options_description all = visible;
  all.add_options()("input", po::value<std::vector<std::string>>(), "");
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(std::vector<std::string>(args.begin() + 1, args.end()))
                  .options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    throw std::invalid_argument(error.what());
  }
  if (values.count("help")) {
    result.command = Command::Help;
    return result;
  }
  if (values.count("input")) result.inputs = values["input"].as<std::vector<std::string>>();
  if (result.command == Command::Doctor) {
    if (!result.inputs.empty()) throw std::invalid_argument("doctor takes no file");
  } else if (result.command == Command::New) {
    if (result.inputs.size() != 1) throw std::invalid_argument("new takes one project name");
  } else if (result.inputs.empty()) {
    throw std::invalid_argument("no input file given");
  }

  pipeline::PipelineOptions& options = result.pipeline;
  options.frontend.extra_args = clang_args;
  if (values.count("build-dir")) {
    options.frontend.build_dir = values["build-dir"].as<std::string>();
    if (!llvm::sys::fs::exists(options.frontend.build_dir + "/compile_commands.json"))
      throw std::invalid_argument("-p " + options.frontend.build_dir +
                                  ": there is no compile_commands.json in that folder; configure "
                                  "the build with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or leave -p out");
  }
  options.rules.checks = values["checks"].as<std::string>();
  options.rules.warnings_as_errors = values["warnings-as-errors"].as<std::string>();
  validate_rule_globs("--checks", options.rules.checks, /*must_enable=*/true);
  validate_rule_globs("--warnings-as-errors", options.rules.warnings_as_errors, /*must_enable=*/false);
  const std::string color = values["color"].as<std::string>();
  if (color != "auto" && color != "always" && color != "never")
    throw std::invalid_argument("--color takes auto, always or never");
  options.colors = color == "always" || (color == "auto" && isatty(2));
  options.nvcc.nvcc = values["nvcc"].as<std::string>();
  if (values.count("cuda-arch")) {
    options.nvcc.archs = values["cuda-arch"].as<std::vector<std::string>>();
    for (const std::string& arch : options.nvcc.archs)
      if (!valid_arch(arch))
        throw std::invalid_argument("'" + arch + "' is not a CUDA architecture; write e.g. sm_90");
  }
  result.format = values["format"].as<std::string>();
  if (result.format != "clang" && result.format != "sarif")
    throw std::invalid_argument("--format takes clang or sarif");
  if (values.count("export-fixes")) result.export_fixes = values["export-fixes"].as<std::string>();
  if (values.count("sarif-file")) result.sarif_file = values["sarif-file"].as<std::string>();
  result.report_unsafe = values.count("report-unsafe") > 0;
  if (result.command == Command::Translate) {
    if (!values.count("output")) throw std::invalid_argument("translate needs -o OUT_DIR");
    result.out_dir = values["output"].as<std::string>();
    if (llvm::StringRef(result.out_dir).trim().empty())
      throw std::invalid_argument("-o needs the folder to write into, e.g. -o gen/");
    if (std::string why = support::unusable_output_dir(result.out_dir); !why.empty())
      throw std::invalid_argument("-o " + support::printable_name(result.out_dir) + ": " + why);
    if (values.count("jobs")) {
      const int jobs = values["jobs"].as<int>();
      if (jobs < 1 || jobs > 4096)
        throw std::invalid_argument("-j takes a number of files to translate at once, from 1 to 4096; got " +
                                    std::to_string(jobs));
      result.jobs = unsigned(jobs);
    }
    if (values.count("nvcc-timeout")) {
      const int seconds = values["nvcc-timeout"].as<int>();
      if (seconds < 0)
        throw std::invalid_argument("--nvcc-timeout takes seconds, 0 for no limit; got " + std::to_string(seconds));
      options.nvcc.timeout_seconds = unsigned(seconds);
    }
    if (values.count("file-prefix-map"))
      for (const std::string& entry : values["file-prefix-map"].as<std::vector<std::string>>()) {
        auto pair = codegen::FilePrefixMap::parse(entry);
        if (!pair)
          throw std::invalid_argument("--file-prefix-map takes OLD=NEW, e.g. --file-prefix-map " +
                                      std::string("/home/me/project=.; got '") + entry + "'");
        options.file_prefix_map.add(pair->first, pair->second);
      }
    if (values.count("debug") && values.count("device-debug"))
      throw std::invalid_argument("--debug and --device-debug are alternatives: --device-debug includes the line information");
    options.nvcc.line_info = values.count("debug") > 0;
    options.nvcc.device_debug = values.count("device-debug") > 0;
    if (values.count("nvcc-flag")) options.nvcc.extra_flags = values["nvcc-flag"].as<std::vector<std::string>>();
    for (const std::string& flag : options.nvcc.extra_flags)
      if (std::string why = support::unsafe_nvcc_flag(flag); !why.empty())
        throw std::invalid_argument("--nvcc-flag " + support::printable_name(flag) + " " + why);
    if (values.count("device-checks")) {
      const std::string checks = values["device-checks"].as<std::string>();
      if (checks != "on" && checks != "off")
        throw std::invalid_argument("--device-checks takes on or off; got '" + checks + "'");
      options.device_checks = checks == "on";
    }
    if (values.count("nvcc-launcher")) {
      options.nvcc.launcher = values["nvcc-launcher"].as<std::vector<std::string>>();
      if (options.nvcc.launcher.front().empty())
        throw std::invalid_argument("--nvcc-launcher takes a program, e.g. --nvcc-launcher ccache");
    }
    options.cpu_only = values.count("cpu-only") > 0;
    if (options.cpu_only && (values.count("cuda-arch") || values.count("nvcc-launcher") ||
                             values.count("debug") || values.count("device-debug") ||
                             values.count("nvcc-flag")))
      throw std::invalid_argument("--cpu-only compiles no GPU code: drop --cuda-arch, --nvcc-launcher, "
                                  "--debug, --device-debug and --nvcc-flag, or drop --cpu-only");
    if (result.format != "clang" || !result.export_fixes.empty() || result.report_unsafe ||
        !result.sarif_file.empty())
      throw std::invalid_argument("--format, --export-fixes, --sarif-file and --report-unsafe belong to check");
  } else if (values.count("output") || values.count("jobs") ||
             values.count("nvcc-timeout") || values.count("file-prefix-map") || values.count("debug") ||
             values.count("device-debug") || values.count("nvcc-flag") || values.count("device-checks") ||
             values.count("nvcc-launcher") || values.count("cpu-only")) {
    throw std::invalid_argument(
        "-o, -j, --nvcc-timeout, --file-prefix-map, --debug, --device-debug, --nvcc-flag, "
        "--device-checks, --nvcc-launcher and --cpu-only belong to translate");
  }
  return result;
}

}  // namespace carbide::cli
