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

It also answers `free` (the protocol's ambiguity field), exactly: with every
level's optimum fixed as an equality over the rationals, a variable is free
when some solution gives it another value, which one satisfiability check
per variable decides (a model that moves one variable often shows others
moving too, which then need no check of their own).
"""
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_kit  # noqa: E402


class Z3(adapter_kit.RebuildingAdapter):
    name = "z3"
    semantics = "lexicographic"
    max_rows = 400
    ambiguity = True

    def __init__(self):
        import z3
        self.z3 = z3
        self.version = z3.get_version_string()

    def linear(self, row, variables):
        terms, constant = adapter_kit.expression_terms(row)
        expr = self.z3.RealVal(Fraction(constant))
        for index, coefficient in terms:
            expr = expr + self.z3.RealVal(Fraction(coefficient)) * variables[index]
        relation = row["relation"]
        if relation not in ("=", "<=", ">="):
            raise ValueError("unknown relation %r" % relation)
        return expr, relation

    @staticmethod
    def hard(expr, relation):
        return expr == 0 if relation == "=" else (expr <= 0 if relation == "<=" else expr >= 0)

    def refuse(self, rows):
        z3 = self.z3
        variables = [z3.Real("v%d" % i) for i in range(len(self.variables))]
        required = [(i, self.linear(row, variables)) for i, row in enumerate(rows) if float(row["priority"]) >= 1000]
        checker = z3.Solver()
        checker.add([self.hard(*row) for _, row in required])
        if checker.check() != z3.unsat:
            return []
        # Only when they conflict at all: row by row, in order.
        refused = []
        checker = z3.Solver()
        for i, row in required:
            checker.push()
            checker.add(self.hard(*row))
            if checker.check() == z3.unsat:
                checker.pop()
                refused.append(i)
        return refused

    def compute(self, rows, edit_values):
        z3 = self.z3
        variables = [z3.Real("v%d" % i) for i in range(len(self.variables))]
        opt = z3.Optimize()
        opt.set(priority="lex")
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

        levels = {}
        hard = []
        for row in rows:
            expr, relation = self.linear(row, variables)
            if float(row["priority"]) >= 1000:
                hard.append(self.hard(expr, relation))
            else:
                levels.setdefault(float(row["priority"]), []).append(error(expr, relation))
        opt.add(hard)
        edit_error = [error(variables[i] - z3.RealVal(Fraction(v)), "=") for i, v in sorted(edit_values.items())]
        objectives = ([z3.Sum(edit_error)] if edit_error else []) + [z3.Sum(levels[p]) for p in sorted(levels, reverse=True)]
        for objective in objectives:
            opt.minimize(objective)
        outcome = opt.check()
        if outcome != z3.sat:
            raise RuntimeError("the optimiser answered %s" % outcome)
        model = opt.model()

        def value(term, of=None):
            number = (of or model).eval(term, model_completion=True)
            return float(Fraction(number.as_fraction())) if hasattr(number, "as_fraction") else float(number.as_decimal(30).rstrip("?"))

        met = not edit_error or value(z3.Sum(edit_error)) == 0
        if not self.free_wanted:
            return met, [value(v) for v in variables], None
        # The optimal face: the optimiser's constraints (error definitions
        # included) with every objective fixed at its exact optimum.
        face = z3.Solver()
        face.add(opt.assertions())
        for objective in objectives:
            face.add(objective == model.eval(objective, model_completion=True))
        exact = [model.eval(v, model_completion=True) for v in variables]
        free = set()
        for i, v in enumerate(variables):
            if i in free:
                continue
            face.push()
            face.add(v != exact[i])
            if face.check() == z3.sat:
                other = face.model()
                for k, w in enumerate(variables):
                    if k not in free and z3.is_false(z3.simplify(other.eval(w, model_completion=True) == exact[k])):
                        free.add(k)
            face.pop()
        return met, [value(v) for v in variables], sorted(free)


if __name__ == "__main__":
    adapter_kit.serve(Z3)
