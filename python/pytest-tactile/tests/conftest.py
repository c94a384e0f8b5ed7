"""Shared paths for the plugin's own tests (the plugin itself comes from its entry point:
install the package first, see README.md)."""

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

HERE = Path(__file__).resolve().parent
APPS = HERE / "apps"
DATA = HERE / "data"


def changed(before, after, box, threshold=30):
    """How many pixels in `box` (left, top, right, bottom) differ by more than `threshold`
    in some channel between two pictures of the same size."""
    a = before.convert("RGB").crop(box)
    b = after.convert("RGB").crop(box)
    return sum(1 for p, q in zip(a.getdata(), b.getdata()) if max(abs(x - y) for x, y in zip(p, q)) > threshold)


@pytest.fixture
def simple_touch(tactile):
    """weston-simple-touch (600x500, a cross drawn under every down and motion) at the
    output's top-left."""
    return tactile("weston-simple-touch", app_id="simple-touch")
