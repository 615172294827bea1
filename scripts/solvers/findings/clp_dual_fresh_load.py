#!/usr/bin/env python3
"""Finding (clp.py): CLP's dual simplex, run by cylp on a freshly loaded LP,
calls a feasible LP infeasible.

The LP, minimised from the load of check-solver's first layout:
    -x + y = -10,  y = 40,  x and y free,  no objective.
It is feasible (y = 40, x = 50). `dual()` answers status 1 (primal
infeasible); `primal()` and `initialSolve()` answer 0 (optimal). clp.py
therefore starts a fresh problem with initialSolve.

    python3 scripts/solvers/findings/clp_dual_fresh_load.py
prints each method's status; it exits 1 while dual() still says infeasible.
"""
import sys

import numpy as np
from cylp.cy import CyClpSimplex, CyCoinPackedMatrix


def status(method):
    simplex = CyClpSimplex()
    simplex.logLevel = 0
    infinity = simplex.getCoinInfinity()
    # Row-ordered coordinates: row 0 is -x + y, row 1 is y.
    matrix = CyCoinPackedMatrix(False, np.array([0, 0, 1], np.int32), np.array([0, 1, 1], np.int32),
                                np.array([-1.0, 1.0, 1.0]))
    rhs = np.array([-10.0, 40.0])
    simplex.loadProblem(matrix, np.array([-infinity] * 2), np.array([infinity] * 2), np.zeros(2), rhs, rhs.copy())
    getattr(simplex, method)()
    return simplex.getStatusCode()


if __name__ == "__main__":
    found = {method: status(method) for method in ("dual", "primal", "initialSolve")}
    print(" ".join("%s: %d" % item for item in found.items()), "(0 optimal, 1 infeasible)")
    sys.exit(1 if found["dual"] == 1 else 0)
