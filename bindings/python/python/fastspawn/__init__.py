"""fastspawn: start processes without fork.

- ``fastspawn.subprocess``: the standard library's ``subprocess`` API, with
  every child (also with ``user=``, ``group=``, ``extra_groups=``) started on
  the vfork path with the GIL released, and ``pdeathsig``, ``rlimits``,
  ``cgroup``, ``fds`` and ``require_vfork`` in place of ``preexec_fn``.
- ``fastspawn.asyncio``: ``create_subprocess_exec`` and
  ``create_subprocess_shell``; the spawn runs on fastspawn's spawner threads
  and exits arrive through pidfds watched by the event loop.
"""

from ._fastspawn import Child, spawn

__all__ = ["Child", "spawn"]
