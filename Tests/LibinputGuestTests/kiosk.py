#!/usr/bin/python3
"""Tactile on the guest's own screen: runs inside the QEMU guest (scripts/guest/run), as root.

Makes a uinput touchscreen, then runs the kiosk command `tactile serve --backend drm --kiosk
-- weston-simple-touch`: Tactile lights bochs-drm's screen through KMS (libseat's built-in
seat manager opens the card and the input devices) and starts weston-simple-touch, full
screen. A tap draws simple-touch's red cross; QEMU screendumps (scripts/guest/screendump)
take the console before Tactile, the screen before and after the tap, away on another VT
and back (then a second tap), and the console again once simple-touch was killed and
Tactile exited with its status. Before that, a uinput pen taps wev, a second client, which
gets it as the pointer. `tactile record` hears the first tap. Last, Tactile runs as `nobody`, the card and devices opened
by seatd, as the example systemd unit runs it. Everything goes to OUTDIR, where
KioskGuestTests (on the host) reads and checks it.

Usage: kiosk.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import subprocess
import sys
import time

from evdev import AbsInfo, UInput
from evdev import ecodes as e

from guest_input import Journal, Pad, Pen, Touchscreen, kill_kiosk_app, seatd_for_nobody, settled, tap_raw, vt_away, vt_back, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]

journal = Journal(OUT)
log, screendump_when = journal.log, journal.screendump_when
GREY, RED, WHITE = 0x585858, 0xFF0000, 0xFFFFFF  # simple-touch's window, its cross, the arrow


def main():
    # Something on the console to come back to: text, and no blinking cursor.
    with open("/dev/tty1", "w") as tty:
        tty.write("\033[2J\033[H\033[?25lTactile kiosk test: the console before Tactile\n" + "#" * 80 + "\n")
    with open("/dev/tty2", "w") as tty:
        tty.write("\033[2J\033[H\033[?25lTactile kiosk test: another VT\n" + "=" * 40 + "\n")
    console_before = screendump_when("console-before", settled())
    touch = Touchscreen("Tactile Test Touchscreen")
    # An absolute pointer (as QEMU's or a KVM switch's tablet), scaled onto the screen.
    axis = AbsInfo(value=0, min=0, max=32767, fuzz=0, flat=0, resolution=0)
    pointer = UInput({e.EV_ABS: [(e.ABS_X, axis), (e.ABS_Y, axis)], e.EV_KEY: [e.BTN_LEFT]}, name="Tactile Test Absolute Pointer")
    log("touchscreen and pointer created")
    # The client's WAYLAND_DEBUG log goes to Tactile's output, which it inherits.
    tactile_log = os.path.join(OUT, "tactile.log")
    # A desk tablet kept to a signature box: its whole area onto 320x200 at (640, 400).
    config = os.path.join(OUT, "kiosk.yaml")
    with open(config, "w") as f:
        f.write("devices:\n  - match: Tactile Desk Tablet\n    region: [640, 400, 320, 200]\n")
    with open(tactile_log, "w") as stream:
        tactile = subprocess.Popen(
            [TACTILE, "serve", "--backend", "drm", "--kiosk", "--inspect", "--socket", "wayland-kiosk", "--config", config, "--", "weston-simple-touch"],
            stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client"))
    wait_for(tactile_log, ".commit()", timeout=120)
    wait_for(tactile_log, "device added: Tactile Test Touchscreen")
    log("tactile shows weston-simple-touch")
    screendump_when("kiosk-before", lambda p: p.colour(10, 10) == GREY and p.colour(599, 499) == GREY)

    # `tactile record` hears the tap as libinput delivered it (its first line, a comment,
    # says it is recording).
    recorded = os.path.join(OUT, "recorded.txt")
    recorder = subprocess.Popen([TACTILE, "record", "-o", recorded], env=dict(os.environ, WAYLAND_DISPLAY="wayland-kiosk"))
    wait_for(recorded, "# positions in global pixels")
    # Raw (1024, 1024) of 0...4095 is (320, 200) on the 1280x800 screen, and in the full
    # screen simple-touch.
    tap_raw(touch, 1024, 1024)
    wait_for(tactile_log, "wl_touch@")
    wait_for(tactile_log, ".up(")
    log("tap delivered")
    wait_for(recorded, "touch up 0")
    recorder.terminate()
    recorder.wait(timeout=10)
    after = screendump_when("kiosk-after", lambda p: p.colour(320, 200) == RED)

    # Away to another VT, whose console shows; back, and the picture and touch return.
    vt_away(tactile_log)
    # tty2's console: its text, black where the app was.
    screendump_when("vt-away", lambda p: p.colour(320, 200) == 0 and p.colour(10, 10) == 0 and p.pixels.strip(b"\0") != b"")
    vt_back(tactile_log, "Tactile Test Touchscreen")
    screendump_when("vt-back", lambda p: p == after)
    # Raw (1536, 1024) is (480, 200), still on simple-touch.
    tap_raw(touch, 1536, 1024)
    wait_for(tactile_log, ".down(", count=2)
    log("tap after the VT switch delivered")

    # The pointer over Tactile's background, right of the app: bochs-drm has no cursor
    # plane, so Tactile's arrow is drawn into the frame. (24576, 16384) of 32768 is (960, 400).
    wait_for(tactile_log, "device added: Tactile Test Absolute Pointer")
    pointer.write(e.EV_ABS, e.ABS_X, 24576); pointer.write(e.EV_ABS, e.ABS_Y, 16384); pointer.syn()
    screendump_when("cursor", lambda p: p.colour(960, 400) == 0 and p.colour(961, 403) == WHITE)

    # A screen tablet's pen, and wev, a second client that knows nothing of tablets: libinput
    # sees a tablet, and wev gets the pen as the pointer (its tip the left button).
    pen = Pen("Tactile Test Pen")
    wev_log = os.path.join(OUT, "wev.log")
    wev = subprocess.Popen(["stdbuf", "-oL", "wev"], stdout=open(wev_log, "w"), stderr=subprocess.STDOUT,
                           env=dict(os.environ, WAYLAND_DISPLAY="wayland-kiosk"))
    wait_for(wev_log, "configure: width:")
    wait_for(tactile_log, "device added: Tactile Test Pen")
    time.sleep(1)
    # Raw (1024, 1024) is (320, 200), on wev's full-screen window.
    pen.stroke((1024, 1024), (1536, 1024))
    wait_for(wev_log, "button: 272 (left), state: 0 (released)", timeout=30)
    log("pen delivered to wev as the pointer")
    wev.terminate()
    wev.wait(timeout=10)

    # The same pen to a client with a tablet seat (tactile-tablet-probe): a tablet tool, on
    # the tablet libinput named, with pressure and tilt, and never its pointer.
    probe_log = os.path.join(OUT, "tablet-probe.log")
    probe = subprocess.Popen([os.path.join(os.path.dirname(TACTILE), "TactileTabletProbe")], stdout=open(probe_log, "w"),
                             stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DISPLAY="wayland-kiosk"))
    wait_for(probe_log, "mapped ")
    time.sleep(1)
    pen.stroke((1024, 1024), (1536, 1024), lean=(30, -20))
    wait_for(probe_log, "proximity_out", timeout=30)
    log("pen delivered to the tablet probe as a tool")
    # Hovering, the barrel button (BTN_STYLUS) pressed and released. It comes in leaning
    # the other way from the stroke's lean: the first tilt the probe hears is this one.
    pen.hover(1024, 1024, lean=(-25, 15)); time.sleep(0.3)
    pen.barrel(True); time.sleep(0.3)
    pen.barrel(False); time.sleep(0.3)
    pen.leave()
    wait_for(probe_log, "proximity_out", count=2, timeout=30)
    # The pen turned over: its eraser end is a second tool, pressing harder and harder.
    pen.erase(1024, 1024)
    wait_for(probe_log, "proximity_out", count=3, timeout=30)
    log("the eraser reached the tablet probe as a second tool")
    # Unplugged: the probe sees the pen's tool and its tablet removed.
    pen.unplug()
    wait_for(probe_log, "tablet removed", timeout=30)
    log("the tablet's removal reached the probe")
    # A pad: its button, ring and strip go to the probe, which has the keyboard focus; then
    # it is unplugged too.
    pad = Pad("Tactile Test Pad")
    wait_for(tactile_log, "device added: Tactile Test Pad")
    wait_for(probe_log, "pad done", timeout=30)
    pad.button(1, True); time.sleep(0.2)
    pad.button(1, False); time.sleep(0.2)
    for value in (18, 36, 0):
        pad.ring(value); time.sleep(0.2)
    for value in (1, 64, 4096, 0):
        pad.strip(value); time.sleep(0.2)
    wait_for(probe_log, "strip stop", timeout=30)
    pad.unplug()
    wait_for(probe_log, "pad removed", timeout=30)
    log("the pad reached the probe and its removal too")
    # A desk tablet with a region: the middle of the tablet is the middle of the box.
    desk = Pen("Tactile Desk Tablet", direct=False)
    wait_for(tactile_log, "device added: Tactile Desk Tablet")
    time.sleep(0.5)
    desk.hover(2048, 2048); time.sleep(0.3)
    desk.leave()
    wait_for(probe_log, "proximity_out", count=4, timeout=30)
    desk.unplug()
    wait_for(probe_log, "tablet removed", count=3, timeout=30)
    log("the desk tablet's pen reached its region")
    probe.terminate()
    probe.wait(timeout=10)

    # Killed as a kiosk app may die: Tactile ends with its status (128 + SIGTERM's 15).
    status = kill_kiosk_app(tactile, tactile_log, "weston-simple-touch", OUT)
    log(f"tactile exited with {status}")
    screendump_when("console-after", lambda p: p == console_before)

    # As examples/tactile-kiosk.service runs it: a user without privileges, with seatd
    # opening the card and the devices.
    seatd, runtime, binary = seatd_for_nobody(OUT, TACTILE)
    with open(os.path.join(OUT, "tactile-seatd.log"), "w") as stream:
        unprivileged = subprocess.run(
            ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", binary, "serve", "--backend", "drm",
             "--socket", "wayland-seatd", "--", "sh", "-c", "sleep 2; exit 5"],
            stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, LIBSEAT_BACKEND="seatd", XDG_RUNTIME_DIR=runtime), timeout=60)
    with open(os.path.join(OUT, "tactile-seatd.status"), "w") as f:
        f.write(f"{unprivileged.returncode}\n")
    seatd.terminate()
    seatd.wait(timeout=10)
    log("done")


if __name__ == "__main__":
    main()
