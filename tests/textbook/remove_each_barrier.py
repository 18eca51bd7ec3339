"""Removes each block::sync() of each textbook port in turn and runs `carbide check` on the result.

A port checks clean (its own lit test); without one of its barriers, most ports race, and the
checker must say so. A barrier the checker proves needless must be named with --redundant
FILE:LINE, with the reason in the calling test. Prints one line per mutant and exits 1 when a
mutant without a named reason is accepted, or a named one draws a finding.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

BARRIER = re.compile(r"carbide::block::sync\(\);")


def mutants(path):
    text = open(path).read()
    for match in BARRIER.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        yield line, text[: match.start()] + ";" + text[match.end():]


def check(carbide, workdir, path, line, text):
    name = os.path.basename(path)
    mutant_dir = os.path.join(workdir, f"{name}.{line}")
    os.makedirs(mutant_dir, exist_ok=True)
    mutant = os.path.join(mutant_dir, name)
    with open(mutant, "w") as out:
        out.write(text)
    result = subprocess.run([carbide, "check", "--color", "never", mutant], capture_output=True, text=True)
    findings = [l for l in result.stderr.splitlines() if ": error: " in l or ": warning: " in l]
    return f"{name}:{line}", result.returncode, findings


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("carbide")
    parser.add_argument("workdir")
    parser.add_argument("ports", nargs="+")
    parser.add_argument("--redundant", action="append", default=[])
    args = parser.parse_args()
    jobs = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for path in sorted(args.ports):
            for line, text in mutants(path):
                jobs.append(pool.submit(check, args.carbide, args.workdir, path, line, text))
    unexpected = 0
    for job in jobs:
        where, code, findings = job.result()
        redundant = where in args.redundant
        if findings and code != 0:
            verdict = "reported" + (" (named redundant: the checker no longer proves it needless)" if redundant else "")
            unexpected += redundant
        elif redundant:
            verdict = "accepted, named redundant"
        else:
            verdict = "ACCEPTED: the port without this barrier checks clean; a race slipped through"
            unexpected += 1
        print(f"{where} removed: {verdict}")
        if findings and redundant:
            print("  " + findings[0])
    unknown = set(args.redundant) - {job.result()[0] for job in jobs}
    for where in sorted(unknown):
        print(f"{where}: named redundant, but no barrier is there")
    print(f"{len(jobs)} mutants, {unexpected + len(unknown)} unexpected")
    return 1 if unexpected or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
