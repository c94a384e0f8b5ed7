#!/usr/bin/python3
"""The cursor on a cursor plane: runs inside the QEMU guest (scripts/guest/run), as root, with a
virtio-gpu card (`-device virtio-gpu-pci,id=virtio`), whose CRTC has a cursor plane.

`tactile serve --backend drm` on that card (the only one with a driver: bochs-drm is not
loaded for QEMU's VGA); an absolute pointer moves over Tactile's
background. QEMU's screendump shows the frame the CRTC scans out, without the plane; grim
(screencopy with the cursor) shows what Tactile composes with the cursor over it. Everything
goes to OUTDIR, where CursorPlaneGuestTests reads it.

Usage: cursor_plane.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import subprocess
import sys
import time

from evdev import AbsInfo, UInput
from evdev import ecodes as e

from guest_input import wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    axis = AbsInfo(value=0, min=0, max=32767, fuzz=0, flat=0, resolution=0)
    pointer = UInput({e.EV_ABS: [(e.ABS_X, axis), (e.ABS_Y, axis)], e.EV_KEY: [e.BTN_LEFT]}, name="Tactile Test Absolute Pointer")
    tactile_log = os.path.join(OUT, "tactile.log")
    with open(tactile_log, "w") as stream:
        tactile = subprocess.Popen([TACTILE, "serve", "--backend", "drm", "--socket", "wayland-plane",
                                    "--", "sleep", "120"], stdout=stream, stderr=subprocess.STDOUT)
    wait_for(tactile_log, "device added: Tactile Test Absolute Pointer", timeout=120)
    # (24576, 16384) of 32768 is (960, 400) on the 1280x800 screen.
    pointer.write(e.EV_ABS, e.ABS_X, 24576); pointer.write(e.EV_ABS, e.ABS_Y, 16384); pointer.syn()
    time.sleep(3)
    subprocess.run([os.path.join(REPO, "scripts/guest/screendump"), "plane", "virtio"], check=True)
    output = open(tactile_log).read().split("output ")[1].split(":")[0]
    subprocess.run(["grim", "-t", "ppm", "-c", "-o", output, os.path.join(OUT, "grim.ppm")],
                   env=dict(os.environ, WAYLAND_DISPLAY="wayland-plane"), check=True)
    tactile.terminate()
    tactile.wait(timeout=30)


if __name__ == "__main__":
    main()
