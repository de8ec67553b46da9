#!/usr/bin/env bash
# check.sh - smoke test of the bench peers (docs/peer-protocol.md).
#
# Builds every peer into a temporary OUT, then for every runner of every peer:
# --mode wait / --mode spawn with --n 20 on the static noop child, the
# --extra-fds 2 / --set-env / --rss-mib 64 / --samples variants, a child that
# checks it really got fds 3 and 4 and FASTSPAWN_BENCH=1, /bin/true once per
# peer, a missing child (exit 1, message naming the runner), usage errors
# (exit 2), and, when strace works here, that CHILD is exec'd exactly
# warmup + n times. Each run goes through a small Python wrapper that is a
# child subreaper: a peer that leaves a child unreaped fails its check.
# Prints "N passed, N failed" last; exits non-zero on any failure.
#
# Usage: bench/peers/check.sh   (KEEP_OUT=1 keeps the temporary OUT)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/fastspawn-peers.XXXXXX")
[ "${KEEP_OUT:-0}" = 1 ] || trap 'rm -rf "$OUT"' EXIT
# Start from a clean fd table so that the fd checks below mean something.
for fd in 3 4 5 6 7 8 9; do eval "exec $fd>&-"; done

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# The wrapper: python3 -c "$RUN" KIND RUNNER MODE N SAMPLES -- PEER ARGS...
# KIND is ok (JSON line checked), error (exit 1 naming RUNNER) or usage (exit 2).
RUN='
import ctypes, json, os, subprocess, sys
kind, runner, mode, n, samples = sys.argv[1:6]
cmd = sys.argv[7:]
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
try:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
except subprocess.TimeoutExpired:
    sys.exit("timed out")
orphans = 0
while True:
    try:
        os.waitpid(-1, 0)
        orphans += 1
    except ChildProcessError:
        break
def bad(why):
    sys.exit(f"{why}\n  rc={p.returncode}\n  stdout={p.stdout[:300]!r}\n  stderr={p.stderr[:300]!r}")
if orphans:
    bad(f"{orphans} child(ren) of the peer left unreaped")
if kind == "error":
    if p.returncode != 1 or p.stdout or runner not in p.stderr:
        bad("expected exit 1, no stdout, a message naming " + runner)
    sys.exit(0)
if kind == "usage":
    if p.returncode != 2 or p.stdout or not p.stderr.strip():
        bad("expected exit 2 with usage on stderr")
    sys.exit(0)
if p.returncode != 0:
    bad("peer failed")
lines = p.stdout.splitlines()
if len(lines) != 1:
    bad("expected exactly one line on stdout")
try:
    d = json.loads(lines[0])
except ValueError as e:
    bad(f"invalid JSON: {e}")
want = {"runner": runner, "mode": mode, "n": int(n)}
for k, v in want.items():
    if d.get(k) != v:
        bad(f"{k} is {d.get(k)!r}, expected {v!r}")
if not (type(d.get("total_ns")) is int and d["total_ns"] > 0):
    bad("total_ns must be a positive integer")
for k in ("cpu_user_ns", "cpu_sys_ns"):
    if not (type(d.get(k)) is int and d[k] >= 0):
        bad(f"{k} must be a non-negative integer")
if samples == "1":
    s = d.get("samples_ns")
    if not (isinstance(s, list) and len(s) == int(n) and all(type(x) is int and x > 0 for x in s)):
        bad("samples_ns must hold n positive integers")
elif "samples_ns" in d:
    bad("samples_ns present without --samples")
'

# check KIND PEER RUNNER MODE N [PEER_OPTS...] -- CHILD...
check() {
	local kind=$1 peer=$2 runner=$3 mode=$4 n=$5 samples=0 a msg
	shift 5
	for a in "$@"; do [ "$a" = --samples ] && samples=1; [ "$a" = -- ] && break; done
	if msg=$(python3 -c "$RUN" "$kind" "$runner" "$mode" "$n" "$samples" -- \
		"$OUT/$peer" --runner "$runner" --mode "$mode" --n "$n" "$@" 2>&1); then
		pass
	else
		fail "$peer --runner $runner --mode $mode --n $n $*: $msg"
	fi
}

