"""Input devices, waits and the unprivileged set-up shared by the guest scenarios.

Runs inside the QEMU guest: the devices are uinput devices that the kernel, udev and libinput
see as hardware.
"""
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request

from evdev import AbsInfo, UInput
from evdev import ecodes as e

AXIS_MAX = 4095  # the touchscreens' X and Y both range over 0...4095

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Journal:
    """OUTDIR/driver.log: what a scenario did, each line stamped with the seconds since it
    began, and the QEMU screendumps it takes (scripts/guest/screendump), logged there."""

    def __init__(self, out):
        self.out = out
        self.started = time.monotonic()
        self.file = open(os.path.join(out, "driver.log"), "w", buffering=1)

    def log(self, message):
        self.file.write(f"{time.monotonic() - self.started:7.2f} {message}\n")

    def screendump(self, name, device=None):
        """OUTDIR/NAME.ppm, of the display `device` names (QEMU's id), else the first."""
        subprocess.run([os.path.join(REPO, "scripts/guest/screendump"), name] + ([device] if device else []), check=True)
        self.log(f"screendump {name}")

    def screendump_when(self, name, shows, timeout=30, device=None):
        """Screendumps NAME until `shows(picture)` holds: the screen has caught up with what
        the scenario just did, however loaded the machine. After `timeout` s the last picture
        stays, logged, for the host's checks to fail on with what it shows."""
        deadline = time.monotonic() + timeout
        while True:
            self.screendump(name, device)
            picture = Picture(os.path.join(self.out, f"{name}.ppm"))
            if shows(picture):
                return picture
            if time.monotonic() > deadline:
                self.log(f"screendump {name}: still not as expected after {timeout} s; kept as it is")
                return picture
            time.sleep(0.2)


class Picture:
    """A QEMU screendump (binary PPM: "P6", width, height, 255, then RGB rows)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        # The header's four fields, each ended by one whitespace byte (the pixels may begin
        # with bytes that look like whitespace: Tactile's background is 0x202020).
        fields, at = [], 0
        while len(fields) < 4:
            while data[at:at + 1].isspace():
                at += 1
            end = at
            while not data[end:end + 1].isspace():
                end += 1
            fields.append(data[at:end])
            at = end + 1
        assert fields[0] == b"P6" and fields[3] == b"255", f"not a P6 PPM: {path}"
        self.width, self.height = int(fields[1]), int(fields[2])
        self.pixels = data[at:]

    def colour(self, x, y):
        """0xRRGGBB at (x, y); None outside the picture (a screen in a smaller mode)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        i = (y * self.width + x) * 3
        r, g, b = self.pixels[i:i + 3]
        return r << 16 | g << 8 | b

    def __eq__(self, other):
        return (self.width, self.height, self.pixels) == (other.width, other.height, other.pixels)


def settled():
    """For screendump_when: holds once two pictures in a row are the same (a console that has
    finished drawing, where nothing in particular is expected)."""
    previous = []

    def shows(picture):
        same = bool(previous) and previous[0] == picture
        previous[:] = [picture]
        return same
    return shows


def eventually(holds, what, journal, timeout=30):
    """Polls `holds()` until it is true; after `timeout` s logs `what` as never seen and goes
    on, so that the host's checks fail on what the scenario then records. Instead of a fixed
    sleep, which a loaded machine outlasts."""
    deadline = time.monotonic() + timeout
    while not holds():
        if time.monotonic() > deadline:
            journal.log(f"{what}: not seen within {timeout} s")
            return False
        time.sleep(0.1)
    return True


def metrics(path):
    """GET `path` of the kiosk's metrics endpoint (`metrics.listen: 127.0.0.1:9464`): the
    status and the body, or 0 and why when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:9464{path}", timeout=5) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError as error:
        return 0, str(error)


def read(path):
    """The file's text, or "" while it does not exist."""
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def reading(x, y):
    """What a `Touchscreen` (0...4095 on both axes; libinput divides by 4096) reads under the
    layout point (x, y) of the guest's 1280x800 screen."""
    return round(x * 4096 / 1280), round(y * 4096 / 800)


def tap_at(touch, x, y, hold):
    """One finger down at the layout point (x, y) and up `hold` seconds later, each its own frame."""
    touch.down(0, *reading(x, y)); touch.frame()
    time.sleep(hold)
    touch.up(0); touch.frame()


def tap_raw(touch, x, y):
    """One finger down at the raw (x, y) and up at once, each its own frame."""
    touch.down(0, x, y); touch.frame()
    touch.up(0); touch.frame()


def vt_away(tactile_log):
    """Switches to VT 2 and waits until Tactile has let the seat go."""
    subprocess.run(["busybox", "chvt", "2"], check=True)
    wait_for(tactile_log, "seat disabled")


def vt_back(tactile_log, device):
    """Switches back to VT 1 and waits until Tactile has the seat and `device` again."""
    subprocess.run(["busybox", "chvt", "1"], check=True)
    wait_for(tactile_log, "seat enabled")
    wait_for(tactile_log, f"device added: {device}", count=2)


