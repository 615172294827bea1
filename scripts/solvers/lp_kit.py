"""The lexicographic LP, once for every LP adapter (docs/design/solvers.md).

The format's meaning as a sequence of LPs, written here without any
solver's calls, so that an adapter over an LP library is only that library's
calls (a `Backend`): the required rows are constraints; each non-required
row gets error columns; the container's size edits are the first level, then
the priorities, highest first; each level minimises the sum of its error
columns and is then held at its optimum EXACTLY before the next one runs.

Why one formulation for all of them: every row becomes an equality row
with non-negative slack or error columns, so a backend needs only equality
rows, column bounds, a cost vector and (optionally) reduced costs. Rows with
ranges, and each library's sign conventions for row duals, never come up.

  required  =   terms = rhs
  required <=   terms + s = rhs          (s >= 0 is the room left)
  required >=   terms - s = rhs
  soft          terms - p + m = rhs      (p: the row's excess, m: its shortfall;
                                          the level costs p for <=, m for >=, both for =)
  edit          x - p + m = value        (both costed, on the first level)

How a level is held (never a relative slack, see the protocol's section 5):
- a backend with reduced costs: complementary slackness. Every feasible
  point that keeps the columns with a positive reduced cost at their bound
  is optimal for the level, and only those are; so those columns are fixed
  at 0 (their lower bound) and nothing else changes. Bounds are hard in every
  simplex code, while a row `sum <= optimum` is only held to the feasibility
  tolerance, which some codes apply relatively.
- an exact backend (rational arithmetic): the row `sum of the level's errors
  = optimum`, which rational arithmetic holds with no error at all.

Ambiguity (`free`): a variable is free when its range over the final face is
wider than the protocol's ambiguity tolerance. Decided, cheapest first:
a variable in no row is free; a variable that equality rows pin (every other
column of some row already determined, fixed columns first) is determined;
two points of the face from a random objective, minimised and maximised,
prove free the variables they move; each variable left gets its own
minimum and maximum. These LPs box their variables around their values
(see box()), so none of them is unbounded.

A solve that fails where the method knows the answer (an LP with a
feasible point and bounded, or a feasibility check that answers nothing)
is retried once on a fresh build (see Session).
"""
import random

import adapter_kit

# A reduced cost above this counts as positive (the simplex codes' default dual tolerances are 1e-7..1e-9).
DUAL_TOLERANCE = 1e-7
# The protocol's ambiguity tolerance (Tolerance.ambiguity): 1e-5 absolute, 1e-7 relative.
AMBIGUITY_ABSOLUTE, AMBIGUITY_RELATIVE = 1e-5, 1e-7
# An edit level whose optimum stays below this times the largest edit value is met (as highs.py decides).
EDIT_MET = 1e-6
# The random objective's seed: the same problem gets the same points, so answers are deterministic.
SEED = 20261124

INFINITY = float("inf")


def close(a, b):
    """Within the protocol's ambiguity tolerance (infinite values only equal to themselves)."""
    a, b = float(a), float(b)
    if a == b:
        return True
    if abs(a) == INFINITY or abs(b) == INFINITY:
        return False
    return abs(a - b) <= max(AMBIGUITY_ABSOLUTE, AMBIGUITY_RELATIVE * max(abs(a), abs(b)))