echo "building the peers into $OUT"
if ! make -s -C "$HERE" OUT="$OUT" >"$OUT/build.log" 2>&1; then
	cat "$OUT/build.log"
	fail "make -C bench/peers OUT=$OUT"
	echo "$passed passed, $failed failed"
	exit 1
fi
pass
CHILD=$OUT/noop
MISSING=$OUT/does-not-exist
# A child that exits 0 only if it got fds 3 and 4 (and not 5) and the variable.
FDCHECK=(/bin/sh -c 'for f in 3 4; do [ -e /proc/$$/fd/$f ] || exit 3; done
[ ! -e /proc/$$/fd/5 ] || exit 4; [ "$FASTSPAWN_BENCH" = 1 ] || exit 5')

if strace -f -qq -o /dev/null /bin/true 2>/dev/null; then have_strace=1; else
	have_strace=0; echo "note: strace unusable here, exec counts not checked"; fi

# exec-count PEER RUNNER MODE [OPTS]: CHILD must be exec'd warmup + n times.
exec_count() {
	local peer=$1 runner=$2 mode=$3 got
	shift 3
	[ "$have_strace" = 1 ] || return 0
	if ! strace -f -qq -e trace=execve -e signal=none -o "$OUT/trace" \
		"$OUT/$peer" --runner "$runner" --mode "$mode" --n 5 --warmup 2 "$@" -- "$CHILD" >/dev/null 2>"$OUT/err"; then
		fail "$runner $mode under strace: $(cat "$OUT/err")"
		return
	fi
	got=$(grep -c "execve(\"$CHILD\"" "$OUT/trace")
	if [ "$got" = 7 ]; then pass; else fail "$runner $mode: CHILD exec'd $got times under strace, expected 7"; fi
}

# exec_runner PEER RUNNER [OPTS]: the full set for a runner that execs CHILD.
exec_runner() {
	local peer=$1 runner=$2 mode
	shift 2
	for mode in wait spawn; do
		check ok "$peer" "$runner" "$mode" 20 "$@" -- "$CHILD"
		check ok "$peer" "$runner" "$mode" 20 "$@" --extra-fds 2 -- "$CHILD"
		check ok "$peer" "$runner" "$mode" 20 "$@" --set-env -- "$CHILD"
		check ok "$peer" "$runner" "$mode" 20 "$@" --samples -- "$CHILD"
		check ok "$peer" "$runner" "$mode" 5 "$@" --warmup 0 --extra-fds 2 --set-env -- "${FDCHECK[@]}"
		check error "$peer" "$runner" "$mode" 5 "$@" --warmup 0 -- "$MISSING"
		exec_count "$peer" "$runner" "$mode" "$@"
	done
	check ok "$peer" "$runner" wait 20 "$@" --rss-mib 64 -- "$CHILD"
	check error "$peer" "$runner" wait 5 "$@" -- "$MISSING"
}

usage_checks() {
	local peer=$1 runner=$2
	check usage "$peer" no-such-runner wait 5 -- "$CHILD"
	check usage "$peer" "$runner" wait 5 --no-such-option -- "$CHILD"
	check usage "$peer" "$runner" sometimes 5 -- "$CHILD"
	check usage "$peer" "$runner" wait 5 # no CHILD
}

echo "c-peer"
for r in c-fork c-vfork c-clone c-posix-spawn c-posix-spawn-usevfork c-clone3 c-clone3-same-work; do
	exec_runner c-peer "$r"
done
# c-clone3-same-work's child closes an inherited fd (not close-on-exec),
# as fastspawn's does; c-clone3's keeps it. Run directly: the wrapper's
# subprocess would close the fd before the peer starts.
if "$OUT/c-peer" --runner c-clone3 --mode wait --n 2 --warmup 0 -- /bin/sh -c '[ -e /proc/$$/fd/7 ]' 7</dev/null >/dev/null &&
	"$OUT/c-peer" --runner c-clone3-same-work --mode wait --n 2 --warmup 0 -- /bin/sh -c '[ ! -e /proc/$$/fd/7 ]' 7</dev/null >/dev/null; then
	pass
else
	fail "c-clone3 must keep an inherited fd 7 and c-clone3-same-work close it"
fi
# c-clone3-contained needs a cgroup v2 directory it may write.
if msg=$("$OUT/c-peer" --runner c-clone3-contained --mode wait --n 1 --warmup 0 -- "$CHILD" 2>&1); then
	exec_runner c-peer c-clone3-contained
	exec_runner c-peer c-clone3-contained-reads
	# Its child runs in the cgroup the peer made, which is gone afterwards.
	if got=$("$OUT/c-peer" --runner c-clone3-contained --mode wait --n 1 --warmup 0 -- /bin/cat /proc/self/cgroup) &&
		cg=$(printf '%s\n' "$got" | sed -n 's/^0::\(.*\/c-peer-[0-9]*\)$/\1/p') && [ -n "$cg" ] &&
		mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts) && [ ! -e "$mnt$cg" ]; then
		pass
	else
		fail "c-clone3-contained: the child's cgroup (${cg:-none} in: $got) is not the peer's own, or is left behind"
	fi
	check error c-peer c-clone3-contained wait 1 --cgroup-parent /nonexistent -- "$CHILD"
	# A run that fails (here: the child cannot be exec'd) removes its
	# cgroup too: none is left under the parent the peer picked.
	mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	for r in c-clone3-contained c-clone3-contained-reads; do
		for mode in wait spawn; do
			before=$(find "$mnt$own" -maxdepth 1 -name 'c-peer-*' | wc -l)
			"$OUT/c-peer" --runner "$r" --mode "$mode" --n 3 --warmup 0 -- "$MISSING" >/dev/null 2>&1
			after=$(find "$mnt$own" -maxdepth 1 -name 'c-peer-*' | wc -l)
			if [ "$after" -le "$before" ]; then
				pass
			else
				fail "$r --mode $mode: a failed run left its cgroup under $mnt$own ($before c-peer-* before, $after after)"
			fi
		done
	done
