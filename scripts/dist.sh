#!/usr/bin/env bash
# dist.sh - `make dist`: the artefacts a user installs, in dist/:
#   fastspawn-<v>.crate                the crate (cargo package: what cargo publish uploads)
#   fastspawn-<v>.tgz                  the npm package (JavaScript; its addon comes from:)
#   fastspawn-linux-x64-gnu-<v>.tgz    @fastspawn/linux-x64-gnu, the prebuilt addon
#                                      (profile `dist`: release, stripped)
#   fastspawn-<v>-cp39-abi3-manylinux_2_34_x86_64.whl  the Python wheel (release, stripped,
#                                      checked with auditwheel)
#   fastspawn-<v>.tar.gz               the Python sdist (maturin sdist)
# scripts/install-test.sh installs each one outside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CARGO=${CARGO:-cargo}
DIST=$ROOT/dist
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
STAGE=$TARGET_DIR/npm-stage
MAX_NPM_BYTES=$((3 * 1024 * 1024))

scripts/prereqs.sh dist
version=$(sed -n 's/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n1)
mkdir -p "$DIST"

pack_crate() {
    # --allow-dirty: a working tree with local changes still packs (cargo
    # records it in .cargo_vcs_info.json); the verify step builds the
    # unpacked crate alone, as `cargo publish --dry-run` does.
    "$CARGO" package -p fastspawn --locked --allow-dirty
    cp "$TARGET_DIR/package/fastspawn-$version.crate" "$DIST/"
}

pack_npm() {
    local node=bindings/node platform=linux-x64-gnu
    "$CARGO" build --profile dist --locked -p fastspawn-node
    rm -rf "$STAGE"
    mkdir -p "$STAGE/npm/$platform" "$STAGE/scripts"
    # The main package: the files package.json lists, plus what its prepack needs.
    cp -r "$node"/{index.js,index.d.ts,lib,README.md,LICENSE-MIT,LICENSE-APACHE,package.json} "$STAGE/"
    cp "$node"/scripts/check-*.js "$STAGE/scripts/"
    cp "$node/npm/$platform"/{package.json,README.md} "$STAGE/npm/$platform/"
    cp LICENSE-MIT LICENSE-APACHE "$STAGE/npm/$platform/"
    cp "$TARGET_DIR/dist/libfastspawn_node.so" "$STAGE/npm/$platform/fastspawn.$platform.node"
    # The platform packages become optional dependencies of the packed copy
    # only (napi-rs's prepublish step does the same).
    (cd "$STAGE" && node -e '
        const fs = require("node:fs");
        const { PREBUILT, SCOPE } = require("./lib/prebuilt");
        const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
        pkg.optionalDependencies = Object.fromEntries(PREBUILT.map((p) => [`${SCOPE}/${p}`, pkg.version]));
        fs.writeFileSync("package.json", JSON.stringify(pkg, null, 2) + "\n");
    ')
    # npm pack runs each package's prepack (scripts/check-*.js): it refuses a
    # missing or unstripped addon and mismatched versions.
    (cd "$STAGE/npm/$platform" && npm pack --silent --pack-destination "$DIST" >/dev/null)
    (cd "$STAGE" && npm pack --silent --pack-destination "$DIST" >/dev/null)
    local f
    for f in "$DIST/fastspawn-$version.tgz" "$DIST/fastspawn-linux-x64-gnu-$version.tgz"; do
        if [ "$(stat -c %s "$f")" -gt "$MAX_NPM_BYTES" ]; then
            echo "dist: $f is over 3 MB" >&2
            exit 1
        fi
    done
}

pack_python() {
    # The wheel (abi3: one for CPython 3.9+) and the sdist, built by maturin
    # from a venv under target/ that also holds auditwheel (both from PyPI).
    # The wheel is release and stripped, tagged manylinux_2_34 (the oldest
    # tag this machine's glibc 2.36 build can claim: it uses GLIBC_2.34
    # symbols); maturin refuses to tag a wheel the tag does not fit, and
    # `auditwheel show` must agree.
    local venv=$TARGET_DIR/dist-venv py=bindings/python tag=manylinux_2_34
    if [ ! -x "$venv/bin/auditwheel" ] || [ ! -x "$venv/bin/maturin" ]; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q --disable-pip-version-check 'maturin==1.16.0' 'auditwheel==6.8.2'
    fi
    rm -f "$DIST"/fastspawn-*.whl "$DIST"/fastspawn-*.tar.gz
    (cd "$py" && CARGO_TARGET_DIR=$TARGET_DIR "$venv/bin/maturin" build --release --strip --locked \
        --compatibility "$tag" --out "$DIST" --quiet)
    (cd "$py" && "$venv/bin/maturin" sdist --out "$DIST" >/dev/null)
    local wheel=$DIST/fastspawn-$version-cp39-abi3-${tag}_x86_64.whl out
    [ -f "$wheel" ] || { echo "dist: maturin wrote no $wheel" >&2; exit 1; }
    [ -f "$DIST/fastspawn-$version.tar.gz" ] || { echo "dist: maturin wrote no sdist" >&2; exit 1; }
    out=$("$venv/bin/auditwheel" show "$wheel")
    case $out in
    *"consistent with"*"\"${tag}_x86_64\""*) ;;
    *)
        echo "dist: auditwheel does not accept $wheel as $tag:" >&2
        echo "$out" >&2
        exit 1
        ;;
    esac
    # Stripped: no debug sections left in the extension.
    local unpacked
    unpacked=$(mktemp -d "${TMPDIR:-/tmp}/fastspawn-wheel.XXXXXX")
    "$venv/bin/python" -m zipfile -e "$wheel" "$unpacked"
    if readelf -S --wide "$unpacked"/fastspawn/_fastspawn*.so | grep -q ' \.debug_'; then
        rm -rf "$unpacked"
        echo "dist: $wheel holds debug info" >&2
        exit 1
    fi
    rm -rf "$unpacked"
}

pack_crate
pack_npm
pack_python
echo "dist/:"
(cd "$DIST" && ls -l --block-size=K -- *"$version"*)
