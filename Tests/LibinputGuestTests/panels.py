#!/usr/bin/python3
"""Touch panels that misbehave: runs inside the QEMU guest (scripts/guest/run), as root.

One uinput touchscreen, scripted to fail as panels in the field do, under `tactile serve
--backend drm --kiosk --config panels.yaml -- weston-simple-touch` (WAYLAND_DEBUG=client).
Each fault is played twice: with the file's filters for the panel off, then, after the file
is rewritten and Tactile is sent SIGHUP, on:

- bounce: a 40 ms tap, a 15 ms gap, a 60 ms re-touch 2 px away (debounce: 80);
- jitter: a finger held still with +-3 px of noise, then a real drag (jitter: 8);
- ghost: one-frame contacts in a corner, each followed by a real 150 ms tap (min-contact: 30);
- dead-zone: a tap in the bottom right corner, then one beside it (dead-zones);
- stick: a contact that never lifts (stuck-after: 2), then a tap.

simple-touch's wl_touch lines of each play go to FAULT-without.txt and FAULT-with.txt; the
health answer and the metrics after the stuck contact to health-stuck.txt and
metrics-stuck.txt. costs.txt says what debounce adds to each lift and min-contact to each
down, on the guest's clocks (Tactile is the release build, as a kiosk runs it). Then a file with a mistake is loaded by SIGHUP: the log names its line,
and a bounce is still one tap (bounce-after-bad-reload.txt). Last, Tactile starts again
without --kiosk (simple-touch a window of its own size, not full screen) with the debounce
in its file from the start, and the bounce is one tap there too (bounce-desktop.txt).
Before that, `tactile panel-check` measures the kiosk's panel while it misbehaves at each
step, and writes the settings that repair it (panel_check below).
PanelGuestTests (on the host) reads and checks it all.

Usage: panels.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import re
import signal
import subprocess
import sys
import time

from guest_input import Journal, Touchscreen, metrics, read, reading, tap_at, wait_for, wait_for_after

OUT, TACTILE = sys.argv[1], sys.argv[2]
NAME = "Tactile Faulty Panel"
SOCKET = "wayland-panels"
CONFIG = os.path.join(OUT, "panels.yaml")
LOG = os.path.join(OUT, "tactile.log")

journal = Journal(OUT)
log = journal.log

# The filters that repair each fault; "off" settings keep them out of the way (stuck-after
# is on by default).
OFF = "stuck-after: 0"
FIXES = {
    "bounce": "debounce: 80",
    "jitter": "jitter: 8",
    "ghost": "min-contact: 30",
    "dead-zone": "dead-zones: [[500, 400, 100, 100]]",
    "stick": "stuck-after: 2",
}


def configure(setting, reloads):
    """Writes the file with `setting` for the panel and, past the first, has Tactile read it."""
    with open(CONFIG, "w") as f:
        f.write(f"metrics:\n  listen: 127.0.0.1:9464\ndevices:\n  - match: {NAME}\n    {setting}\n")
    if reloads:
        tactile.send_signal(signal.SIGHUP)
        wait_for(LOG, "reload: ", count=reloads)


def bounce(touch):
    x, y = 300, 200
    touch.down(0, *reading(x, y)); touch.frame()
    time.sleep(0.040)
    touch.up(0); touch.frame()
    time.sleep(0.015)
    touch.down(0, *reading(x + 2, y)); touch.frame()
    time.sleep(0.060)
    touch.up(0); touch.frame()


def jitter(touch):
    x, y = 200, 300
    touch.down(0, *reading(x, y)); touch.frame()
    for dx, dy in [(3, 0), (-3, 2), (2, -3), (-2, 3), (3, 1), (0, -3), (-3, 0), (1, 2)]:
        time.sleep(0.016)
        touch.move(0, *reading(x + dx, y + dy)); touch.frame()
    for step in range(1, 11):
        time.sleep(0.016)
        touch.move(0, *reading(x + 12 * step, y)); touch.frame()
    touch.up(0); touch.frame()


def ghost(touch):
    for _ in range(3):
        touch.down(0, *reading(580, 480)); touch.frame()
        touch.up(0); touch.frame()
        time.sleep(0.3)
        tap_at(touch, 400, 250, 0.150)
        time.sleep(0.3)


def dead_zone(touch):
    tap_at(touch, 550, 450, 0.100)
    time.sleep(0.2)
    tap_at(touch, 450, 450, 0.100)


def stick(touch):
    touch.down(0, *reading(100, 100)); touch.frame()
    time.sleep(3.5)
    if FIXES["stick"] in read(CONFIG):
        status, body = metrics("/healthz")
        with open(os.path.join(OUT, "health-stuck.txt"), "w") as f:
            f.write(f"{status}\n{body}")
        with open(os.path.join(OUT, "metrics-stuck.txt"), "w") as f:
            f.write(metrics("/metrics")[1])
    touch.up(0); touch.frame()
    time.sleep(0.2)
    tap_at(touch, 120, 100, 0.100)


FAULTS = [("bounce", bounce), ("jitter", jitter), ("ghost", ghost), ("dead-zone", dead_zone), ("stick", stick)]


def delays(name, kind, at=None):
    """How long after its own time (the device's clock) simple-touch read each `kind` event of
    the transcript NAME.txt (on its clock, WAYLAND_DEBUG's): the clocks differ by a constant,
    so only differences between these mean anything."""
    found = []
    for line in read(os.path.join(OUT, f"{name}.txt")).splitlines():
        match = re.match(r"\[\s*([0-9.]+)\] wl_touch@\d+\.(down|up)\((\d+), (\d+)(?:, wl_surface@\d+, \d+, ([0-9.]+), ([0-9.]+))?", line)
        if match and match.group(2) == kind and (at is None or (float(match.group(5)), float(match.group(6))) == at):
            found.append(float(match.group(1)) - int(match.group(4)))
    return found


def cost(kind, without, with_, at=None):
    """What a filter adds to each `kind` event (at `at`, for downs): the mean delay with it
    less the mean without."""
    before = [d for name in without for d in delays(name, kind, at)]
    after = [d for name in with_ for d in delays(name, kind, at)]
    if not before or not after:
        return f"no {kind} events to compare"
    return f"{sum(after) / len(after) - sum(before) / len(before):.1f} ms ({len(after)} against {len(before)})"


def play(name, fault, touch, suffix):
    """Plays `fault`, then keeps simple-touch's wl_touch lines of it in NAME-SUFFIX.txt."""
    start = len(read(LOG))
    fault(touch)
    time.sleep(1.0)  # every held lift let go, every line written
    lines = [line for line in read(LOG)[start:].splitlines() if "wl_touch@" in line]
    with open(os.path.join(OUT, f"{name}-{suffix}.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log(f"{name} {suffix}: {len(lines)} wl_touch lines")


def panel_check(touch):
    """`tactile panel-check --quiet 8 --write checked.yaml` against the kiosk, the panel scripted
    to misbehave at each step it asks for: noise on the still finger, three of the ten taps
    bounced, a line at 125 Hz, three one-frame ghosts in a corner and a contact that stays
    down. Its output goes to panel-check.txt; the file it wrote is checked.yaml; what the
    screen shows, its cross and its blank, to panel-check-cross.ppm and panel-check-blank.ppm."""
    written = os.path.join(OUT, "checked.yaml")
    with open(written, "w") as f:
        f.write("# the kiosk's own file\ndevices:\n  - match: Other Panel\n    jitter: 2\n")
    check = subprocess.Popen([TACTILE, "panel-check", "--quiet", "8", "--write", written, "--socket", SOCKET],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    transcript = []

    def until(text):
        while True:
            line = check.stdout.readline()
            if not line:
                raise SystemExit(f"panel-check ended before {text!r}:\n" + "".join(transcript))
            transcript.append(line)
            if text in line:
                time.sleep(0.5)  # its screen shown
                return

    until("step 1 of 4")
    journal.screendump_when("panel-check-cross", lambda p: p.colour(639, 399) == 0x000000)
    touch.down(0, *reading(640, 400)); touch.frame()
    for dx, dy in [(3, 2), (-2, 3), (1, -3), (-3, -1), (2, 2)] * 5:
        time.sleep(0.1)
        touch.move(0, *reading(640 + dx, 400 + dy)); touch.frame()
    touch.up(0); touch.frame()
    until("step 2 of 4")
    for k in range(10):
        tap_at(touch, 640, 400, 0.060)
        if k < 3:
            time.sleep(0.015)
            tap_at(touch, 642, 400, 0.040)
        time.sleep(0.3)
    until("step 3 of 4")
    touch.down(0, *reading(320, 400)); touch.frame()
    for k in range(1, 51):
        time.sleep(0.008)
        touch.move(0, *reading(320 + 6 * k, 400)); touch.frame()
    touch.up(0); touch.frame()
    until("step 4 of 4")
    for _ in range(3):
        touch.down(0, *reading(1250, 780)); touch.frame()
        touch.up(0); touch.frame()
        time.sleep(0.5)
    journal.screendump_when("panel-check-blank", lambda p: p.colour(639, 399) == 0xFFFFFF)
    touch.down(0, *reading(100, 700)); touch.frame()
    rest, _ = check.communicate(timeout=120)
    transcript.append(rest)
    touch.up(0); touch.frame()
    with open(os.path.join(OUT, "panel-check.txt"), "w") as f:
        f.write("".join(transcript))
    log(f"panel-check: status {check.returncode}")


def start(*mode):
    with open(LOG, "a") as stream:
        return subprocess.Popen(
            [TACTILE, "serve", "--backend", "drm", *mode, "--config", CONFIG, "--socket", SOCKET, "--", "weston-simple-touch"],
            stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client"))


def main():
    global tactile
    with open("/dev/tty1", "w") as tty:
        tty.write("\033[2J\033[H\033[?25l")
    touch = Touchscreen(NAME)
    subprocess.run(["udevadm", "settle"], check=True)
    configure(OFF, 0)
    tactile = start("--kiosk")
    wait_for(LOG, "array[8])", timeout=120)
    reloads = 0
    for name, fault in FAULTS:
        play(name, fault, touch, "without")
        reloads += 1
        configure(FIXES[name], reloads)
        play(name, fault, touch, "with")
        reloads += 1
        configure(OFF, reloads)
    # A mistake in the file: the log says where, and the debounce in use stays.
    reloads += 1
    configure(FIXES["bounce"], reloads)
    with open(CONFIG, "w") as f:
        f.write(f"devices:\n  - match: {NAME}\n    debounce: -5\n")
    tactile.send_signal(signal.SIGHUP)
    wait_for(LOG, "the settings in use stay")
    play("bounce", bounce, touch, "after-bad-reload")
    panel_check(touch)
    tactile.send_signal(signal.SIGTERM)
    tactile.wait(timeout=60)
    with open(os.path.join(OUT, "costs.txt"), "w") as f:
        f.write(f"tactile: {TACTILE}\n")
        f.write(f"debounce 80 ms, each lift: {cost('up', ['bounce-without'], ['bounce-with', 'bounce-after-bad-reload'])}\n")
        f.write(f"min-contact 30 ms, each down: {cost('down', ['ghost-without'], ['ghost-with'], at=(400.0, 250.0))}\n")

    configure(FIXES["bounce"], 0)
    with open(LOG, "a") as f:
        f.write("== not a kiosk\n")
    tactile = start()
    # Hit once its first buffer is committed; a second for the server to take it.
    wait_for_after(LOG, "== not a kiosk", ".attach(wl_buffer", timeout=120)
    time.sleep(1)
    play("bounce", bounce, touch, "desktop")
    tactile.send_signal(signal.SIGTERM)
    tactile.wait(timeout=60)
    log("done")


if __name__ == "__main__":
    main()
