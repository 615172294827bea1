#!/usr/bin/env python3
"""An adapter out of spec in one way, for the strict harness's tests.

Usage: offspec.py MODE, MODE one of
  no-time        every answer without time_s (in spec: the solver is not timed)
  optimal        solve answers "status": "optimal"
  no-semantics   hello without "semantics"
  weigthed       hello with "semantics": "weigthed"
  string-values  solve's values as strings
  no-ok          hello without "ok"
  free-missing   hello promises "ambiguity", solve answers without "free"
  free-repeated  solve's "free" lists a variable twice
  free-ok        hello promises "ambiguity", solve says variable 4 (a.x) is free
  free-on-request  as free-ok, but a request with "free": false gets no free
                 list and a tenth of the time (the search left out)
Otherwise it answers in spec, with every value 0 (not a solver: a protocol fixture).
"""
import json
import sys

mode = sys.argv[1]
count = 0
for line in sys.stdin:
    request = json.loads(line)
    op = request.get("op")
    if op == "quit":
        break
    out = {"ok": True, "time_s": 1e-4}
    if op == "hello":
        out.update({"name": "offspec", "version": "0", "protocol": 1, "semantics": "weighted",
                    "incremental": False, "edits": True})
        if mode == "no-semantics":
            del out["semantics"]
        if mode == "weigthed":
            out["semantics"] = "weigthed"
        if mode == "no-ok":
            del out["ok"]
        if mode.startswith("free-") and mode != "free-repeated":
            out["ambiguity"] = True
    elif op == "load":
        count = len(request["problem"]["variables"])
        out["unsatisfiable"] = []
    elif op in ("solve", "suggest"):
        out["status"] = "optimal" if mode == "optimal" else "solved"
        out["values"] = ["0"] * count if mode == "string-values" else [0.0] * count
        if mode == "free-repeated":
            out["free"] = [4, 4]
        if mode == "free-ok":
            out["free"] = [4]
        if mode == "free-on-request" and request.get("free") is not False:
            out["free"], out["time_s"] = [4], 1e-3
    else:
        out = {"ok": False, "error": "unknown op"}
    if mode == "no-time":
        out.pop("time_s", None)
    print(json.dumps(out), flush=True)