else
	echo "note: c-clone3-contained not checked: no writable cgroup v2 here ($msg)"
fi
check usage c-peer c-clone wait 5 --cgroup-parent /tmp -- "$CHILD"
for r in c-fork-exit c-vfork-exit c-clone-exit; do
	for mode in wait spawn; do
		check ok c-peer "$r" "$mode" 20 -- "$CHILD"
		check ok c-peer "$r" "$mode" 20 --samples
	done
	check ok c-peer "$r" wait 20 --rss-mib 64 -- "$CHILD"
done
check ok c-peer c-vfork wait 20 -- /bin/true
check usage c-peer c-vfork wait 5 --async-mode current -- "$CHILD"
usage_checks c-peer c-fork

echo "go-peer"
exec_runner go-peer go-os-exec
check ok go-peer go-os-exec wait 20 -- /bin/true
usage_checks go-peer go-os-exec

echo "python-peer"
exec_runner python-peer python-popen
check ok python-peer python-popen wait 20 -- /bin/true
usage_checks python-peer python-popen
# python-run: one subprocess.run() per spawn+wait, so wait mode only.
check ok python-peer python-run wait 20 -- "$CHILD"
check ok python-peer python-run wait 5 --warmup 0 --extra-fds 2 --set-env -- "${FDCHECK[@]}"
check error python-peer python-run wait 5 --warmup 0 -- "$MISSING"
check usage python-peer python-run spawn 5 -- "$CHILD"

echo "node-peer"
exec_runner node-peer node-spawn
check ok node-peer node-spawn wait 20 -- /bin/true
usage_checks node-peer node-spawn

echo "rust-peer"
for r in rust-std rust-std-pre-exec rust-command-fds rust-tokio; do
	exec_runner rust-peer "$r"
