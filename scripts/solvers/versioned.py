#!/usr/bin/env python3
"""Runs an adapter against a pinned release of its Python package.

    versioned.py PACKAGE VERSION -- ADAPTER.py [ARGS...]

`kiwi@1.3.2` in `--solvers` runs this (Corpus/solvers.json's "versioned"
command): each release lives in its own virtual environment under the cache
folder (`$LAYOUT_BENCH_CACHE`, else `$XDG_CACHE_HOME/layout-bench`, else
`~/.cache/layout-bench`), `venvs/PACKAGE-VERSION`, so releases never replace
each other or the package the quick start installed.

Two modes (docs/solver-protocol.md, section 9):
- LAYOUT_BENCH_PREPARE=1: create the environment and install PACKAGE==VERSION
  into it if that was not done before, then exit (0: ready). layout-bench does
  this once before a run, because an install (a compile, for releases without
  a wheel for this Python) takes longer than `hello` may.
- otherwise: run the adapter with the environment's interpreter. If the
  environment is not ready, serve the protocol just enough to decline every
  `hello` with the reason, so the run lists this version as left out.
"""
import os
import re
import subprocess
import sys
import venv

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Why so strict: the version becomes part of a requirement and a folder name.
VERSION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+!_-]*$")
PACKAGE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def cache_folder():
    if os.environ.get("LAYOUT_BENCH_CACHE"):
        return os.environ["LAYOUT_BENCH_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "layout-bench")


def interpreter(env):
    return os.path.join(env, "bin", "python")


def prepare(package, version, env):
    """Creates the environment and installs the release; returns an error message or None."""
    stamp = os.path.join(env, "layout-bench-ready")
    if os.path.exists(stamp):
        return None
    try:
        # A fresh environment each time an install did not finish: a half
        # installed one must not be mistaken for ready.
        venv.EnvBuilder(clear=True, with_pip=True).create(env)
    except Exception as error:  # noqa: BLE001 - any failure is the reason
        return "could not create a virtual environment at %s: %s" % (env, error)
    install = subprocess.run([interpreter(env), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                              "%s==%s" % (package, version)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if install.returncode != 0:
        last = [line for line in install.stdout.strip().splitlines() if line.strip()][-3:]
        return "pip could not install %s==%s for Python %d.%d: %s" % (
            package, version, sys.version_info[0], sys.version_info[1], " / ".join(last) or "exit %d" % install.returncode)
    with open(stamp, "w") as f:
        f.write("%s==%s\n" % (package, version))
    return None


def decline_forever(reason):
    """Serves the protocol only to decline: the run reports the solver as left out."""
    import adapter_kit

    def unavailable():
        raise RuntimeError(reason)
    adapter_kit.serve(unavailable)


def main(argv):
    if len(argv) < 5 or argv[3] != "--" or not PACKAGE.match(argv[1]) or not VERSION.match(argv[2]):
        sys.stderr.write("usage: versioned.py PACKAGE VERSION -- ADAPTER.py [ARGS...]\n")
        return 64
    package, version, adapter = argv[1], argv[2], argv[4:]
    env = os.path.join(cache_folder(), "venvs", "%s-%s" % (package, version))
    if os.environ.get("LAYOUT_BENCH_PREPARE") == "1":
        error = prepare(package, version, env)
        if error:
            sys.stderr.write(error + "\n")
            return 1
        return 0
    if not os.path.exists(os.path.join(env, "layout-bench-ready")):
        decline_forever("%s==%s is not installed in %s (layout-bench prepares it before a run; "
                        "the preparation failed or was not run)" % (package, version, env))
        return 0
    script = os.path.join(os.getcwd(), adapter[0]) if not os.path.isabs(adapter[0]) else adapter[0]
    os.execv(interpreter(env), [interpreter(env), script] + adapter[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
