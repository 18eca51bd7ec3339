# lit configuration for Carbide's translator tests.
import os
import re
import shutil
import subprocess
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
# Translation for one architecture: a test about what is translated needs one PTX, not the four
# default architectures' PTX, cubins and fatbin (2.3-4.4x dearer). Tests about architectures
# (fatbin.test, deterministic.test, the tile targets) spell `%carbide translate` and their
# --cuda-arch themselves. Ahead of %carbide, which would otherwise replace its first half.
config.substitutions.append(("%carbide_translate", config.carbide_path + " translate --cuda-arch sm_90"))
# `carbide check FILE` on a corpus file: what the ctest fixture corpus_checked_once recorded for
# it, while that record is current; else a check run now (tests/corpus/checked_once.py).
config.substitutions.append(("%corpus_check", " ".join([
    sys.executable, os.path.join(config.carbide_source_root, "tests", "corpus", "checked_once.py"),
    "replay", config.carbide_path, config.corpus_store])))
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
# Debian's ccache, for the compiler-launcher test; elsewhere that test shows as UNSUPPORTED.
if shutil.which("ccache"):
    config.available_features.add("ccache")
# scripts/setup.sh installs gdb; elsewhere the debugger tests show as UNSUPPORTED.
if shutil.which("gdb"):
    config.available_features.add("gdb")
    # Some machines' gdb cannot call a function in the program it debugs ("Couldn't write
    # extended state status: Bad address"): cpu/gdb-calls.test needs that, cpu/gdb.test does not.
    # The probe: a breakpoint in getuid, which id(1) calls, then a call of getpid there.
    try:
        probe = subprocess.run(["gdb", "-batch", "-nx", "-ex", "break getuid", "-ex", "run",
                                "-ex", "print (int)getpid()", "--args", "id"],
                               capture_output=True, text=True, timeout=60)
        probe_output = (probe.stdout + probe.stderr).strip()
    except subprocess.TimeoutExpired:
        probe_output = "gdb did not finish within 60 s"
    if re.search(r"^\$1 = \d+$", probe_output, re.M):
        config.available_features.add("gdb-inferior-calls")
    else:
        lit_config.note("gdb cannot call functions in a program it debugs here, so "
                        "cpu/gdb-calls.test is UNSUPPORTED; gdb said: " +
                        (probe_output.splitlines()[-1] if probe_output else "nothing"))
config.substitutions.append(("%host_cxx", config.cxx))
# The clang-tidy wrapper, or "-" where there is none (scripts that take it as an argument).
config.substitutions.append(("%tidy_or_dash", config.carbide_tidy or "-"))
config.substitutions.append(("%build", config.build_root))
config.substitutions.append(("%runtime_include", include_dir))
config.substitutions.append(("%runtime_lib", config.runtime_lib))
config.substitutions.append(("%samples", os.path.join(config.carbide_source_root, "samples")))
config.substitutions.append(("%inputs", os.path.join(os.path.dirname(__file__), "lit", "Inputs")))
# A user's program built the way carbide_add_kernels builds it: the runtime's headers, and CUDA's
# (carbide.hpp declares CUDA's vector types from <vector_types.h>), where CMake found them: a path
# derived from ptxas's is wrong where PATH finds a wrapper script first (CI's /usr/local/bin).
cuda_includes = "".join(" -isystem " + d for d in config.cuda_include_dirs.split(";") if d)
config.substitutions.append(
    ("%cxx_user", config.cxx + " -std=c++17 -Wall -Wextra -Werror -I" + include_dir + cuda_includes))

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.path.dirname(config.ptxas), os.environ.get("PATH", "")])
# Diagnostics are compared as text: no colours, whatever the terminal.
config.environment["TERM"] = "dumb"
