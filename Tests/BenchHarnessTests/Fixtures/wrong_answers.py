#!/usr/bin/env python3
"""A correct adapter made wrong in one way, for check-solver's answer checks.

Usage: wrong_answers.py MODE COMMAND...   runs COMMAND (an adapter) and relays
its messages, changing its answers by MODE:
  free-empty    every solved answer's "free" is [] (an ambiguity analysis that finds nothing)
  frames-off    every value is 1e-3 off
  wrong-unsat   an unsatisfiable load lists a row that is not in the conflict
  order-dependent  every value is 1 off unless the layout's first constraint's row
                starts with the lowest variable any row starts with (so the same layout written
                in another order gets another answer: run --metamorphic's target)
  timed-off     every value is 1 off in answers to requests with "free": false (the
                timing pass's), so what is timed is not what was checked
Everything else is relayed unchanged, so only the answers are wrong.
"""
import json
import subprocess
import sys

mode, command = sys.argv[1], sys.argv[2:]
offset = 0.0
child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
for line in sys.stdin:
    request = json.loads(line)
    child.stdin.write(line if line.endswith("\n") else line + "\n")
    child.stdin.flush()
    if request.get("op") == "quit":
        break
    answer = json.loads(child.stdout.readline())
    if mode == "order-dependent" and request.get("op") == "load":
        # After the container's two origin rows come the layout's constraints as written.
        rows = [r for r in request["problem"]["rows"][2:] if r["terms"]]
        starts = [r["terms"][0][0] for r in rows]
        offset = 0.0 if not starts or starts[0] == min(starts) else 1.0
    if mode == "order-dependent" and "values" in answer:
        answer["values"] = [v + offset for v in answer["values"]]
    if mode == "timed-off" and request.get("free") is False and "values" in answer:
        answer["values"] = [v + 1.0 for v in answer["values"]]
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
