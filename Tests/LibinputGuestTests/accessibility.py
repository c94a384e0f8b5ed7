#!/usr/bin/python3
"""Touch for every hand: runs inside the QEMU guest (scripts/guest/run), as root.

One uinput touchscreen under `tactile serve --backend drm --kiosk --config access.yaml --
weston-simple-touch` (WAYLAND_DEBUG=client), the file's `accessibility:` rewritten and
Tactile sent SIGHUP between plays, the app running all along:

- hold: `hold-duration: 300`: a 100 ms tap, then a 500 ms press (hold.txt);
- ring: `hold-duration: 4000`: a press, screendumped while its ring fills (ring.ppm, and
  ring-before.ppm before it);
- repeat: `ignore-repeat: 500`: a tremor's three taps in 200 ms, a few px apart (repeat.txt);
- initial, final: `tap-assistance: initial` then `final`: a tap that slides 40 px right and
  10 down in 150 ms (initial.txt, final.txt);
- zoom: `zoom: true`: a three-finger double tap, a tap while zoomed, another double tap
  (zoom.txt; zoom-before.ppm, zoom-in.ppm, zoom-out.ppm);
- then a file with a mistake: the log names its line, and the tremor's taps are still one
  (repeat-after-bad-reload.txt).
Then Tactile without --kiosk, `hold-duration: 300` in its file from the start: the tap and
the press again (hold-desktop.txt), then the zoom again after a reload (zoom-desktop.txt,
zoom-*-desktop.ppm). Last, a kiosk of xev under Xwayland with
`touch.secondary-click: 600`: a finger held still 1 s, then a quick tap (xev.txt, xev's
button lines).
AccessibilityGuestTests (on the host) reads and checks it all.

Usage: accessibility.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import signal
import subprocess
import sys
import time

from guest_input import Journal, Touchscreen, read, reading, settled, tap_at, wait_for, wait_for_after

OUT, TACTILE = sys.argv[1], sys.argv[2]
NAME = "Tactile Accessible Panel"
SOCKET = "wayland-access"
CONFIG = os.path.join(OUT, "access.yaml")
LOG = os.path.join(OUT, "tactile.log")

journal = Journal(OUT)
log = journal.log


def configure(accessibility, reloads, extra=""):
    """Writes the file with these accessibility lines and, past the first, has Tactile read it."""
    with open(CONFIG, "w") as f:
        f.write(f"{extra}accessibility:\n" + "".join(f"  {line}\n" for line in accessibility))
    if reloads:
        tactile.send_signal(signal.SIGHUP)
        wait_for(LOG, "reload: ", count=reloads)
        wait_for(LOG, "touch accommodations: ", count=reloads + 1)


def hold(touch):
    tap_at(touch, 300, 200, 0.100)
    time.sleep(0.5)
    tap_at(touch, 300, 200, 0.500)


def tremor(touch):
    for dx, dy in [(0, 0), (5, -3), (-4, 4)]:
        tap_at(touch, 300 + dx, 200 + dy, 0.030)
        time.sleep(0.040)


def slide(touch):
    x, y = 300, 200
    touch.down(0, *reading(x, y)); touch.frame()
    for step in range(1, 6):
        time.sleep(0.030)
        touch.move(0, *reading(x + 8 * step, y + 2 * step)); touch.frame()
    touch.up(0); touch.frame()


def play(name, scenario, touch):
    """Plays `scenario`, then keeps simple-touch's wl_touch lines of it in NAME.txt."""
    start = len(read(LOG))
    scenario(touch)
    time.sleep(1.0)  # every held touch let go, every line written
    lines = [line for line in read(LOG)[start:].splitlines() if "wl_touch@" in line]
    with open(os.path.join(OUT, f"{name}.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log(f"{name}: {len(lines)} wl_touch lines")


def ring(touch):
    """A press under a 4 s hold, screendumped while the ring fills under it, then lifted
    before the hold counts. On a loaded host a screendump can come back after the hold has
    counted, when the ring is gone: then the press is made again, up to four times."""
    x, y = 500, 300
    journal.screendump("ring-before")

    def shows(picture):
        return picture.colour(x, y) == 0xFFFFFF and picture.colour(x, y - 26) == 0xFFFFFF

    for attempt in range(1, 5):
        touch.down(0, *reading(x, y)); touch.frame()
        picture = journal.screendump_when("ring", shows, timeout=3.5)
        touch.up(0); touch.frame()
        if shows(picture):
            return
        log(f"ring: press {attempt} was not caught while its ring showed")
        time.sleep(1)


def three_fingers(touch, x, y):
    """Three fingers around (x, y), down in one frame and up 80 ms later."""
    for slot, (dx, dy) in enumerate([(-40, 0), (0, -30), (40, 30)]):
        touch.down(slot, *reading(x + dx, y + dy))
    touch.frame()
    time.sleep(0.080)
    for slot in range(3):
        touch.up(slot)
    touch.frame()


def zoom(touch, suffix=""):
    """`zoom: true`: a three-finger double tap around (300, 250), the screen dumped zoomed;
    a tap at the screen's (700, 300), which shows the window's (500, 275); a second double
    tap, the screen dumped restored. zoom-before.ppm is the screen before (each name with
    `suffix`)."""
    before = journal.screendump_when(f"zoom-before{suffix}", settled())
    for _ in range(2):
        three_fingers(touch, 300, 250)
        time.sleep(0.15)
    journal.screendump_when(f"zoom-in{suffix}", lambda p: p.colour(700, 300) == before.colour(500, 275), timeout=10)
    tap_at(touch, 700, 300, 0.100)
    time.sleep(0.5)
    for _ in range(2):
        three_fingers(touch, 300, 250)
        time.sleep(0.15)
    journal.screendump_when(f"zoom-out{suffix}", lambda p: p.colour(700, 300) == before.colour(700, 300), timeout=10)


def start(*mode, app=("weston-simple-touch",), env=None):
    with open(LOG, "a") as stream:
        return subprocess.Popen(
            [TACTILE, "serve", "--backend", "drm", *mode, "--config", CONFIG, "--socket", SOCKET, "--", *app],
            stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client", **(env or {})))


def stop():
    tactile.send_signal(signal.SIGTERM)
    tactile.wait(timeout=60)


def xev(touch):
    """xev under Xwayland, the kiosk's only app, with the secondary click on: a finger held
    still for 1 s, then a 100 ms tap; xev's button lines go to xev.txt."""
    global tactile
    transcript = os.path.join(OUT, "xev.txt")
    with open(CONFIG, "w") as f:
        f.write("touch:\n  secondary-click: 600\n")
    with open(LOG, "a") as f:
        f.write("== xev\n")
    tactile = start("--kiosk", app=("sh", "-c", f"exec stdbuf -oL xev -event button > {transcript} 2>&1"))
    wait_for_after(LOG, "== xev", "X11 apps: DISPLAY=", timeout=120)
    # Mapped and taking input: a tap (a left click) reaches it.
    deadline = time.monotonic() + 60
    while "ButtonRelease" not in read(transcript) and time.monotonic() < deadline:
        tap_at(touch, 100, 100, 0.05)
        time.sleep(1.0)
    time.sleep(1.0)
    start_at = len(read(transcript))
    with open(os.path.join(OUT, "xev-start.txt"), "w") as f:
        f.write(str(start_at))
    tap_at(touch, 120, 110, 1.0)
    time.sleep(0.5)
    tap_at(touch, 140, 110, 0.100)
    time.sleep(1.0)
    stop()
    log("xev: done")


def main():
    global tactile
    with open("/dev/tty1", "w") as tty:
        tty.write("\033[2J\033[H\033[?25l")
    touch = Touchscreen(NAME)
    subprocess.run(["udevadm", "settle"], check=True)
    configure(["hold-duration: 300"], 0)
    tactile = start("--kiosk")
    wait_for(LOG, "array[8])", timeout=120)
    time.sleep(1)
    play("hold", hold, touch)
    reloads = 1
    configure(["hold-duration: 4000"], reloads)
    ring(touch)
    time.sleep(1)
    reloads += 1
    configure(["ignore-repeat: 500"], reloads)
    play("repeat", tremor, touch)
    for mode in ["initial", "final"]:
        reloads += 1
        configure([f"tap-assistance: {mode}"], reloads)
        play(mode, slide, touch)
    reloads += 1
    configure(["zoom: true"], reloads)
    play("zoom", zoom, touch)
    # A mistake in the file: the log says where, and the accommodations in use stay.
    reloads += 1
    configure(["ignore-repeat: 500"], reloads)
    with open(CONFIG, "w") as f:
        f.write("accessibility:\n  ignore-repeat: 500\n  tap-assistance: sideways\n")
    tactile.send_signal(signal.SIGHUP)
    wait_for(LOG, "the settings in use stay")
    play("repeat-after-bad-reload", tremor, touch)
    stop()

    configure(["hold-duration: 300"], 0)
    with open(LOG, "a") as f:
        f.write("== not a kiosk\n")
    tactile = start()
    wait_for_after(LOG, "== not a kiosk", ".attach(wl_buffer", timeout=120)
    time.sleep(1)
    play("hold-desktop", hold, touch)
    with open(CONFIG, "w") as f:
        f.write("accessibility:\n  zoom: true\n")
    tactile.send_signal(signal.SIGHUP)
    wait_for_after(LOG, "== not a kiosk", "zoom: a three-finger double tap magnifies")
    play("zoom-desktop", lambda t: zoom(t, "-desktop"), touch)
    stop()

    xev(touch)
    log("done")


if __name__ == "__main__":
    main()
