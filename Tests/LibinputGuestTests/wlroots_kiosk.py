#!/usr/bin/python3
"""libtactile inside a wlroots compositor on a real screen: runs inside the QEMU guest
(scripts/guest/run), as root, with a virtio-gpu card (`-device virtio-gpu-pci,id=virtio`,
virtio_gpu loaded before udev): wlroots 0.15's DRM backend refuses bochs-drm, which has no
PRIME import.

examples/wlroots-kiosk's tactile-wlr-kiosk, built on the host against the staged libtactile
(WlrootsKioskGuestTests does both), runs weston-simple-touch on wlroots' DRM and libinput
backends (its built-in seat manager: root needs no seatd), composing with pixman. A uinput
touchscreen taps the app, swipes in from the left edge (a gesture of the kiosk's --config,
which cancels the app's touch and runs its `run:` command), and taps again. The app's own
WAYLAND_DEBUG=client transcript is the oracle for where each touch landed; QEMU screendumps
show its window before and its red cross after the first tap. Everything goes to OUTDIR,
where WlrootsKioskGuestTests (on the host) reads and checks it.

Usage: wlroots_kiosk.py OUTDIR TACTILE_EXECUTABLE
       (the kiosk and the staged library are found beside TACTILE, in the build products
       folder, under guest-wlroots-kiosk-build/: the guest sees the host's /tmp as empty)
"""
import os
import re
import signal
import subprocess
import sys

from guest_input import Journal, Touchscreen, eventually, read, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]
BUILD = os.path.join(os.path.dirname(TACTILE), "guest-wlroots-kiosk-build")
KIOSK = os.path.join(BUILD, "kiosk", "tactile-wlr-kiosk")
LIBRARY = os.path.join(BUILD, "stage", "lib")
DEVICE = "virtio"

# Raw readings of the touchscreen's 0...4095 (a range of 4096) on the 1280x800 screen: raw
# x in multiples of 16 is a whole 5 px, raw y in multiples of 128 a whole 25 px, so every
# expected coordinate is exact. weston-simple-touch stays 600x500 at the screen's corner:
# every touch lands inside it.
TAP = (1024, 1024)          # (320, 200)
EDGE_Y = 2048               # y 400
EDGE_START = 16             # x 5, inside the gesture's 24 px start band
EDGE_STEPS = range(64, 641, 64)  # x 20 ... 200: past the 80 px the gesture needs
NEXT_TAP = (1536, 1536)     # (480, 300)

GREY, RED = 0x404040, 0xFF0000  # simple-touch's quarter-alpha grey over wlroots' black; its cross

journal = Journal(OUT)
log = journal.log
APP_LOG = os.path.join(OUT, "simple-touch.log")
KIOSK_LOG = os.path.join(OUT, "kiosk.log")
MARKER = os.path.join(OUT, "gesture-ran")


def screendump_when(name, shows):
    journal.screendump_when(name, shows, device=DEVICE)


def touch_events(kind):
    """How many `wl_touch@N.KIND(` events simple-touch has heard."""
    return len(re.findall(rf"wl_touch@\d+\.{kind}\(", read(APP_LOG)))


def tap(touch, x, y, downs, ups):
    """A tap, waited for until the app has heard `downs` downs and `ups` ups in all."""
    touch.down(0, x, y); touch.frame()
    touch.up(0); touch.frame()
    eventually(lambda: touch_events("down") >= downs and touch_events("up") >= ups,
               f"down {downs} and up {ups} in simple-touch's transcript", journal)


def main():
    touch = Touchscreen("Tactile Test Touchscreen")
    log("touchscreen created")
    config = os.path.join(OUT, "gestures.yaml")
    with open(config, "w") as f:
        f.write(f"""gestures:
  - name: edge
    kind: edge-swipe
    edge: left
    start-band: 24
    distance: 80
    cancels-touches-in-view: true
    run: echo "$TACTILE_GESTURE $TACTILE_GESTURE_STATE" >> '{MARKER}'
""")
    env = dict(os.environ, WLR_RENDERER="pixman", WLR_NO_HARDWARE_CURSORS="1", LD_LIBRARY_PATH=LIBRARY)
    # The app's transcript apart from the kiosk's log: "$0" is its file.
    app = ["sh", "-c", 'exec env WAYLAND_DEBUG=client weston-simple-touch 2>"$0"', APP_LOG]
    with open(KIOSK_LOG, "w") as stream:
        kiosk = subprocess.Popen([KIOSK, "--debug", "--config", config, "--"] + app,
                                 stdout=stream, stderr=subprocess.STDOUT, env=env)
    try:
        # Mapped with the seat's touch bound: then a touch has somewhere to go.
        wait_for(APP_LOG, "get_touch(", timeout=120)
        wait_for(APP_LOG, ".commit()", timeout=120)
        log("the kiosk runs weston-simple-touch")
        screendump_when("before", lambda p: p.colour(10, 10) == GREY and p.colour(599, 499) == GREY)

        tap(touch, *TAP, downs=1, ups=1)
        log("first tap done")
        screendump_when("after", lambda p: p.colour(320, 200) == RED)

        # In from the left edge, the finger kept down until the app's touch is cancelled.
        touch.down(0, EDGE_START, EDGE_Y); touch.frame()
        for x in EDGE_STEPS:
            touch.move(0, x, EDGE_Y); touch.frame()
        eventually(lambda: touch_events("cancel") >= 1, "wl_touch.cancel in simple-touch's transcript", journal)
        touch.up(0); touch.frame()
        eventually(lambda: "gesture edge ended" in read(KIOSK_LOG), "the kiosk's 'gesture edge ended'", journal)
        eventually(lambda: read(MARKER).startswith("edge began"), "the run: command's line", journal)
        log("edge swipe done")

        tap(touch, *NEXT_TAP, downs=3, ups=2)
        log("next tap done")
    finally:
        # SIGTERM ends the kiosk, which ends its app: its status is then 0.
        kiosk.send_signal(signal.SIGTERM)
        try:
            status = kiosk.wait(timeout=60)
        except subprocess.TimeoutExpired:
            kiosk.kill()
            status = f"still running 60 s after SIGTERM: {kiosk.wait()}"
        with open(os.path.join(OUT, "kiosk.status"), "w") as f:
            f.write(f"{status}\n")
        log(f"the kiosk exited with {status}")


if __name__ == "__main__":
    try:
        main()
    except BaseException:
        # The host's failure message shows command.log: the kiosk's and the app's last words.
        for path in (KIOSK_LOG, APP_LOG):
            print(f"--- {os.path.basename(path)}:\n{read(path)[-3000:]}", file=sys.stderr)
        raise