done
for am in current current-blocking multi-2 multi-4 multi-8; do
	exec_runner rust-peer rust-tokio --async-mode "$am"
done
check ok rust-peer rust-std wait 20 -- /bin/true
check usage rust-peer rust-std wait 5 --async-mode current -- "$CHILD"
check usage rust-peer rust-tokio wait 5 --async-mode multi-0 -- "$CHILD"
usage_checks rust-peer rust-std
for r in fastspawn-auto fastspawn-clone3 fastspawn-clone-vfork fastspawn-posix-spawn fastspawn-fork; do
	exec_runner rust-peer "$r"
done
check ok rust-peer fastspawn-auto wait 20 --with-options --extra-fds 2 -- "$CHILD"
for am in current current-blocking multi-2 multi-4 multi-8; do
	for mode in wait spawn; do
		check ok rust-peer fastspawn-auto "$mode" 20 --async-mode "$am" -- "$CHILD"
	done
done
check ok rust-peer fastspawn-auto spawn 20 --async-mode current --measure-stall -- "$CHILD"
check ok rust-peer rust-tokio spawn 20 --async-mode current --measure-stall -- "$CHILD"
check error rust-peer fastspawn-auto wait 5 --async-mode current -- "$MISSING"
for threads in 1 2 4; do
	check ok rust-peer fastspawn-pool spawn 40 --pool-threads "$threads" -- "$CHILD"
done
check error rust-peer fastspawn-pool spawn 5 -- "$MISSING"
# Process trees and the task loop (the tree and task-runtime experiments).
check ok rust-peer rust-tokio tasks 20 -- "$CHILD"
check ok rust-peer fastspawn-auto tasks 20 --concurrency 4 -- "$CHILD"
check ok rust-peer fastspawn-auto tasks 20 --measure-stall -- "$CHILD"
check error rust-peer fastspawn-auto tasks 5 -- "$MISSING"
check error rust-peer rust-tokio tasks 5 -- "$MISSING"
check usage rust-peer rust-std tasks 5 -- "$CHILD"
check usage rust-peer fastspawn-auto kill-tree 2 -- "$CHILD"
if "$OUT/rust-peer" --runner fastspawn-contained --mode wait --n 1 -- "$CHILD" >/dev/null 2>"$OUT/err"; then
	# The tree of the tree experiment (sleep 297 here, to find leftovers):
	# two grandchildren leave the shell's process group.
	TREE='sleep 297 >/dev/null &
setsid sh -c '"'"'echo escaped; exec sleep 297 >/dev/null'"'"' &
sh -c "setsid sh -c '"'"'echo escaped; exec sleep 297 >/dev/null'"'"' &"
exec >/dev/null
wait'
	check ok rust-peer fastspawn-contained wait 20 -- "$CHILD"
	check ok rust-peer fastspawn-contained tasks 20 -- "$CHILD"
	# Not through `check`: its subreaper would inherit (and count) the
	# daemonized grandchildren that the kills reap through init elsewhere.
	out=$("$OUT/rust-peer" --runner fastspawn-contained --mode kill-group --n 2 --warmup 1 -- /bin/sh -c "$TREE")
	if [[ $out == *'"tree_procs":8,"escaped":4}'* ]]; then pass; else
		fail "kill-group of two trees should count 8 processes, 4 left running: $out"; fi
	out=$("$OUT/rust-peer" --runner fastspawn-contained --mode kill-tree --n 2 --warmup 0 -- /bin/sh -c "$TREE")
	if [[ $out == *'"tree_procs":8,"escaped":0}'* ]]; then pass; else
		fail "kill-tree of two trees should count 8 processes, none left: $out"; fi
	sleep 0.2
	if pgrep -f 'sleep 297' >/dev/null; then
		fail "the kill modes left processes behind: $(pgrep -af 'sleep 297')"; else pass; fi
else
	echo "note: contained spawns fail here, fastspawn-contained not checked: $(cat "$OUT/err")"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
