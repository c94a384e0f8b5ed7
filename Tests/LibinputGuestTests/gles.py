#!/usr/bin/python3
"""The GLES renderer on the guest's own screen: runs inside the QEMU guest (scripts/guest/run),
as root.

Runs `tactile serve --backend drm --kiosk --renderer R --transform T -- weston-simple-touch`
on bochs-drm for each renderer (pixman, gles: Mesa's llvmpipe through GBM on vgem's card, a
DRM device without a display: bochs' card imports no dmabufs, so GLES frames are read back
into the DRM backend's dumb buffers) upright and turned 90, with a uinput touchscreen;
screendumps the screen, taps it, screendumps again (simple-touch draws its red cross where
the touch landed) and stops Tactile. GLESGuestTests (on the host) compares each GLES screendump with the pixman one, pixel by pixel.

A last kiosk runs tactile-dmabuf-probe, which shows a dumb buffer of the main device the
feedback names (vgem) through linux-dmabuf; the screen is screendumped, a second probe
(allowed screen capture by the kiosk's configuration) copies the output and the probe's
window into dmabufs through ext-image-copy-capture, and the probe's feedback and each of its
wrong uses are written to OUTDIR.

Usage: gles.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import signal
import subprocess
import sys
import time

from guest_input import Journal, Touchscreen, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]
RUNS = [("pixman", "normal"), ("gles", "normal"), ("pixman", "90"), ("gles", "90")]
# The probe's wrong uses of linux-dmabuf's params.
CASES = ["plane-idx", "plane-set", "incomplete", "format", "dimensions", "bounds", "used", "not-dmabuf", "flags", "immed-not-dmabuf"]
# A raw touchscreen point (of 0...4095) inside simple-touch's window in each layout.
TAPS = {"normal": (1024, 1024), "90": (480, 3072)}
# Where the panel shows a pixel of simple-touch's window, and its cross under that tap: the
# screendumps wait for these (GLESGuestTests compares every pixel).
INSIDE = {"normal": (10, 10), "90": (10, 790)}
CROSS = {"normal": (320, 200), "90": (150, 599)}
GREY, RED = 0x585858, 0xFF0000

journal = Journal(OUT)
log, screendump, screendump_when = journal.log, journal.screendump, journal.screendump_when


def main():
    with open("/dev/tty1", "w") as tty:
        tty.write("\033[2J\033[H\033[?25l")
    touch = Touchscreen("Tactile Test Touchscreen")
    for renderer, transform in RUNS:
        name = f"{renderer}-{transform}"
        tactile_log = os.path.join(OUT, f"tactile-{name}.log")
        with open(tactile_log, "w") as stream:
            tactile = subprocess.Popen(
                [TACTILE, "serve", "--backend", "drm", "--kiosk", "--renderer", renderer, "--transform", transform,
                 "--socket", f"wayland-{name}", "--", "weston-simple-touch"],
                stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client"))
        wait_for(tactile_log, ".commit()", timeout=120)
        wait_for(tactile_log, "device added: Tactile Test Touchscreen")
        screendump_when(f"{name}-before", lambda p: p.colour(*INSIDE[transform]) == GREY)
        touch.down(0, *TAPS[transform]); touch.frame()
        touch.up(0); touch.frame()
        wait_for(tactile_log, ".up(")
        screendump_when(f"{name}-after", lambda p: p.colour(*CROSS[transform]) == RED)
        tactile.send_signal(signal.SIGTERM)
        tactile.wait(timeout=60)
        log(f"{name} done")
        time.sleep(1)
    dmabuf()
    log("done")


def probe_colour_shown(path):
    """Whether the screendump has the probe's 0x3080c0 at (100, 100)."""
    with open(path, "rb") as f:
        fields = f.read().split(b"\n", 3)
    width = int(fields[1].split()[0])
    i = (100 * width + 100) * 3
    return fields[3][i:i + 3] == bytes([0x30, 0x80, 0xc0])


def dmabuf():
    """A kiosk whose app is a vgem dumb buffer shown through linux-dmabuf, then the probe's
    feedback and wrong uses against it."""
    probe = os.path.join(os.path.dirname(TACTILE), "TactileDmabufProbe")
    tactile_log = os.path.join(OUT, "tactile-dmabuf.log")
    with open(os.path.join(OUT, "render-node.txt"), "w") as out:
        rdev = os.stat("/dev/dri/renderD128").st_rdev
        out.write(f"{os.major(rdev)}:{os.minor(rdev)}\n")
    config = os.path.join(OUT, "capture.yaml")
    with open(config, "w") as out:
        real = os.path.realpath(probe)
        out.write(f"privileges:\n  screen-capture: [started, {real}]\n  window-management: [started, {real}]\n")
    with open(tactile_log, "w") as stream:
        tactile = subprocess.Popen(
            [TACTILE, "serve", "--backend", "drm", "--kiosk", "--renderer", "gles", "--socket", "wayland-dmabuf",
             "--config", config, "--", probe, "show", "3080c0"],
            stdout=stream, stderr=subprocess.STDOUT)
    wait_for(tactile_log, "shown", timeout=120)
    # The probe's commit is composed (llvmpipe, emulated) some seconds later when the host is busy.
    for _ in range(30):
        time.sleep(2)
        screendump("dmabuf")
        if probe_colour_shown(os.path.join(OUT, "dmabuf.ppm")):
            break
    env = dict(os.environ, WAYLAND_DISPLAY="wayland-dmabuf")
    capture = ["capture", os.path.join(OUT, "capture-output.ppm"), os.path.join(OUT, "capture-window.ppm")]
    for name, arguments in [("feedback", ["feedback"]), ("capture", capture)] + [(case, ["bad", case]) for case in CASES]:
        with open(os.path.join(OUT, f"probe-{name}.txt"), "w") as out:
            status = subprocess.run([probe, *arguments], stdout=out, stderr=subprocess.STDOUT, env=env, timeout=60).returncode
            out.write(f"status {status}\n")
    tactile.send_signal(signal.SIGTERM)
    tactile.wait(timeout=60)
    log("dmabuf done")


if __name__ == "__main__":
    main()
