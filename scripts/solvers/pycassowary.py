#!/usr/bin/env python3
"""layout-bench external solver: PyPI's `cassowary`, a pure-Python Cassowary.

An implementation independent of kiwi and of layout-bench's own: a second
opinion on the same algorithm. Speaks the solver protocol
(docs/solver-protocol.md) through the adapter kit. `scripts/layout-bench`
installs the package; without it, hello is declined.

Priorities are weighted like kiwi's: p in 1..999 becomes the strength
10^(6 (p - 1) / 998) (this package's strengths are plain numbers, weak = 1,
strong = 1e6); the container's size is held by rows of strength 1e8 (stronger
than any priority, weaker than required), replaced on each suggest.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_kit  # noqa: E402

EDIT_STRENGTH = 1e8


class PyCassowary(adapter_kit.Adapter):
    name = "pycassowary"
    semantics = "weighted"
    incremental = True
    edits = True
    # Pure Python: 1,300 rows take 0.5 s a load, and a run loads dozens of times; the limit keeps a
    # run's time bounded (larger problems are answered "unsupported").
    max_rows = 600

    def __init__(self):
        import cassowary
        from cassowary.expression import Expression
        global Expression
        self.cassowary = cassowary
        self.version = cassowary.__version__
        self.reset([])

    def reset(self, variables):
        self.solver = self.cassowary.SimplexSolver()
        self.variables = [self.cassowary.Variable(name) for name in variables]
        self.edit_rows = {}  # variable index -> (value, constraint)
        self.unsatisfiable = []

    def constraint(self, terms, constant, relation):
        expr = Expression(constant=constant)
        for index, coefficient in terms:
            expr = expr + self.variables[index] * coefficient
        if relation == "=":
            return expr == 0
        if relation == "<=":
            return expr <= 0
        if relation == ">=":
            return expr >= 0
        raise ValueError("unknown relation %r" % relation)

    def add_row(self, row):
        terms, constant = adapter_kit.expression_terms(row)
        cn = self.constraint(terms, constant, row["relation"])
        priority = float(row["priority"])
        if priority >= 1000:
            return self.solver.add_constraint(cn, strength=self.cassowary.REQUIRED)
        return self.solver.add_constraint(cn, strength=10.0 ** (6.0 * (priority - 1.0) / 998.0))

    def set_edits(self, edits):
        for edit in edits:
            index, value = int(edit["variable"]), float(edit["value"])
            if index in self.edit_rows:
                self.solver.remove_constraint(self.edit_rows[index][1])
            cn = self.constraint([(index, 1.0)], -value, "=")
            self.edit_rows[index] = (value, self.solver.add_constraint(cn, strength=EDIT_STRENGTH))

    def load(self, variables, rows, edits):
        self.reset(variables)
        self.set_edits(edits)
        for i, row in enumerate(rows):
            try:
                self.add_row(row)
            except self.cassowary.RequiredFailure:
                self.unsatisfiable.append(i)
        return self.unsatisfiable

    def solve(self):
        values = [v.value for v in self.variables]
        status = "unsatisfiable" if self.unsatisfiable else "solved"
        for index, (value, _) in self.edit_rows.items():
            if abs(values[index] - value) > 1e-6 * max(1.0, abs(value)):
                status = "unsatisfiable"
        return status, values

    def suggest(self, edits):
        self.set_edits(edits)
        return self.solve()

    def add(self, row):
        return self.add_row(row)

    def remove(self, cn):
        self.solver.remove_constraint(cn)


if __name__ == "__main__":
    adapter_kit.serve(PyCassowary)
