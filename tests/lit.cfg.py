# lit configuration for Carbide's translator tests.
import os
import shutil
import sys

import lit.formats

config.name = "carbide"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cpp", ".test"]
# Translator tests live in tests/lit, the rules' corpus in tests/rules.
config.excludes = ["Inputs", "unit", "gpu", "cmake", "fuzz", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.carbide_obj_root

include_dir = os.path.join(config.carbide_source_root, "runtime", "include")
config.substitutions.append(("%carbide", config.carbide_path))
config.substitutions.append(("%ptxas", config.ptxas))
# The version CMakeLists.txt sets, which the translator reports (translator/support/version.cpp).
config.substitutions.append(("%project_version", config.project_version))
config.substitutions.append(("%compatible_version", config.compatible_version))
if config.carbide_tidy:
    config.available_features.add("carbide-tidy")
    # Ahead of %carbide, which would otherwise replace its first half.
    config.substitutions.insert(0, ("%carbide_tidy", config.carbide_tidy))
config.substitutions.append(("%python", sys.executable))
# scripts/setup.sh installs gdb; elsewhere the debugger test shows as UNSUPPORTED.
if shutil.which("gdb"):
    config.available_features.add("gdb")
config.substitutions.append(("%host_cxx", config.cxx))
# The clang-tidy wrapper, or "-" where there is none (scripts that take it as an argument).
config.substitutions.append(("%tidy_or_dash", config.carbide_tidy or "-"))
config.substitutions.append(("%build", config.build_root))
config.substitutions.append(("%runtime_include", include_dir))
config.substitutions.append(("%runtime_lib", config.runtime_lib))
config.substitutions.append(("%samples", os.path.join(config.carbide_source_root, "samples")))
config.substitutions.append(("%inputs", os.path.join(os.path.dirname(__file__), "lit", "Inputs")))
# A user's program built the way carbide_add_kernels builds it.
config.substitutions.append(
    ("%cxx_user", config.cxx + " -std=c++17 -Wall -Wextra -Werror -I" + include_dir))

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.path.dirname(config.ptxas), os.environ.get("PATH", "")])
# Diagnostics are compared as text: no colours, whatever the terminal.
config.environment["TERM"] = "dumb"
