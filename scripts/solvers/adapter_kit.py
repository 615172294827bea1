"""The adapter kit: layout-bench's solver protocol (docs/solver-protocol.md) in one place.

An adapter subclasses `Adapter`, fills in its solver's calls, and hands a
factory to `serve`. The kit owns everything the specification fixes and a
solver should not have to think about: reading and writing lines, the hello
and its version check, `time_s`, handles (numbered here, ended by each load),
declining unknown requests and unknown handles, errors as answers, quit.

Standard library only; Python 3.8 or newer.
"""
import json
import os
import sys
import time

PROTOCOL = 1


class Unsupported(Exception):
    """Raised by an adapter for something its solver cannot do (answered with kind "unsupported")."""


class Adapter:
    """One solver behind the protocol. Override the methods; the kit calls them."""

    name = "adapter"
    version = "0"
    semantics = "weighted"  # or "lexicographic"
    incremental = False  # implements add/remove
    edits = False  # implements suggest
    max_rows = None  # the most rows one load may have, or None
    ambiguity = False  # solve/suggest also return the free variables
    # Whether the current solve/suggest wants them: False when the request
    # says `"free": false` (the harness's timing pass, which does not read the
    # list), so the time of an ambiguity search is not charged to a timed
    # solve (the protocol's sections 3.3 and 7). The kit sets it per request.
    free_wanted = True

    def load(self, variables, rows, edits):
        """Replace everything with this problem; return the indices of the required rows not added."""
        raise NotImplementedError

    def solve(self):
        """Return (status, values): status "solved" or "unsatisfiable", one float per variable.
        With ambiguity = True, return (status, values, free): free lists the indices
        of the variables that are not unique on the optimal face."""
        raise NotImplementedError

    def suggest(self, edits):
        """Change the edit variables' values; return (status, values) like solve."""
        raise Unsupported("suggest")

    def add(self, row):
        """Add one row; return any object that remove() takes back."""
        raise Unsupported("add")

    def remove(self, token):
        """Remove a row added by add(), given what add() returned."""
        raise Unsupported("remove")


class RebuildingAdapter(Adapter):
    """For solvers without incremental calls (an LP, an SMT optimiser): the
    kit keeps the problem (rows, edits, added rows) and the adapter solves it
    from scratch in compute(); the answer is cached until something changes.
    Correct, not fast: add, remove and suggest cost a whole solve."""

    incremental = True
    edits = True

    def load(self, variables, rows, edits):
        self.variables = list(variables)
        self.rows = list(rows)
        self.edit_values = {int(e["variable"]): float(e["value"]) for e in edits}
        self.added = {}
        self.next_token = 0
        self.answer = None
        self.refused = sorted(self.refuse(rows))
        return self.refused

    def refuse(self, rows):
        """The indices of the required rows that conflict with the required rows before them."""
        raise NotImplementedError

    def compute(self, rows, edit_values):
        """Solve rows (the refused ones left out, added ones in) with the edits; return (edit_met, values),
        or (edit_met, values, free) for an adapter with ambiguity = True."""
        raise NotImplementedError

    def solve(self):
        if self.answer is None or self.needs_free():
            refused = set(self.refused)
            rows = [r for i, r in enumerate(self.rows) if i not in refused] + list(self.added.values())
            computed = self.compute(rows, self.edit_values)
            met, values = computed[0], computed[1]
            free = computed[2] if len(computed) > 2 else None
            self.answer = ("unsatisfiable" if self.refused or not met else "solved", values, free)
        return self.answer

    def needs_free(self):
        """Whether the cached answer lacks a free list this request wants."""
        return self.ambiguity and self.free_wanted and self.answer is not None and self.answer[2] is None

    def suggest(self, edits):
        for edit in edits:
            self.edit_values[int(edit["variable"])] = float(edit["value"])
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


def _solution(answer):
    """The fields of a solve or suggest answer from (status, values[, free])."""
    result = {"status": answer[0], "values": [float(v) for v in answer[1]]}
    if len(answer) > 2 and answer[2] is not None:
        result["free"] = sorted({int(i) for i in answer[2]})
    return result


# Where answers go: the process's original standard output (see serve).
_protocol_out = sys.stdout


def _answer(fields, start):
    fields["time_s"] = time.perf_counter() - start
    _protocol_out.write(json.dumps(fields) + "\n")
    _protocol_out.flush()


