#!/usr/bin/env python3
"""A command line encore++ must refuse: it exits non-zero and says why (the message fragment given).

    refusal_test.py <encore++> <expected message fragment> [encore++ arguments...]"""
import subprocess
import sys

encore_cxx, fragment, *arguments = sys.argv[1:]
result = subprocess.run([encore_cxx] + arguments, capture_output=True, text=True)
problems = []
if result.returncode == 0:
    problems.append("encore++ accepted the command line")
if fragment not in result.stderr:
    problems.append(f"its message does not say '{fragment}':\n{result.stderr}")
for p in problems:
    print("FAIL:", p)
print("ok" if not problems else f"{len(problems)} failure(s)")
sys.exit(1 if problems else 0)
