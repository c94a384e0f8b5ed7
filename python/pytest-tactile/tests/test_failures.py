"""What a test using the fixture reports when something it needs is missing: a failure with
the reason, never a skip."""


def test_a_missing_binary_fails_the_test_with_the_reason(pytester):
    pytester.makepyfile("""
        def test_app(tactile):
            tactile("weston-simple-touch")
    """)
    result = pytester.runpytest("--tactile-bin", "/nonexistent/tactile")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*--tactile-bin /nonexistent/tactile: no executable there*"])


def test_no_binary_anywhere_fails_the_test_with_the_reason(pytester, monkeypatch):
    monkeypatch.delenv("TACTILE_BIN", raising=False)
    monkeypatch.setenv("PATH", str(pytester.path))
    pytester.makepyfile("""
        def test_app(tactile):
            tactile("weston-simple-touch")
    """)
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*no tactile executable: pass --tactile-bin PATH, set TACTILE_BIN*"])


def test_a_missing_app_fails_the_test_with_the_reason(pytester, request):
    pytester.makepyfile("""
        def test_app(tactile):
            tactile("no-such-touch-app", app_id="x")
    """)
    args = ["--tactile-bin", request.config.getoption("tactile_bin")] if request.config.getoption("tactile_bin") else []
    result = pytester.runpytest(*args)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*no-such-touch-app: not installed or not on PATH*"])


def test_a_failed_test_shows_the_server_log_and_a_wait_what_it_saw(pytester, request):
    pytester.makepyfile("""
        def test_app(tactile):
            t = tactile("weston-simple-touch", app_id="simple-touch")
            t.wait_for("titled app_id=simple-touch never so", timeout=0.5)
    """)
    args = ["--tactile-bin", request.config.getoption("tactile_bin")] if request.config.getoption("tactile_bin") else []
    result = pytester.runpytest(*args)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*AssertionError: waiting 0.5 s for `titled app_id=simple-touch never so` failed*",
        "*app_id=simple-touch title=\"simple-touch\"*",
        "*tactile serve on tactile-pytest-* (running): the last lines of its log*",
        "*started weston-simple-touch*",
    ])
    result.stdout.no_fnmatch_line("*not started by Tactile*")  # the plugin's own CLI runs
