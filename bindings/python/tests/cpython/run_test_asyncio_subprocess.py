"""Runs CPython's test.test_asyncio.test_subprocess against fastspawn.asyncio.

``asyncio.create_subprocess_exec``/``_shell`` (and their aliases in
``asyncio.subprocess``, which the tests also call) are replaced by
fastspawn's before the tests load. Tests of asyncio's lower layers, which
fastspawn does not replace (the transport and protocol API of
``loop.subprocess_exec``, child watchers), are skipped with the reason
printed; ``EXCLUDED`` lists the others that do not apply, each with its
reason. Usage: python run_test_asyncio_subprocess.py [-v] [names...]
"""

import asyncio
import asyncio.subprocess
import sys
import unittest

import fastspawn.asyncio as fa

_LOW_LEVEL = (
    "uses loop.subprocess_exec (asyncio's transport/protocol API), which fastspawn.asyncio "
    "does not replace"
)
_MOCKS_POPEN = "mocks subprocess.Popen, which fastspawn.asyncio does not use"
EXCLUDED_TESTS = {
    "test_cancel_post_init": _LOW_LEVEL,
    "test_close_kill_running": _LOW_LEVEL,
    "test_close_dont_kill_finished": _LOW_LEVEL,
    "test_popen_error": _MOCKS_POPEN,
    "test_popen_error_with_stdin_pipe": _MOCKS_POPEN,
    "test_create_subprocess_fails_with_inactive_watcher": (
        "checks that asyncio refuses to spawn without an active child watcher; "
        "fastspawn.asyncio needs none"
    ),
}
EXCLUDED_CLASSES = {
    "SubprocessTransportTests": "tests asyncio's BaseSubprocessTransport itself",
    "SubprocessFastWatcherTests": (
        "installs FastChildWatcher, which reaps every child of the process with waitpid(-1), "
        "fastspawn's included, so their exit codes are lost (asyncio deprecated it in 3.12 "
        "for that reason)"
    ),
}


def patch():
    for module in (asyncio, asyncio.subprocess):
        module.create_subprocess_exec = fa.create_subprocess_exec
        module.create_subprocess_shell = fa.create_subprocess_shell


def keep(test):
    cls, name = type(test).__name__, test._testMethodName
    why = EXCLUDED_CLASSES.get(cls) or EXCLUDED_TESTS.get(name)
    if why:
        print(f"excluded {cls}.{name}: {why}", file=sys.stderr)
    return not why


def flatten(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from flatten(item)
        else:
            yield item


def main():
    verbose = "-v" in sys.argv[1:]
    names = [a for a in sys.argv[1:] if a != "-v"]
    patch()
    # The state every asyncio test leaves behind it (its tearDown sets the
    # loop to None), which 3.12's test_create_subprocess_with_pidfd counts
    # on: run first, it fails with the standard library too.
    asyncio.set_event_loop(None)
    import test.test_asyncio.test_subprocess as t

    loader = unittest.TestLoader()
    if names:
        suite = loader.loadTestsFromNames([f"{t.__name__}.{n}" for n in names])
    else:
        suite = unittest.TestSuite(filter(keep, flatten(loader.loadTestsFromModule(t))))
    result = unittest.TextTestRunner(verbosity=2 if verbose else 1).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
