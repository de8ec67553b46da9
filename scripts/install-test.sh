#!/usr/bin/env bash
# install-test.sh - `make install-test`: installs each artefact of `make dist`
# outside the repository, as a user would, and runs a small program that
# spawns `echo hi` and reads its output:
#   crate  a fresh cargo project in a temporary directory, depending on the
#          unpacked .crate by path (the target dir is shared with the
#          repository's, CARGO_TARGET_DIR, so the dependencies are not rebuilt)
#   npm    an empty directory, `npm install <both tarballs>`, then node; and
#          without the platform package, the error must say how to build
#   wheel  a fresh venv, pip install of the wheel (no index), then echo hi
#          through fastspawn.subprocess and fastspawn.asyncio
#   sdist  a fresh venv, pip install of the sdist (a build from source:
#          maturin from PyPI), then echo hi
# Prints "install-test: N passed" or the failing step; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DIST=$ROOT/dist
CARGO=${CARGO:-cargo}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
version=$(sed -n 's/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n1)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fastspawn-install.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
passed=0

need() {
    [ -f "$1" ] || { echo "install-test: $1 is missing: run make dist first" >&2; exit 1; }
}

test_crate() {
    local crate=$DIST/fastspawn-$version.crate
    need "$crate"
    tar xzf "$crate" -C "$WORK"
    mkdir -p "$WORK/app/src"
    cat >"$WORK/app/Cargo.toml" <<TOML
[package]
name = "install-test"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
fastspawn = { path = "../fastspawn-$version", features = ["tokio"] }
tokio = { version = "1", features = ["rt", "macros"] }

[workspace]
TOML
    cat >"$WORK/app/src/main.rs" <<'RUST'
use fastspawn::{Command, Stdio, signal};

fn main() -> Result<(), fastspawn::Error> {
    if std::env::args().nth(1).as_deref() == Some("fail") {
        // What a user sees when main returns the error: the message.
        Command::new("ls").current_dir("/nope").spawn()?;
    }
    let out = Command::new("echo").arg("hi").stdout(Stdio::piped()).output()?;
    assert_eq!(out.stdout, b"hi\n", "blocking API");
    let mut sleeper = Command::new("sleep").arg("60").pdeathsig(signal::SIGKILL).spawn()?;
    sleeper.send_signal(signal::SIGTERM)?;
    assert_eq!(sleeper.wait()?.signal(), Some(signal::SIGTERM));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let out = rt.block_on(fastspawn::tokio::Command::new("echo").arg("hi").output())?;
    assert_eq!(out.stdout, b"hi\n", "tokio API");
    print!("{}", String::from_utf8_lossy(&out.stdout));
    Ok(())
}
RUST
    # The packaged crate's lock pins the versions the workspace tested; the
    # registry cache already holds them, so no network is needed.
    cp "$WORK/fastspawn-$version/Cargo.lock" "$WORK/app/Cargo.lock"
    local out
    out=$(cd "$WORK/app" && "$CARGO" run --quiet --offline 2>&1) || {
        echo "install-test: crate: the program failed:" >&2
        echo "$out" >&2
        exit 1
    }
    [ "$out" = hi ] || { echo "install-test: crate: printed '$out', expected 'hi'" >&2; exit 1; }
    local expected='Error: spawning "ls": chdir to "/nope" failed: No such file or directory (os error 2)'
    if out=$(cd "$WORK/app" && "$CARGO" run --quiet --offline -- fail 2>&1); then
        echo "install-test: crate: spawning in /nope succeeded" >&2
        exit 1
    fi
    [ "$out" = "$expected" ] || {
        echo "install-test: crate: main returning the error printed:" >&2
        echo "$out" >&2
        echo "expected: $expected" >&2
        exit 1
    }
    echo "install-test: crate fastspawn-$version: ok (a fresh cargo project ran echo hi, blocking and tokio; main returning an Error prints its message)"
    passed=$((passed + 1))
}

test_npm() {
    local main=$DIST/fastspawn-$version.tgz addon=$DIST/fastspawn-linux-x64-gnu-$version.tgz
    need "$main"
    need "$addon"
    mkdir -p "$WORK/npm"
    cd "$WORK/npm"
    echo '{ "name": "install-test", "version": "0.0.0", "private": true }' >package.json
    npm install --silent --no-audit --no-fund --offline "$main" "$addon"
    local program='
        const { execFile } = require("fastspawn");
        execFile("echo", ["hi"], (err, stdout) => {
            if (err) throw err;
            process.stdout.write(stdout);
        });'
    local out
    out=$(env -u FASTSPAWN_NODE_ADDON node -e "$program" 2>&1) || {
        echo "install-test: npm: the program failed:" >&2
        echo "$out" >&2
        exit 1
    }
    [ "$out" = hi ] || { echo "install-test: npm: printed '$out', expected 'hi'" >&2; exit 1; }
    # Where the platform package is missing, the error says how to build.
    rm -rf node_modules/@fastspawn
    if out=$(env -u FASTSPAWN_NODE_ADDON node -e 'require("fastspawn")' 2>&1); then
        echo "install-test: npm: require('fastspawn') worked without its addon package" >&2
        exit 1
    fi
    case $out in
    *"@fastspawn/linux-x64-gnu is not installed"*"build it from source"*) ;;
    *)
        echo "install-test: npm: without the addon package, the error does not say what to do:" >&2
        echo "$out" >&2
        exit 1
        ;;
    esac
    cd "$ROOT"
    echo "install-test: npm fastspawn-$version: ok (installed from the tarballs in an empty directory, ran echo hi; a clear error without the addon package)"
    passed=$((passed + 1))
}