def kill_kiosk_app(tactile, tactile_log, app, out):
    """Kills the kiosk app `app` as a kiosk app may die (SIGTERM) and waits for Tactile, which
    ends with the app's status (128 + 15); the status goes to OUTDIR/tactile.status."""
    with open(tactile_log) as f:
        pid = int(f.read().split(f"started {app} (pid ")[1].split(")")[0])
    os.kill(pid, 15)
    status = tactile.wait(timeout=60)
    with open(os.path.join(out, "tactile.status"), "w") as f:
        f.write(f"{status}\n")
    return status


def wait_for(path, text, count=1, timeout=60):
    """Waits until `text` occurs `count` times in the file at `path`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if read(path).count(text) >= count:
            return
        time.sleep(0.05)
    raise SystemExit(f"timed out after {timeout} s waiting for {count}x {text!r} in {path}")


def multitouch(name, x, y, slots, keys, prop):
    """A type B multitouch device: slots with tracking ids, positions, and the legacy axes."""
    return UInput(
        {
            e.EV_KEY: keys,
            e.EV_ABS: [
                (e.ABS_X, x), (e.ABS_Y, y),
                (e.ABS_MT_SLOT, AbsInfo(0, 0, slots - 1, 0, 0, 0)),
                (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
                (e.ABS_MT_POSITION_X, x), (e.ABS_MT_POSITION_Y, y),
            ],
        },
        name=name, input_props=[prop],
    )


def place(device, slot, x, y):
    """Moves the finger in `slot`; the legacy single-touch axes follow the first slot."""
    device.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
    device.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
    device.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
    if slot == 0:
        device.write(e.EV_ABS, e.ABS_X, x)
        device.write(e.EV_ABS, e.ABS_Y, y)


def wait_for_after(path, marker, text, timeout=60):
    """Waits until `text` occurs after the last occurrence of `marker` in the file."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(path, errors="replace") as f:
            content = f.read()
        at = content.rfind(marker)
        if at >= 0 and text in content[at:]:
            return
        time.sleep(0.05)
    raise SystemExit(f"timed out after {timeout} s waiting for {text!r} after {marker!r} in {path}")


class Touchscreen:
    """A touchscreen: INPUT_PROP_DIRECT makes libinput treat a multitouch device as one."""

    def __init__(self, name, resolution=(0, 0)):
        """`resolution`: units per millimetre on X and Y, which give libinput its size (none
        without)."""
        x, y = (AbsInfo(value=0, min=0, max=AXIS_MAX, fuzz=0, flat=0, resolution=r) for r in resolution)
        self.device = multitouch(name, x, y, 10, [e.BTN_TOUCH], e.INPUT_PROP_DIRECT)
        self.tracking = 0
        self.down_slots = set()

    def down(self, slot, x, y):
        self.tracking += 1
        self.device.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
        self.device.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, self.tracking)
        place(self.device, slot, x, y)
        if not self.down_slots:
            self.device.write(e.EV_KEY, e.BTN_TOUCH, 1)
        self.down_slots.add(slot)

    def move(self, slot, x, y):
        place(self.device, slot, x, y)

    def up(self, slot):
        self.device.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
        self.device.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
        self.down_slots.discard(slot)
        if not self.down_slots:
            self.device.write(e.EV_KEY, e.BTN_TOUCH, 0)

    def frame(self):
        self.device.syn()


