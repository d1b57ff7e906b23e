#!/usr/bin/env python3
"""A program built two ways prints the same: the reference build run on the native backend, the other on the
backend named, each with the same arguments. Both must exit 0. A line that names the device it ran on ("running on
...") is left out of the comparison, and so must differ: the other build really ran on another device.

    same_output_test.py <reference program> <program> <backend> [arguments...]"""
import os
import subprocess
import sys

reference, program, backend, *arguments = sys.argv[1:]
DEVICE_LINE = "running on "


def run(path, backends):
    env = dict(os.environ, ENCORE_BACKENDS=backends)
    result = subprocess.run([path] + arguments, capture_output=True, text=True, env=env, timeout=600)
    print(f"$ ENCORE_BACKENDS={backends} {path} {' '.join(arguments)}  (exit status {result.returncode})")
    print(result.stdout + result.stderr, end="")
    return result


problems = []
ran = {name: run(path, backends) for name, path, backends in
       [("reference", reference, "native"), ("other", program, backend)]}
for name, result in ran.items():
    if result.returncode != 0:
        problems.append(f"the {name} program exited with status {result.returncode}")
lines = {name: result.stdout.splitlines() for name, result in ran.items()}
devices = {name: [l for l in ls if l.startswith(DEVICE_LINE)] for name, ls in lines.items()}
kept = {name: [l for l in ls if not l.startswith(DEVICE_LINE)] for name, ls in lines.items()}
if not kept["reference"]:
    problems.append("the reference program printed nothing to compare")
if kept["reference"] != kept["other"]:
    problems.append("the two programs printed different results")
if devices["reference"] and devices["reference"] == devices["other"]:
    problems.append(f"both programs say they ran on the same device: {devices['other']}")
for p in problems:
    print("FAIL:", p)
print("ok" if not problems else f"{len(problems)} failure(s)")
sys.exit(1 if problems else 0)
