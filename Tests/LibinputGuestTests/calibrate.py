#!/usr/bin/python3
"""Calibrating a misaligned touchscreen by touching it: runs inside the QEMU guest
(scripts/guest/run), as root, on bochs-drm's 1280x800 screen.

"Tactile Skewed Touchscreen" is a uinput touchscreen whose readings are skewed, scaled and
offset from the panel (SKEW: a panel glued askew). Beside it, "Tactile Other Touchscreen"
and "Tactile Doomed Touchscreen" (unplugged mid-calibration).

1. A kiosk (weston-simple-touch) is tapped at TAPS before calibration; then `tactile
   calibrate` is run, its crosses found in QEMU's screendumps and tapped through SKEW. On
   the way, hostile taps: one where the first tap landed, one far off, one on the other
   touchscreen; each must be refused and asked again. Then TAPS again.
2. `tactile calibrate` without --device (several touchscreens: refused, listed), and for the
   doomed touchscreen, which is unplugged after one tap.
3. weston-touch-calibrator: its device list, then a calibration of the skewed touchscreen
   through its crosses (found the same way); TAPS again.
4. A desktop (not a kiosk) turned 90 degrees, started with the configuration file `tactile
   calibrate --write` wrote: PORTRAIT_TAPS (in its portrait layout) land where they should;
   then `tactile calibrate` again, turned.

Logs and screendumps go to OUTDIR, where CalibrationGuestTests reads them.

Usage: calibrate.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import re
import subprocess
import sys
import time

from guest_input import Journal, Picture, Touchscreen, wait_for, read

OUT, TACTILE = sys.argv[1], sys.argv[2]
WIDTH, HEIGHT = 1280, 800
# The panel fraction (fx, fy) reads as (a*fx + b*fy + c, d*fx + e*fy + f) of the axes.
SKEW = (0.92, 0.05, 0.03, -0.04, 0.87, 0.07)
# Points of the layout tapped after each step; the portrait desktop's are in its 800x1280 layout.
TAPS = [(300, 200), (520, 90), (150, 420)]
PORTRAIT_TAPS = [(200, 300), (90, 440), (420, 150)]  # inside its 600x500 window
SOCKET = "wayland-calibrate"
GREY = 0x585858  # simple-touch's window
ENV = dict(os.environ, WAYLAND_DISPLAY=SOCKET)

journal = Journal(OUT)
log, screendump = journal.log, journal.screendump


def raw(panel_x, panel_y):
    """The skewed reading (of 0...4095; libinput divides by 4096) at a panel pixel."""
    fx, fy = panel_x / WIDTH, panel_y / HEIGHT
    a, b, c, d, e, f = SKEW
    return round((a * fx + b * fy + c) * 4096), round((d * fx + e * fy + f) * 4096)


def tap(touchscreen, reading):
    touchscreen.down(0, *reading); touchscreen.frame()
    touchscreen.up(0); touchscreen.frame()


def cross(picture, is_cross):
    """The centre (mean) of the pixels `is_cross(r, g, b)` holds for, or None while the
    screen is not a calibrator's (white at its corners)."""
    corners = [(0, 0), (picture.width - 1, 0), (0, picture.height - 1), (picture.width - 1, picture.height - 1)]
    if any(picture.colour(x, y) != 0xFFFFFF for x, y in corners):
        return None
    xs = ys = n = 0
    data, stride = picture.pixels, picture.width * 3
    for y in range(picture.height):
        row = data[y * stride:(y + 1) * stride]
        if row.count(255) == len(row):
            continue
        for x in range(picture.width):
            r, g, b = row[3 * x:3 * x + 3]
            if is_cross(r, g, b):
                xs += x; ys += y; n += 1
    # A pixel's centre is half a pixel in from its corner, which is where its index points.
    return (xs / n + 0.5, ys / n + 0.5) if n > 20 else None


def black(r, g, b):
    return r < 64 and g < 64 and b < 64


def weston_red(r, g, b):
    return r > 100 and g < 80 and b < 80 and r - g > 60