def require(module, package):
    """Imports `module`, or says which package to install: the message of a
    declined hello (the kit's factory pattern), so that a machine without the
    package reports the solver as left out, with the way to add it."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError("%s is not installed (scripts/install-solvers installs it): %s" % (package, error)) from None


def box(value):
    """Bounds around a frame variable's value for the ambiguity LPs. Why a
    box: it makes every one of those LPs bounded, and an unbounded LP is the
    slow and fragile case (QSopt_ex spent 5 to 7 s proving each one
    unbounded, where a bounded one took 0.02 s; GLOP's presolve calls one
    "infeasible"). It changes no answer: the face is convex and holds the
    value, so a variable that moves at all on it moves inside the box too, as
    far as the box's edge or its own extreme; and 1 + |value| is wider than
    the ambiguity tolerance at any magnitude."""
    width = 1 + abs(value)
    return value - width, value + width


def holds(relation, constant):
    """Whether `constant RELATION 0` holds (a row without terms)."""
    return {"=": constant == 0, "<=": constant <= 0, ">=": constant >= 0}[relation]


class Backend:
    """One LP in one library. The kit builds it once per solve and then only
    changes costs and bounds (and, for an exact backend, adds level rows),
    so a backend that keeps its basis between solves warm-starts for free.

    Columns are numbered in the order given; bounds are numbers or +-inf.
    Every row is an equality: sum(coefficient * column) = rhs. The kit reads
    a solve's objective, values and reduced costs right after it, before it
    changes anything (some wrappers drop the solution at the first change)."""

    exact = False  # values are exact rationals: levels are held by rows, edits met only at exactly 0

    def __init__(self, lower, upper, rows):
        """lower, upper: one bound per column; rows: (terms, rhs) pairs, terms (column, coefficient) pairs."""
        raise NotImplementedError

    def set_costs(self, columns, costs):
        """Set these columns' objective coefficients (minimisation); the others keep theirs."""
        raise NotImplementedError

    def solve(self, warm):
        """Solve; return "optimal", "infeasible", "unbounded" or any other word for no answer.
        warm: since the last optimal solve only costs changed, and bounds that its
        point still meets, so that point is feasible (a backend may then prefer
        the primal simplex from it)."""
        raise NotImplementedError

    def objective(self):
        """The last optimal solve's objective value."""
        raise NotImplementedError

    def values(self):
        """The last optimal solve's column values, in order."""
        raise NotImplementedError

    def reduced_costs(self):
        """The last optimal solve's reduced costs (cost minus the rows' dual
        prices, so positive means raising the column raises the objective),
        or None when the library does not give them."""
        return None

    def bound(self, column, lower, upper):
        """Set a column's bounds (+-inf for none): to fix a column at a value
        (lower = upper), or to box and free again a free frame variable."""
        raise NotImplementedError

    def add_row(self, terms, rhs):
        """Add an equality row (needed only by backends without reduced costs)."""
        raise NotImplementedError


class Session:
    """A Backend and every change made to it since it was built, so that it
    can be built again: the kit's only way to the backend.

    Why: a simplex code that warm-starts from a basis can fail where a fresh
    solve does not. GLOP, at hostile magnitudes, called the second level of
    a problem infeasible although the first level's optimum is a feasible
    point of it, and solved the same LP built afresh. So a solve that does
    not give the answer the method knows it must (optimal, once the point is
    feasible and the box bounds it; any answer, for a cold one) is retried
    once on a fresh build with the same bounds, rows and costs."""

    def __init__(self, backend, lower, upper, equalities):
        self.backend = backend
        self.lower, self.upper, self.equalities = list(lower), list(upper), list(equalities)
        self.costs = {}
        self.lp = backend(self.lower, self.upper, self.equalities)
        self.exact = self.lp.exact

    def set_costs(self, columns, costs):
        for j, cost in zip(columns, costs):
            self.costs[j] = cost
        self.lp.set_costs(columns, costs)

    def bound(self, column, lower, upper):
        self.lower[column], self.upper[column] = lower, upper
        self.lp.bound(column, lower, upper)

    def add_row(self, terms, rhs):
        self.equalities.append((terms, rhs))
        self.lp.add_row(terms, rhs)

    def solve(self, warm, must_be_optimal=True):
        status = self.lp.solve(warm)
        answers = ("optimal",) if must_be_optimal else ("optimal", "infeasible", "unbounded")
        if status in answers:
            return status
        self.lp = self.backend(self.lower, self.upper, self.equalities)
        costs = sorted((j, c) for j, c in self.costs.items() if c)
        if costs:
            self.lp.set_costs([j for j, _ in costs], [c for _, c in costs])
        return self.lp.solve(False)

    def objective(self):
        return self.lp.objective()

    def values(self):
        return self.lp.values()

    def reduced_costs(self):
        return self.lp.reduced_costs()


