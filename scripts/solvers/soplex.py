#!/usr/bin/env python3
"""layout-bench external solver: SoPlex, ZIB's simplex, through PySCIPOpt's LP class (PyPI's pyscipopt).

The levels, how each is held and the ambiguity search are lp_kit's; this
file is SoPlex's calls only. Opt-in: `scripts/install-solvers` installs
pyscipopt; without it, hello is declined and a run leaves soplex out.

Why SCIP's LP interface (pyscipopt.LP) and not a SCIP Model: a Model is a
MIP solver; it presolves, solves each level from scratch after
freeTransform, and judges feasibility with a relative tolerance (1e-6 of a
row's size), which is the slack the protocol warns against. The LP interface
is SoPlex itself, keeps its basis between solves, and gives reduced costs
and rays (a Farkas ray proves infeasible, a primal ray unbounded).
"""
import ctypes
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_kit  # noqa: E402
import lp_kit  # noqa: E402

# SoPlex's primal and dual feasibility tolerances. Its default, 1e-6, is ten
# times GLPK's and HiGHS's (1e-7); the references' value makes the three
# decide the same points feasible.
TOLERANCE = 1e-7


class SoplexLP(lp_kit.Backend):
    def __init__(self, lower, upper, rows):
        from pyscipopt import LP, SCIP_LPPARAM
        self.lp = LP("layout", "minimize")
        for parameter in (SCIP_LPPARAM.FEASTOL, SCIP_LPPARAM.DUALFEASTOL):
            self.lp.setRealParam(parameter, TOLERANCE)
        self.lp.addCols([[] for _ in lower], objs=[0.0] * len(lower),
                        lbs=[self.limit(b) for b in lower], ubs=[self.limit(b) for b in upper])
        if rows:
            self.lp.addRows([list(terms) for terms, _ in rows], lhss=[rhs for _, rhs in rows],
                            rhss=[rhs for _, rhs in rows])

    def set_costs(self, columns, costs):
        for j, cost in zip(columns, costs):
            self.lp.chgObj(j, float(cost))

    def solve(self, warm):
        # From a feasible basis (only the costs changed) the primal simplex
        # goes on from it; otherwise the dual simplex, SoPlex's default.
        self.lp.solve(dual=not warm)
        if self.lp.isOptimal():
            return "optimal"
        if self.lp.getDualRay() is not None:
            return "infeasible"
        if self.lp.getPrimalRay() is not None:
            return "unbounded"
        return "no answer (neither optimal nor a ray)"

    def objective(self):
        return self.lp.getObjVal()

    def values(self):
        return self.lp.getPrimal()

    def reduced_costs(self):
        return self.lp.getRedcost()

    def limit(self, bound):
        """SCIP's infinity is 1e100, not a float inf."""
        infinity = self.lp.infinity()
        return max(-infinity, min(infinity, float(bound)))

    def bound(self, column, lower, upper):
        self.lp.chgBound(column, self.limit(lower), self.limit(upper))


def soplex_version():
    """SoPlex's version as SCIP prints it among its external codes (the
    bindings give no other way). SCIP prints with C stdio, so the line is
    caught on file descriptor 1, pointed at a temporary file for the call."""
    import pyscipopt
    libc = ctypes.CDLL(None)
    with tempfile.TemporaryFile() as caught:
        saved = os.dup(1)
        try:
            libc.fflush(None)
            os.dup2(caught.fileno(), 1)
            pyscipopt.Model().printExternalCodeVersions()
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        caught.seek(0)
        for word in caught.read().decode("utf-8", "replace").split("\n"):
            parts = word.split()
            if len(parts) > 1 and parts[0] == "SoPlex":
                return parts[1]
    return "in SCIP %s" % pyscipopt.Model().version()


class Soplex(lp_kit.LexicographicLP):
    name = "soplex"
    backend = SoplexLP

    def __init__(self):
        lp_kit.require("pyscipopt", "pyscipopt")
        self.version = soplex_version()


if __name__ == "__main__":
    adapter_kit.serve(Soplex)
