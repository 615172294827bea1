#!/usr/bin/env python3
"""Times kiwi (PyPI's kiwisolver, the C++ Cassowary) on the lowered alternating grid.

Reads the lowered system that `layout-bench print --lowered --format json` writes,
and measures what `layout-bench scaling` measures for the native solver:
build + solve with the width edit added first or last, one width edit + update,
and adding + removing one required inequality and one required equality.

Usage: kiwi_grid.py LOWERED.json [--edit-last] [--repetitions N]
Prints one JSON object. Priorities map to kiwi weights (required; the container
width edit strong; priority p as weak x p), kiwi's own convention.
"""
import argparse
import json
import statistics
import sys
import time

import kiwisolver as kiwi


def load(path):
    with open(path) as f:
        return json.load(f)


def build(system, edit_last):
    solver = kiwi.Solver()
    variables = [kiwi.Variable(name) for name in system["variables"]]
    width = variables[2]  # super.width (variable index 2 by the lowering's order)

    def add_edit():
        solver.addEditVariable(width, kiwi.strength.strong)
        solver.suggestValue(width, system["size"][0])

    if not edit_last:
        add_edit()
    for row in system["rows"]:
        if row["origin"] == "container width":
            continue  # the width is the edit
        expr = sum((c * variables[int(i)] for i, c in row["terms"]), row["constant"])
        rel = row["relation"]
        cn = (expr == 0) if rel == "=" else (expr <= 0) if rel == "<=" else (expr >= 0)
        p = row["priority"]
        strength = kiwi.strength.required if p >= 1000 else kiwi.strength.create(0, 0, p)
        solver.addConstraint(cn | strength)
    if edit_last:
        add_edit()
    solver.updateVariables()
    return solver, variables


def seconds(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lowered")
    parser.add_argument("--edit-last", action="store_true")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--skip-build-repetitions", action="store_true",
                        help="build once (for sizes where kiwi takes seconds)")
    args = parser.parse_args()
    system = load(args.lowered)
    reps = 1 if args.skip_build_repetitions else args.repetitions
    builds = []
    built = None
    for _ in range(reps):
        t = seconds(lambda: None)
        start = time.perf_counter()
        built = build(system, args.edit_last)
        builds.append(time.perf_counter() - start)
    solver, variables = built
    result = {"solver": "kiwi", "kiwisolver": kiwi.__version__, "rows": len(system["rows"]),
              "order": "edit-last" if args.edit_last else "edit-first", "build_solve_s": statistics.median(builds)}
    if not args.edit_last:
        width = variables[2]
        edits = []
        for _ in range(max(3, args.repetitions)):
            for w in (320, 375, 414, 768, 1024):
                def edit():
                    solver.suggestValue(width, w)
                    solver.updateVariables()
                edits.append(seconds(edit))
        result["edit_s"] = statistics.median(edits)
        # The probe: the middle row's left view height, as `layout-bench scaling` uses.
        names = system["variables"]
        n_rows = (len(names) // 4 - 2) // 2
        probe = variables[names.index("row%d_left.height" % max(1, n_rows // 2))]
        ineq, eq = [], []
        for _ in range(max(3, args.repetitions)):
            def add_remove_ineq():
                c = (probe - 1 >= 0) | kiwi.strength.required
                solver.addConstraint(c)
                solver.removeConstraint(c)
                solver.updateVariables()
            ineq.append(seconds(add_remove_ineq))
            extra = kiwi.Variable("extra")
            def add_remove_eq():
                c = (extra - probe == 0) | kiwi.strength.required
                solver.addConstraint(c)
                solver.removeConstraint(c)
                solver.updateVariables()
            eq.append(seconds(add_remove_eq))
        result["add_remove_inequality_s"] = statistics.median(ineq)
        result["add_remove_equality_s"] = statistics.median(eq)
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
