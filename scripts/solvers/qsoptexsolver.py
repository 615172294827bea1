#!/usr/bin/env python3
"""layout-bench external solver: QSopt_ex, an exact rational simplex (PyPI's python-qsoptex).

A second exact referee beside z3: QSopt_ex solves each LP in floating point
first and then proves (or repairs) the optimal basis in rational arithmetic,
so every value is an exact rational (rounded to the nearest double only when
written), as z3's are, but from a simplex code rather than an SMT solver.

The levels and the ambiguity search are lp_kit's; this file is QSopt_ex's
calls only. The bindings give no reduced costs, so lp_kit holds each level
by the row `sum of its errors = optimum`, which rational arithmetic keeps
with no error at all (the protocol's section 5: "by an exact equality").

Opt-in: `scripts/install-solvers` installs Debian's libqsopt-ex-dev and the
bindings (built from source with Cython: the sdist's pregenerated C does not
compile on Python 3.11); without them, hello is declined and a run leaves
qsoptex out. The file is not named qsoptex.py: its own folder comes first on
sys.path, and `import qsoptex` would import it.
"""
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_kit  # noqa: E402
import lp_kit  # noqa: E402


class ExactLP(lp_kit.Backend):
    exact = True

    def __init__(self, lower, upper, rows):
        import qsoptex
        self.qs = qsoptex
        self.problem = qsoptex.ExactProblem()
        # The library's default sense is maximisation.
        self.problem.set_objective_sense(qsoptex.ObjectiveSense.MINIMIZE)
        self.owners = []  # per row: the column whose bound it is, or None
        for low, high in zip(lower, upper):
            # Floats convert to rationals exactly (Fraction(float)); None is unbounded.
            self.problem.add_variable(objective=0, lower=None if low == -lp_kit.INFINITY else low,
                                      upper=None if high == lp_kit.INFINITY else high)
        for terms, rhs in rows:
            self.add_row(terms, rhs)

    def set_costs(self, columns, costs):
        self.problem.set_linear_objective([(j, cost) for j, cost in zip(columns, costs)])

    def solve(self, warm):
        status = self.problem.solve()
        words = {self.qs.SolutionStatus.OPTIMAL: "optimal", self.qs.SolutionStatus.INFEASIBLE: "infeasible",
                 self.qs.SolutionStatus.UNBOUNDED: "unbounded"}
        return words.get(status, "status %d" % status)

    def objective(self):
        return self.problem.get_objective_value()

    def values(self):
        return self.problem.get_values()

    def bound(self, column, lower, upper):
        """The bindings cannot change a column's bounds, so a bound is a row
        (x >= lower, x <= upper), deleted when the column is bounded again.
        Rows narrow, they do not replace: enough here, where only free frame
        variables are bounded (lp_kit fixes no column of an exact backend)."""
        for position in reversed(range(len(self.owners))):
            if self.owners[position] == column:
                self.problem.delete_linear_constraint(position)
                del self.owners[position]
        for sense, value in ((self.qs.ConstraintSense.GREATER, lower), (self.qs.ConstraintSense.LESS, upper)):
            if abs(value) != lp_kit.INFINITY:
                self.problem.add_linear_constraint(sense, [(column, 1)], rhs=value)
                self.owners.append(column)

    def add_row(self, terms, rhs):
        self.problem.add_linear_constraint(self.qs.ConstraintSense.EQUAL, [(j, c) for j, c in terms], rhs=rhs)
        self.owners.append(None)


class Caught(logging.Handler):
    """Keeps the messages the library logs (the bindings route its output to Python's logging)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


class QSoptEx(lp_kit.LexicographicLP):
    name = "qsoptex"
    backend = ExactLP
    # Exact arithmetic is slow on large problems, as z3 is (the same limit).
    max_rows = 400

    def __init__(self):
        qsoptex = lp_kit.require("qsoptex", "python-qsoptex (and Debian's libqsopt-ex-dev)")
        # The library's version is only printed (as "Using QSopt_ex 2.5.10.3"), through logging.
        logger, caught = logging.getLogger("qsoptex"), Caught()
        level = logger.level
        logger.addHandler(caught)
        logger.setLevel(logging.DEBUG)
        try:
            qsoptex.print_version()
        finally:
            logger.removeHandler(caught)
            logger.setLevel(level)
        words = " ".join(caught.messages).replace("'", " ").split()
        self.version = next((w for w in words if w[:1].isdigit()), "unknown")


if __name__ == "__main__":
    adapter_kit.serve(QSoptEx)
