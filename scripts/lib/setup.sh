# Shared setup for the scripts: checks the toolchain and installs what the
# project needs from the system's package manager, once.

# Debian packages the project needs; each entry is "file-or-command:package".
LAYOUT_BENCH_APT_PACKAGES=(
  "/usr/include/glpk.h:libglpk-dev"   # the GLPK reference solver (CGLPK links libglpk)
  "/usr/include/sqlite3.h:libsqlite3-dev"   # the run history (GRDB links libsqlite3)
)

ensure_dependencies() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "error: swift is not on PATH; install Swift 6.1 or newer" >&2
    exit 69
  fi
  local missing=()
  local entry probe package
  for entry in "${LAYOUT_BENCH_APT_PACKAGES[@]}"; do
    probe="${entry%%:*}"
    package="${entry##*:}"
    if [[ "$probe" == /* ]]; then
      [[ -e "$probe" ]] || missing+=("$package")
    else
      command -v "$probe" >/dev/null 2>&1 || missing+=("$package")
    fi
  done
  if ((${#missing[@]})); then
    echo "layout-bench: installing ${missing[*]} with apt-get..." >&2
    local sudo=""
    [[ "$(id -u)" -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
  fi
  # The shipped external solvers' Python packages (scripts/solvers/, registered
  # in Corpus/solvers.json): kiwi, the pure-Python cassowary, Z3, HiGHS. A package
  # that cannot be installed is not fatal: its adapter declines hello and the
  # run reports that solver as unavailable.
  # Checked once per interpreter and package list, then remembered in a stamp
  # (importing z3 alone costs ~0.3 s, and every wrapped call came here).
  if command -v python3 >/dev/null 2>&1; then
    local packages="kiwisolver:kiwisolver cassowary:cassowary z3:z3-solver highspy:highspy"
    local stamp="${root:-.}/.build/python-solvers.stamp"
    local key
    key="$(command -v python3) $packages"
    if [[ -f "$stamp" && "$(<"$stamp")" == "$key" ]]; then
      return 0
    fi
    local wanted
    # find_spec locates a package without importing it.
    # shellcheck disable=SC2086
    wanted="$(python3 -c 'import importlib.util, sys
print(" ".join(e.split(":")[1] for e in sys.argv[1:] if importlib.util.find_spec(e.split(":")[0]) is None))' $packages 2>/dev/null)" \
      || wanted="kiwisolver cassowary z3-solver highspy"
    if [[ -n "$wanted" ]]; then
      echo "layout-bench: installing $wanted with pip..." >&2
      # shellcheck disable=SC2086
      if ! python3 -m pip install --quiet $wanted >&2; then
        echo "layout-bench: warning: could not install $wanted; those solvers will be reported unavailable" >&2
        return 0
      fi
    fi
    mkdir -p "$(dirname "$stamp")" && printf '%s' "$key" >"$stamp"
  fi
}
