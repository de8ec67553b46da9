#!/usr/bin/env bash
# Tests the package on one more CPython version than the one in .venv:
# the abi3 wheel (built once, in WHEEL_DIR) installed into a venv of that
# version (.venvs/VERSION, with pytest and uvloop from PyPI), then the
# package's pytest suite and that version's own test_subprocess and
# test_asyncio.test_subprocess against it.
#
#   scripts/test-version.sh VERSION WHEEL_DIR      (VERSION: 3.9, 3.13...)
#
# The interpreter is python$VERSION from PATH, else the newest
# $PYENV_ROOT/versions/$VERSION.*/bin/python$VERSION (pyenv's default root
# is ~/.pyenv). Where there is none, the version is skipped with a message.
set -euo pipefail
version=$1
wheel_dir=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)

find_python() {
    local p
    for p in "$(command -v "python$version" 2>/dev/null || true)" \
        $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}/versions/$version".*/bin/"python$version" 2>/dev/null | sort -V -r); do
        # (pyenv's shims are on PATH for every version, but run only the selected ones.)
        if [ -n "$p" ] && "$p" -c 'import sys; assert sys.version_info[:2] == tuple(map(int, sys.argv[1].split(".")))' "$version" 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

if ! python=$(find_python); then
    echo "skipping CPython $version: no python$version on PATH or in ${PYENV_ROOT:-$HOME/.pyenv}/versions"
    exit 0
fi
wheels=("$wheel_dir"/fastspawn-*-abi3-*.whl)
venv=$here/.venvs/$version
echo "CPython $version: $python ($("$python" -c 'import platform; print(platform.python_version())'))"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
# The tools, again only when their list changed.
if [ ! -f "$venv/.installed" ] || [ "$here/tests/requirements-versions.txt" -nt "$venv/.installed" ]; then
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/tests/requirements-versions.txt"
    touch "$venv/.installed"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "${wheels[0]}"

cd "$here/tests"
"$venv/bin/python" -m pytest -q -p no:cacheprovider
if "$venv/bin/python" -c 'import test.test_subprocess, test.test_asyncio.test_subprocess' 2>/dev/null; then
    cd /tmp
    "$venv/bin/python" "$here/tests/cpython/run_test_subprocess.py"
    "$venv/bin/python" "$here/tests/cpython/run_test_asyncio_subprocess.py"
else
    echo "skipping CPython $version's own test_subprocess: this interpreter has no 'test' package"
fi