def next_cross(name, is_cross, previous, timeout=60):
    """Screendumps until a cross shows somewhere other than `previous`; its centre."""
    deadline = time.monotonic() + timeout
    while True:
        screendump(name)
        centre = cross(Picture(os.path.join(OUT, f"{name}.ppm")), is_cross)
        if centre and (previous is None or abs(centre[0] - previous[0]) + abs(centre[1] - previous[1]) > 30):
            log(f"{name}: cross at {centre[0]:.2f},{centre[1]:.2f}")
            return centre
        if time.monotonic() > deadline:
            raise SystemExit(f"no new cross on screen for {name} after {timeout} s")
        time.sleep(0.3)


def serve(name, inside, *arguments, kiosk=True):
    """Tactile with simple-touch, once simple-touch's window shows at panel pixel `inside`."""
    tactile_log = os.path.join(OUT, f"tactile-{name}.log")
    touch_log = os.path.join(OUT, f"touch-{name}.log")
    with open(tactile_log, "w") as stream:
        tactile = subprocess.Popen([TACTILE, "serve", "--backend", "drm", *(["--kiosk"] if kiosk else []), "--socket", SOCKET, *arguments,
                                    "--", "sh", "-c", f"WAYLAND_DEBUG=client exec weston-simple-touch 2>{touch_log}"],
                                   stdout=stream, stderr=subprocess.STDOUT)
    wait_for(touch_log, "commit()", timeout=120)
    wait_for(tactile_log, "device added: Tactile Doomed Touchscreen" if name == "upright" else "device added: Tactile Skewed Touchscreen")
    journal.screendump_when(f"{name}-app", lambda p: p.colour(*inside) == GREY)
    return tactile, tactile_log, touch_log


def tap_app(touchscreen, touch_log, points, panel_of):
    """Taps each layout point through SKEW, waiting for simple-touch to hear each."""
    for k, point in enumerate(points):
        before = read(touch_log).count(".down(")
        tap(touchscreen, raw(*panel_of(point)))
        wait_for(touch_log, ".down(", count=before + 1)
    log(f"tapped {points}")


def calibrate(name, touchscreen, arguments, taps_before=None):
    """`tactile calibrate ARGUMENTS`, each cross tapped through SKEW once it shows;
    `taps_before(k, centre, first)` may tap hostile readings first (and returns once each
    was refused). Returns the command's output."""
    transcript = os.path.join(OUT, f"calibrate-{name}.txt")
    with open(transcript, "w") as stream:
        command = subprocess.Popen([TACTILE, "calibrate", "--socket", SOCKET, *arguments], stdout=stream, stderr=subprocess.STDOUT)
    previous = first = None
    for k in range(5):
        centre = next_cross(f"cross-{name}-{k + 1}", black, previous)
        if taps_before:
            taps_before(k, centre, first, transcript)
        tap(touchscreen, raw(*centre))
        first = first or raw(*centre)
        previous = centre
    if command.wait(timeout=60) != 0:
        raise SystemExit(f"tactile calibrate {name} failed:\n{read(transcript)}")
    log(f"calibrated ({name})")
    return read(transcript)