class LexicographicLP(adapter_kit.RebuildingAdapter):
    """An adapter made of a Backend: subclasses set `backend` (a Backend
    class), `name` and `version`, and import their library in __init__ (an
    ImportError there makes the kit decline hello: the solver is left out)."""

    semantics = "lexicographic"
    ambiguity = True
    backend = None

    def problem(self, rows, edit_values, soft=True):
        """The LP of `rows` (soft rows left out unless `soft`) and the edits:
        (lower, upper, equality rows, error columns per level, highest first)."""
        count = len(self.variables)
        lower, upper = [-INFINITY] * count, [INFINITY] * count
        equalities, levels, edit_columns = [], {}, []

        def column():
            lower.append(0.0)
            upper.append(INFINITY)
            return len(lower) - 1

        for row in rows:
            terms, constant = adapter_kit.expression_terms(row)
            relation, priority = row["relation"], float(row["priority"])
            if relation not in ("=", "<=", ">="):
                raise ValueError("unknown relation %r" % relation)
            if priority >= 1000 and not terms:
                # A required row without terms constrains nothing when it holds
                # (and some libraries reject an empty row); when it does not,
                # refuse() has left it out, unless it came by add.
                if not holds(relation, constant):
                    raise ValueError("a required row that never holds: %s %s 0" % (constant, relation))
                continue
            if priority >= 1000:
                if relation != "=":
                    terms.append((column(), 1.0 if relation == "<=" else -1.0))
            elif soft:
                excess, shortfall = column(), column()
                terms += [(excess, -1.0), (shortfall, 1.0)]
                costed = {"=": [excess, shortfall], "<=": [excess], ">=": [shortfall]}[relation]
                levels.setdefault(priority, []).extend(costed)
            else:
                continue
            equalities.append((terms, -constant))
        if soft:
            for variable, target in sorted(edit_values.items()):
                excess, shortfall = column(), column()
                equalities.append(([(variable, 1.0), (excess, -1.0), (shortfall, 1.0)], target))
                edit_columns += [excess, shortfall]
        order = ([edit_columns] if edit_columns else []) + [levels[p] for p in sorted(levels, reverse=True)]
        return lower, upper, equalities, order

    # -- the required rows ------------------------------------------------

    def feasible(self, rows):
        """Whether these required rows hold together (an LP with no objective)."""
        if any(not row["terms"] and not holds(row["relation"], float(row["constant"])) for row in rows):
            return False  # a row without terms is a fact about its constant
        lower, upper, equalities, _ = self.problem([r for r in rows if r["terms"]], {}, soft=False)
        status = Session(self.backend, lower, upper, equalities).solve(False, must_be_optimal=False)
        if status not in ("optimal", "infeasible"):
            raise RuntimeError("%s: %s on the required rows" % (self.name, status))
        return status == "optimal"

    def refuse(self, rows):
        """The required rows refused when added in order (each refused row
        conflicts with those kept before it). Why a search rather than a row at
        a time: feasibility only shrinks as a prefix grows, so the first row
        that breaks it is found by bisection, in log(n) LPs instead of n."""
        required = [i for i, row in enumerate(rows) if float(row["priority"]) >= 1000]
        if self.feasible([rows[i] for i in required]):
            return []
        kept, refused, rest = [], [], required
        while rest:
            if self.feasible([rows[i] for i in kept + rest]):
                break
            low, high = 0, len(rest) - 1  # the shortest infeasible prefix ends at rest[high]
            while low < high:
                middle = (low + high) // 2
                if self.feasible([rows[i] for i in kept + rest[:middle + 1]]):
                    low = middle + 1
                else:
                    high = middle
            refused.append(rest[high])
            kept += rest[:high]
            rest = rest[high + 1:]
        return refused

    # -- the levels -------------------------------------------------------

    def compute(self, rows, edit_values):
        lower, upper, equalities, order = self.problem(rows, edit_values)
        lp = Session(self.backend, lower, upper, equalities)
        fixed = [low == high for low, high in zip(lower, upper)]
        edit_error = 0
        for k, columns in enumerate(order):
            lp.set_costs(columns, [1] * len(columns))
            status = lp.solve(k > 0)
            if status != "optimal":
                raise RuntimeError("%s: %s at level %d" % (self.name, status, k))
            optimum, values = lp.objective(), lp.values()
            if k == 0 and edit_values:
                edit_error = optimum
            self.hold(lp, columns, optimum, lower, fixed)
            lp.set_costs(columns, [0] * len(columns))
        if not order:
            if lp.solve(False) != "optimal":
                raise RuntimeError("%s: no solution of the required rows" % self.name)
            values = lp.values()
        if lp.exact:
            met = edit_error == 0
        else:
            met = float(edit_error) <= EDIT_MET * max([1.0] + [abs(v) for v in edit_values.values()])
        free = self.free_variables(lp, rows, edit_values, values, fixed, lp.equalities) if self.free_wanted else None
        # + 0.0: a solver's -0.0 is written as 0.0, so equal answers print alike.
        return met, [float(v) + 0.0 for v in values[:len(self.variables)]], free

    def hold(self, lp, columns, optimum, lower, fixed):
        """Keeps the level at its optimum (see the module's docstring)."""
        reduced = lp.reduced_costs()
        if reduced is None:
            lp.add_row([(c, 1) for c in columns], optimum)
            return
        for j, cost in enumerate(reduced):
            # Only bounded columns can be fixed; the frame variables are free
            # (their reduced cost is zero at any optimum).
            if not fixed[j] and lower[j] == 0.0 and cost > DUAL_TOLERANCE:
                lp.bound(j, 0.0, 0.0)
                fixed[j] = True

    # -- ambiguity --------------------------------------------------------

    @staticmethod
    def pinned(fixed, equalities):
        """The columns that the equality rows determine on the face: a fixed
        column, and any column that is the last undetermined one of a row."""
        known = list(fixed)
        unknown_count = []
        rows_of = {}
        for r, (terms, _) in enumerate(equalities):
            unknown_count.append(sum(1 for c, _ in terms if not known[c]))
            for c, _ in terms:
                rows_of.setdefault(c, []).append(r)
        work = [r for r, n in enumerate(unknown_count) if n == 1]
        while work:
            r = work.pop()
            if unknown_count[r] != 1:
                continue
            c = next(c for c, _ in equalities[r][0] if not known[c])
            known[c] = True
            for other in rows_of[c]:
                unknown_count[other] -= 1
                if unknown_count[other] == 1:
                    work.append(other)
        return known

    def free_variables(self, lp, rows, edit_values, reference, fixed, equalities):
        count = len(self.variables)
        constrained = adapter_kit.constrained_variables(count, rows, edit_values)
        free = {v for v in range(count) if not constrained[v]}
        known = self.pinned(fixed, equalities)
        undecided = [v for v in range(count) if constrained[v] and not known[v]]
        if not undecided:
            return sorted(free)
        # Two points of the face: a random objective over the undecided, both
        # ways, each of them boxed around its value (see box()).
        chooser = random.Random(SEED)
        weights = [chooser.uniform(0.5, 1.5) for _ in undecided]
        for v in undecided:
            lp.bound(v, *box(reference[v]))
        for sign in (1, -1):
            lp.set_costs(undecided, [sign * w for w in weights])
            if lp.solve(True) == "optimal":
                point = lp.values()
                free.update(v for v in undecided if not close(point[v], reference[v]))
        lp.set_costs(undecided, [0] * len(undecided))
        for v in reversed(undecided):
            lp.bound(v, -INFINITY, INFINITY)
        # The rest: each one's own least and greatest value in its box.
        for v in undecided:
            if v in free:
                continue
            lp.bound(v, *box(reference[v]))
            extremes = []
            for sign in (1, -1):
                lp.set_costs([v], [sign])
                status = lp.solve(True)
                if status != "optimal":
                    raise RuntimeError("%s: %s ranging %s" % (self.name, status, self.variables[v]))
                extremes.append(lp.values()[v])
            lp.set_costs([v], [0])
            lp.bound(v, -INFINITY, INFINITY)
            if not close(extremes[0], extremes[1]):
                free.add(v)
        return sorted(free)
