#!/usr/bin/env python3
"""The clang-tidy plugin reports what `carbide check` reports.

For every file of the rules corpus (bad and good cases), runs `carbide check FILE` and
`carbide-tidy --checks=-*,carbide-* FILE` (clang-tidy-19 with libCarbideTidy.so loaded) and compares the findings
and their notes: file, line, column, severity, message and rule. The plugin reports every
finding, the translator's errors too, as a warning of its check (so `--fix` applies fix-its
without `--fix-errors`); the comparison expects exactly that. Then both read each sample
through the build's compile_commands.json and must find nothing.
"""
import pathlib
import re
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "corpus"))
import checked_once  # noqa: E402

FINDING = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<kind>error|warning|note): (?P<text>.*)$")
# These call the generated module API from host code; clang-tidy sees it only through a build's
# compile command (the samples below cover that), so the corpus run cannot include them.
# Samples built for one architecture only (CUDA_ARCHS in their CMakeLists.txt): check -p plans
# them for the default set, where their tiles do not fit (carbide-tile-lowering), and so would the
# plugin, which takes no --cuda-arch.
ONE_ARCHITECTURE_SAMPLES = {"tile_gemm.cpp": "sm_90a"}
NEEDS_GENERATED_API = {"launch-aliasing.cpp", "launch-config.cpp", "launch-config-good.cpp", "launch-aliasing-slices.cpp", "launch-aliasing-tiles.cpp", "kernel-signature-templates.cpp", "tile-partition-use.cpp"}


def findings(output):
    found = []
    for line in output.splitlines():
        match = FINDING.match(line)
        if match and ("[carbide-" in match["text"] or match["kind"] == "note"):
            found.append((pathlib.Path(match["file"]).name, int(match["line"]), int(match["col"]),
                          match["kind"], match["text"]))
    return found


def as_tidy_reports(found):
    """What the plugin should print for `carbide check`'s findings: warnings, notes unchanged."""
    return [(name, line, col, "note" if kind == "note" else "warning", text)
            for name, line, col, kind, text in found]


def run(command):
    return subprocess.run(command, capture_output=True, text=True)


def compare(name, check_stderr, tidy_cmd):
    tidy = run(tidy_cmd)
    if "clang-diagnostic-error" in tidy.stdout or re.search(r"\d+ errors? generated", tidy.stderr) \
            and not findings(tidy.stdout):
        print(f"{name}: clang-tidy could not compile it:\n{tidy.stdout}{tidy.stderr}")
        return False
    expected, actual = as_tidy_reports(findings(check_stderr)), findings(tidy.stdout)
    if expected != actual:
        print(f"{name}: carbide check and the plugin disagree")
        print("  carbide check:\n    " + "\n    ".join(map(str, expected)))
        print("  clang-tidy:\n    " + "\n    ".join(map(str, actual)))
        return False
    print(f"{name}: {sum(1 for f in expected if f[3] != 'note')} findings, the same from both")
    return True


def main():
    carbide, tidy, source_root, build_root, checks, cuda_include = sys.argv[1:7]
    root = pathlib.Path(source_root)
    # The runtime's headers and CUDA's (for its vector types), as Carbide::runtime brings them.
    include = [f"-I{root / 'runtime/include'}", "-isystem", cuda_include]
    load = [tidy, "--checks=-*,carbide-*", "--quiet"]
    corpus = sorted((root / "tests/rules").glob("*.cpp")) + [root / "tests/lit/diagnostics/nolint.cpp"]
    ok = True
    compared = 0
    for source in corpus:
        if source.name in NEEDS_GENERATED_API:
            print(f"{source.name}: not compared here (needs the generated module API)")
            continue
        # carbide check's side: the check recorded once for every test (tests/corpus).
        ok &= compare(source.name, checked_once.result(carbide, checks, str(source))[1],
                      load + [str(source), "--", "-std=c++17", *include])
        compared += 1
    for source in sorted((root / "samples").glob("*/*.cpp")):
        if source.name in ONE_ARCHITECTURE_SAMPLES:
            print(f"{source.name}: not compared here (built for {ONE_ARCHITECTURE_SAMPLES[source.name]} only)")
            continue
        ok &= compare(source.name, run([carbide, "check", "-p", build_root, str(source)]).stderr,
                      load + ["-p", build_root, str(source)])
        compared += 1
    if compared < 10:
        print(f"only {compared} files compared; the corpus is missing")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
