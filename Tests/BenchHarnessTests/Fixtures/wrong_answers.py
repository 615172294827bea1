#!/usr/bin/env python3
"""A correct adapter made wrong in one way, for check-solver's answer checks.

Usage: wrong_answers.py MODE COMMAND...   runs COMMAND (an adapter) and relays
its messages, changing its answers by MODE:
  free-empty    every solved answer's "free" is [] (an ambiguity analysis that finds nothing)
  frames-off    every value is 1e-3 off
  wrong-unsat   an unsatisfiable load lists a row that is not in the conflict
Everything else is relayed unchanged, so only the answers are wrong.
"""
import json
import subprocess
import sys

mode, command = sys.argv[1], sys.argv[2:]
child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
for line in sys.stdin:
    request = json.loads(line)
    child.stdin.write(line if line.endswith("\n") else line + "\n")
    child.stdin.flush()
    if request.get("op") == "quit":
        break
    answer = json.loads(child.stdout.readline())
    if mode == "free-empty" and "free" in answer:
        answer["free"] = []
    if mode == "frames-off" and "values" in answer:
        answer["values"] = [v + 1e-3 for v in answer["values"]]
    if mode == "wrong-unsat" and answer.get("unsatisfiable"):
        # Two rows before the first one listed: in check-solver's conflicting
        # layout (`a.height = 5`, `a.width = 10`, `a.width = 20`, and either
        # width row alone is a right answer) that is `a.height = 5`, required
        # but no part of the conflict.
        answer["unsatisfiable"] = [max(answer["unsatisfiable"]) - 2]
    print(json.dumps(answer), flush=True)
child.stdin.close()
sys.exit(child.wait())
