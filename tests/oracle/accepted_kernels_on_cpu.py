#!/usr/bin/env python3
"""The soundness oracle (issue 29): every SIMT kernel that `carbide check` accepts runs on the CPU
context with its run-time checks, over small inputs. A data race, a divergent barrier or a
divergent warp collective there is what `check` promised could not happen: the test fails naming
the kernel and the report. Other stops (an index past a view's end, a CARBIDE_REQUIRE, a launch
contract the inputs do not meet) are the run-time checks doing their job on made-up inputs.

usage: accepted_kernels_on_cpu.py CARBIDE CXX RUNTIME_INCLUDE CUDA_INCLUDE RUNTIME_LIB WORK CHECKS FILE...

CUDA_INCLUDE is CUDA's include directory, for its vector types (float4, ...) as view elements
(empty: none, for files that use none).

CHECKS is the store of tests/corpus/checked_once.py: each file's check, made once for every test
that reads it (checked again here when the store has no current record of it).

A kernel counts as accepted when check reports no error inside its body and none outside every
kernel's body (in a helper the kernel may call); host-side rules (launch aliasing) are about the
file's own launches, which the oracle does not make. Each file is translated with the rules off,
so that a file's accepted kernels run beside its refused ones, and its kernels are launched
through the generated API with views of a few thousand elements and scalars of 1, 4 and 37.
Kernel templates, tile kernels, records and 3-D launches are listed as not run, with the reason.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))
import checked_once  # noqa: E402

HOST_SIDE_RULES = {"carbide-launch-aliasing"}
SCALARS = {"int", "unsigned", "unsigned int", "long", "long long", "unsigned long", "unsigned long long",
           "std::size_t", "size_t", "std::uint32_t", "std::int32_t", "std::uint64_t", "std::int64_t", "float",
           "double", "bool", "uint32_t", "int32_t", "uint64_t", "int64_t", "short", "unsigned short"}
# CUDA's vector types: their components are made up as the scalars are.
VECTOR_TYPES = {"char2", "char4", "uchar2", "uchar4", "short2", "short4", "ushort2", "ushort4", "int2", "int4",
                "uint2", "uint4", "longlong2", "ulonglong2", "float2", "float4", "double2"}
ELEMENTS = ((SCALARS - {"bool"}) | {"char", "signed char", "unsigned char", "std::uint8_t", "uint8_t", "std::int8_t"}
            | VECTOR_TYPES)
LENGTH = 4096          # elements of a 1-D view
ROWS, COLS = 72, 56    # a 2-D view
SCALAR_CHOICES = (1, 4, 37)


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def kernel_bodies(source):
    """(name, first line, last line) of each CARBIDE_KERNEL's definition, by matching braces."""
    lines = source.split("\n")
    bodies = []
    for index, line in enumerate(lines):
        if line.strip() != "CARBIDE_KERNEL":
            continue
        text = "\n".join(lines[index:])
        name = re.search(r"\bvoid\s+(\w+)\s*\(", text)
        if name is None:
            continue
        depth, position = 0, text.find("{", name.end())
        while position < len(text):
            depth += {"{": 1, "}": -1}.get(text[position], 0)
            if depth == 0:
                break
            position += 1
        last = index + text[:position].count("\n")
        bodies.append((name.group(1), index + 1, last + 1))
    return bodies


# The line an error outside the checked file counts at: inside no kernel, so no kernel of the
# file counts as accepted (a header that does not compile leaves nothing checked).
FOREIGN_ERROR_LINE = 0


