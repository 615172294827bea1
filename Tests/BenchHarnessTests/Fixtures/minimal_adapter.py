#!/usr/bin/env python3
"""A minimal adapter written from docs/solver-protocol.md alone (no adapter kit).

It wraps kiwisolver in the fewest lines the specification allows, so that a
test can show the specification is enough to write one that passes
`layout-bench check-solver`.
"""
import json
import sys
import time

import kiwisolver as kiwi

variables, edits, refused, handles, next_handle = [], {}, [], {}, 0
solver = kiwi.Solver()


def constraint(row):
    expr = kiwi.Expression([kiwi.Term(variables[i], c) for i, c in row["terms"]], row["constant"])
    cn = {"=": expr == 0, "<=": expr <= 0, ">=": expr >= 0}[row["relation"]]
    p = row["priority"]
    return cn | (kiwi.strength.required if p >= 1000 else 10.0 ** (6.0 * (p - 1) / 998.0))


def set_edits(new):
    for e in new:
        v = variables[e["variable"]]
        if e["variable"] not in edits:
            solver.addEditVariable(v, 1e8)  # stronger than any priority, weaker than required
        solver.suggestValue(v, e["value"])
        edits[e["variable"]] = e["value"]


def answer():
    solver.updateVariables()
    values = [v.value() for v in variables]
    unmet = any(abs(values[i] - x) > 1e-6 * max(1.0, abs(x)) for i, x in edits.items())
    return {"status": "unsatisfiable" if refused or unmet else "solved", "values": values}


for line in sys.stdin:
    start = time.perf_counter()
    try:
        request = json.loads(line)
        op = request.get("op")
        if op == "quit":
            break
        if op == "hello":
            if request.get("protocol") != 1:
                raise ValueError("I speak protocol 1")
            out = {"name": "minimal", "version": kiwi.__version__, "protocol": 1, "semantics": "weighted",
                   "incremental": True, "edits": True}
        elif op == "load":
            solver, variables, edits, refused, handles = kiwi.Solver(), [], {}, [], {}
            problem = request["problem"]
            variables = [kiwi.Variable(n) for n in problem["variables"]]
            set_edits(problem["edits"])
            for i, row in enumerate(problem["rows"]):
                try:
                    solver.addConstraint(constraint(row))
                except kiwi.UnsatisfiableConstraint:
                    refused.append(i)
            out = {"unsatisfiable": refused}
        elif op == "solve":
            out = answer()
        elif op == "suggest":
            set_edits(request["edits"])
            out = answer()
        elif op == "add":
            next_handle += 1
            handles[next_handle] = constraint(request["row"])
            solver.addConstraint(handles[next_handle])
            out = {"handle": next_handle}
        elif op == "remove":
            solver.removeConstraint(handles.pop(request["handle"]))
            out = {}
        else:
            raise ValueError("unknown op")
        out["ok"] = True
    except Exception as error:
        out = {"ok": False, "error": repr(error)}
    out["time_s"] = time.perf_counter() - start
    print(json.dumps(out), flush=True)
