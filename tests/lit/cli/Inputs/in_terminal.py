#!/usr/bin/env python3
"""Runs a command with its stderr on a pseudo-terminal and writes what it printed to LOG, with
carriage returns and escapes spelled out (\\r, \\e) so FileCheck can read them.
usage: in_terminal.py LOG COMMAND..."""
import os
import pty
import subprocess
import sys

log, command = sys.argv[1], sys.argv[2:]
leader, follower = pty.openpty()
process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=follower)
os.close(follower)
captured = b""
while True:
    try:
        chunk = os.read(leader, 4096)
    except OSError:  # the terminal closes when the command exits
        break
    if not chunk:
        break
    captured += chunk
status = process.wait()
text = captured.decode(errors="replace").replace("\r\n", "\n").replace("\r", "\\r").replace("\x1b", "\\e")
with open(log, "w") as out:
    out.write(text)
sys.exit(status)
