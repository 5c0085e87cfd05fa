#!/usr/bin/env bash
# THE test command: sets up everything the tests need, then runs pytest.
#
#   bash tests/run.sh [pytest arguments...]
#
# Needs only Python >= 3.11, Node 20 + npm and apt (as root, or sudo). Each
# stage is skipped when already done, so a second run goes straight to pytest:
#   1. .venv/ with `pip install -e '.[test]'` (redone when pyproject.toml changes)
#   2. the npm package pyodide@0.29.3 in sitebuild/npm/ (`npm ci`, from the lock;
#      the build and the tests share it), and axe-core in tests/npm/ (the access tests)
#   3. Debian's chromium, when `chromium` is not on PATH
# The exit status is pytest's.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

say() { printf '[setup] %s\n' "$*"; }

# 1. Python environment -------------------------------------------------------
venv="$root/.venv"
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    python=""
    for candidate in python3.11 python3; do
        if command -v "$candidate" >/dev/null \
            && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            python="$candidate"
            break
        fi
    done
    if [[ -z "$python" ]]; then
        echo "tests/run.sh: needs Python 3.11 or newer (python3.11 or python3)" >&2
        exit 1
    fi
    say "venv: creating .venv with $("$python" --version)"
    rm -rf "$venv"
    "$python" -m venv "$venv"
fi

stamp="$venv/.specstep-installed"
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    say "python packages: pip install -e '.[test]'"
    log="$(mktemp)"
    # The build backend's notes are noise on success; show everything on failure.
    if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -e '.[test]' >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "tests/run.sh: pip install -e '.[test]' failed" >&2
        exit 1
    fi
    rm -f "$log"
    echo "$want" > "$stamp"
else
    say "python packages: installed ($("$venv/bin/python" --version))"
fi

# 2. Pyodide for the build and the tests --------------------------------------
pyodide_dir="$root/sitebuild/npm"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "tests/run.sh: needs Node 20 and npm (for Pyodide 0.29.3)" >&2
    exit 1
fi
want_pyodide="$(node -p 'require(process.argv[1]).packages["node_modules/pyodide"].version' "$pyodide_dir/package-lock.json")"
have_pyodide="$(node -p 'try { require(process.argv[1]).version } catch { "" }' "$pyodide_dir/node_modules/pyodide/package.json")"
if [[ "$have_pyodide" != "$want_pyodide" ]]; then
    say "pyodide: npm ci (pyodide@$want_pyodide into sitebuild/npm/)"
    (cd "$pyodide_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
else
    say "pyodide: $have_pyodide installed (node $(node --version))"
fi

# 2b. Browser-test tools (axe-core for the access tests) ----------------------
tools_dir="$root/tests/npm"
want_axe="$(node -p 'require(process.argv[1]).packages["node_modules/axe-core"].version' "$tools_dir/package-lock.json")"
have_axe="$(node -p 'try { require(process.argv[1]).version } catch { "" }' "$tools_dir/node_modules/axe-core/package.json")"
if [[ "$have_axe" != "$want_axe" ]]; then
    say "axe-core: npm ci (axe-core@$want_axe into tests/npm/)"
    (cd "$tools_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
else
    say "axe-core: $have_axe installed"
fi

# 3. Chromium for the browser tests -------------------------------------------
if ! command -v chromium >/dev/null; then
    sudo=()
    if [[ "$(id -u)" != 0 ]]; then sudo=(sudo); fi
    say "chromium: apt-get install chromium"
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    say "chromium: $(chromium --version 2>/dev/null || echo installed)"
else
    say "chromium: $(command -v chromium)"
fi

# Every tool is installed now: a test that finds one missing must fail, not skip.
export SPECSTEP_FULL_SETUP=1

say "pytest: .venv/bin/python -m pytest $*"
exec "$venv/bin/python" -m pytest "$@"
