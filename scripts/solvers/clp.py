#!/usr/bin/env python3
"""layout-bench external solver: CLP, COIN-OR's simplex (PyPI's cylp), the lexicographic LP.

The levels, how each is held and the ambiguity search are lp_kit's; this
file is CLP's calls only, on cylp's CyClpSimplex loaded from arrays (not
cylp's modelling layer, which only builds the same arrays more slowly).
Opt-in: `scripts/install-solvers` installs cylp; without it, hello is
declined and a run leaves clp out.

Found in cylp 0.94.1: `reducedCosts` (and `getReducedCosts()`) return
memory that does not hold the reduced costs after a solve (values such as
1e306 for a column whose reduced cost is 0; the array is also one entry per
column and row); `dualVariableSolution` holds them. This file reads the
latter.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_kit  # noqa: E402
import lp_kit  # noqa: E402

# CLP's getStatusCode(): 0 optimal, 1 primal infeasible, 2 dual infeasible (unbounded).
STATUS = {0: "optimal", 1: "infeasible", 2: "unbounded"}


class ClpLP(lp_kit.Backend):
    def __init__(self, lower, upper, rows):
        import numpy as np
        from cylp.cy import CyClpSimplex, CyCoinPackedMatrix
        self.np = np
        self.simplex = CyClpSimplex()
        self.simplex.logLevel = 0
        infinity = self.simplex.getCoinInfinity()
        row_index = [r for r, (terms, _) in enumerate(rows) for _ in terms]
        col_index = [j for terms, _ in rows for j, _ in terms]
        elements = [c for terms, _ in rows for _, c in terms]
        # Row-ordered coordinates. Why a zero at the last row and column when
        # nothing is there: CoinPackedMatrix sizes itself from the largest
        # index it sees, so a last column in no row (or empty last rows)
        # would be cut off. Only then: a second entry at a place already
        # taken is not added to it.
        if max(row_index, default=-1) < len(rows) - 1 or max(col_index, default=-1) < len(lower) - 1:
            row_index.append(max(len(rows) - 1, 0))
            col_index.append(len(lower) - 1)
            elements.append(0.0)
        matrix = CyCoinPackedMatrix(False, np.array(row_index, np.int32), np.array(col_index, np.int32),
                                    np.array(elements, np.float64))
        self.infinity = infinity
        rhs = np.array([r for _, r in rows] or [0.0], np.float64)
        self.simplex.loadProblem(matrix, np.array([self.limit(b) for b in lower]), np.array([self.limit(b) for b in upper]),
                                 np.zeros(len(lower)), rhs, rhs.copy())

    def set_costs(self, columns, costs):
        for j, cost in zip(columns, costs):
            self.simplex.setObjectiveCoefficient(j, float(cost))

    def solve(self, warm):
        # From a feasible basis (only the costs changed) the primal simplex
        # goes on from it. A fresh problem goes to initialSolve (CLP's
        # presolve, then the method it picks). Rejected: dual() on a fresh
        # load, which called a feasible problem infeasible (see the docstring).
        try:
            self.simplex.primal() if warm else self.simplex.initialSolve()
        except IndexError:
            # cylp names CLP's status by indexing a list of words, and CLP's
            # status after a failed solve (at hostile magnitudes) can be
            # outside it: the code itself is read below.
            pass
        code = self.simplex.getStatusCode()
        return STATUS.get(code, "status %d (%s)" % (code, self.simplex.getStatusString()))

    def objective(self):
        return self.simplex.objectiveValue

    def values(self):
        return self.simplex.primalVariableSolution.tolist()

    def reduced_costs(self):
        return self.simplex.dualVariableSolution.tolist()

    def limit(self, bound):
        """CLP's infinity is the largest double, as a number."""
        return max(-self.infinity, min(self.infinity, float(bound)))

    def bound(self, column, lower, upper):
        self.simplex.setColumnLower(column, self.limit(lower))
        self.simplex.setColumnUpper(column, self.limit(upper))


class Clp(lp_kit.LexicographicLP):
    name = "clp"
    backend = ClpLP

    def __init__(self):
        # The compiled part: without CLP it fails here, in hello.
        self.version = clp_version(lp_kit.require("cylp.cy", "cylp").__file__)


def clp_version(package_file):
    """CLP's version. cylp tells only its own; its wheels bundle CLP in
    cylp.libs/ as libClp-HASH.so.VERSION, so the file name tells CLP's. A
    cylp built against a system CLP has no such file: then cylp's version."""
    import glob
    import cylp
    libs = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(package_file))), "cylp.libs")
    for path in sorted(glob.glob(os.path.join(libs, "libClp-*.so.*"))):
        return os.path.basename(path).split(".so.", 1)[1]
    return "cylp %s" % getattr(cylp, "__version__", "?")


if __name__ == "__main__":
    adapter_kit.serve(Clp)
