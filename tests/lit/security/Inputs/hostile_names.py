"""Translates and checks sources under hostile names, with no shell between this script and
Carbide: every name is handed over as one argv entry. Names that would run a command if any tool
put them through a shell unquoted touch a marker file; the marker must never appear.

usage: hostile_names.py WORK CARBIDE CARBIDE_TIDY|- CXX RUNTIME_INCLUDE
"""
import os
import re
import subprocess
import sys

work, carbide, tidy, cxx, runtime_include = sys.argv[1:6]
# Every command runs in `work`, so a name that ran `touch MARKER` anywhere would leave it there (a
# file name cannot hold the '/' of an absolute path).
marker = os.path.join(work, "MARKER")
failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message)


# Each fragment ends a quoted word and runs `touch marker` in some shell dialect.
shell = ["$(touch MARKER)", "`touch MARKER`", ";touch MARKER;", "|touch MARKER|", "&touch MARKER&",
         "'$(touch MARKER)'"]
accepted_names = {
    "dollar": f"k{shell[0]}",
    "backtick": f"k{shell[1]}",
    "semicolon": f"k{shell[2]}",
    "pipe": f"k{shell[3]}",
    "ampersand": f"k{shell[4]}",
    "single-quote": f"k{shell[5]}",
    "space": "two words",
    "leading-dash": "-rf",
    "non-ascii": "k\u00e9rnel_\u6838",
}
refused_names = {  # the stem (a control character refuses a directory too)
    "newline": ("nl\n#error INJECTED\n", "control character"),
    "double-quote": ('q"uote', "'\"'"),
    "backslash": ("back\\slash", "'\\'"),
}

KERNEL = """#include <carbide/carbide.hpp>
#include "hostile_header.hpp"

namespace kernels {{
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void {name}(carbide::span<const float> a, carbide::disjoint_span<float> c) {{
  auto idx = carbide::thread::index_1d();
  if (float* e = c.get_mut(idx)) *e = a[idx.get()] * kHeaderScale * HOSTILE_SCALE;
}}
}}  // namespace kernels
"""

include_dir = os.path.join(work, f"inc {shell[0]} {shell[1]} \"q\" \u00fc")
os.makedirs(include_dir)
with open(os.path.join(include_dir, "hostile_header.hpp"), "w") as header:
    header.write("#pragma once\nconstexpr float kHeaderScale = 2.0f;\n")
# -D's value as clang reads it: what follows a newline is dropped, the rest is one macro body.
define = f"-DHOSTILE_SCALE=1.0f /* {shell[0]} {shell[1]} \" */"
out_dir = os.path.join(work, f"out {shell[0]} {shell[1]} \"q\" '\u00e9'")

tree = os.path.join(work, "tree")
expected = {}  # source path -> stem it translates to, or None when refused (and why)
for kind, name in accepted_names.items():
    folder = os.path.join(tree, f"dir {name}")
    os.makedirs(folder)
    path = os.path.join(folder, name + ".cpp")
    expected[path] = (name, None)
for kind, (name, why) in refused_names.items():
    folder = os.path.join(tree, f"dir-{kind}")
    os.makedirs(folder)
    path = os.path.join(folder, name + ".cpp")
    expected[path] = (None, why)
# A folder whose name holds a newline: its plain file is refused too (the depfile cannot name it).
newline_folder = os.path.join(tree, "dir\nnewline")
os.makedirs(newline_folder)
expected[os.path.join(newline_folder, "plain.cpp")] = (None, "control character")
for index, path in enumerate(sorted(expected)):
    with open(path, "w") as source:
        source.write(KERNEL.format(name=f"kernel{index}"))


def run(args, cwd=work):
    return subprocess.run(args, capture_output=True, text=True, errors="replace", cwd=cwd)


def relative_out(path):
    return os.path.join(out_dir, os.path.relpath(os.path.dirname(path), tree))


# translate, a directory with -j 2: the accepted files translate, the refused ones fail with a
# message that names them, and the run goes on.
result = run([carbide, "translate", tree, "-o", out_dir, "-j", "2", "--cuda-arch", "sm_90", "--",
              "-I" + include_dir, define])
print(result.stderr)
accepted = sum(1 for stem, _ in expected.values() if stem)
summary = f"carbide: {accepted} translated, {len(expected) - accepted} failed, 0 skipped"
if summary not in result.stderr:
    fail(f"translate's summary is not '{summary}'")
if result.returncode == 0:
    fail("translate of a tree with refused names exited 0")
if "INJECTED" in result.stderr.replace("#error INJECTED", ""):
    fail("a file name was read as code: " + result.stderr)

line_directive = re.compile(r'^#line \d+ (".*")$')


def c_string(literal):
    """The text of a C string literal as codegen::c_string_literal writes it."""
    body, text, i = literal[1:-1], b"", 0
    while i < len(body):
        if body[i] == "\\" and body[i + 1] in "\"\\":
            text += body[i + 1].encode()
            i += 2
        elif body[i] == "\\":
            text += bytes([int(body[i + 1:i + 4], 8)])
            i += 4
        else:
            text += body[i].encode()
            i += 1
    return text.decode()


