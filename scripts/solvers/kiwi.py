#!/usr/bin/env python3
"""layout-bench external solver: kiwi (the C++ Cassowary) through PyPI's kiwisolver.

Speaks layout-bench's solver protocol (docs/solver-protocol.md) through the
adapter kit. `scripts/layout-bench` installs kiwisolver; without it, hello is
declined and the run reports kiwi as unavailable.

Priorities are weighted, as kiwi does it: a priority p in 1..999 becomes the
weight 10^(6 (p - 1) / 998), spreading 1..999 over kiwi's weak (1) .. strong
(1e6) range; the container's size edits are 1e8; 1000 is required. So this
solver declares "weighted" semantics: enough error at a lower level can
outweigh a higher one, where the format says it never does.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_kit  # noqa: E402

EDIT_STRENGTH = 1e8


class Kiwi(adapter_kit.Adapter):
    name = "kiwi"
    semantics = "weighted"
    incremental = True
    edits = True

    def __init__(self):
        import kiwisolver
        self.kiwi = kiwisolver
        self.version = kiwisolver.__version__
        self.solver = kiwisolver.Solver()
        self.variables = []
        self.edit_values = {}
        self.unsatisfiable = []

    def weight(self, priority):
        if priority >= 1000:
            return self.kiwi.strength.required
        return 10.0 ** (6.0 * (priority - 1.0) / 998.0)

    def constraint(self, row):
        terms, constant = adapter_kit.expression_terms(row)
        expr = self.kiwi.Expression([self.kiwi.Term(self.variables[i], c) for i, c in terms], constant)
        relation = row["relation"]
        if relation == "=":
            cn = expr == 0
        elif relation == "<=":
            cn = expr <= 0
        elif relation == ">=":
            cn = expr >= 0
        else:
            raise ValueError("unknown relation %r" % relation)
        return cn | self.weight(row["priority"])

    def load(self, variables, rows, edits):
        self.solver = self.kiwi.Solver()
        self.variables = [self.kiwi.Variable(name) for name in variables]
        self.edit_values = {}
        self.suggest_values(edits)
        self.unsatisfiable = []
        for i, row in enumerate(rows):
            try:
                self.solver.addConstraint(self.constraint(row))
            except self.kiwi.UnsatisfiableConstraint:
                self.unsatisfiable.append(i)
        return self.unsatisfiable

    def suggest_values(self, edits):
        for edit in edits:
            index = int(edit["variable"])
            v = self.variables[index]
            if index not in self.edit_values:
                self.solver.addEditVariable(v, EDIT_STRENGTH)
            self.solver.suggestValue(v, float(edit["value"]))
            self.edit_values[index] = float(edit["value"])

    def solve(self):
        self.solver.updateVariables()
        values = [v.value() for v in self.variables]
        status = "unsatisfiable" if self.unsatisfiable else "solved"
        # A container size the required rows cannot meet shows as a violated
        # edit (kiwi bends the edit instead of failing).
        for index, value in self.edit_values.items():
            if abs(values[index] - value) > 1e-6 * max(1.0, abs(value)):
                status = "unsatisfiable"
        return status, values

    def suggest(self, edits):
        self.suggest_values(edits)
        return self.solve()

    def add(self, row):
        cn = self.constraint(row)
        self.solver.addConstraint(cn)
        return cn

    def remove(self, cn):
        self.solver.removeConstraint(cn)


if __name__ == "__main__":
    adapter_kit.serve(Kiwi)
