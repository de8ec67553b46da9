#!/usr/bin/env bash
# prereqs.sh - says which tool `make test`, `make bench` or `make dist` lacks,
# before any build starts, instead of letting the build fail deep inside.
#
# Usage: scripts/prereqs.sh [test|bench|dist]   (default: test)
# Exits 1 after listing every missing or too old tool, with how to get it.
# Versions: Rust as pinned by rust-toolchain.toml (with clippy and rustfmt),
# Go >= 1.21, gcc, make, Node >= 18 with npm, Python >= 3.9 with venv.
set -u

what=${1:-test}
cd "$(dirname "$0")/.." || exit 1
missing=0

lack() { # lack TOOL WHY HOW
    printf 'missing: %-10s %s\n            get it: %s\n' "$1" "$2" "$3" >&2
    missing=$((missing + 1))
}

# version_ge HAVE WANT: dotted versions, numerically.
version_ge() {
    [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

have() { command -v "$1" >/dev/null 2>&1; }

# Rust: cargo through rustup picks the toolchain of rust-toolchain.toml.
pinned=$(sed -n 's/^channel *= *"\(.*\)"/\1/p' rust-toolchain.toml 2>/dev/null)
if ! have cargo; then
    lack cargo "builds everything (Rust $pinned)" "https://rustup.rs, then rerun: rustup reads rust-toolchain.toml"
else
    rustc_version=$(rustc --version 2>/dev/null | awk '{print $2}')
    if [ -z "$rustc_version" ]; then
        lack rustc "Rust $pinned (rust-toolchain.toml)" "rustup toolchain install $pinned --component clippy,rustfmt"
    elif [ -n "$pinned" ] && [ "$rustc_version" != "$pinned" ]; then
        if have rustup; then
            lack rustc "Rust $pinned (rust-toolchain.toml), found $rustc_version" "rustup toolchain install $pinned --component clippy,rustfmt"
        else
            # Without rustup nothing reads rust-toolchain.toml: accept a newer compiler, warn.
            if version_ge "$rustc_version" "$pinned"; then
                echo "note: rustc $rustc_version, not the pinned $pinned (no rustup): clippy may warn differently" >&2
            else
                lack rustc "Rust >= $pinned, found $rustc_version" "https://rustup.rs"
            fi
        fi
    fi
    if [ "$what" != dist ]; then
        cargo clippy --version >/dev/null 2>&1 || lack clippy "make lint" "rustup component add clippy"
        cargo fmt --version >/dev/null 2>&1 || lack rustfmt "make lint" "rustup component add rustfmt"
    fi
fi

have make || lack make "runs the build" "apt-get install make"
have gcc || lack gcc "the C peers and the addon's linker" "apt-get install gcc"

if [ "$what" != dist ]; then
    if ! have go; then
        lack go "the Go peer and HTTP server of the benchmark (>= 1.21)" "https://go.dev/dl or apt-get install golang"
    else
        go_version=$(go env GOVERSION 2>/dev/null | sed 's/^go//')
        version_ge "${go_version:-0}" 1.21 || lack go "Go >= 1.21, found ${go_version:-?}" "https://go.dev/dl"
    fi
fi

if ! have node; then
    lack node "the npm package and the Node peers (>= 18)" "https://nodejs.org or apt-get install nodejs"
else
    node_version=$(node -p 'process.versions.node' 2>/dev/null)
    version_ge "${node_version:-0}" 18 || lack node "Node >= 18, found ${node_version:-?}" "https://nodejs.org"
fi
have npm || lack npm "installs the npm package's dev tools (npm ci)" "comes with Node; apt-get install npm"

if [ "$what" = dist ] && [ ! -d bindings/python ]; then
    : # no Python package to build yet
elif ! have python3; then
    lack python3 "the Python peer and the test wrappers (>= 3.9)" "apt-get install python3 python3-venv"
else
    py_version=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
    version_ge "${py_version:-0}" 3.9 || lack python3 "Python >= 3.9, found ${py_version:-?}" "apt-get install python3"
    # The Python package's tests and install test make virtual environments.
    if [ "$what" != bench ] && [ -d bindings/python ]; then
        python3 -c 'import venv, ensurepip' >/dev/null 2>&1 \
            || lack python3-venv "the Python package's virtual environments" "apt-get install python3-venv"
    fi
fi

if [ "$what" = bench ] && ! have hey; then
    echo "note: hey (the HTTP benchmark's load generator) is missing: make bench installs it (make http-tools, apt-get install hey)" >&2
fi

if [ "$missing" -gt 0 ]; then
    echo "make $what: $missing prerequisite(s) missing (see README.md, Prerequisites)" >&2
    exit 1
fi
echo "prerequisites for make $what: ok (rust ${rustc_version:-?}, node ${node_version:-?}${py_version:+, python $py_version}${go_version:+, go $go_version})"
