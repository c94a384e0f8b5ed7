#!/usr/bin/python3
"""GLES frames scanned out from GBM buffer objects, and a client's buffer scanned out as it is:
runs inside the QEMU guest (scripts/guest/run), as root, with a virtio-gpu card
(`-device virtio-gpu-pci,id=virtio`, its dumb buffers plain memory that other devices import)
and vgem (where Mesa's llvmpipe renders, through GBM on vgem's card).

1. `tactile serve --backend drm --kiosk --renderer R -- weston-simple-touch` for pixman and
   GLES, screendumped before and after a tap. With GLES, the DRM backend allocates its
   framebuffers with GBM on virtio-gpu's card and the renderer draws into them through their
   dmabufs (no readback); GBMGuestTests compares the screendumps with pixman's.
2. `tactile-dmabuf-probe scanout 30c080` in a GLES kiosk: a full-screen dumb buffer of the
   main device (virtio-gpu's card), which the DRM backend flips to as it is; grim
   (screencopy, which reads the composed frame) takes the same picture meanwhile. A second
   app (weston-simple-shm) over it brings composition back; once it is gone, scanout again.
   Then the probe's feedback (the main device: virtio-gpu's card) and a buffer of another
   device (vgem), which llvmpipe on virtio-gpu's card could not map: `failed`, no crash.
(gbm_clients.py does the rest in a guest of its own: a nested Tactile, the fuzzer.)

Usage: gbm.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import signal
import subprocess
import sys
import time

from guest_input import Journal, Touchscreen, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]
DEVICE = "virtio"

GREY, RED = 0x585858, 0xFF0000  # simple-touch's window, its cross
PROBE_PIXEL = bytes.fromhex("30c080")  # the probe's full-screen fill


def filled(picture):
    """The whole screen is the probe's colour."""
    return picture.pixels == PROBE_PIXEL * (picture.width * picture.height)

journal = Journal(OUT)
log = journal.log


def screendump_when(name, shows):
    """A screendump retaken until the screen shows what was just done (guest_input.py)."""
    journal.screendump_when(name, shows, device=DEVICE)


def main():
    touch = Touchscreen("Tactile Test Touchscreen")
    for renderer in ["pixman", "gles"]:
        tactile_log = os.path.join(OUT, f"tactile-{renderer}.log")
        with open(tactile_log, "w") as stream:
            tactile = subprocess.Popen(
                [TACTILE, "serve", "--backend", "drm", "--kiosk", "--renderer", renderer, "--socket", f"wayland-{renderer}",
                 "--", "weston-simple-touch"],
                stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client"))
        wait_for(tactile_log, ".commit()", timeout=120)
        wait_for(tactile_log, "device added: Tactile Test Touchscreen")
        screendump_when(f"{renderer}-before", lambda p: p.colour(10, 10) == GREY)
        touch.down(0, 1024, 1024); touch.frame()
        touch.up(0); touch.frame()
        wait_for(tactile_log, ".up(")
        screendump_when(f"{renderer}-after", lambda p: p.colour(320, 200) == RED)
        tactile.send_signal(signal.SIGTERM)
        tactile.wait(timeout=60)
        log(f"{renderer} done")
        time.sleep(1)
    scanout()
    log("done")


def scanout():
    probe = os.path.join(os.path.dirname(TACTILE), "TactileDmabufProbe")
    tactile_log = os.path.join(OUT, "tactile-scanout.log")
    with open(tactile_log, "w") as stream:
        tactile = subprocess.Popen(
            [TACTILE, "serve", "--backend", "drm", "--kiosk", "--renderer", "gles", "--socket", "wayland-scanout",
             "--", probe, "scanout", "30c080", "torn"],
            stdout=stream, stderr=subprocess.STDOUT)
    wait_for(tactile_log, "device added: Tactile Test Touchscreen", timeout=120)
    wait_for(tactile_log, "shown ", timeout=60)
    wait_for(tactile_log, "direct scanout")
    screendump_when("scanout", filled)
    env = dict(os.environ, WAYLAND_DISPLAY="wayland-scanout")
    subprocess.run(["grim", "-t", "ppm", os.path.join(OUT, "grim-scanout.ppm")], env=env, check=True)
    other = subprocess.Popen(["weston-simple-shm"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(tactile_log, "composing again")
    screendump_when("covered", lambda p: not filled(p) and p.pixels.find(PROBE_PIXEL) >= 0)
    other.terminate()
    other.wait(timeout=30)
    wait_for(tactile_log, "direct scanout", count=2, timeout=60)
    screendump_when("scanout-again", filled)
    with open(os.path.join(OUT, "main-device.txt"), "w") as out:
        rdev = os.stat("/dev/dri/card0").st_rdev
        out.write(f"{os.major(rdev)}:{os.minor(rdev)}\n")
    for name, arguments in [("feedback", ["feedback"]), ("other-device", ["bad", "other-device"])]:
        with open(os.path.join(OUT, f"probe-{name}.txt"), "w") as out:
            status = subprocess.run([probe, *arguments], stdout=out, stderr=subprocess.STDOUT, env=env, timeout=60).returncode
            out.write(f"status {status}\n")
    tactile.send_signal(signal.SIGTERM)
    tactile.wait(timeout=60)
    log("scanout done")


if __name__ == "__main__":
    main()
