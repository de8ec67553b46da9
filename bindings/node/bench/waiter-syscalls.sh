#!/bin/bash
# The waiter thread's system calls per request of a package server under
# load: the server (bench/http/node/fastspawn-tuned.mjs, or baseline.mjs
# with SERVER=baseline) run from the package copy PKG (its JS and its own
# fastspawn.node), warmed up by `hey -c C -n 1000`, then each system call
# of the thread named fastspawn-waiter counted by its tracepoint
# (`perf stat -e syscalls:sys_enter_* -t TID`) during `hey -c C -n N`.
# Not a test: it prints req/s and the counts per request.
#
#   bench/waiter-syscalls.sh PKG [PORT] [N]     (C=30, WORKLOAD=echo by default)
set -eu
PKG=$(cd "$1" && pwd); PORT=${2:-8411}; N=${3:-5000}; C=${C:-30}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SERVER=${SERVER:-fastspawn-tuned}
OUT=$(mktemp)
FASTSPAWN_NODE_ADDON=$PKG/fastspawn.node node "$ROOT/bench/http/node/$SERVER.mjs" --port "$PORT" \
  --workload "${WORKLOAD:-echo}" --main-c "$ROOT/bench/http/main.c" --spawn-module "$PKG" >/dev/null 2>&1 &
SRV=$!
trap 'kill $SRV 2>/dev/null; rm -f "$OUT"' EXIT
for _ in $(seq 100); do curl -s "127.0.0.1:$PORT/" >/dev/null 2>&1 && break; sleep 0.1; done
hey -c "$C" -n 1000 "http://127.0.0.1:$PORT/" >/dev/null
W=$(for t in /proc/$SRV/task/*; do [ "$(cat "$t/comm")" = fastspawn-waite ] && basename "$t"; done | head -1)
perf stat -x, -o "$OUT" -t "$W" -e syscalls:sys_enter_epoll_pwait,syscalls:sys_enter_waitid,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_close,syscalls:sys_enter_read &
P=$!
sleep 0.3
hey -c "$C" -n "$N" "http://127.0.0.1:$PORT/" | grep -E "Requests/sec"
kill -INT $P; wait $P || true
awk -F, -v n="$N" '/sys_enter/ {sub("syscalls:sys_enter_", "", $3); printf "%s %.2f  ", $3, $1/n} END {print "per request"}' "$OUT"
