#!/usr/bin/python3
"""The libinput guest scenario: runs inside the QEMU guest (scripts/guest/run), as root.

Makes a mouse and a keyboard with uinput, starts `tactile serve --backend libinput`, then
weston-simple-touch and wev, hot-plugs a touchscreen and drives it, the mouse and the keyboard,
unplugs the touchscreen mid-touch and plugs in a calibrated one, taps and scrolls on a
touchpad, swipes three fingers on it (a system gesture of the configuration file), and
switches VT mid-touch and back. Last, a second server opens one device
directly, without a seat manager, and a third runs as `nobody` through seatd. Everything
the clients print goes to OUTDIR, where LibinputGuestTests (on the host) reads and checks it.

Usage: scenario.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import subprocess
import sys
import time

from evdev import AbsInfo, UInput
from evdev import ecodes as e

from guest_input import Journal, Touchscreen, eventually, multitouch, place, read, seatd_for_nobody, wait_for, wait_for_after

OUT, TACTILE = sys.argv[1], sys.argv[2]
SOCKET = "wayland-guest"

CONFIG = """\
keyboard:
  layout: de
devices:
  - match: Tactile Test Mouse
    accel-profile: flat
    accel-speed: 0
  - match: Tactile Calibrated Touchscreen
    output: HEADLESS-1
    calibration: [-1, 0, 1, 0, 1, 0]
  - match: Tactile Test Touchpad
    tap-to-click: true
    natural-scroll: true
trace: true
gestures:
  - name: touchpad-left
    kind: swipe
    device: touchpad
    fingers: 3
    direction: left
    distance: 100