def errors_of(carbide, checks, path):
    """The lines of the file's errors (FOREIGN_ERROR_LINE for one in another file), or None
    where check wrote no SARIF."""
    _, _, sarif = checked_once.result(carbide, checks, path)
    if sarif is None:
        return None
    lines = []
    for run_ in sarif.get("runs", []):
        for finding in run_.get("results", []):
            if finding.get("level") != "error" or finding.get("ruleId") in HOST_SIDE_RULES:
                continue
            for location in finding.get("locations", []):
                physical = location.get("physicalLocation", {})
                uri = physical.get("artifactLocation", {}).get("uri", "")
                region = physical.get("region", {})
                if uri and os.path.basename(uri) != os.path.basename(path):
                    lines.append(FOREIGN_ERROR_LINE)
                elif "startLine" in region:
                    lines.append(region["startLine"])
    return lines


def accepted_kernels(source, error_lines):
    bodies = kernel_bodies(source)
    inside = lambda line: any(first <= line <= last for _, first, last in bodies)
    if any(not inside(line) for line in error_lines):
        return set()  # an error in a helper: any kernel may call it
    return {name for name, first, last in bodies if not any(first <= line <= last for line in error_lines)}


def parse_api(header):
    """{namespace: [(kernel, [(type, name)])]} from the generated API header."""
    modules, namespaces = {}, []
    lines = header.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        opened = re.match(r"^namespace ([\w:]+) \{", line)
        if opened and "}" not in line:  # not a one-line forward declaration
            namespaces.append(opened.group(1))
        elif re.match(r"^\}\s*// namespace", line) and namespaces:
            namespaces.pop()
        launch = re.match(r"^  void (\w+)\(const carbide::Stream& stream, const carbide::Prepared<\w+>& prepared,", line)
        if launch:
            params = []
            while True:
                i += 1
                parameter = lines[i].strip().rstrip(",")
                done = parameter.endswith(") const;")
                parameter = parameter[: -len(") const;")] if done else parameter
                typed = re.match(r"^(.*?)\s*&?\s*(\w+)$", parameter)
                params.append((typed.group(1).strip(), typed.group(2)))
                if done:
                    break
            modules.setdefault("::".join(namespaces), []).append((launch.group(1), params))
        i += 1
    return modules


def parse_contracts(stubs):
    """{qualified kernel: (domain, block, dynamic shared bytes)} from the stubs' contract constants."""
    contracts = {}
    for match in re.finditer(r'LaunchContract \w+\{\s*"([^"]+)", (\d), \{(\d+), (\d+), (\d+)\}, (\d+),', stubs):
        contracts[match.group(1)] = (int(match.group(2)), tuple(int(match.group(k)) for k in (3, 4, 5)),
                                     int(match.group(6)))
    return contracts


def argument(type_, name, scalar):
    """(setup lines, argument expression), or None with the reason the type is not made up here."""
    buffer = re.match(r"^(const )?carbide::(DeviceBuffer|DeviceBuffer2D)<(.+)>$", type_)
    if buffer:
        element = buffer.group(3)
        if element not in ELEMENTS:
            return None, f"'{name}' holds {element}"
        variable = f"buffer_{name}"
        if buffer.group(2) == "DeviceBuffer":
            setup = (f"auto {variable} = carbide::DeviceBuffer<{element}>::from_host(stream, "
                     f"made_up<{element}>({LENGTH}));")
        else:
            setup = (f"auto {variable} = carbide::DeviceBuffer2D<{element}>::from_host(stream, "
                     f"made_up<{element}>({ROWS * COLS}), {ROWS}, {COLS});")
        return (setup, variable), None
    if type_ in SCALARS:
        value = "true" if type_ == "bool" else f"static_cast<{type_}>({scalar})"
        return ("", value), None
    return None, f"'{name}' is a {type_}"


