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


class HiGHS(adapter_kit.Adapter):
    name = "highs"
    semantics = "lexicographic"
    incremental = True  # add and remove rebuild the LP: correct, not fast
    edits = True

    def __init__(self):
        import highspy
        self.highspy = highspy
        self.version = "%d.%d.%d" % (highspy.Highs().versionMajor(), highspy.Highs().versionMinor(),
                                     highspy.Highs().versionPatch())
        self.count = 0
        self.rows = []
        self.edits_now = {}
        self.refused = set()
        self.added = {}
        self.next_token = 0
        self.answer = None

    def new_model(self):
        h = self.highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("primal_feasibility_tolerance", 1e-9)
        h.setOptionValue("dual_feasibility_tolerance", 1e-9)
        inf = self.highspy.kHighsInf
        h.addVars(self.count, [-inf] * self.count, [inf] * self.count)
        return h, inf

    @staticmethod
    def bounds(relation, constant, inf):
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

    def load(self, variables, rows, edits):
        self.count = len(variables)
        self.rows = list(rows)
        self.edits_now = {int(e["variable"]): float(e["value"]) for e in edits}
        self.added = {}
        self.answer = None
        # The required rows that conflict with the ones before them: one
        # feasibility check, then (only if it fails) row by row, in order.
        h, inf = self.new_model()
        required = [i for i, row in enumerate(rows) if float(row["priority"]) >= 1000]
        for i in required:
            self.add_hard(h, rows[i], inf)
        self.refused = set()
        if not self.feasible(h):
            h, inf = self.new_model()
            kept = 0
            for i in required:
                self.add_hard(h, rows[i], inf)
                if self.feasible(h):
                    kept += 1
                else:
                    h.deleteRows(1, [kept])
                    self.refused.add(i)
        return sorted(self.refused)

    def solve(self):
        if self.answer is not None:
            return self.answer
        h, inf = self.new_model()
        levels = {}
        column = self.count

        def error_columns(terms, constant, relation, low_high):
            # Adds the row with its error columns; returns their indices.
            nonlocal column
            if relation == "=":
                h.addVars(2, [0.0, 0.0], [inf, inf])
                cols = [column, column + 1]
                row_terms = terms + [(column, 1.0), (column + 1, -1.0)]
                column += 2
            else:
                h.addVars(1, [0.0], [inf])
                cols = [column]
                row_terms = terms + [(column, -1.0 if relation == "<=" else 1.0)]
                column += 1
            h.addRow(low_high[0], low_high[1], len(row_terms), [i for i, _ in row_terms], [c for _, c in row_terms])
            return cols

        rows = [r for i, r in enumerate(self.rows) if i not in self.refused] + list(self.added.values())
        for row in rows:
            if float(row["priority"]) >= 1000:
                self.add_hard(h, row, inf)
                continue
            terms, constant = adapter_kit.expression_terms(row)
            cols = error_columns(terms, constant, row["relation"], self.bounds(row["relation"], constant, inf))
            levels.setdefault(float(row["priority"]), []).extend(cols)
        edit_cols = []
        for index, value in sorted(self.edits_now.items()):
            edit_cols += error_columns([(index, 1.0)], -value, "=", (value, value))
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
        values = list(h.getSolution().col_value[:self.count])
        unmet = edit_error > 1e-6 * max(1.0, max((abs(v) for v in self.edits_now.values()), default=1.0))
        self.answer = ("unsatisfiable" if self.refused or unmet else "solved", values)
        return self.answer

    def suggest(self, edits):
        for edit in edits:
            self.edits_now[int(edit["variable"])] = float(edit["value"])
        self.answer = None
        return self.solve()

    def add(self, row):
        self.next_token += 1
        self.added[self.next_token] = row
        self.answer = None
        return self.next_token

    def remove(self, token):
        del self.added[token]
        self.answer = None


if __name__ == "__main__":
    adapter_kit.serve(HiGHS)
