"""Writes DIR/nvcc: a shell script that runs the nvcc on PATH, as /usr/local/bin/nvcc does on
machines whose toolkit lives elsewhere. The translator must still find that toolkit's headers."""
import os
import shutil
import stat
import sys

directory = sys.argv[1]
real = shutil.which("nvcc")
if real is None:
    sys.exit("nvcc_wrapper.py: no nvcc on PATH")
os.makedirs(directory, exist_ok=True)
wrapper = os.path.join(directory, "nvcc")
with open(wrapper, "w") as out:
    out.write('#!/bin/sh\nexec "%s" "$@"\n' % os.path.abspath(real))
os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
