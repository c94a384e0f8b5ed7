#!/usr/bin/python3
"""Screens that sleep and wake by touch: runs inside the QEMU guest (scripts/guest/run), as
root.

`tactile serve --backend drm --kiosk --config idle.yaml -- weston-simple-touch` on
bochs-drm's screen, with `idle: timeout: 15` (long enough that a loaded machine takes its awake readings before it): the connector's DPMS state (sysfs) and QEMU's
screendump are taken awake, asleep after the timeout, after a uinput tap woke the screen,
and after a second tap. With `wake: swallow` simple-touch's WAYLAND_DEBUG log must show no
down for the waking tap, and the second's; a second run with `wake: deliver` delivers the
waking tap. Then a kiosk's day (`session: reset-after: 8, warning: 8`): a tap uses the
session; the warning is dumped once it shades the app, a tap dismisses it (simple-touch must
hear no down for it), and nobody comes again until simple-touch is started over.
Everything goes to OUTDIR, where IdleGuestTests (on the host) reads and checks it.

Usage: idle.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import signal
import subprocess
import sys
import time

from guest_input import Journal, Touchscreen, eventually, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]
DPMS = "/sys/class/drm/card0-Virtual-1/dpms"
# The raw reading (of 0...4095) under the layout's (200, 150) on the 1280x800 screen.
TAP = (640, 768)

GREY, RED = 0x585858, 0xFF0000  # simple-touch's window, and the cross it draws

journal = Journal(OUT)
log, screendump_when = journal.log, journal.screendump_when


def dpms():
    with open(DPMS) as f:
        return f.read().strip()


def run(wake, touch):
    """One kiosk with `idle: {timeout: 15, wake: WAKE}`: awake, asleep, woken by a tap, tapped."""
    config = os.path.join(OUT, f"idle-{wake}.yaml")
    with open(config, "w") as f:
        f.write(f"idle:\n  timeout: 15\n  wake: {wake}\n")
    tactile_log = os.path.join(OUT, f"tactile-{wake}.log")
    readings = []
    with open(tactile_log, "w") as stream:
        tactile = subprocess.Popen(
            [TACTILE, "serve", "--backend", "drm", "--kiosk", "--config", config, "--socket", f"wayland-{wake}", "--", "weston-simple-touch"],
            stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client"))
    wait_for(tactile_log, ".commit()", timeout=120)
    # Each reading waits for the state it expects, and records what it then finds.
    eventually(lambda: dpms() == "On", "DPMS On before the sleep", journal)
    readings.append(f"awake {dpms()}")
    screendump_when(f"{wake}-awake", lambda p: p.colour(10, 10) == GREY)
    wait_for(tactile_log, "output Virtual-1: off (asleep)")
    eventually(lambda: dpms() == "Off", "DPMS Off once asleep", journal)
    readings.append(f"asleep {dpms()}")
    screendump_when(f"{wake}-asleep", lambda p: p.pixels.strip(b"\0") == b"")
    x, y = TAP
    touch.down(0, x, y); touch.frame()
    touch.up(0); touch.frame()
    wait_for(tactile_log, "idle: woken by a touch")
    eventually(lambda: dpms() == "On", "DPMS On once woken", journal)
    readings.append(f"woken {dpms()}")
    if wake == "deliver":
        screendump_when(f"{wake}-woken", lambda p: p.colour(10, 10) == GREY and p.colour(200, 150) == RED)
    else:
        screendump_when(f"{wake}-woken", lambda p: p.colour(10, 10) == GREY)
    touch.down(0, x, y); touch.frame()
    touch.up(0); touch.frame()
    wait_for(tactile_log, ".up(", count=2 if wake == "deliver" else 1)
    screendump_when(f"{wake}-tapped", lambda p: p.colour(200, 150) == RED)
    with open(os.path.join(OUT, f"dpms-{wake}.txt"), "w") as f:
        f.write("\n".join(readings) + "\n")
    tactile.send_signal(signal.SIGTERM)
    tactile.wait(timeout=60)
    log(f"wake {wake} done")


def day(touch):
    """The session that starts over: shown, used, warned, dismissed, started over."""
    config = os.path.join(OUT, "day.yaml")
    with open(config, "w") as f:
        f.write("session:\n  reset-after: 8\n  warning: 8\n")
    tactile_log = os.path.join(OUT, "tactile-day.log")
    with open(tactile_log, "w") as stream:
        tactile = subprocess.Popen(
            [TACTILE, "serve", "--backend", "drm", "--kiosk", "--config", config, "--socket", "wayland-day", "--", "weston-simple-touch"],
            stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client"))
    wait_for(tactile_log, ".commit()", timeout=120)
    screendump_when("day-before", lambda p: p.colour(10, 10) == GREY)
    x, y = TAP
    touch.down(0, x, y); touch.frame()
    touch.up(0); touch.frame()
    wait_for(tactile_log, ".up(")
    wait_for(tactile_log, "before starting over", timeout=60)
    # Shaded: every channel of simple-touch's grey well down.
    screendump_when("day-warning", lambda p: p.colour(10, 10) & 0xff < 0x30)
    touch.down(1, x, y); touch.frame()
    touch.up(1); touch.frame()
    wait_for(tactile_log, "a touch dismissed the warning")
    screendump_when("day-dismissed", lambda p: p.colour(10, 10) == GREY)
    wait_for(tactile_log, "started weston-simple-touch again (pid", timeout=90)
    screendump_when("day-reset", lambda p: p.colour(10, 10) == GREY and p.colour(200, 150) != RED)
    tactile.send_signal(signal.SIGTERM)
    tactile.wait(timeout=60)
    log("day done")


def main():
    with open("/dev/tty1", "w") as tty:
        tty.write("\033[2J\033[H\033[?25l")
    touch = Touchscreen("Tactile Test Touchscreen")
    subprocess.run(["udevadm", "settle"], check=True)
    for wake in ["swallow", "deliver"]:
        run(wake, touch)
        time.sleep(1)
    day(touch)
    log("done")


if __name__ == "__main__":
    main()
