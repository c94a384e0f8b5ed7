"""The pytest plugin: the `tactile` fixture, the `--tactile-bin` option, and the server's log
on a failed test's report.

    def test_tap_draws(tactile):
        t = tactile("weston-simple-touch", app_id="simple-touch")
        before = t.capture(window="simple-touch")
        t.tap(100, 100, window="simple-touch")
        ...

A missing tactile binary or app fails the test with the reason; nothing is skipped.
"""

import os
import shutil
from pathlib import Path

import pytest

from .session import Tactile

_started = pytest.StashKey[list]()


def pytest_addoption(parser):
    group = parser.getgroup("tactile", "touch apps under a headless Tactile")
    group.addoption("--tactile-bin", metavar="PATH", default=None,
                    help="the tactile executable (default: $TACTILE_BIN, else tactile on PATH)")


def tactile_binary(config):
    """The executable the option, the environment or PATH names; fails the test if none."""
    named = config.getoption("tactile_bin") or os.environ.get("TACTILE_BIN")
    if named:
        path = Path(named)
        if not (path.is_file() and os.access(path, os.X_OK)):
            source = "--tactile-bin" if config.getoption("tactile_bin") else "TACTILE_BIN"
            pytest.fail(f"{source} {named}: no executable there (build it: swift build --product tactile)", pytrace=False)
        return str(path.resolve())
    found = shutil.which("tactile")
    if not found:
        pytest.fail("no tactile executable: pass --tactile-bin PATH, set TACTILE_BIN, or put tactile on PATH",
                    pytrace=False)
    return found


@pytest.fixture
def tactile(request, tmp_path):
    """A factory: `tactile(*command, app_id=None, output_size=None, kiosk=False, trace=False,
    env=None, start_timeout=30)` starts a headless server on a socket of its own with
    `command` inside, waits for the app_id's window to map when given, and returns its
    `Tactile`. Every server the test started is ended after it."""
    binary = tactile_binary(request.config)
    started = request.node.stash.setdefault(_started, [])

    def start(*command, app_id=None, output_size=None, kiosk=False, trace=False, env=None, start_timeout=30.0):
        if len(command) == 1 and isinstance(command[0], (list, tuple)):
            command = tuple(command[0])
        if not command:
            raise ValueError("tactile(): name the app to run, e.g. tactile('weston-simple-touch')")
        if not shutil.which(command[0]):
            pytest.fail(f"{command[0]}: not installed or not on PATH (scripts/setup installs the apps the tests use)",
                        pytrace=False)
        server = Tactile(binary, [str(word) for word in command], app_id=app_id, output_size=output_size,
                         kiosk=kiosk, trace=trace, env=env, log_dir=tmp_path, start_timeout=start_timeout)
        started.append(server)
        return server.start()

    yield start
    for server in reversed(started):
        server.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    for server in item.stash.get(_started, []):
        state = "running" if server.running else f"ended, status {server.returncode}"
        report.sections.append((f"tactile serve on {server.socket} ({state}): the last lines of its log, {server.server_log}",
                                server.server_log_tail()))
