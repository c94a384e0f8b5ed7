"""Chromium on Wayland (apps/touch_page.html): the page lists its touches and titles itself
"touches N at X,Y" with the page position of the last touchend."""

import time

from conftest import APPS

PAGE = APPS / "touch_page.html"


def chromium(tactile, tmp_path):
    """Chromium showing the page as an app window filling an 800x600 kiosk output. Its
    app_id is made from the page's URL: chrome-<path, / as _>-<profile>."""
    return tactile(
        "chromium",
        "--ozone-platform=wayland", "--no-sandbox",  # Wayland, and running as root in CI
        "--test-type",  # no "unsupported command-line flag" bar over the page
        "--no-first-run", f"--user-data-dir={tmp_path / 'chromium'}",
        f"--app={PAGE.as_uri()}",
        kiosk=True, output_size="800x600",
    )


def chromium_window(t, timeout=60):
    """The page's window, once Chromium has mapped it and the page is ready."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for window in t.windows():
            if window.app_id.startswith("chrome-") and window.app_id.endswith("touch_page.html-Default"):
                t.wait_for(f"mapped app_id={window.app_id}", timeout=30)
                t.wait_for(f"titled app_id={window.app_id} ready", timeout=30)
                return [w for w in t.windows() if w.app_id == window.app_id][0]
        time.sleep(0.2)
    raise AssertionError(f"no Chromium window for {PAGE.name} after {timeout} s; the scene:\n{t.scene()}")


def test_a_tap_reaches_the_page_where_it_lands(tactile, tmp_path):
    t = chromium(tactile, tmp_path)
    window = chromium_window(t)
    expected = "chrome-" + ("_" + str(PAGE)).replace("/", "_") + "-Default"
    assert window.app_id == expected, t.scene()
    assert (window.x, window.y, window.geometry[2:]) == (0, 0, (800, 600)), window

    t.tap(300, 200, window=window.app_id)
    t.wait_for(f"titled app_id={window.app_id} touches 1 at 300,200")

    owner = [line for line in t.last_touch_trace() if " owner " in line]
    assert owner and f"app_id={window.app_id}" in owner[0], t.last_touch_trace()


def test_a_swipe_ends_where_the_finger_lifts(tactile, tmp_path):
    t = chromium(tactile, tmp_path)
    app_id = chromium_window(t).app_id
    t.swipe(100, 100, 500, 400, duration_ms=200, steps=8, window=app_id)
    t.wait_for(f"titled app_id={app_id} touches 1 at 500,400")
