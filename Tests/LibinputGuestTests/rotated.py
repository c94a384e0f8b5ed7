#!/usr/bin/python3
"""A portrait (or upside-down, or mirrored) kiosk on the guest's own screen: runs inside the
QEMU guest (scripts/guest/run), as root.

For each of the transforms 90, 180, 270 and flipped-90, runs `tactile serve --backend drm
--kiosk --transform T -- weston-simple-touch` on bochs-drm with a uinput touchscreen that
has no WL_OUTPUT and no device setting, screendumps the screen, taps the raw panel point
under the layout's point (200, 150) (as RotatedKioskGuestTests works it out), screendumps
again (simple-touch draws its red cross where the touch landed) and stops Tactile. Then an
upright kiosk is turned 90 at run time by wlr-randr, and its screen unplugged and plugged
back, switched to another mode, and turned off and on (turned_at_run_time).
Everything goes to OUTDIR, where RotatedKioskGuestTests (on the host) reads and checks it.

Usage: rotated.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import signal
import subprocess
import sys
import time

from guest_input import Journal, Touchscreen, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]

# The raw reading (of 0...4095 on both axes) under the layout's (200, 150) on the
# 1280x800 panel, for each transform.
TAPS = {"90": (480, 3072), "180": (3456, 3328), "270": (3616, 1024), "flipped-90": (480, 1024)}
# Where the panel shows, for each transform, simple-touch's window (a pixel inside it) and
# the cross it draws under the tap: the screendumps wait for these (RotatedKioskGuestTests
# has them worked out, and checks much more).
INSIDE = {"90": (10, 790), "180": (1270, 790), "270": (1270, 10), "flipped-90": (10, 10)}
CROSS = {"90": (150, 599), "180": (1079, 649), "270": (1129, 200), "flipped-90": (150, 200)}
GREY, RED = 0x585858, 0xFF0000

journal = Journal(OUT)
log, screendump_when = journal.log, journal.screendump_when


def shows(colour, x, y):
    """For screendump_when: the panel shows `colour` at (x, y)."""
    return lambda picture: picture.colour(x, y) == colour


def main():
    with open("/dev/tty1", "w") as tty:
        tty.write("\033[2J\033[H\033[?25l")
    touch = Touchscreen("Tactile Test Touchscreen")
    for transform, (x, y) in TAPS.items():
        tactile_log = os.path.join(OUT, f"tactile-{transform}.log")
        with open(tactile_log, "w") as stream:
            tactile = subprocess.Popen(
                [TACTILE, "serve", "--backend", "drm", "--kiosk", "--transform", transform, "--socket", "wayland-rotated",
                 "--", "weston-simple-touch"],
                stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client"))
        wait_for(tactile_log, ".commit()", timeout=120)
        wait_for(tactile_log, "device added: Tactile Test Touchscreen")
        screendump_when(f"{transform}-before", shows(GREY, *INSIDE[transform]))
        touch.down(0, x, y); touch.frame()
        touch.up(0); touch.frame()
        wait_for(tactile_log, ".up(")
        screendump_when(f"{transform}-after", shows(RED, *CROSS[transform]))
        tactile.send_signal(signal.SIGTERM)
        tactile.wait(timeout=60)
        log(f"transform {transform} done")
        time.sleep(1)
    turned_at_run_time(touch)
    log("done")


def turned_at_run_time(touch):
    """An upright kiosk turned 90 by wlr-randr, tapped; its screen unplugged (forced off
    through sysfs, with the card's change uevent) and plugged back, listed and tapped again;
    switched to 1024x768 and tapped; turned off and on by wlr-randr and tapped."""
    tactile_log = os.path.join(OUT, "tactile-runtime.log")
    with open(tactile_log, "w") as stream:
        tactile = subprocess.Popen(
            [TACTILE, "serve", "--backend", "drm", "--kiosk", "--socket", "wayland-runtime", "--", "weston-simple-touch"],
            stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client"))
    wait_for(tactile_log, ".commit()", timeout=120)
    wait_for(tactile_log, "device added: Tactile Test Touchscreen")

    def randr(name, *arguments):
        with open(os.path.join(OUT, name), "w") as out:
            status = subprocess.run(["wlr-randr", *arguments], stdout=out, stderr=subprocess.STDOUT,
                                    env=dict(os.environ, WAYLAND_DISPLAY="wayland-runtime")).returncode
            out.write(f"status {status}\n")

    taps = 0

    def tap_and_dump(name, cross=CROSS["90"]):
        """Taps the raw point under (200, 150) of the 1280x800 panel turned 90; once the app
        saw the touch end, screendumps when its cross shows at `cross`."""
        nonlocal taps
        taps += 1
        x, y = TAPS["90"]
        touch.down(0, x, y); touch.frame()
        touch.up(0); touch.frame()
        wait_for(tactile_log, ".up(", count=taps)
        screendump_when(name, shows(RED, *cross))

    randr("randr-before.txt")
    randr("randr-set.txt", "--output", "Virtual-1", "--transform", "90")
    wait_for(tactile_log, "configure(800, 1280, ")
    time.sleep(2)
    tap_and_dump("runtime-after")

    status = "/sys/class/drm/card0-Virtual-1/status"

    def hotplug():
        subprocess.run(["udevadm", "trigger", "--action=change", "/sys/class/drm/card0"], check=True)

    with open(status, "w") as f:
        f.write("off")
    hotplug()
    wait_for(tactile_log, "output Virtual-1 removed")
    time.sleep(1)
    with open(status, "w") as f:
        f.write("detect")
    hotplug()
    wait_for(tactile_log, "output Virtual-1: ", count=2)
    time.sleep(2)
    randr("randr-reconnected.txt")
    tap_and_dump("runtime-reconnected")

    # Another mode: the app is told the new portrait size, and the same raw reading lands
    # where it now is on the smaller panel.
    randr("randr-mode.txt", "--output", "Virtual-1", "--mode", "1024x768")
    wait_for(tactile_log, "configure(768, 1024, ")
    time.sleep(2)
    tap_and_dump("runtime-mode", cross=(120, 575))

    # Off and on again. A disabled head has no mode or transform to list (the protocol says
    # so): wlr-randr turns it on in the preferred mode, turned only when told to.
    randr("randr-off.txt", "--output", "Virtual-1", "--off")
    wait_for(tactile_log, "output Virtual-1 disabled")
    screendump_when("runtime-off", lambda p: p.pixels.strip(b"\0") == b"")
    randr("randr-disabled.txt")
    randr("randr-on.txt", "--output", "Virtual-1", "--on", "--transform", "90")
    wait_for(tactile_log, "output Virtual-1 enabled")
    time.sleep(2)
    tap_and_dump("runtime-on")
    tactile.send_signal(signal.SIGTERM)
    tactile.wait(timeout=60)


if __name__ == "__main__":
    main()
