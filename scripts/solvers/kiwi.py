#!/usr/bin/env python3
"""layout-bench external solver: kiwi (the C++ Cassowary) through PyPI's kiwisolver.

Speaks layout-bench's line-delimited JSON protocol on stdin/stdout (see the
README, "External solvers"). Installs kiwisolver with pip on first use.

Priorities are weighted, as kiwi does it: a priority p in 1..999 becomes the
weight 10^(6 (p - 1) / 998), spreading 1..999 over kiwi's weak (1) .. strong
(1e6) range; the container's size edits are 1e8; 1000 is required. So this
solver declares "weighted" semantics: enough error at a lower level can
outweigh a higher one, where the format says it never does.
"""
import json
import subprocess
import sys
import time

try:
    import kiwisolver as kiwi
except ImportError:  # install once, quietly, then retry
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "kiwisolver"],
                   stdout=subprocess.DEVNULL, stderr=sys.stderr, check=False)
    import kiwisolver as kiwi

EDIT_STRENGTH = 1e8


def weight(priority):
    if priority >= 1000:
        return kiwi.strength.required
    return 10.0 ** (6.0 * (priority - 1.0) / 998.0)


class State:
    def __init__(self):
        self.solver = kiwi.Solver()
        self.variables = []
        self.edits = {}
        self.handles = {}
        self.next_handle = 0

    def constraint(self, row):
        expr = row["constant"]
        for index, coefficient in row["terms"]:
            expr = expr + coefficient * self.variables[int(index)]
        if not isinstance(expr, (kiwi.Expression, kiwi.Term, kiwi.Variable)):
            expr = kiwi.Expression([], float(expr))
        relation = row["relation"]
        if relation == "=":
            cn = expr == 0
        elif relation == "<=":
            cn = expr <= 0
        else:
            cn = expr >= 0
        return cn | weight(row["priority"])

    def load(self, problem):
        self.__init__()
        self.variables = [kiwi.Variable(name) for name in problem["variables"]]
        unsatisfiable = []
        for edit in problem.get("edits", []):
            v = self.variables[int(edit["variable"])]
            self.solver.addEditVariable(v, EDIT_STRENGTH)
            self.solver.suggestValue(v, edit["value"])
            self.edits[int(edit["variable"])] = edit["value"]
        for i, row in enumerate(problem["rows"]):
            try:
                self.solver.addConstraint(self.constraint(row))
            except kiwi.UnsatisfiableConstraint:
                unsatisfiable.append(i)
        self.unsatisfiable = unsatisfiable
        return {"unsatisfiable": unsatisfiable}

    def answer(self):
        self.solver.updateVariables()
        values = [v.value() for v in self.variables]
        status = "unsatisfiable" if self.unsatisfiable else "solved"
        # A container size the required constraints cannot meet shows as a
        # violated edit (kiwi bends it instead of failing).
        for index, value in self.edits.items():
            if abs(values[index] - value) > 1e-6 * max(1.0, abs(value)):
                status = "unsatisfiable"
        return {"status": status, "values": values}

    def suggest(self, edits):
        for edit in edits:
            index = int(edit["variable"])
            v = self.variables[index]
            if index not in self.edits:
                self.solver.addEditVariable(v, EDIT_STRENGTH)
            self.solver.suggestValue(v, edit["value"])
            self.edits[index] = edit["value"]
        return self.answer()


def main():
    state = State()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        start = time.perf_counter()
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "hello":
                result = {"name": "kiwi", "version": kiwi.__version__, "semantics": "weighted",
                          "incremental": True, "edits": True}
            elif op == "load":
                result = state.load(request["problem"])
            elif op == "solve":
                result = state.answer()
            elif op == "suggest":
                result = state.suggest(request["edits"])
            elif op == "add":
                cn = state.constraint(request["row"])
                state.solver.addConstraint(cn)
                state.next_handle += 1
                state.handles[state.next_handle] = cn
                result = {"handle": state.next_handle}
            elif op == "remove":
                state.solver.removeConstraint(state.handles.pop(int(request["handle"])))
                result = {}
            elif op == "quit":
                break
            else:
                raise ValueError("unknown op %r" % op)
            result["ok"] = True
        except Exception as error:  # report, keep serving
            result = {"ok": False, "error": "%s: %s" % (type(error).__name__, error)}
        result["time_s"] = time.perf_counter() - start
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
