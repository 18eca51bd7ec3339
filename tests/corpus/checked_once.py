#!/usr/bin/env python3
"""One `carbide check` per corpus file, shared by every test that reads it.

The rules' corpus, the textbook ports and the samples are checked by lit (their RUN lines), by the
soundness oracle (its SARIF) and by the clang-tidy comparison (its text). Each file is checked once,
by the ctest fixture `corpus_checked_once`, and the others replay what it recorded:

  checked_once.py record CARBIDE STORE FILE...   check each FILE (two at a time) and record its
                                                 stderr, exit status and SARIF in STORE
  checked_once.py replay CARBIDE STORE FILE      behave as `carbide check FILE`: print the recorded
                                                 stderr and exit with the recorded status

A record is replayed only while it is current: made by the same carbide binary (its size and
time), from the same bytes of FILE, with Carbide's headers as they were. Otherwise (lit run on its
own, a file edited since) replay runs `carbide check` itself, so no test ever reads a stale result.
"""
import concurrent.futures
import hashlib
import json
import os
import pathlib
import signal
import subprocess
import sys

HEADERS = pathlib.Path(__file__).resolve().parents[2] / "runtime" / "include" / "carbide"


def key(carbide, source):
    """What a check's result depends on, hashed."""
    digest = hashlib.sha256()
    binary = os.stat(carbide)
    digest.update(f"{os.path.realpath(carbide)} {binary.st_size} {binary.st_mtime_ns}\n".encode())
    for header in sorted(HEADERS.rglob("*")):
        if header.is_file():
            digest.update(f"{header} {header.stat().st_mtime_ns}\n".encode())
    digest.update(pathlib.Path(source).read_bytes())
    return digest.hexdigest()


def record_path(store, source):
    name = hashlib.sha256(os.path.realpath(source).encode()).hexdigest()[:24]
    return pathlib.Path(store) / f"{pathlib.Path(source).stem}-{name}.json"


def check(carbide, source, sarif_path=None):
    command = [carbide, "check", source]
    if sarif_path:
        command += ["--sarif-file", sarif_path]
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode, result.stderr


def record(carbide, store, source):
    path = record_path(store, source)
    sarif_path = str(path.with_suffix(".sarif"))
    before = key(carbide, source)
    status, stderr = check(carbide, source, sarif_path)
    try:
        sarif = json.loads(pathlib.Path(sarif_path).read_text())
    except (OSError, json.JSONDecodeError):
        sarif = None
    path.write_text(json.dumps({"key": before, "source": os.path.realpath(source), "status": status,
                                "stderr": stderr, "sarif": sarif}))
    return source, status


def current(carbide, store, source):
    """The file's record, when it is current; else None."""
    path = record_path(store, source)
    try:
        stored = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None
    return stored if stored.get("key") == key(carbide, source) else None


def result(carbide, store, source):
    """(status, stderr, SARIF or None) of `carbide check source`: recorded, else run now."""
    stored = current(carbide, store, source)
    if stored is not None:
        return stored["status"], stored["stderr"], stored["sarif"]
    sarif_path = os.path.join(store, f"replay-{os.getpid()}.sarif")
    os.makedirs(store, exist_ok=True)
    status, stderr = check(carbide, source, sarif_path)
    try:
        sarif = json.loads(pathlib.Path(sarif_path).read_text())
        os.remove(sarif_path)
    except (OSError, json.JSONDecodeError):
        sarif = None
    return status, stderr, sarif


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in ("record", "replay"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, carbide, store = sys.argv[1:4]
    files = sys.argv[4:]
    if mode == "replay":
        status, stderr, _ = result(carbide, store, files[0])
        sys.stderr.write(stderr)
        sys.stderr.flush()
        if status < 0:  # killed by a signal: end the same way, so `not` does not take it for a finding
            signal.signal(-status, signal.SIG_DFL)
            os.kill(os.getpid(), -status)
        return status
    os.makedirs(store, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for source, status in pool.map(lambda source: record(carbide, store, source), files):
            print(f"{source}: checked, exit status {status}")
    print(f"{len(files)} files checked once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
