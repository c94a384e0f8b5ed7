#!/usr/bin/python3
"""A kiosk that heals itself: runs inside the QEMU guest (scripts/guest/run), as root.

`tactile serve --backend drm --kiosk --config heal.yaml -- weston-simple-touch` on
bochs-drm's screen, with metrics on loopback and the touchscreen named in `devices` (mapped
to Virtual-1): a uinput tap reaches simple-touch; the touchscreen is destroyed (unplugged)
and made again, and a tap reaches simple-touch again at the same place; wlr-randr turns the
output off and on again, and a tap reaches it once more. /metrics and /healthz are read after
each step (metrics-STEP.txt, health-STEP.txt), and everything goes to OUTDIR, where
HealGuestTests (on the host) reads and checks it.

Usage: heal.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import signal
import subprocess
import sys
import time

from guest_input import Journal, Touchscreen, eventually, metrics, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]
NAME = "Tactile Test Touchscreen"
# The raw reading (of 0...4095) under the layout's (200, 150) on the 1280x800 screen.
TAP = (640, 768)
SOCKET = "wayland-heal"

journal = Journal(OUT)
log = journal.log


def sample(name):
    """The value of the series `name` (with its labels), or None."""
    for line in metrics("/metrics")[1].splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return None


def record(step):
    with open(os.path.join(OUT, f"metrics-{step}.txt"), "w") as f:
        f.write(metrics("/metrics")[1])
    status, body = metrics("/healthz")
    with open(os.path.join(OUT, f"health-{step}.txt"), "w") as f:
        f.write(f"{status}\n{body}")
    log(f"{step}: health {status}")


def tap(touch, tactile_log, count):
    x, y = TAP
    touch.down(0, x, y); touch.frame()
    touch.up(0); touch.frame()
    wait_for(tactile_log, ".up(", count=count)


def randr(*arguments):
    subprocess.run(["wlr-randr", "--output", "Virtual-1", *arguments], env=dict(os.environ, WAYLAND_DISPLAY=SOCKET),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)


def main():
    with open("/dev/tty1", "w") as tty:
        tty.write("\033[2J\033[H\033[?25l")
    touch = Touchscreen(NAME)
    subprocess.run(["udevadm", "settle"], check=True)
    config = os.path.join(OUT, "heal.yaml")
    with open(config, "w") as f:
        f.write(f"metrics:\n  listen: 127.0.0.1:9464\ndevices:\n  - match: {NAME}\n    output: Virtual-1\n"
                "privileges:\n  output-management: everyone\n")
    tactile_log = os.path.join(OUT, "tactile.log")
    with open(tactile_log, "w") as stream:
        tactile = subprocess.Popen(
            [TACTILE, "serve", "--backend", "drm", "--kiosk", "--config", config, "--socket", SOCKET, "--", "weston-simple-touch"],
            stdout=stream, stderr=subprocess.STDOUT, env=dict(os.environ, WAYLAND_DEBUG="client"))
    # simple-touch mapped: once its buffer is shown, the kiosk's fullscreen toplevel is
    # activated too (two states). Its first commit has no buffer, and a tap that comes
    # before the buffer touches nothing, which a loaded machine made happen.
    wait_for(tactile_log, "array[8])", timeout=120)
    eventually(lambda: metrics("/healthz")[0] == 200, "health 200 at the start", journal)
    tap(touch, tactile_log, 1)
    eventually(lambda: sample("tactile_touch_downs_total") == 1, "one touch down counted", journal)
    record("start")

    touch.device.close()
    wait_for(tactile_log, f"device removed: {NAME}")
    eventually(lambda: metrics("/healthz")[0] == 503, "health 503 with the touchscreen gone", journal)
    record("unplugged")

    touch = Touchscreen(NAME)
    subprocess.run(["udevadm", "settle"], check=True)
    wait_for(tactile_log, f"device added: {NAME}", count=2)
    eventually(lambda: metrics("/healthz")[0] == 200, "health 200 with the touchscreen back", journal)
    tap(touch, tactile_log, 2)
    record("replugged")

    randr("--off")
    eventually(lambda: sample("tactile_outputs_asleep") == 1, "the output counted asleep", journal)
    record("off")
    randr("--on")
    eventually(lambda: sample("tactile_outputs_asleep") == 0, "the output awake again", journal)
    time.sleep(1)  # the kiosk's window placed on it again
    tap(touch, tactile_log, 3)
    record("on")

    tactile.send_signal(signal.SIGTERM)
    tactile.wait(timeout=60)
    log("done")


if __name__ == "__main__":
    main()
