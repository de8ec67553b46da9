#!/usr/bin/env bash
# dist.sh - `make dist`: the artefacts a user installs, in dist/:
#   fastspawn-<v>.crate                the crate (cargo package: what cargo publish uploads)
#   fastspawn-<v>.tgz                  the npm package (JavaScript; its addon comes from:)
#   fastspawn-linux-x64-gnu-<v>.tgz    @fastspawn/linux-x64-gnu, the prebuilt addon
#                                      (profile `dist`: release, stripped)
#   (the Python wheel and sdist: see pack_python below)
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
    # Hook for the Python package: once bindings/python exists, build its
    # wheel (release, stripped, checked with auditwheel) and sdist into dist/
    # here, e.g. `make -C bindings/python dist DIST=$DIST`.
    if [ -f bindings/python/Makefile ] && grep -q '^dist:' bindings/python/Makefile; then
        make -C bindings/python dist DIST="$DIST" CARGO="$CARGO"
    else
        echo "dist: no Python package yet (bindings/python): no wheel"
    fi
}

pack_crate
pack_npm
pack_python
echo "dist/:"
(cd "$DIST" && ls -l --block-size=K -- *"$version"*)