for path, (stem, why) in sorted(expected.items()):
    shown = path.replace("\n", "\\012")
    out = relative_out(path)
    if stem is None:
        if why not in result.stderr or shown not in result.stderr:
            fail(f"{path!r} was not refused with a message naming it and saying {why}")
        if os.path.exists(out):
            fail(f"{path!r} was refused but something was written to {out!r}")
        continue
    cu = os.path.join(out, stem + ".carbide.cu")
    for suffix in (".carbide.cu", ".ptx", ".carbide.hpp", ".carbide.cpp", ".carbide.d"):
        if not os.path.isfile(os.path.join(out, stem + suffix)):
            fail(f"{path!r}: no {stem + suffix} in {out!r}")
    if not os.path.isfile(cu):
        continue
    # #line names the real file, and only real files or the generated one.
    named = set()
    for line in open(cu, encoding="utf-8"):
        match = line_directive.match(line.rstrip("\n"))
        if match:
            named.add(c_string(match.group(1)))
    if path not in named:
        fail(f"{cu!r}: no #line names {path!r}; it names {sorted(named)}")
    for name in named - {path, stem + ".carbide.cu"}:
        if not os.path.exists(name):
            fail(f"{cu!r}: #line names {name!r}, which is no file")
    depfile = open(os.path.join(out, stem + ".carbide.d"), encoding="utf-8").read()
    escaped = path.replace("$", "$$").replace(" ", "\\ ").replace("#", "\\#")
    if escaped not in depfile:
        fail(f"the depfile does not name {path!r} escaped as {escaped!r}")

# The stubs of the most hostile accepted name compile as a user's build compiles them.
dollar = [p for p, (stem, _) in expected.items() if stem == accepted_names["dollar"]][0]
stub = os.path.join(relative_out(dollar), accepted_names["dollar"] + ".carbide.cpp")
compiled = run([cxx, "-std=c++17", "-fsyntax-only", "-I" + runtime_include, "-I" + os.path.dirname(stub), stub])
if compiled.returncode != 0:
    fail(f"the host stubs of {dollar!r} do not compile: {compiled.stderr}")

# check: each file alone, a refused one with its reason and the others clean.
for path, (stem, why) in sorted(expected.items()):
    checked = run([carbide, "check", path, "--", "-I" + include_dir, define])
    if stem is not None and checked.returncode != 0:
        fail(f"check {path!r} failed: {checked.stderr}")
    if stem is None and (checked.returncode == 0 or why not in checked.stderr):
        fail(f"check {path!r} was not refused saying {why}: {checked.stderr}")
# SARIF names every accepted file as a URI that decodes to its path.
sarif = run([carbide, "check", "--format", "sarif", dollar, "--", "-I" + include_dir, define])
if sarif.returncode != 0 or '"version": "2.1.0"' not in sarif.stdout.replace('"version":"2.1.0"', '"version": "2.1.0"'):
    fail(f"check --format sarif on {dollar!r} gave no SARIF log: {sarif.stderr}")

# A file named like an option, given as ./-rf.cpp as to any tool.
dash = [p for p, (stem, _) in expected.items() if stem == "-rf"][0]
checked = run([carbide, "check", "./-rf.cpp", "--", "-I" + include_dir, define], cwd=os.path.dirname(dash))
if checked.returncode != 0:
    fail(f"check ./-rf.cpp failed: {checked.stderr}")

# nvcc's own flags: a value its shell would expand is refused before nvcc runs.
for flag in (f"-DX={shell[0]}", f"-DX={shell[1]}", "-DX=\"q\"", "-DX=a\nb"):
    refused = run([carbide, "translate", dollar, "-o", os.path.join(work, "flag-out"),
                   "--cuda-arch", "sm_90", "--nvcc-flag=" + flag, "--", "-I" + include_dir, define])
    if refused.returncode == 0 or "--nvcc-flag" not in refused.stderr:
        fail(f"--nvcc-flag {flag!r} was not refused: {refused.stderr}")
if os.path.exists(os.path.join(work, "flag-out")):
    fail("a refused --nvcc-flag still wrote outputs")

# carbide-tidy runs the same rules on the same files.
if tidy != "-":
    for path, (stem, _) in sorted(expected.items()):
        if stem is None:
            continue
        linted = run([tidy, "--checks=-*,carbide-*", "--warnings-as-errors=carbide-*", "--quiet", path,
                      "--", "-std=c++17", "-I" + runtime_include, "-I" + include_dir, define])
        if linted.returncode != 0:
            fail(f"carbide-tidy on {path!r} failed: {linted.stdout}{linted.stderr}")

if os.path.exists(marker):
    fail("a command ran: the marker file exists")
# Nothing was written outside the work folder's own trees.
for entry in os.listdir(work):
    if entry not in {"tree", os.path.basename(out_dir), os.path.basename(include_dir)}:
        fail(f"something was written beside the outputs: {entry!r}")
if failures:
    sys.exit(f"{len(failures)} failures")
print("hostile names: nothing ran, every output named, every refusal said why")