def harness(modules, contracts, accepted):
    """The C++ program that launches every accepted kernel, and the kernels it leaves out."""
    body, left_out = [], []
    for namespace, kernels in modules.items():
        for kernel, params in kernels:
            qualified = f"{namespace}::{kernel}"
            if kernel not in accepted:
                continue
            contract = contracts.get(qualified)
            if contract is None:
                left_out.append(f"{qualified}: no launch contract in the stubs (a template?)")
                continue
            domain, block, shared = contract
            if domain == 3:
                left_out.append(f"{qualified}: a 3-D launch")
                continue
            for scalar in SCALAR_CHOICES:
                setup, args, reason = [], [], None
                for type_, name in params:
                    made, reason = argument(type_, name, scalar)
                    if made is None:
                        break
                    if made[0]:
                        setup.append(made[0])
                    args.append(made[1])
                if reason:
                    left_out.append(f"{qualified}: {reason}")
                    break
                # A 2-D kernel's grid covers the columns along x, a block's rows or a square
                # tile's along y; one that indexes with index_2d_transposed wants it the other way.
                grids = ([f"carbide::LaunchConfig1D({max(1, LENGTH // block[0])}, {block[0]}, {shared})"]
                         if domain == 1 else
                         list(dict.fromkeys(
                             f"carbide::LaunchConfig2D({{{-(-across // block[0])}, {-(-down // tile)}, 1}}, "
                             f"{{{block[0]}, {block[1]}, 1}}, {shared})"
                             for across, down in ((COLS, ROWS), (ROWS, COLS)) for tile in (block[1], block[0]))))
                body.append(
                    f'  attempt("{qualified}", {scalar}, {{{", ".join(grids)}}}, [&](const carbide::LaunchConfig& config) {{\n'
                    f"    auto module = {namespace}::load(context);\n" +
                    "".join(f"    {line}\n" for line in setup) +
                    f"    const auto prepared = module.prepare_{kernel}(config);\n"
                    f"    module.{kernel}(stream, prepared{''.join(', ' + a for a in args)});\n"
                    f"    stream.synchronize();\n  }});\n")
    program = HARNESS_HEAD + "".join(body) + HARNESS_TAIL
    return program, left_out


HARNESS_HEAD = r"""
#include <carbide/carbide.hpp>

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// Small non-negative values: valid indexes into the views, where a kernel reads one from another.
template <class T>
std::vector<T> made_up(std::size_t n) {
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_arithmetic_v<T>) {
      values[i] = static_cast<T>((i * 7) % 13);
    } else {  // a CUDA vector type: components x, y, ... in a row
      using Component = decltype(T{}.x);
      Component* components = reinterpret_cast<Component*>(&values[i]);
      for (std::size_t c = 0; c < sizeof(T) / sizeof(Component); ++c)
        components[c] = static_cast<Component>((i * 7 + c) % 13);
    }
  }
  return values;
}

int ran = 0, stopped = 0, unsound = 0;

// Launches with the first of `configs` the kernel's launch contract takes.
template <class Launch>
void attempt(const char* kernel, int scalar, std::vector<carbide::LaunchConfig> configs, Launch launch) {
  try {
    for (std::size_t i = 0;; ++i) try {
        launch(configs[i]);
        break;
      } catch (const carbide::LaunchContractError&) {
        if (i + 1 == configs.size()) throw;
      }
    std::printf("ran      %s (scalars %d)\n", kernel, scalar);
    ++ran;
  } catch (const carbide::KernelError& error) {
    using Kind = carbide::KernelError::Kind;
    if (error.kind() == Kind::DataRace || error.kind() == Kind::DivergentBarrier ||
        error.kind() == Kind::DivergentCollective) {
      std::printf("UNSOUND  %s (scalars %d): check accepted it, and its CPU run says: %s\n", kernel, scalar, error.what());
      ++unsound;
    } else {
      std::printf("stopped  %s (scalars %d): %s\n", kernel, scalar, error.what());
      ++stopped;
    }
  } catch (const carbide::Error& error) {
    std::printf("refused  %s (scalars %d): %s\n", kernel, scalar, error.what());
    ++stopped;
  }
}

}  // namespace

int main() {
  auto context = carbide::Context::create_cpu();
  auto stream = context.default_stream();
"""

