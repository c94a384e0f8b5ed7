"""A GTK 4 app (apps/gtk4_button.py): a tap on its button is a click, which retitles the
window and relabels the button."""

from conftest import APPS, changed

APP = "org.tactile.TestButton"
# GTK 4 renders in software here with cairo; no session bus or accessibility bus is needed.
GTK_ENV = {"GSK_RENDERER": "cairo", "GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"}


def test_a_tap_on_the_button_clicks_it(tactile):
    t = tactile("/usr/bin/python3", APPS / "gtk4_button.py", app_id=APP, env=GTK_ENV)
    t.wait_for(f"titled app_id={APP} not tapped")
    (window,) = [w for w in t.windows() if w.app_id == APP]
    gx, gy, width, height = window.geometry  # the window within its surface (shadows around it)
    assert (width, height) == (400, 300), window
    # The button fills the window under its header bar; its label is in the middle.
    label = (gx + width // 4, gy + height // 3, gx + 3 * width // 4, gy + 5 * height // 6)
    before = t.capture(window=APP)

    t.tap(width / 2, height / 2, window=APP)
    t.wait_for(f"titled app_id={APP} tapped 1")

    after = t.capture(window=APP, until=lambda shot: changed(before, shot, label) > 20)
    assert after.size == before.size == (window.width, window.height)
    assert changed(before, after, label) > 20, "the button's label did not change in the capture"
    owner = [line for line in t.last_touch_trace() if " owner " in line]
    assert owner and f"app_id={APP}" in owner[0], t.last_touch_trace()


def test_each_tap_counts(tactile):
    t = tactile("/usr/bin/python3", APPS / "gtk4_button.py", app_id=APP, env=GTK_ENV)
    for n in (1, 2, 3):
        t.tap(200, 150, window=APP)
        t.wait_for(f"titled app_id={APP} tapped {n}")
