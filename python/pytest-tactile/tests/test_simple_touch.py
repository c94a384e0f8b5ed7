"""weston-simple-touch draws a small cross under every touch down and motion: what lands
where shows in a capture of its window."""

import pytest

from conftest import DATA, changed

APP = "simple-touch"


def near(x, y, r=6):
    return (x - r, y - r, x + r + 1, y + r + 1)


def drawn_at(before, points):
    """A capture condition: something was drawn near each of `points` since `before`."""
    return lambda shot: all(changed(before, shot, near(int(x), int(y))) > 0 for x, y in points)


def test_a_tap_draws_where_it_lands(simple_touch):
    before = simple_touch.capture(window=APP)
    simple_touch.tap(150, 120, window=APP)
    after = simple_touch.capture(window=APP, until=lambda shot: changed(before, shot, near(150, 120)) > 0)
    assert changed(before, after, near(150, 120)) > 0, "nothing was drawn under the tap"
    assert changed(before, after, near(400, 400)) == 0, "something was drawn far from the tap"


def test_the_last_touch_trace_names_its_hit_test_and_owner(simple_touch):
    simple_touch.tap(30, 40)
    simple_touch.tap(200, 100, window=APP)
    trace = simple_touch.last_touch_trace()
    assert trace[0].startswith("touch ") and " down at=200,100 " in trace[0], trace
    assert any(" hit-test " in line and "app_id=simple-touch" in line and "verdict=hit" in line for line in trace), trace
    owners = [line for line in trace if " owner " in line]
    assert len(owners) == 1 and "app_id=simple-touch" in owners[0] and "local=200,100" in owners[0], trace


def test_a_swipe_draws_along_its_path(simple_touch):
    before = simple_touch.capture(window=APP)
    simple_touch.swipe(100, 400, 500, 400, duration_ms=200, steps=8, window=APP)
    path = [(x, 400) for x in range(100, 501, 50)]
    after = simple_touch.capture(window=APP, until=drawn_at(before, path))
    for x, _ in path:
        assert changed(before, after, near(x, 400)) > 0, f"nothing drawn at ({x}, 400) of the swipe"


def test_a_pinch_draws_under_both_fingers(simple_touch):
    before = simple_touch.capture(window=APP)
    simple_touch.pinch(300, 250, 40, 120, duration_ms=200, steps=4, window=APP)
    fingers = [(x, 250) for x in (180, 260, 340, 420)]
    after = simple_touch.capture(window=APP, until=drawn_at(before, fingers))
    for x, _ in fingers:
        assert changed(before, after, near(x, 250)) > 0, f"nothing drawn at ({x}, 250) of the pinch"
    assert len([line for line in simple_touch.trace_lines if " down at=" in line]) == 2


def test_a_long_press_is_one_touch_held(simple_touch):
    simple_touch.long_press(300, 300, ms=500, window=APP)
    trace = simple_touch.last_touch_trace()
    assert any("owner" in line and "app_id=simple-touch" in line for line in trace), trace


def recorded_points(text):
    """The positions of a recorded script's downs and motions."""
    points = []
    for line in text.splitlines():
        words = line.split()
        if words and words[0].startswith("@"):
            words = words[1:]
        if words[:2] in (["touch", "down"], ["touch", "motion"]):
            points.append((float(words[3]), float(words[4])))
    return points


def test_a_recorded_swipe_replays_onto_the_window(simple_touch):
    path = DATA / "swipe-simple-touch.txt"
    assert path.read_text().startswith("# window simple-touch 600x500\n@0 touch down")
    before = simple_touch.capture(window=APP)
    simple_touch.replay(path, speed=2.0, window=APP, refuse_resized=True)
    points = recorded_points(path.read_text())
    after = simple_touch.capture(window=APP, until=drawn_at(before, points))
    assert len(points) == 11
    for x, y in points:
        assert changed(before, after, near(int(x), int(y))) > 0, f"nothing drawn at ({x}, {y}) of the recording"


def test_a_recording_made_on_a_smaller_window_is_scaled_or_refused(simple_touch, tmp_path):
    small = tmp_path / "half.txt"
    small.write_text("# window simple-touch 300x250\n"
                     "@0 touch down 1 50 60\n@0 touch frame\n@30000 touch up 1\n@30000 touch frame\n")
    with pytest.raises(AssertionError, match="recorded at 300x250"):
        simple_touch.replay(small, window=APP, refuse_resized=True)
    before = simple_touch.capture(window=APP)
    simple_touch.replay(small, window=APP)
    after = simple_touch.capture(window=APP, until=drawn_at(before, [(100, 120)]))
    assert changed(before, after, near(100, 120)) > 0, "the scaled tap did not land at (100, 120)"
    assert changed(before, after, near(50, 60)) == 0, "the tap landed unscaled"


def test_a_stroke_recorded_on_one_server_replays_on_another(tactile, tmp_path):
    first = tactile("weston-simple-touch", app_id=APP)
    path = tmp_path / "stroke.txt"
    with first.record(path, window=APP) as recording:
        first.swipe(100, 100, 400, 300, duration_ms=150, steps=6, window=APP)
    text = recording.text
    assert text.startswith("# window simple-touch 600x500\n"), text
    assert len([line for line in text.splitlines() if " touch motion " in line]) == 6, text

    second = tactile("weston-simple-touch", app_id=APP)
    before = second.capture(window=APP)
    second.replay(path, window=APP)
    after = second.capture(window=APP, until=drawn_at(before, recorded_points(text)))
    for x, y in recorded_points(text):
        assert changed(before, after, near(int(x), int(y))) > 0, f"nothing drawn at ({x}, {y}) on the second server"


def test_the_first_test_in_the_docs(tactile):
    # docs/testing-apps.md's first test, as written there.
    t = tactile("weston-simple-touch", app_id="simple-touch")   # headless server, app mapped
    before = t.capture(window="simple-touch")
    t.tap(150, 120, window="simple-touch")                      # the window's pixels
    after = t.capture(window="simple-touch",
                      until=lambda shot: shot.getpixel((150, 120)) != before.getpixel((150, 120)))
    assert after.getpixel((150, 120)) != before.getpixel((150, 120))
    owner = [line for line in t.last_touch_trace() if " owner " in line]
    assert "app_id=simple-touch" in owner[0]