test_python() {
    # A fresh venv outside the repository, the wheel from dist/ installed by
    # pip (no build, no network), then subprocess's and asyncio's API.
    local wheels=("$DIST"/fastspawn-"$version"-cp39-abi3-manylinux_*.whl)
    need "${wheels[0]}"
    python3 -m venv "$WORK/venv"
    "$WORK/venv/bin/pip" install -q --disable-pip-version-check --no-index "${wheels[0]}"
    local out
    out=$(cd "$WORK" && "$WORK/venv/bin/python" - <<'PY' 2>&1
import asyncio
import fastspawn
import fastspawn.asyncio
import fastspawn.subprocess as subprocess

assert "/venv/" in fastspawn.__file__, fastspawn.__file__
out = subprocess.run(["echo", "hi"], capture_output=True, text=True, check=True).stdout
assert out == "hi\n", repr(out)
try:
    subprocess.run(["ls"], cwd="/nope")
    raise SystemExit("spawning in /nope succeeded")
except FileNotFoundError as e:
    assert e.filename == "/nope", e


async def main():
    p = await fastspawn.asyncio.create_subprocess_exec(
        "echo", "hi", stdout=asyncio.subprocess.PIPE
    )
    stdout, _ = await p.communicate()
    assert stdout == b"hi\n" and p.returncode == 0, (stdout, p.returncode)


asyncio.run(main())
print(out, end="")
PY
    ) || {
        echo "install-test: wheel: the program failed:" >&2
        echo "$out" >&2
        exit 1
    }
    [ "$out" = hi ] || { echo "install-test: wheel: printed '$out', expected 'hi'" >&2; exit 1; }
    echo "install-test: wheel $(basename "${wheels[0]}"): ok (a fresh venv, pip install of the wheel, echo hi through fastspawn.subprocess and fastspawn.asyncio; a bad cwd raises FileNotFoundError)"
    passed=$((passed + 1))
}

test_sdist() {
    # The sdist builds from source in a fresh venv, pip's wheel cache off so
    # that it really builds (pip fetches maturin from
    # PyPI, cargo the crates from crates.io; ~80 s on a loaded 2-core
    # machine), and the package it installs runs echo hi.
    local sdist=$DIST/fastspawn-$version.tar.gz out start=$SECONDS
    need "$sdist"
    python3 -m venv "$WORK/sdist-venv"
    out=$(cd "$WORK" && "$WORK/sdist-venv/bin/pip" install -q --disable-pip-version-check --no-cache-dir "$sdist" 2>&1) || {
        echo "install-test: sdist: pip install $sdist failed:" >&2
        echo "$out" >&2
        exit 1
    }
    out=$(cd "$WORK" && "$WORK/sdist-venv/bin/python" -c '
import fastspawn.subprocess as subprocess
print(subprocess.check_output(["echo", "hi"], text=True), end="")' 2>&1) || {
        echo "install-test: sdist: the program failed:" >&2
        echo "$out" >&2
        exit 1
    }
    [ "$out" = hi ] || { echo "install-test: sdist: printed '$out', expected 'hi'" >&2; exit 1; }
    echo "install-test: sdist fastspawn-$version.tar.gz: ok (built from source by pip in a fresh venv in $((SECONDS - start)) s, ran echo hi)"
    passed=$((passed + 1))
}

test_pack_refusals() {
    # From a fresh clone, npm pack must refuse rather than make a tarball
    # without the addon (the real packing is make dist's, from a staged copy).
    local dir out
    for dir in bindings/node bindings/node/npm/linux-x64-gnu; do
        if out=$(cd "$dir" && npm pack --dry-run 2>&1); then
            echo "install-test: npm pack in $dir did not refuse:" >&2
            echo "$out" >&2
            exit 1
        fi
        case $out in
        *"npm pack refused: "*"make dist"*) ;;
        *)
            echo "install-test: npm pack in $dir failed without saying to run make dist:" >&2
            echo "$out" >&2
            exit 1
            ;;
        esac
    done
    echo "install-test: npm pack in bindings/node and npm/linux-x64-gnu refuses, naming make dist: ok"
    passed=$((passed + 1))
}

test_crate
test_npm
test_pack_refusals
test_python
test_sdist
echo "install-test: $passed passed"
