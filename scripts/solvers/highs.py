#!/usr/bin/env python3
"""layout-bench external solver: HiGHS (PyPI's highspy), the lexicographic LP.

A second LP reference beside GLPK, through the solver protocol
(docs/solver-protocol.md) and the adapter kit; `scripts/layout-bench`
installs highspy. The formulation is the format's meaning, as the GLPK
reference states it: the required rows are constraints; each non-required
row gets error columns (p - m for =, one slack for <= and >=); the levels are
minimised one after the other, highest first (the container's size edits
first of all, stronger than any priority and weaker than required), and each
optimum is then held by a row `sum of the level's errors <= optimum + slack`
(slack 1e-9 absolute + 1e-9 relative, GLPK's own), so a lower level never
buys anything from a higher one. HiGHS warm-starts each level from the
previous basis.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_kit  # noqa: E402

LEVEL_SLACK = 1e-9


class HiGHS(adapter_kit.RebuildingAdapter):
    name = "highs"
    semantics = "lexicographic"

    def __init__(self):
        import highspy
        self.highspy = highspy
        h = highspy.Highs()
        self.version = "%d.%d.%d" % (h.versionMajor(), h.versionMinor(), h.versionPatch())

    def new_model(self):
        h = self.highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("primal_feasibility_tolerance", 1e-9)
        h.setOptionValue("dual_feasibility_tolerance", 1e-9)
        count = len(self.variables)
        inf = self.highspy.kHighsInf
        h.addVars(count, [-inf] * count, [inf] * count)
        return h, inf

    @staticmethod
    def bounds(relation, constant, inf):
        """Row bounds of `sum + constant REL 0`."""
        if relation == "=":
            return -constant, -constant
        if relation == "<=":
            return -inf, -constant
        if relation == ">=":
            return -constant, inf
        raise ValueError("unknown relation %r" % relation)

    def add_hard(self, h, row, inf):
        terms, constant = adapter_kit.expression_terms(row)
        low, high = self.bounds(row["relation"], constant, inf)
        h.addRow(low, high, len(terms), [i for i, _ in terms], [c for _, c in terms])

    def feasible(self, h):
        h.run()
        return h.getModelStatus() == self.highspy.HighsModelStatus.kOptimal

    def refuse(self, rows):
        # One feasibility check, then (only if it fails) row by row, in order.
        h, inf = self.new_model()
        required = [i for i, row in enumerate(rows) if float(row["priority"]) >= 1000]
        for i in required:
            self.add_hard(h, rows[i], inf)
        if self.feasible(h):
            return []
        h, inf = self.new_model()
        refused, kept = [], 0
        for i in required:
            self.add_hard(h, rows[i], inf)
            if self.feasible(h):
                kept += 1
            else:
                h.deleteRows(1, [kept])
                refused.append(i)
        return refused

    def compute(self, rows, edit_values):
        h, inf = self.new_model()
        column = len(self.variables)

        def with_errors(terms, low_high, relation):
            # The row with its error columns; returns their indices.
            nonlocal column
            signs = [1.0, -1.0] if relation == "=" else [-1.0 if relation == "<=" else 1.0]
            h.addVars(len(signs), [0.0] * len(signs), [inf] * len(signs))
            cols = list(range(column, column + len(signs)))
            column += len(signs)
            full = terms + list(zip(cols, signs))
            h.addRow(low_high[0], low_high[1], len(full), [i for i, _ in full], [c for _, c in full])
            return cols

        levels = {}
        for row in rows:
            if float(row["priority"]) >= 1000:
                self.add_hard(h, row, inf)
                continue
            terms, constant = adapter_kit.expression_terms(row)
            levels.setdefault(float(row["priority"]), []).extend(
                with_errors(terms, self.bounds(row["relation"], constant, inf), row["relation"]))
        edit_cols = []
        for index, value in sorted(edit_values.items()):
            edit_cols += with_errors([(index, 1.0)], (value, value), "=")
        order = ([edit_cols] if edit_cols else []) + [levels[p] for p in sorted(levels, reverse=True)]
        edit_error = 0.0
        for k, cols in enumerate(order):
            h.changeColsCost(len(cols), cols, [1.0] * len(cols))
            h.run()
            if h.getModelStatus() != self.highspy.HighsModelStatus.kOptimal:
                raise RuntimeError("HiGHS: %s" % h.modelStatusToString(h.getModelStatus()))
            optimum = max(0.0, h.getInfo().objective_function_value)
            if k == 0 and edit_cols:
                edit_error = optimum
            h.changeColsCost(len(cols), cols, [0.0] * len(cols))
            h.addRow(-inf, optimum + LEVEL_SLACK + LEVEL_SLACK * optimum, len(cols), cols, [1.0] * len(cols))
        h.run()
        values = list(h.getSolution().col_value[:len(self.variables)])
        scale = max([1.0] + [abs(v) for v in edit_values.values()])
        return edit_error <= 1e-6 * scale, values


if __name__ == "__main__":
    adapter_kit.serve(HiGHS)
