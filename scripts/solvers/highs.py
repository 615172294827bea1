#!/usr/bin/env python3
"""layout-bench external solver: HiGHS (PyPI's highspy), the lexicographic LP.

The second LP reference beside GLPK, through the solver protocol
(docs/solver-protocol.md) and the adapter kit; `scripts/layout-bench`
installs highspy. The formulation is the format's meaning, as the GLPK
reference states it: the required rows are constraints; each non-required
row gets error columns (p - m for =, one slack for <= and >=); the levels are
minimised one after the other, highest first (the container's size edits
first of all, stronger than any priority and weaker than required).

How it differs from GLPK's wrapper, so that the two references share no
code and few decisions:
- The whole LP is passed at once (row-wise arrays), not row by row, and
  HiGHS presolves the first level; later levels start from its basis.
- Each level's optimal face is held by bounds, by complementary slackness:
  a nonbasic column or row whose reduced cost pushes the objective up as it
  leaves its bound is fixed at that bound (a feasible point is optimal for
  the level exactly when all of them stay there). No level row, no slack.
- Ambiguity (`free` in the answer): on the final face, a basic variable can
  move only through the nonbasics that are not fixed, so a frame variable
  none of whose tableau entries on those columns is non-zero is determined.
  Every other constrained variable is proven free by two points of the face
  that differ (a random objective minimised and maximised), or else by its
  own pair of LPs. A variable in no row is free.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_kit  # noqa: E402

# A reduced cost within this counts as zero (HiGHS's dual feasibility tolerance).
DUAL_TOLERANCE = 1e-7
# HiGHS's simplex_strategy values.
SIMPLEX_DUAL, SIMPLEX_PRIMAL = 1, 4
# A nonbasic that moved less than this from its bound did not move.
MOVE_TOLERANCE = 1e-7
# Tableau entries below this move nothing the ambiguity tolerance could see.
ALPHA_TOLERANCE = 1e-9
# layout-bench's ambiguity tolerance (Tolerance.ambiguity): 1e-5 absolute, 1e-7 relative.
AMBIGUITY_ABSOLUTE, AMBIGUITY_RELATIVE = 1e-5, 1e-7


def close(a, b):
    if a == b:
        return True
    if not (abs(a) < float("inf") and abs(b) < float("inf")):
        return False
    return abs(a - b) <= max(AMBIGUITY_ABSOLUTE, AMBIGUITY_RELATIVE * max(abs(a), abs(b)))


class HiGHS(adapter_kit.RebuildingAdapter):
    name = "highs"
    semantics = "lexicographic"
    ambiguity = True

    def __init__(self):
        import highspy
        import numpy
        self.highspy = highspy
        self.np = numpy
        h = highspy.Highs()
        self.version = "%d.%d.%d" % (h.versionMajor(), h.versionMinor(), h.versionPatch())

    # -- building ---------------------------------------------------------

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

    def build(self, rows, edit_values, soft=True):
        """A HiGHS instance holding `rows` (soft ones with error columns when
        `soft`, else left out) and the edits; returns it with the error
        columns of each level (edits first, then priorities, highest first)."""
        np, hs = self.np, self.highspy
        inf = hs.kHighsInf
        n = len(self.variables)
        col_lower, col_upper = [-inf] * n, [inf] * n
        row_lower, row_upper = [], []
        starts, index, value = [0], [], []
        levels = {}

        def add(terms, low, high, errors=()):
            for i, c in terms:
                index.append(i)
                value.append(c)
            cols = []
            for sign in errors:
                cols.append(len(col_lower))
                col_lower.append(0.0)
                col_upper.append(inf)
                index.append(cols[-1])
                value.append(sign)
            starts.append(len(index))
            row_lower.append(low)
            row_upper.append(high)
            return cols

        for row in rows:
            terms, constant = adapter_kit.expression_terms(row)
            low, high = self.bounds(row["relation"], constant, inf)
            priority = float(row["priority"])
            if priority >= 1000:
                add(terms, low, high)
            elif soft:
                relation = row["relation"]
                signs = (1.0, -1.0) if relation == "=" else ((-1.0,) if relation == "<=" else (1.0,))
                levels.setdefault(priority, []).extend(add(terms, low, high, signs))
        edit_cols = []
        if soft:
            for variable, target in sorted(edit_values.items()):
                edit_cols += add([(variable, 1.0)], target, target, (1.0, -1.0))

        lp = hs.HighsLp()
        lp.num_col_ = len(col_lower)
        lp.num_row_ = len(row_lower)
        lp.col_cost_ = np.zeros(len(col_lower))
        lp.col_lower_ = np.array(col_lower, dtype=np.float64)
        lp.col_upper_ = np.array(col_upper, dtype=np.float64)
        lp.row_lower_ = np.array(row_lower, dtype=np.float64)
        lp.row_upper_ = np.array(row_upper, dtype=np.float64)
        lp.a_matrix_.format_ = hs.MatrixFormat.kRowwise
        self.matrix = (np.array(starts, dtype=np.int32), np.array(index, dtype=np.int32), np.array(value, dtype=np.float64))
        lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = self.matrix
        h = hs.Highs()
        h.setOptionValue("output_flag", False)
        # HiGHS's default tolerances (1e-7), GLPK's too. Tighter ones (1e-9,
        # this adapter's first choice) made HiGHS report "unbounded" levels
        # on hostile layouts (67 of 1,000 seeds; 9 with the defaults) and
        # changed nothing on the corpus or the other random kinds.
        h.passModel(lp)
        self.strategy = SIMPLEX_DUAL  # HiGHS's default
        order = ([edit_cols] if edit_cols else []) + [levels[p] for p in sorted(levels, reverse=True)]
        bounds = [np.array(b, dtype=np.float64) for b in (col_lower, col_upper, row_lower, row_upper)]
        return h, order, bounds

    def run(self, h):
        """Runs HiGHS and returns its model status; a status that is no
        answer (Unknown, Not Set, a solve error) is retried once from scratch
        (no basis: presolve and the dual simplex). Why: a warm start from a
        basis that is badly conditioned at hostile magnitudes can stall where
        a fresh solve does not."""
        hs = self.highspy
        answers = (hs.HighsModelStatus.kOptimal, hs.HighsModelStatus.kInfeasible, hs.HighsModelStatus.kUnbounded,
                   hs.HighsModelStatus.kUnboundedOrInfeasible)
        h.run()
        if h.getModelStatus() not in answers:
            h.clearSolver()
            h.setOptionValue("simplex_strategy", SIMPLEX_DUAL)
            h.run()
            h.setOptionValue("simplex_strategy", self.strategy)
        return h.getModelStatus()

    def optimal(self, h):
        return self.run(h) == self.highspy.HighsModelStatus.kOptimal

    def refuse(self, rows):
        # One feasibility check of all required rows; only if it fails, row by
        # row in order (rare: an unsatisfiable layout), each a fresh build.
        required = [i for i, row in enumerate(rows) if float(row["priority"]) >= 1000]
        h, _, _ = self.build([rows[i] for i in required], {}, soft=False)
        if self.optimal(h):
            return []
        refused, kept = [], []
        for i in required:
            h, _, _ = self.build([rows[k] for k in kept + [i]], {}, soft=False)
            if self.optimal(h):
                kept.append(i)
            else:
                refused.append(i)
        return refused

    # -- solving ----------------------------------------------------------

    def statuses(self, h):
        """The basis status of every column and every row, as integers."""
        basis = h.getBasis()
        np = self.np
        return (np.fromiter(map(int, basis.col_status), np.int8, len(basis.col_status)),
                np.fromiter(map(int, basis.row_status), np.int8, len(basis.row_status)))

    def fix_face(self, h, bounds):
        """Fixes every nonbasic whose reduced cost keeps it at its bound on the
        level's optimal face (see the module's docstring); `bounds` (the
        column and row bounds, kept here rather than read back from HiGHS)
        follows."""
        np, hs = self.np, self.highspy
        solution = h.getSolution()
        lower, upper = int(hs.HighsBasisStatus.kLower), int(hs.HighsBasisStatus.kUpper)
        for is_row, status in zip((False, True), self.statuses(h)):
            dual = np.asarray(solution.row_dual if is_row else solution.col_dual)
            lows, highs = bounds[2:] if is_row else bounds[:2]
            open_ = lows < highs
            at_lower = (status == lower) & (dual > DUAL_TOLERANCE) & open_
            at_upper = (status == upper) & (dual < -DUAL_TOLERANCE) & open_
            highs[at_lower] = lows[at_lower]
            lows[at_upper] = highs[at_upper]
            fix = np.flatnonzero(at_lower | at_upper).astype(np.int32)
            if len(fix) == 0:
                continue
            if is_row:
                h.changeRowsBounds(len(fix), fix, lows[fix], highs[fix])
            else:
                h.changeColsBounds(len(fix), fix, lows[fix], highs[fix])

    def compute(self, rows, edit_values):
        h, order, bounds = self.build(rows, edit_values)
        count = len(self.variables)
        edit_error = 0.0
        for k, cols in enumerate(order):
            index = self.np.array(cols, dtype=self.np.int32)
            h.changeColsCost(len(cols), index, self.np.ones(len(cols)))
            if not self.optimal(h):
                raise RuntimeError("HiGHS: %s" % h.modelStatusToString(h.getModelStatus()))
            optimum = max(0.0, h.getInfo().objective_function_value)
            if k == 0 and edit_values:
                edit_error = optimum
            self.fix_face(h, bounds)
            h.changeColsCost(len(cols), index, self.np.zeros(len(cols)))
            # Later levels start from this point, which stays feasible (only
            # the objective changes): the primal simplex. HiGHS's dual simplex,
            # given a basis, first computes a steepest-edge weight per row (one
            # solve each): 401 pivots took 15 s on the decorated grid at
            # R = 10^4; the primal simplex takes 2.3 s for the whole solve.
            self.strategy = SIMPLEX_PRIMAL
            h.setOptionValue("simplex_strategy", self.strategy)
        values = list(h.getSolution().col_value[:count])
        scale = max([1.0] + [abs(v) for v in edit_values.values()])
        free = self.free_variables(h, rows, edit_values, values, bounds) if self.free_wanted else None
        return edit_error <= 1e-6 * scale, values, free

    def pin_stuck_nonbasics(self, h, bounds):
        """Fixes the bounded nonbasics that cannot leave their bound on the
        face, so that their tableau columns make no variable a candidate.

        Why: at a degenerate vertex (a hugging row beside its compression row,
        on every row of a self-sizing list) many nonbasics have zero reduced
        cost yet cannot move, and each variable they touch would need its own
        pair of LPs (self-sizing rows, R = 300: 12.7 s). One LP asks them all
        at once: maximise the sum of their moves away from their bounds, each
        boxed to at most 1 (a move of any length on the convex face implies a
        short one, so the box changes no answer). Those that moved are
        movable; ask again about the rest; when nothing moves (the maximum is
        0 and every move is >= 0) the rest are stuck and are fixed.
        """
        np, hs = self.np, self.highspy
        lower, upper = int(hs.HighsBasisStatus.kLower), int(hs.HighsBasisStatus.kUpper)
        starts, index, value = self.matrix
        vertex = h.getBasis()
        col_status, row_status = self.statuses(h)
        col_lows, col_highs, row_lows, row_highs = bounds
        cols = np.flatnonzero(((col_status == lower) | (col_status == upper)) & (col_lows < col_highs))
        rows = np.flatnonzero(((row_status == lower) | (row_status == upper)) & (row_lows < row_highs))
        # Direction of a move away from the bound: +1 up from a lower bound, -1 down from an upper one.
        col_dir = np.where(col_status[cols] == lower, 1.0, -1.0)
        row_dir = np.where(row_status[rows] == lower, 1.0, -1.0)
        col_at = np.where(col_dir > 0, col_lows[cols], col_highs[cols])
        row_at = np.where(row_dir > 0, row_lows[rows], row_highs[rows])
        open_cols, open_rows = np.ones(len(cols), bool), np.ones(len(rows), bool)
        ncol = len(col_lows)
        for _ in range(len(cols) + len(rows) + 1):
            if not open_cols.any() and not open_rows.any():
                break
            # Minimise minus the moves of the open ones, each boxed to [at, at ± 1].
            cost = np.zeros(ncol)
            c, r = cols[open_cols], rows[open_rows]
            np.add.at(cost, c, -col_dir[open_cols])
            for i, d in zip(r.tolist(), row_dir[open_rows].tolist()):
                cost[index[starts[i]:starts[i + 1]]] -= d * value[starts[i]:starts[i + 1]]
            box_low = np.where(col_dir[open_cols] > 0, col_at[open_cols], col_at[open_cols] - 1)
            h.changeColsBounds(len(c), c.astype(np.int32), box_low, box_low + 1)
            row_low = np.where(row_dir[open_rows] > 0, row_at[open_rows], row_at[open_rows] - 1)
            h.changeRowsBounds(len(r), r.astype(np.int32), row_low, row_low + 1)
            h.changeColsCost(ncol, np.arange(ncol, dtype=np.int32), cost)
            solved = self.optimal(h)
            solution = h.getSolution()
            h.changeColsCost(ncol, np.arange(ncol, dtype=np.int32), np.zeros(ncol))
            h.changeColsBounds(len(c), c.astype(np.int32), col_lows[c], col_highs[c])
            h.changeRowsBounds(len(r), r.astype(np.int32), row_lows[r], row_highs[r])
            if not solved:
                break  # leave them all movable: only slower, never wrong
            col_moved = np.abs(np.asarray(solution.col_value)[cols] - col_at) > MOVE_TOLERANCE
            row_moved = np.abs(np.asarray(solution.row_value)[rows] - row_at) > MOVE_TOLERANCE
            moved = (open_cols & col_moved).any() or (open_rows & row_moved).any()
            if not moved:
                # Stuck: fix them where they are (the face is unchanged).
                col_lows[c] = col_highs[c] = col_at[open_cols]
                row_lows[r] = row_highs[r] = row_at[open_rows]
                h.changeColsBounds(len(c), c.astype(np.int32), col_lows[c], col_highs[c])
                h.changeRowsBounds(len(r), r.astype(np.int32), row_lows[r], row_highs[r])
                break
            open_cols &= ~col_moved
            open_rows &= ~row_moved
        # Back to the vertex of the levels: the tableau is read there, where
        # the stuck ones (now fixed) sit at their bounds.
        h.setBasis(vertex)
        self.optimal(h)

    def free_variables(self, h, rows, edit_values, reference, bounds):
        """The frame variables not unique on the final face."""
        np, hs = self.np, self.highspy
        count = len(self.variables)
        constrained = adapter_kit.constrained_variables(count, rows, edit_values)
        free = {v for v in range(count) if not constrained[v]}
        # Candidates: constrained frame variables some movable nonbasic moves.
        if not self.optimal(h):
            raise RuntimeError("HiGHS: %s after the levels" % h.modelStatusToString(h.getModelStatus()))
        self.pin_stuck_nonbasics(h, bounds)
        basic = h.getBasicVariables()[1]  # >= 0: column; < 0: row -(1 + i)
        candidates = set()
        nonbasic = int(hs.HighsBasisStatus.kBasic)
        for is_row, status in zip((False, True), self.statuses(h)):
            lows, highs = bounds[2:] if is_row else bounds[:2]
            movable = np.flatnonzero((status != nonbasic) & (lows < highs))
            for k in movable.tolist():
                if not is_row and k < count:
                    if not constrained[k]:
                        continue  # in no row: moves nothing else
                    candidates.add(k)
                if is_row:
                    _, alpha, nnz, where = h.getBasisInverseColSparse(k)
                else:
                    _, alpha, nnz, where = h.getReducedColumnSparse(k)
                for t in range(nnz):
                    position = int(where[t])
                    variable = int(basic[position])
                    if 0 <= variable < count and abs(alpha[position]) > ALPHA_TOLERANCE:
                        candidates.add(variable)
        candidates = sorted(v for v in candidates if constrained[v])
        if not candidates:
            return sorted(free)
        # Two points of the face from a random objective over the candidates.
        chooser = random.Random(20261123)
        index = np.array(candidates, dtype=np.int32)
        weights = np.array([chooser.uniform(0.5, 1.5) for _ in candidates])
        undecided = set(candidates)
        for sign in (1.0, -1.0):
            h.changeColsCost(len(candidates), index, sign * weights)
            if self.optimal(h):
                point = h.getSolution().col_value
                for v in list(undecided):
                    if not close(point[v], reference[v]):
                        free.add(v)
                        undecided.discard(v)
        h.changeColsCost(len(candidates), index, np.zeros(len(candidates)))
        # The rest: each variable's own minimum and maximum.
        unbounded = (hs.HighsModelStatus.kUnbounded, hs.HighsModelStatus.kUnboundedOrInfeasible)
        for v in sorted(undecided):
            extremes = []
            for sign in (1.0, -1.0):
                h.changeColCost(v, sign)
                status = self.run(h)
                if status == hs.HighsModelStatus.kOptimal:
                    extremes.append(h.getSolution().col_value[v])
                elif status in unbounded:
                    extremes.append(-sign * float("inf"))
                else:
                    # No answer even from scratch (hostile magnitudes): say
                    # so rather than guess. A box around the value did not
                    # help (HiGHS then called the boxed LPs unbounded).
                    raise RuntimeError("HiGHS: %s ranging a variable" % h.modelStatusToString(status))
            h.changeColCost(v, 0.0)
            if not close(extremes[0], extremes[1]):
                free.add(v)
        return sorted(free)


if __name__ == "__main__":
    adapter_kit.serve(HiGHS)