HARNESS_TAIL = r"""
  std::printf("%d runs completed, %d stopped by a run-time check or refused, %d unsound\n", ran, stopped, unsound);
  return unsound == 0 ? 0 : 1;
}
"""


def oracle(carbide, cxx, include, cuda_include, runtime_lib, work, checks, path):
    """(output, completed runs, failures, kernels not run) for one file."""
    clang_args = ["-std=c++17", "-I" + include]
    stem = os.path.splitext(os.path.basename(path))[0]
    source = open(path, encoding="utf-8").read()
    errors = errors_of(carbide, checks, path)
    if errors is None:
        return "", 0, [f"{path}: check gave no SARIF"], []
    accepted = accepted_kernels(source, errors)
    if not accepted:
        return "", 0, [], [f"{path}: no SIMT kernel that check accepts (tile kernels run in the samples' CPU runs)"]
    out = os.path.join(work, stem)
    # No GPU code (--cpu-only: nvcc does not run): the oracle runs the stubs' CPU forms.
    translated = run([carbide, "translate", path, "-o", out, "--checks=carbide-device-compile", "--cpu-only",
                      "--"] + clang_args)
    if translated.returncode != 0:
        # A refused kernel need not compile (nvcc refuses what the checker does not model).
        if errors:
            return "", 0, [], [f"{path}: the file's refused kernels do not compile"]
        return "", 0, [f"{path}: translate failed:\n{translated.stderr}"], []
    header = open(os.path.join(out, stem + ".carbide.hpp"), encoding="utf-8").read()
    stubs = open(os.path.join(out, stem + ".carbide.cpp"), encoding="utf-8").read()
    program, left_out = harness(parse_api(header), parse_contracts(stubs), accepted)
    not_run = [f"{path}: {reason}" for reason in left_out]
    harness_path = os.path.join(out, "oracle.cpp")
    with open(harness_path, "w", encoding="utf-8") as file:
        file.write(f'#include "{stem}.carbide.hpp"\n#include "{stem}.carbide.cpp"\n' + program)
    binary = os.path.join(out, "oracle")
    cuda = ["-isystem", cuda_include] if cuda_include else []
    built = run([cxx, "-std=c++17", "-O0", "-w", "-I" + include] + cuda + ["-I" + out, harness_path, "-o", binary] +
                runtime_lib.split() + ["-ldl"])
    if built.returncode != 0:
        if errors:
            return "", 0, [], not_run + [f"{path}: the stubs of the file's refused kernels do not compile"]
        return "", 0, [f"{path}: the harness did not compile:\n{built.stderr[:3000]}"], not_run
    result = run([binary], env=dict(os.environ, CARBIDE_CPU_TIMEOUT="20", CARBIDE_CPU_THREADS="1"), timeout=600)
    failures = []
    if result.returncode != 0:
        failures.append(f"{path}: " + "\n".join(l for l in result.stdout.splitlines() if l.startswith("UNSOUND")) +
                        result.stderr)
    return f"== {path}\n{result.stdout}", len(re.findall(r"^ran ", result.stdout, re.M)), failures, not_run


def main():
    carbide, cxx, include, cuda_include, runtime_lib, work, checks = sys.argv[1:8]
    files = sys.argv[8:]
    os.makedirs(work, exist_ok=True)
    total_ran, failures, not_run = 0, [], []
    # Two files at once: each is a check, a translation (no nvcc), a compile and a run.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for output, ran, failed, left_out in pool.map(lambda path: oracle(carbide, cxx, include, cuda_include, runtime_lib, work, checks, path),
                                                        files):
            print(output, end="")
            total_ran += ran
            failures += failed
            not_run += left_out
    print("\nnot run:\n" + "\n".join("  " + reason for reason in not_run))
    print(f"\n{total_ran} runs of accepted kernels completed on the CPU")
    if failures:
        print("\nFAILED:\n" + "\n\n".join(failures))
        return 1
    if total_ran == 0:
        print("FAILED: no accepted kernel ran")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