def main():
    with open("/dev/tty1", "w") as tty:
        tty.write("\033[2J\033[H\033[?25l")
    skewed = Touchscreen("Tactile Skewed Touchscreen")
    other = Touchscreen("Tactile Other Touchscreen")
    doomed = Touchscreen("Tactile Doomed Touchscreen")
    subprocess.run(["udevadm", "settle"], check=True)
    upright = lambda p: p  # the upright kiosk's layout is the panel

    # 1. Before, and through tactile calibrate, hostile taps on the way.
    tactile, tactile_log, touch_log = serve("upright", (10, 10))
    tap_app(skewed, touch_log, TAPS, upright)
    config = os.path.join(OUT, "tactile.yaml")
    with open(config, "w") as f:
        f.write("# the installer's file\nidle:\n  timeout: 600\ntouch:\n  map: ask\ndevices:\n  - match: Tactile Other Touchscreen\n    tap-to-click: true\n")

    def hostile(k, centre, first, transcript):
        def refused(count):
            wait_for(transcript, "tap refused", count=count)
        if k == 1:
            tap(skewed, first)  # where cross 1's tap landed
            refused(1)
            tap(skewed, raw(WIDTH - centre[0], HEIGHT - centre[1]))  # the far corner
            refused(2)
            tap(other, (2048, 2048))  # another touchscreen
            refused(3)
            log("hostile taps refused")
    calibrate("upright", skewed, ["--device", "Tactile Skewed Touchscreen", "--write", config], hostile)
    tap_app(skewed, touch_log, TAPS, upright)

    # 2. Several touchscreens and no --device; a touchscreen unplugged mid-calibration.
    listing = subprocess.run([TACTILE, "calibrate", "--socket", SOCKET], capture_output=True, text=True)
    with open(os.path.join(OUT, "calibrate-several.txt"), "w") as f:
        f.write(f"{listing.stdout}{listing.stderr}exit {listing.returncode}\n")
    unplugged = os.path.join(OUT, "calibrate-unplugged.txt")
    with open(unplugged, "w") as stream:
        command = subprocess.Popen([TACTILE, "calibrate", "--socket", SOCKET, "--device", "Tactile Doomed Touchscreen"],
                                   stdout=stream, stderr=subprocess.STDOUT)
    centre = next_cross("cross-doomed-1", black, None)
    tap(doomed, raw(*centre))
    wait_for(unplugged, "cross 2 of 5")
    doomed.device.close()
    status = command.wait(timeout=60)
    with open(unplugged, "a") as f:
        f.write(f"exit {status}\n")
    log("doomed touchscreen unplugged mid-calibration")
    # The skewed touchscreen still lands where it should (nothing changed for it).
    tap_app(skewed, touch_log, TAPS[:1], upright)

    # 3. weston-touch-calibrator: its list, then the skewed touchscreen calibrated by it.
    listing = subprocess.run(["weston-touch-calibrator"], capture_output=True, text=True, env=ENV, timeout=60)
    with open(os.path.join(OUT, "weston-list.txt"), "w") as f:
        f.write(f"{listing.stdout}{listing.stderr}exit {listing.returncode}\n")
    syspath = next(line.split('"')[1] for line in (listing.stdout + listing.stderr).splitlines()
                   if line.startswith("device") and read(line.split('"')[1] + "/device/name").strip() == "Tactile Skewed Touchscreen")
    weston = os.path.join(OUT, "weston-calibrate.txt")
    with open(weston, "w") as stream:
        command = subprocess.Popen(["weston-touch-calibrator", "-v", syspath], stdout=stream, stderr=subprocess.STDOUT, env=ENV)
    previous = None
    for k in range(4):
        centre = next_cross(f"weston-{k + 1}", weston_red, previous)
        tap(skewed, raw(*centre))
        previous = centre
    status = command.wait(timeout=60)
    with open(weston, "a") as f:
        f.write(f"exit {status}\n")
    log("weston-touch-calibrator done")
    tap_app(skewed, touch_log, TAPS, upright)
    tactile.terminate()
    tactile.wait(timeout=30)

    # 4. A portrait desktop (simple-touch at the layout's origin, not filling it),
    # calibrated by the file; then calibrated again, turned.
    portrait = lambda p: (p[1], HEIGHT - p[0])  # its layout point on the panel
    tactile, tactile_log, touch_log = serve("portrait", (10, 790), "--transform", "90", "--config", config, kiosk=False)
    tap_app(skewed, touch_log, PORTRAIT_TAPS, portrait)
    calibrate("portrait", skewed, ["--device", "Tactile Skewed Touchscreen"])
    tap_app(skewed, touch_log, PORTRAIT_TAPS, portrait)
    tactile.terminate()
    tactile.wait(timeout=30)
    log("done")


if __name__ == "__main__":
    main()
