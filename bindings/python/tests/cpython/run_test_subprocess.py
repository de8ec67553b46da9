"""Runs CPython's own Lib/test/test_subprocess.py against fastspawn.subprocess.

The interpreter's ``test`` package is imported as is; before it is loaded,
``subprocess.Popen`` (which ``run``, ``call``, ``check_output``... and the
test helpers use) and the module-level functions are replaced by
fastspawn's. Every test runs except the few in ``EXCLUDED``, which check
CPython's private implementation rather than subprocess's behaviour; each
says why. Usage: python run_test_subprocess.py [-v] [unittest names...]
"""

import os
import subprocess
import sys
import unittest

import fastspawn.subprocess as fs

# Each of these replaces a private function CPython's Popen calls
# (_fork_exec, os.waitpid) with a mock and checks how Popen reacts; fastspawn's
# Popen never calls them, so the mock is never reached.
_MOCKS_FORK_EXEC = (
    "mocks subprocess._fork_exec (CPython's C spawner), which fastspawn does not call"
)
EXCLUDED = {
    "ProcessTestCase.test__use_vfork": _MOCKS_FORK_EXEC,
    "ProcessTestCaseNoPoll.test__use_vfork": _MOCKS_FORK_EXEC,
    "POSIXProcessTestCase.test__use_vfork": _MOCKS_FORK_EXEC,  # (where 3.13 has it)
    "POSIXProcessTestCase.test_exception_errpipe_normal": _MOCKS_FORK_EXEC,
    "POSIXProcessTestCase.test_exception_errpipe_bad_data": _MOCKS_FORK_EXEC,
    "POSIXProcessTestCase.test_stopped": (
        "mocks os.waitpid to report a stopped child; fastspawn reaps through the "
        "child's pidfd (waitid(P_PIDFD)), so the mocked status is never read"
    ),
}


def patch():
    # Only Popen: the standard library's run(), call(), check_output()... look
    # Popen up in their module, so they start fastspawn's, and the tests that
    # swap subprocess.Popen for a recording subclass still see theirs used.
    # (fastspawn's own run() & co. are checked side by side in tests/.)
    subprocess.Popen = fs.Popen


def load():
    import test.test_subprocess as t

    loader = unittest.TestLoader()
    suite = loader.loadTestsFromModule(t)
    kept = unittest.TestSuite()

    def walk(s):
        for item in s:
            if isinstance(item, unittest.TestSuite):
                walk(item)
                continue
            key = f"{type(item).__name__}.{item._testMethodName}"
            if key in EXCLUDED:
                print(f"excluded {key}: {EXCLUDED[key]}", file=sys.stderr)
                continue
            kept.addTest(item)

    walk(suite)
    return kept


def outside_venv():
    """Re-runs this script with the base interpreter when started from a
    venv: some of CPython's tests skip themselves in a venv. The package is
    found through PYTHONPATH."""
    if sys.prefix == sys.base_prefix or os.environ.get("FASTSPAWN_NO_REEXEC"):
        return
    base = getattr(sys, "_base_executable", None)
    if not base:
        return
    site = os.path.dirname(os.path.dirname(os.path.abspath(fs.__file__)))
    env = dict(os.environ, FASTSPAWN_NO_REEXEC="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [site, env.get("PYTHONPATH")]))
    os.execve(base, [base, os.path.abspath(__file__), *sys.argv[1:]], env)


def main():
    outside_venv()
    verbose = "-v" in sys.argv[1:]
    names = [a for a in sys.argv[1:] if a != "-v"]
    patch()
    if names:
        import test.test_subprocess  # noqa: F401

        suite = unittest.TestLoader().loadTestsFromNames(
            [f"test.test_subprocess.{n}" for n in names]
        )
    else:
        suite = load()
    result = unittest.TextTestRunner(verbosity=2 if verbose else 1).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
