"""The gesture scripts, as text: no server needed."""

from pytest_tactile import scripts


def test_tap_is_a_down_and_an_up_in_frames_at_times():
    assert scripts.tap(10, 20.5) == (
        "@0 touch down 1 10 20.5\ntouch frame\n"
        "@40000 touch up 1\ntouch frame\n")


def test_long_press_holds_for_its_milliseconds():
    assert scripts.long_press(1, 2, ms=900).splitlines()[2] == "@900000 touch up 1"


def test_swipe_moves_in_even_steps_and_lifts_at_its_end():
    lines = scripts.swipe(0, 0, 100, 50, duration_ms=200, steps=4).splitlines()
    assert lines[0] == "@0 touch down 1 0 0"
    motions = [line for line in lines if " motion " in line]
    assert motions == ["@50000 touch motion 1 25 12.5", "@100000 touch motion 1 50 25",
                       "@150000 touch motion 1 75 37.5", "@200000 touch motion 1 100 50"]
    assert lines[-2:] == ["@200000 touch up 1", "touch frame"]
    assert lines.count("touch frame") == 6


def test_pinch_puts_two_fingers_opposite_and_moves_them_apart():
    lines = scripts.pinch(100, 100, 10, 40, duration_ms=100, steps=2).splitlines()
    assert lines[:3] == ["@0 touch down 1 110 100", "touch down 2 90 100", "touch frame"]
    assert lines[-6:] == ["@100000 touch motion 1 140 100", "touch motion 2 60 100", "touch frame",
                          "@100000 touch up 1", "touch up 2", "touch frame"]


def test_numbers_are_written_as_the_server_writes_them():
    assert [scripts.number(v) for v in (3, 2.5, 1 / 3, -0.0001)] == ["3", "2.5", "0.333", "0"]