def _guard_standard_output():
    """Keeps the protocol's channel for answers only: answers go to a copy of
    the original standard output, and file descriptor 1 (where C and C++
    libraries print, whatever their quiet options say: HiGHS's postsolve
    does) is pointed at standard error. Why: one stray line on the channel
    is a protocol error for the whole solve."""
    global _protocol_out
    try:
        sys.stdout.flush()
        _protocol_out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    except OSError:
        _protocol_out = sys.stdout  # no descriptors to juggle: leave it as it is


def serve(factory):
    """Serves requests on stdin until quit or end of input.

    factory() builds the adapter; if it raises (the solver's package is not
    installed), every hello is declined with that message, so the harness
    reports the solver as unavailable instead of a crash.
    """
    _guard_standard_output()
    try:
        adapter = factory()
        unavailable = None
    except Exception as error:  # report it in hello
        adapter, unavailable = None, "%s: %s" % (type(error).__name__, error)
    handles = {}  # number -> the adapter's token, for the current load only
    next_handle = 0
    loaded = False
    for line in sys.stdin:
        if not line.strip():
            continue
        start = time.perf_counter()
        try:
            request = json.loads(line)
            op = request.get("op") if isinstance(request, dict) else None
            if op == "quit":
                return
            if op == "hello":
                if unavailable:
                    raise RuntimeError(unavailable)
                if request.get("protocol") != PROTOCOL:
                    raise Unsupported("this adapter speaks protocol %d, not %r" % (PROTOCOL, request.get("protocol")))
                result = {"name": adapter.name, "version": str(adapter.version), "protocol": PROTOCOL,
                          "semantics": adapter.semantics, "incremental": bool(adapter.incremental),
                          "edits": bool(adapter.edits)}
                if adapter.max_rows is not None:
                    result["max_rows"] = int(adapter.max_rows)
                if adapter.ambiguity:
                    result["ambiguity"] = True
            elif adapter is None:
                raise RuntimeError(unavailable or "no hello yet")
            elif op == "load":
                problem = request["problem"]
                handles.clear()
                loaded = False
                rows = problem["rows"]
                if adapter.max_rows is not None and len(rows) > adapter.max_rows:
                    raise Unsupported("%d rows, over this adapter's limit of %d" % (len(rows), adapter.max_rows))
                unsatisfiable = adapter.load(problem["variables"], rows, problem.get("edits", []))
                loaded = True
                result = {"unsatisfiable": sorted(int(i) for i in unsatisfiable)}
            elif op in ("solve", "suggest", "add", "remove") and not loaded:
                raise RuntimeError("%s before a load" % op)
            elif op == "solve":
                adapter.free_wanted = request.get("free") is not False
                result = _solution(adapter.solve())
            elif op == "suggest":
                if not adapter.edits:
                    raise Unsupported("this adapter declared no edits")
                adapter.free_wanted = request.get("free") is not False
                result = _solution(adapter.suggest(request["edits"]))
            elif op == "add":
                if not adapter.incremental:
                    raise Unsupported("this adapter is not incremental")
                token = adapter.add(request["row"])
                next_handle += 1
                handles[next_handle] = token
                result = {"handle": next_handle}
            elif op == "remove":
                if not adapter.incremental:
                    raise Unsupported("this adapter is not incremental")
                handle = request.get("handle")
                if not isinstance(handle, int) or isinstance(handle, bool) or handle not in handles:
                    raise KeyError("no constraint with handle %r in this load" % (handle,))
                adapter.remove(handles.pop(handle))
                result = {}
            else:
                raise ValueError("unknown op %r" % (op,))
            result["ok"] = True
        except Unsupported as error:
            result = {"ok": False, "kind": "unsupported", "error": str(error) or "unsupported"}
        except Exception as error:  # report, keep serving
            result = {"ok": False, "error": "%s: %s" % (type(error).__name__, error)}
        _answer(result, start)


def expression_terms(row):
    """The row's terms as (variable index, coefficient) pairs and its constant."""
    return [(int(i), float(c)) for i, c in row["terms"]], float(row["constant"])


def constrained_variables(count, rows, edit_values):
    """Per variable, whether some row (with a non-zero coefficient) or an edit holds it.

    A variable held by nothing is free whatever the solver; the ambiguity
    analyses of the LP adapters start from this.
    """
    constrained = [False] * count
    for row in rows:
        for i, c in row["terms"]:
            if float(c) != 0:
                constrained[int(i)] = True
    for v in edit_values:
        constrained[int(v)] = True  # an edit's row holds it too
    return constrained