"""

journal = Journal(OUT)
log = journal.log


class Touchpad:
    """A touchpad (BTN_TOOL_FINGER, no INPUT_PROP_DIRECT), 100 x 66 mm at 12 units per mm,
    with three slots."""

    def __init__(self, name):
        x = AbsInfo(value=0, min=0, max=1200, fuzz=0, flat=0, resolution=12)
        y = AbsInfo(value=0, min=0, max=800, fuzz=0, flat=0, resolution=12)
        keys = [e.BTN_LEFT, e.BTN_RIGHT, e.BTN_TOUCH, e.BTN_TOOL_FINGER, e.BTN_TOOL_DOUBLETAP, e.BTN_TOOL_TRIPLETAP]
        self.device = multitouch(name, x, y, 3, keys, e.INPUT_PROP_POINTER)
        self.tracking = 0

    def fingers(self, positions):
        """Puts len(positions) fingers at these (x, y) (None lifts a slot), as one frame."""
        down = 0
        for slot, position in enumerate(positions):
            self.device.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
            if position is None:
                self.device.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
                continue
            down += 1
            self.tracking += 1
            self.device.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, self.tracking)
            place(self.device, slot, *position)
        self.device.write(e.EV_KEY, e.BTN_TOUCH, 1 if down else 0)
        self.device.write(e.EV_KEY, e.BTN_TOOL_FINGER, 1 if down == 1 else 0)
        self.device.write(e.EV_KEY, e.BTN_TOOL_DOUBLETAP, 1 if down == 2 else 0)
        self.device.write(e.EV_KEY, e.BTN_TOOL_TRIPLETAP, 1 if down == 3 else 0)
        self.device.syn()

    def move(self, positions):
        """Moves the fingers that are down, keeping their tracking ids."""
        for slot, position in enumerate(positions):
            place(self.device, slot, *position)
        self.device.syn()


def spawn(name, argv, env=None):
    stream = open(os.path.join(OUT, name + ".log"), "w")
    environment = dict(os.environ, WAYLAND_DISPLAY=SOCKET, **(env or {}))
    return subprocess.Popen(argv, stdout=stream, stderr=subprocess.STDOUT, env=environment)


def main():
    config = os.path.join(OUT, "guest.yaml")
    with open(config, "w") as f:
        f.write(CONFIG)
    mouse = UInput({e.EV_REL: [e.REL_X, e.REL_Y, e.REL_WHEEL, e.REL_WHEEL_HI_RES],
                    e.EV_KEY: [e.BTN_LEFT, e.BTN_RIGHT, e.BTN_MIDDLE]}, name="Tactile Test Mouse")
    keyboard = UInput({e.EV_KEY: list(range(e.KEY_ESC, e.KEY_MENU + 1))}, name="Tactile Test Keyboard")
    log("mouse and keyboard created")

    tactile_log = os.path.join(OUT, "tactile.log")
    tactile = spawn("tactile", [TACTILE, "serve", "--backend", "libinput", "--socket", SOCKET,
                                "--output-size", "1280x800", "--config", config, "--log-level", "debug"])
    wait_for(tactile_log, "device added: Tactile Test Keyboard")
    wait_for(tactile_log, "device added: Tactile Test Mouse")
    wait_for(tactile_log, "listening on " + SOCKET)
    log("tactile is up with the mouse and the keyboard")

    # The first toplevel goes to (0, 0), the second to (32, 32): weston-simple-touch (600x500)
    # first, then wev (640x480) above it, leaving simple-touch a 32-pixel strip on the left.
    simple = spawn("weston-simple-touch", ["weston-simple-touch"], {"WAYLAND_DEBUG": "client"})
    wait_for(os.path.join(OUT, "weston-simple-touch.log"), ".attach(wl_buffer@")
    wev_log = os.path.join(OUT, "wev.log")
    wev = spawn("wev", ["stdbuf", "-oL", "wev"])
    # Another client's new window does not take the keyboard from simple-touch's: wev gets it
    # when it is first touched, below.
    wait_for(wev_log, "xdg_toplevel] configure", 2)  # the second: after its first buffer mapped it
    log("clients mapped")

    touch = Touchscreen("Tactile Test Touchscreen")
    wait_for(wev_log, "capabilities: pointer keyboard touch")
    log("touchscreen plugged in")

    touch.down(0, 1024, 1024); touch.frame()
    touch.up(0); touch.frame()
    wait_for(wev_log, "wl_touch] up", 1)
    log("tap")

    touch.down(0, 2048, 2048); touch.frame()
    touch.move(0, 3072, 2048); touch.frame()
    touch.move(0, 3584, 3584); touch.frame()
    touch.up(0); touch.frame()
    wait_for(wev_log, "wl_touch] up", 2)
    log("drag out of the window")

    touch.down(0, 1024, 1536); touch.down(1, 2048, 1536); touch.frame()
    touch.move(0, 1024, 2048); touch.move(1, 2048, 2048); touch.frame()
    touch.up(0); touch.up(1); touch.frame()
    wait_for(wev_log, "wl_touch] up", 4)
    log("two fingers")

    mouse.write(e.EV_REL, e.REL_X, -100); mouse.write(e.EV_REL, e.REL_Y, -50); mouse.syn()
    wait_for(wev_log, "wl_pointer] enter")
    mouse.write(e.EV_KEY, e.BTN_LEFT, 1); mouse.syn()
    mouse.write(e.EV_KEY, e.BTN_LEFT, 0); mouse.syn()
    wait_for(wev_log, "state: 0 (released)")
    mouse.write(e.EV_REL, e.REL_WHEEL, -1); mouse.write(e.EV_REL, e.REL_WHEEL_HI_RES, -120); mouse.syn()
    wait_for(wev_log, "wl_pointer] axis:")
    log("pointer: motion, click, wheel")

    # An absolute pointer (as QEMU's or a KVM switch's tablet) is scaled onto the output.
    pointer_axis = AbsInfo(value=0, min=0, max=32767, fuzz=0, flat=0, resolution=0)
    tablet = UInput({e.EV_ABS: [(e.ABS_X, pointer_axis), (e.ABS_Y, pointer_axis)],
                     e.EV_KEY: [e.BTN_LEFT, e.BTN_RIGHT, e.BTN_MIDDLE]}, name="Tactile Test Absolute Pointer")
    wait_for(tactile_log, "device added: Tactile Test Absolute Pointer")
    tablet.write(e.EV_ABS, e.ABS_X, 16384); tablet.write(e.EV_ABS, e.ABS_Y, 8192); tablet.syn()
    wait_for(wev_log, "wl_pointer] motion")
    log("absolute pointer: motion")

    for code, value in [(e.KEY_LEFTSHIFT, 1), (e.KEY_A, 1), (e.KEY_A, 0), (e.KEY_LEFTSHIFT, 0), (e.KEY_Y, 1), (e.KEY_Y, 0)]:
        keyboard.write(e.EV_KEY, code, value); keyboard.syn()
    wait_for(wev_log, "sym: z")
    log("shift+a, then y on a German layout")

    # One finger on each client at once: each client hears only of its own.
    touch.down(0, 64, 1024); touch.down(1, 2048, 1024); touch.frame()
    touch.up(0); touch.up(1); touch.frame()
    wait_for(wev_log, "wl_touch] up", 5)
    log("one finger on each client")

    touch.down(0, 1024, 2048); touch.frame()
    wait_for(wev_log, "wl_touch] down", 6)
    touch.device.close()
    wait_for(wev_log, "wl_touch] cancel")
    wait_for(wev_log, "capabilities: pointer keyboard \n", 2)
    log("touchscreen unplugged mid-touch")

    calibrated = Touchscreen("Tactile Calibrated Touchscreen")
    wait_for(wev_log, "capabilities: pointer keyboard touch", 2)
    calibrated.down(0, 3072, 1024); calibrated.frame()
    calibrated.up(0); calibrated.frame()
    wait_for(wev_log, "wl_touch] up", 6)
    log("calibrated touchscreen: tap")

    # A touchpad with tap-to-click and natural scrolling from the configuration file (libinput
    # turns both off by default): a tap clicks; two fingers moving up scroll down, by finger.
    pad = Touchpad("Tactile Test Touchpad")
    wait_for(tactile_log, "device added: Tactile Test Touchpad")
    pad.fingers([(600, 400)])
    time.sleep(0.05)
    pad.fingers([None])
    wait_for(wev_log, "button: 272 (left), state: 0 (released)", 3)
    log("touchpad: tap")
    time.sleep(0.5)  # past libinput's tap-and-drag window
    pad.fingers([(500, 600), (700, 600)])
    for step in range(1, 21):
        time.sleep(0.012)
        pad.move([(500, 600 - 12 * step), (700, 600 - 12 * step)])
    time.sleep(0.012)
    pad.fingers([None, None])
    wait_for(wev_log, "axis_stop: time:")
    log("touchpad: two-finger scroll")

    # Three fingers swiping left: libinput's swipe, which the configured touchpad gesture
    # wins from wev (under the pointer), whose swipe then ends cancelled.
    time.sleep(0.3)
    pad.fingers([(700, 400), (850, 400), (1000, 400)])
    for step in range(1, 31):
        time.sleep(0.012)
        pad.move([(700 - 15 * step, 400), (850 - 15 * step, 400), (1000 - 15 * step, 400)])
    time.sleep(0.012)
    pad.fingers([None, None, None])
    wait_for(tactile_log, "gesture 'touchpad-left' ended")
    log("touchpad: three-finger swipe")

    # Switching to another VT mid-touch: the seat manager (libseat's built-in one, as root)
    # takes the devices away, and the touch is cancelled. Back on our VT, input works again.
    calibrated.down(0, 3072, 2048); calibrated.frame()
    wait_for_after(wev_log, "288.000000, 368.000000", "wl_touch] frame")
    subprocess.run(["busybox", "chvt", "2"], check=True)
    wait_for(wev_log, "capabilities:  none")
    calibrated.up(0); calibrated.frame()
    subprocess.run(["busybox", "chvt", "1"], check=True)
    wait_for(tactile_log, "device added: Tactile Calibrated Touchscreen", 2)
    calibrated.down(0, 3072, 2560); calibrated.frame()
    calibrated.up(0); calibrated.frame()
    wait_for_after(wev_log, "288.000000, 468.000000", "wl_touch] up")
    log("VT switch away mid-touch, and back")
    # wev was waited for at each step; simple-touch hears the same capabilities events at its
    # own pace, and a loaded machine once stopped it before it read the last one.
    simple_log = os.path.join(OUT, "weston-simple-touch.log")
    eventually(lambda: read(simple_log).count(".capabilities(") >= 6, "simple-touch's sixth wl_seat.capabilities", journal)

    for process in (wev, simple, tactile):
        process.terminate()
        process.wait(timeout=10)
    log("clients and tactile stopped")

    # Without a seat manager (libseat is sent to a seatd that is not running), root opens
    # the one device named on the command line itself.
    direct = spawn("tactile-direct", [TACTILE, "serve", "--backend", "libinput", "--socket", "wayland-direct",
                                      "--input-device", keyboard.device.path], {"LIBSEAT_BACKEND": "seatd"})
    wait_for(os.path.join(OUT, "tactile-direct.log"), "listening on wayland-direct")
    direct.terminate()
    direct.wait(timeout=10)
    log("direct access")

    # As a kiosk user without privileges: seatd grants the seat and opens the devices.
    seatd, runtime, binary = seatd_for_nobody(OUT, TACTILE)
    unprivileged = spawn("tactile-seatd", ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                           binary, "serve", "--backend", "libinput", "--socket", "wayland-seatd"],
                         {"LIBSEAT_BACKEND": "seatd", "XDG_RUNTIME_DIR": runtime})
    wait_for(os.path.join(OUT, "tactile-seatd.log"), "listening on wayland-seatd")
    for process in (unprivileged, seatd):
        process.terminate()
        process.wait(timeout=10)
    log("done")


if __name__ == "__main__":
    main()
