"""Where the time of ``fastspawn.subprocess.Popen(args).wait()`` goes, step
by step, against the raw C clone loop of bench/peers, interleaved round by
round in one run (each row's ratio is the median of its per-round ratios to
that round's C loop).

Rows, each adding one layer to the one above:

- ``native spawn+wait``: the extension's ``spawn`` of a request encoded
  once before timing, then ``Child.wait()`` (the floor of the package);
- ``+ encode (_start)``: the request encoded per spawn, as ``Popen`` does;
- ``native spawn_args+wait``: ``Popen(args)``'s one native call (encoding,
  audit event, command, spawn) then ``Child.wait()``;
- ``fastspawn Popen + wait``: the whole call, as the ``python-fastspawn``
  peer makes it (``langs``): ``Popen(args)`` alone, one native call;
- ``fastspawn Popen(close_fds=True)``: the keyword fast path (the Python
  encoding of ``_start``, then the extension's ``spawn``);
- ``fastspawn Popen, slow path``: the same call through the standard
  library's ``__init__`` (what ``Popen`` did before its fast path);
- ``fastspawn run()``: one native call for spawn + wait;
- ``subprocess.Popen + wait``: the standard library.

Then the per-call cost of the Python steps without a spawn (timeit, best of
5): what the fast path skips.

  python bench/popen_steps.py [--rounds 9] [--n 300] [--peers target/peers]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import timeit

import fastspawn.subprocess as fs
from fastspawn import _fastspawn


def start_args(child):
    """``_start``'s arguments for ``Popen([child])`` with the defaults."""
    extras = (None, [], None, [], False, (False, False))
    return ([child], None, False, None, None, (-1, -1, -1), (), True, False, -1,
            None, None, None, -1, True, extras)  # fmt: skip


def encoded_request(child):
    """The request ``_start`` hands to the extension, encoded once."""
    seen = []

    def keep(request):
        seen.append(request)
        return None

    fs._start(keep, *start_args(child))
    return seen[0]


class SlowPopen(fs.Popen):
    """``fastspawn.subprocess.Popen`` with its fast path off."""

    def __init__(self, args, **kwargs):
        kwargs["bufsize"] = -1  # the default, but not a fast-path keyword
        super().__init__(args, **kwargs)


def c_loop(peers, child, n):
    out = subprocess.run([os.path.join(peers, "c-peer"), "--runner", "c-clone", "--mode", "wait",
                          "--n", str(n), "--warmup", "0", "--", child],
                         capture_output=True, check=True).stdout  # fmt: skip
    return json.loads(out)["total_ns"] / 1000 / n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--peers", default="target/peers")
    args = parser.parse_args()
    child = os.path.join(args.peers, "noop")
    request = encoded_request(child)
    sargs = start_args(child)

    def native():
        _fastspawn.spawn(request).wait()

    def encode():
        fs._start(_fastspawn.spawn, *sargs).wait()

    argv = [child]
    cells = {
        "native spawn+wait": native,
        "+ encode (_start)": encode,
        "native spawn_args+wait": lambda: _fastspawn.spawn_args(argv).wait(),
        "fastspawn Popen + wait": lambda: fs.Popen([child]).wait(),
        "fastspawn Popen(close_fds=True)": lambda: fs.Popen([child], close_fds=True).wait(),
        "fastspawn Popen, slow path": lambda: SlowPopen([child]).wait(),
        "fastspawn run()": lambda: fs.run([child]),
        "subprocess.Popen + wait": lambda: subprocess.Popen([child]).wait(),
    }
    for cell in cells.values():
        for _ in range(20):
            cell()
    c = []
    times = {name: [] for name in cells}
    for i in range(args.rounds):
        c.append(c_loop(args.peers, child, args.n))
        order = list(cells.items())
        if i % 2:
            order.reverse()
        for name, cell in order:
            t0 = time.perf_counter()
            for _ in range(args.n):
                cell()
            times[name].append((time.perf_counter() - t0) / args.n * 1e6)
    print(f"spawn+wait of noop: medians of {args.rounds} interleaved rounds of {args.n} "
          f"(load average {os.getloadavg()[0]:.2f})")  # fmt: skip
    print(f"  {'C clone loop (c-clone)':30} {statistics.median(c):7.1f} µs   1.00x")
    for name, values in times.items():
        ratio = statistics.median(v / base for v, base in zip(values, c))
        print(f"  {name:30} {statistics.median(values):7.1f} µs   {ratio:.2f}x")

    print("Python steps without a spawn, µs per call (timeit, best of 5):")

    def per_call(stmt):
        return min(timeit.repeat(stmt, number=20000, repeat=5)) / 20000 * 1e6

    def nothing(request):
        return None

    class NoSpawn(subprocess.Popen):
        def _execute_child(self, *ignored):
            self.pid = None

    class NoSpawnFast(fs.Popen):
        def _fs_fast_init(self, args, uid, **kwargs):
            self.__dict__.update(fs._FAST_INIT)

    finished = _fastspawn.spawn_args(argv)
    finished.wait()

    class NoSpawnOneCall(fs.Popen):
        def __init__(self, args):
            spawn_args = _fastspawn.spawn_args
            _fastspawn.spawn_args = lambda args: finished
            try:
                super().__init__(args)
            finally:
                _fastspawn.spawn_args = spawn_args

    class NoSpawnSlow(SlowPopen):
        def _execute_child(self, *ignored):
            self.pid = None

    probe = subprocess.Popen.__new__(subprocess.Popen)
    probe.text_mode = None
    steps = {
        "encode the request (_start)": lambda: fs._start(nothing, *sargs),
        "std Popen.__init__ argument handling": lambda: NoSpawn([child]),
        "  of which _get_handles": lambda: probe._get_handles(None, None, None),
        "  of which _close_pipe_fds": lambda: probe._close_pipe_fds(-1, -1, -1, -1, -1, -1),
        "fastspawn Popen.__init__, slow path": lambda: NoSpawnSlow([child]),
        "fastspawn Popen.__init__, keyword fast path": lambda: NoSpawnFast([child], close_fds=True),
        "fastspawn Popen.__init__, one call (spawn left out)": lambda: NoSpawnOneCall([child]),
    }
    for name, stmt in steps.items():
        print(f"  {name:40} {per_call(stmt):6.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
