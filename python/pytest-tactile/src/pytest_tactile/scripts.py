"""Touch gestures written as `tactile inject` scripts.

Pure text, no server: each function returns the lines `tactile inject` reads, one event a
line, every event after the first of a frame at the `@T` time (microseconds since the
script's start) it is to be sent at, so the app sees the gesture's real spacing. Positions
are whatever the inject run makes of them: global output pixels, or the window's with
`--window`.
"""

import math


def number(value):
    """A coordinate as the server writes one: at most three decimals, no trailing zeros."""
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _frame(time_us, events):
    """One frame: its events at `time_us`, then `touch frame`."""
    lines = [f"@{int(time_us)} {events[0]}"] + list(events[1:])
    return lines + ["touch frame"]


def _times(duration_ms, steps):
    """`steps` times, evenly spread over the gesture after its start, the last at its end."""
    if steps < 1:
        raise ValueError(f"steps={steps}: a moving gesture needs at least one step")
    if duration_ms < 0:
        raise ValueError(f"duration_ms={duration_ms}: expected 0 or more")
    return [round(duration_ms * 1000 * i / steps) for i in range(1, steps + 1)]


def tap(x, y, touch_id=1, duration_ms=40):
    """Down at (x, y) and up `duration_ms` later, without moving."""
    at = f"{number(x)} {number(y)}"
    return "\n".join(_frame(0, [f"touch down {touch_id} {at}"]) +
                     _frame(duration_ms * 1000, [f"touch up {touch_id}"])) + "\n"


def long_press(x, y, ms=800, touch_id=1):
    """Down at (x, y), held still for `ms`, then up."""
    return tap(x, y, touch_id=touch_id, duration_ms=ms)


def swipe(x0, y0, x1, y1, duration_ms=300, steps=10, touch_id=1):
    """One finger from (x0, y0) to (x1, y1) in `steps` motions over `duration_ms`, then up."""
    lines = _frame(0, [f"touch down {touch_id} {number(x0)} {number(y0)}"])
    for i, t in enumerate(_times(duration_ms, steps), start=1):
        x = x0 + (x1 - x0) * i / steps
        y = y0 + (y1 - y0) * i / steps
        lines += _frame(t, [f"touch motion {touch_id} {number(x)} {number(y)}"])
    lines += _frame(duration_ms * 1000, [f"touch up {touch_id}"])
    return "\n".join(lines) + "\n"


def pinch(cx, cy, r0, r1, duration_ms=300, steps=10, angle=0.0, touch_ids=(1, 2)):
    """Two fingers on opposite sides of (cx, cy), on a line at `angle` degrees, moving from
    `r0` to `r1` pixels from the centre (r1 > r0 spreads: zoom in; r1 < r0 pinches)."""
    dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    def fingers(verb, r):
        return [f"touch {verb} {touch_ids[0]} {number(cx + dx * r)} {number(cy + dy * r)}",
                f"touch {verb} {touch_ids[1]} {number(cx - dx * r)} {number(cy - dy * r)}"]

    lines = _frame(0, fingers("down", r0))
    for i, t in enumerate(_times(duration_ms, steps), start=1):
        lines += _frame(t, fingers("motion", r0 + (r1 - r0) * i / steps))
    lines += _frame(duration_ms * 1000, [f"touch up {touch_ids[0]}", f"touch up {touch_ids[1]}"])
    return "\n".join(lines) + "\n"
