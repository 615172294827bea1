#!/usr/bin/env python3
"""layout-bench external solver: GLOP, Google's simplex (PyPI's ortools), the lexicographic LP.

The levels, how each is held and the ambiguity search are lp_kit's; this
file is GLOP's calls only, through OR-Tools' linear_solver wrapper (MPSolver).
Opt-in: `scripts/install-solvers` installs ortools; without it, hello is
declined and a run leaves glop out.

Why linear_solver and not math_opt or model_builder: it is the one of the
three whose variables give reduced costs after every solve and take new
bounds and costs in place, which is all lp_kit asks; MPSolver hands GLOP the
changed model and GLOP starts from its last basis when only bounds and costs
changed.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_kit  # noqa: E402
import lp_kit  # noqa: E402


class GlopLP(lp_kit.Backend):
    def __init__(self, lower, upper, rows):
        from ortools.linear_solver import pywraplp
        self.pywraplp = pywraplp
        self.solver = pywraplp.Solver.CreateSolver("GLOP")
        self.columns = [self.solver.NumVar(self.limit(lo), self.limit(hi), "c%d" % j)
                        for j, (lo, hi) in enumerate(zip(lower, upper))]
        for terms, rhs in rows:
            row = self.solver.Constraint(rhs, rhs)
            for j, coefficient in terms:
                row.SetCoefficient(self.columns[j], coefficient)
        self.cost = self.solver.Objective()
        self.cost.SetMinimization()
        self.warm = False

    def set_costs(self, columns, costs):
        for j, cost in zip(columns, costs):
            self.cost.SetCoefficient(self.columns[j], float(cost))

    def solve(self, warm):
        s = self.pywraplp.Solver
        if warm != self.warm:
            # Why no presolve once the point is feasible: GLOP's presolve
            # answers an unbounded LP "infeasible" (it cannot tell the two
            # apart), and ranging a variable must see "unbounded"; it would
            # also throw away the basis the next solve starts from.
            self.solver.SetSolverSpecificParametersAsString("use_preprocessing: %s" % ("false" if warm else "true"))
            self.warm = warm
        status = self.solver.Solve()
        return {s.OPTIMAL: "optimal", s.INFEASIBLE: "infeasible", s.UNBOUNDED: "unbounded"}.get(status, "status %d" % status)

    def objective(self):
        return self.cost.Value()

    def values(self):
        return [c.solution_value() for c in self.columns]

    def reduced_costs(self):
        return [c.reduced_cost() for c in self.columns]

    def limit(self, bound):
        """linear_solver spells infinity its own way (a large number on some builds)."""
        infinity = self.solver.infinity()
        return max(-infinity, min(infinity, float(bound)))

    def bound(self, column, lower, upper):
        self.columns[column].SetBounds(self.limit(lower), self.limit(upper))


class Glop(lp_kit.LexicographicLP):
    name = "glop"
    backend = GlopLP

    def __init__(self):
        pywraplp = lp_kit.require("ortools.linear_solver.pywraplp", "ortools")
        self.version = lp_kit.require("ortools", "ortools").__version__
        if pywraplp.Solver.CreateSolver("GLOP") is None:
            raise RuntimeError("this build of ortools has no GLOP")


if __name__ == "__main__":
    adapter_kit.serve(Glop)
