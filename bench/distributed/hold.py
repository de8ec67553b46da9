"""Dask worker preload: make the worker hold data, as a real worker does.

Loaded with `dask worker --preload hold.py`; reads FASTSPAWN_BENCH_HOLD_MIB
and keeps that many MiB of written (so resident) memory for the worker's
lifetime. fork's cost grows with the pages a process has mapped, which is
what this stands for: the datasets, caches and results a Dask worker keeps.
"""

import os

_HELD = []


def dask_setup(worker):  # noqa: ARG001 (dask's preload hook signature)
    mib = int(os.environ.get("FASTSPAWN_BENCH_HOLD_MIB", "0"))
    if mib <= 0:
        return
    block = bytearray(mib << 20)
    # Write one byte per page, so every page is resident whatever the
    # allocator did (calloc'd mmap pages may still be untouched).
    view = memoryview(block)
    view[::4096] = b"\x01" * len(range(0, len(block), 4096))
    _HELD.append(block)