class Pen:
    """A screen tablet's pen with an eraser end: libinput takes a device with BTN_TOOL_PEN
    (and BTN_TOOL_RUBBER), absolute X and Y that have a resolution (or it ignores the
    device), pressure and tilt, and INPUT_PROP_DIRECT, as a tablet mapped to the screen;
    without it (`direct=False`), a desk tablet."""

    def __init__(self, name, direct=True):
        xy = AbsInfo(value=0, min=0, max=AXIS_MAX, fuzz=0, flat=0, resolution=16)
        tilt = AbsInfo(value=0, min=-60, max=60, fuzz=0, flat=0, resolution=0)
        self.device = UInput(
            {
                e.EV_KEY: [e.BTN_TOOL_PEN, e.BTN_TOOL_RUBBER, e.BTN_TOUCH, e.BTN_STYLUS],
                e.EV_ABS: [(e.ABS_X, xy), (e.ABS_Y, xy), (e.ABS_PRESSURE, AbsInfo(0, 0, 4095, 0, 0, 0)),
                           (e.ABS_TILT_X, tilt), (e.ABS_TILT_Y, tilt)],
            },
            name=name, input_props=[e.INPUT_PROP_DIRECT] if direct else [],
        )

    def hover(self, x, y, end=e.BTN_TOOL_PEN, lean=None):
        """Into proximity at (x, y), or moving there while in it; `end` is BTN_TOOL_RUBBER
        for the eraser; `lean`, a tilt it comes with (in the same report)."""
        if lean:
            self.device.write(e.EV_ABS, e.ABS_TILT_X, lean[0])
            self.device.write(e.EV_ABS, e.ABS_TILT_Y, lean[1])
        self.device.write(e.EV_ABS, e.ABS_X, x)
        self.device.write(e.EV_ABS, e.ABS_Y, y)
        self.device.write(e.EV_KEY, end, 1)
        self.device.syn()

    def lean(self, x, y):
        """Tilts the pen (in the device's tilt units, -60 to 60)."""
        self.device.write(e.EV_ABS, e.ABS_TILT_X, x)
        self.device.write(e.EV_ABS, e.ABS_TILT_Y, y)
        self.device.syn()

    def tip(self, down, pressure=2048):
        self.device.write(e.EV_ABS, e.ABS_PRESSURE, pressure if down else 0)
        self.device.write(e.EV_KEY, e.BTN_TOUCH, 1 if down else 0)
        self.device.syn()

    def leave(self, end=e.BTN_TOOL_PEN):
        self.device.write(e.EV_KEY, end, 0)
        self.device.syn()

    def press(self, pressure):
        """With the tip down, presses harder or softer (0 to 4095)."""
        self.device.write(e.EV_ABS, e.ABS_PRESSURE, pressure)
        self.device.syn()

    def barrel(self, pressed):
        """The barrel button, BTN_STYLUS."""
        self.device.write(e.EV_KEY, e.BTN_STYLUS, 1 if pressed else 0)
        self.device.syn()

    def unplug(self):
        self.device.close()

    def stroke(self, start, end, lean=None):
        """Into proximity at `start` (leaning by `lean`, if given), tip down, on to `end`, tip
        up, and out of proximity, 200 ms between steps."""
        self.hover(*start); time.sleep(0.2)
        if lean:
            self.lean(*lean); time.sleep(0.2)
        self.tip(True); time.sleep(0.2)
        self.hover(*end); time.sleep(0.2)
        self.tip(False); time.sleep(0.2)
        self.leave()

    def erase(self, x, y):
        """The eraser end near at (x, y), down lightly, pressed harder twice, up and away,
        200 ms between steps."""
        self.hover(x, y, end=e.BTN_TOOL_RUBBER); time.sleep(0.2)
        self.tip(True, pressure=800); time.sleep(0.2)
        for pressure in (1600, 3200):
            self.press(pressure); time.sleep(0.2)
        self.tip(False); time.sleep(0.2)
        self.leave(end=e.BTN_TOOL_RUBBER)


class Pad:
    """A tablet's pad: buttons, a touch ring and a touch strip. udev calls a device a tablet
    pad when it has BTN_0, BTN_STYLUS and absolute X and Y but no BTN_TOOL_PEN, as Wacom's
    pad devices do; libinput counts ABS_WHEEL as a ring and ABS_RX as a strip."""

    def __init__(self, name):
        xy = AbsInfo(value=0, min=0, max=1, fuzz=0, flat=0, resolution=0)
        self.device = UInput(
            {
                e.EV_KEY: [e.BTN_0, e.BTN_1, e.BTN_2, e.BTN_3, e.BTN_STYLUS],
                e.EV_ABS: [(e.ABS_X, xy), (e.ABS_Y, xy), (e.ABS_WHEEL, AbsInfo(0, 0, 71, 0, 0, 0)),
                           (e.ABS_RX, AbsInfo(0, 0, 4096, 0, 0, 0)), (e.ABS_MISC, AbsInfo(0, 0, 0, 0, 0, 0))],
            },
            name=name,
        )

    def button(self, index, pressed):
        """BTN_0 + index."""
        self.device.write(e.EV_KEY, e.BTN_0 + index, 1 if pressed else 0)
        self.device.syn()

    def ring(self, value):
        """The finger on the ring at raw `value` (1 to 71); 0 lifts it."""
        self.touch(e.ABS_WHEEL, value)

    def strip(self, value):
        """The finger on the strip at raw `value`, one bit set (1 to 4096); 0 lifts it."""
        self.touch(e.ABS_RX, value)

    def touch(self, axis, value):
        # As Wacom's driver does: ABS_MISC holds the pad's device id (15) while a finger
        # is on a ring or strip and 0 once it lifts, which is how libinput tells a lift
        # from a ring turned to 0.
        self.device.write(e.EV_ABS, axis, value)
        self.device.write(e.EV_ABS, e.ABS_MISC, 15 if value else 0)
        self.device.syn()

    def unplug(self):
        self.device.close()


def seatd_for_nobody(out, tactile):
    """Starts seatd, which grants `nobody` the seat and opens the devices it may not open
    itself; returns seatd's process, a runtime directory for `nobody`, and a copy of the
    Tactile binary where `nobody` may run it."""
    seatd = subprocess.Popen(["seatd", "-g", "nogroup"], stdout=open(os.path.join(out, "seatd.log"), "w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while not os.path.exists("/run/seatd.sock") and time.monotonic() < deadline:
        time.sleep(0.05)
    runtime = "/tmp/runtime-nobody"
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    os.chown(runtime, 65534, 65534)
    binary = "/tmp/tactile-unprivileged"
    shutil.copy(tactile, binary)
    return seatd, runtime, binary
