#!/usr/bin/python3
"""The KMS kiosk on vkms, a display that paces like a panel: runs inside the QEMU guest
(scripts/guest/run), as root, with vkms as the only DRM card.

`tactile serve --backend drm --kiosk -- weston-simple-touch` lights vkms's screen and shows
simple-touch full screen; a uinput tap draws its red cross; a VT switch away and back brings
the picture and touch back; killing simple-touch ends Tactile with its status. QEMU cannot
show vkms's screen (it is the kernel's own), so the frames are read back with Tactile's own
capture (`tactile capture --output Virtual-1`), as PPM files beside QEMU's screendumps of the
other suites. Everything goes to OUTDIR, where KioskOnVkmsGuestTests (on the host) checks it.

Usage: kiosk_vkms.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import subprocess
import sys
import time

from PIL import Image

from guest_input import Journal, Picture, Touchscreen, kill_kiosk_app, tap_raw, vt_away, vt_back, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]
SOCKET = "wayland-kiosk"

journal = Journal(OUT)
log = journal.log
RED = 0xFF0000


def capture_when(name, shows, timeout=30):
    """OUTDIR/NAME.ppm, read back from Tactile's composition of Virtual-1, until `shows`
    holds (the frame has caught up with what the scenario just did)."""
    deadline = time.monotonic() + timeout
    png, ppm = os.path.join(OUT, f"{name}.png"), os.path.join(OUT, f"{name}.ppm")
    while True:
        done = subprocess.run([TACTILE, "capture", "--socket", SOCKET, "--output", "Virtual-1", png], capture_output=True, text=True)
        if done.returncode == 0:
            Image.open(png).convert("RGB").save(ppm)
            picture = Picture(ppm)
            if shows(picture):
                log(f"capture {name}")
                return picture
        if time.monotonic() > deadline:
            log(f"capture {name}: still not as expected after {timeout} s ({done.stderr.strip()}); kept as it is")
            return Picture(ppm) if os.path.exists(ppm) else None
        time.sleep(0.2)


def main():
    touch = Touchscreen("Tactile Test Touchscreen")
    tactile_log = os.path.join(OUT, "tactile.log")
    with open(tactile_log, "w") as stream:
        # Debug: the log says what the frame clock chose on vkms's vblanks.
        tactile = subprocess.Popen([TACTILE, "serve", "--backend", "drm", "--kiosk", "--socket", SOCKET, "--log-level", "debug",
                                    "--", "weston-simple-touch"],
                                   stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client"))
    wait_for(tactile_log, ".commit()", timeout=120)
    wait_for(tactile_log, "device added: Tactile Test Touchscreen")
    log("tactile shows weston-simple-touch on vkms")
    capture_when("vkms-before", lambda p: p.colour(10, 10) != p.colour(p.width - 1, p.height - 1))

    # Raw (1024, 1024) of 0...4095 is (256, 192) on vkms's 1024x768 screen.
    tap_raw(touch, 1024, 1024)
    wait_for(tactile_log, ".up(")
    log("tap delivered")
    after = capture_when("vkms-after", lambda p: p.colour(256, 192) == RED)

    vt_away(tactile_log)
    vt_back(tactile_log, "Tactile Test Touchscreen")
    capture_when("vkms-back", lambda p: p == after)
    # Raw (1536, 1024) is (384, 192).
    tap_raw(touch, 1536, 1024)
    wait_for(tactile_log, ".down(", count=2)
    log("tap after the VT switch delivered")

    status = kill_kiosk_app(tactile, tactile_log, "weston-simple-touch", OUT)
    log(f"tactile exited with {status}")
    log("done")


if __name__ == "__main__":
    main()
