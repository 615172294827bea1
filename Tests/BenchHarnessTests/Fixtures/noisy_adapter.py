#!/usr/bin/env python3
"""A test adapter built on the adapter kit whose "solver" prints on file
descriptor 1 behind the kit's back, as a C or C++ library does (HiGHS's
postsolve did): the kit must keep those bytes out of the protocol."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts", "solvers"))
import adapter_kit  # noqa: E402


class Noisy(adapter_kit.RebuildingAdapter):
    name = "noisy"
    version = "1.0"
    semantics = "lexicographic"

    def refuse(self, rows):
        os.write(1, b"noise from a library during load\n")
        return []

    def compute(self, rows, edit_values):
        os.write(1, b"noise from a library during solve\n")
        print("noise from Python's print")
        # Every variable at its edit value or 1: enough to see an answer arrive intact.
        return True, [edit_values.get(i, 1.0) for i in range(len(self.variables))]


if __name__ == "__main__":
    adapter_kit.serve(Noisy)
