#!/usr/bin/env python3
"""layout-bench external solver: Z3 (PyPI's z3-solver), lexicographic over exact rationals.

A referee for numerics: Z3's optimiser works in exact rational arithmetic,
so its answer has no rounding at all (the values are rounded to the nearest
double only when written). Speaks the solver protocol (docs/solver-protocol.md)
through the adapter kit; `scripts/layout-bench` installs z3-solver.

The semantics are the format's own, lexicographic: the required rows are hard;
then, highest first, the container's size edits (stronger than any priority,
weaker than required), then each priority level minimises the sum of its rows'
errors (|e| for =, max(0, e) for <=, max(0, -e) for >=) without giving up
anything a higher level reached. Exact optimisation is slow on large problems:
loads over `max_rows` are declined as unsupported.
"""
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_kit  # noqa: E402


class Z3(adapter_kit.Adapter):
    name = "z3"
    semantics = "lexicographic"
    incremental = True  # add and remove rebuild the problem: correct, not fast
    edits = True
    max_rows = 400

    def __init__(self):
        import z3
        self.z3 = z3
        self.version = z3.get_version_string()
        self.variables = []
        self.rows = []
        self.edit_values = {}
        self.unsatisfiable = []
        self.added = {}
        self.next_token = 0
        self.answer = None

    def linear(self, row):
        terms, constant = adapter_kit.expression_terms(row)
        expr = self.z3.RealVal(Fraction(constant))
        for index, coefficient in terms:
            expr = expr + self.z3.RealVal(Fraction(coefficient)) * self.variables[index]
        relation = row["relation"]
        if relation not in ("=", "<=", ">="):
            raise ValueError("unknown relation %r" % relation)
        return expr, relation

    def hard(self, expr, relation):
        return expr == 0 if relation == "=" else (expr <= 0 if relation == "<=" else expr >= 0)

    def load(self, variables, rows, edits):
        z3 = self.z3
        self.variables = [z3.Real("v%d" % i) for i in range(len(variables))]
        self.rows = [(self.linear(row), float(row["priority"])) for row in rows]
        self.edit_values = {int(e["variable"]): float(e["value"]) for e in edits}
        self.added = {}
        self.answer = None
        # Which required rows conflict with the ones before them (checked one
        # by one only when they conflict at all: one check otherwise).
        required = [i for i, (_, p) in enumerate(self.rows) if p >= 1000]
        checker = z3.Solver()
        checker.add([self.hard(*self.rows[i][0]) for i in required])
        self.unsatisfiable = []
        if checker.check() == z3.unsat:
            checker = z3.Solver()
            for i in required:
                checker.push()
                checker.add(self.hard(*self.rows[i][0]))
                if checker.check() == z3.unsat:
                    checker.pop()
                    self.unsatisfiable.append(i)
        return self.unsatisfiable

    def solve(self):
        if self.answer is not None:
            return self.answer
        z3 = self.z3
        opt = z3.Optimize()
        opt.set(priority="lex")
        refused = set(self.unsatisfiable)
        levels = {}
        rows = [r for i, r in enumerate(self.rows) if i not in refused] + list(self.added.values())
        count = 0

        def error(expr, relation):
            nonlocal count
            count += 1
            if relation == "=":
                plus, minus = z3.Real("p%d" % count), z3.Real("m%d" % count)
                opt.add(plus >= 0, minus >= 0, expr == plus - minus)
                return plus + minus
            slack = z3.Real("s%d" % count)
            opt.add(slack >= 0, slack >= (expr if relation == "<=" else -expr))
            return slack

        for (expr, relation), priority in rows:
            if priority >= 1000:
                opt.add(self.hard(expr, relation))
            else:
                levels.setdefault(priority, []).append(error(expr, relation))
        edit_error = [error(self.variables[i] - z3.RealVal(Fraction(v)), "=") for i, v in sorted(self.edit_values.items())]
        objectives = []
        if edit_error:
            objectives.append(opt.minimize(z3.Sum(edit_error)))
        for priority in sorted(levels, reverse=True):
            objectives.append(opt.minimize(z3.Sum(levels[priority])))
        if opt.check() != z3.sat:
            raise RuntimeError("the optimiser answered %s" % opt.check())
        model = opt.model()

        def value(term):
            number = model.eval(term, model_completion=True)
            return float(Fraction(number.as_fraction())) if hasattr(number, "as_fraction") else float(number.as_decimal(30).rstrip("?"))

        values = [value(v) for v in self.variables]
        unmet = edit_error and value(z3.Sum(edit_error)) != 0
        self.answer = ("unsatisfiable" if self.unsatisfiable or unmet else "solved", values)
        return self.answer

    def suggest(self, edits):
        for edit in edits:
            self.edit_values[int(edit["variable"])] = float(edit["value"])
        self.answer = None
        return self.solve()

    def add(self, row):
        self.next_token += 1
        self.added[self.next_token] = (self.linear(row), float(row["priority"]))
        self.answer = None
        return self.next_token

    def remove(self, token):
        del self.added[token]
        self.answer = None


if __name__ == "__main__":
    adapter_kit.serve(Z3)
