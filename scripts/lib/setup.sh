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
  if command -v python3 >/dev/null 2>&1; then
    local module wanted=()
    for entry in "kiwisolver:kiwisolver" "cassowary:cassowary" "z3:z3-solver" "highspy:highspy"; do
      module="${entry%%:*}"
      python3 -c "import $module" >/dev/null 2>&1 || wanted+=("${entry##*:}")
    done
    if ((${#wanted[@]})); then
      echo "layout-bench: installing ${wanted[*]} with pip..." >&2
      python3 -m pip install --quiet "${wanted[@]}" >&2 \
        || echo "layout-bench: warning: could not install ${wanted[*]}; those solvers will be reported unavailable" >&2
    fi
  fi
}
