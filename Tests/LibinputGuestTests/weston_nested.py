#!/usr/bin/python3
"""Tactile nested in real weston: runs inside the QEMU guest (scripts/guest/run), as root.

Makes a uinput touchscreen, starts weston on its DRM backend (bochs-drm, pixman renderer) and
`tactile serve --backend wayland --fullscreen` as weston's client, then two
weston-simple-touch windows inside Tactile. A tap on the touchscreen goes through libinput to
weston, from weston to Tactile's window, from Tactile to the simple-touch under it, which
paints a red cross where it was touched. QEMU screendumps (scripts/guest/screendump) take the
emulated screen before and after the tap. Everything goes to OUTDIR, where
WestonNestedGuestTests (on the host) reads and checks it.

Usage: weston_nested.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import subprocess
import sys
import time

from guest_input import Journal, Touchscreen, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]
WESTON_SOCKET, TACTILE_SOCKET = "wayland-weston", "wayland-tactile"

# No animations, so a screendump shows the settled picture; no panel or screen blanking.
WESTON_INI = """\
[core]
idle-time=0

[shell]
animation=none
startup-animation=none
focus-animation=none
close-animation=none
panel-position=none
background-color=0xff0000a0
"""

journal = Journal(OUT)
log, screendump_when = journal.log, journal.screendump_when


def spawn(name, argv, display, env=None):
    stream = open(os.path.join(OUT, name + ".log"), "w")
    environment = dict(os.environ, WAYLAND_DISPLAY=display, **(env or {}))
    return subprocess.Popen(argv, stdout=stream, stderr=subprocess.STDOUT, env=environment)


def main():
    ini = os.path.join(OUT, "weston.ini")
    with open(ini, "w") as f:
        f.write(WESTON_INI)
    # weston's drm backend opens the input devices it finds at start-up.
    touch = Touchscreen("Tactile Test Touchscreen")
    log("touchscreen created")

    weston = spawn("weston", ["weston", "--backend=drm-backend.so", "--use-pixman", "--tty=2",
                              f"--socket={WESTON_SOCKET}", f"--config={ini}"], WESTON_SOCKET)
    socket = os.path.join(os.environ["XDG_RUNTIME_DIR"], WESTON_SOCKET)
    deadline = time.monotonic() + 120
    while not os.path.exists(socket):
        if weston.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"weston did not start (status {weston.poll()}); see weston.log")
        time.sleep(0.05)
    log("weston is up")

    tactile_log = os.path.join(OUT, "tactile.log")
    tactile = spawn("tactile", [TACTILE, "serve", "--backend", "wayland", "--fullscreen",
                                "--socket", TACTILE_SOCKET, "--log-level", "debug"], WESTON_SOCKET)
    wait_for(tactile_log, "listening on " + TACTILE_SOCKET)
    wait_for(tactile_log, "the parent's seat: ")
    log("tactile is up, nested in weston")

    # Tactile cascades toplevels: the first at (0, 0), the second at (32, 32), above it.
    clients = []
    for name in ("simple-touch-first", "simple-touch-second"):
        clients.append(spawn(name, ["weston-simple-touch"], TACTILE_SOCKET, {"WAYLAND_DEBUG": "client"}))
        wait_for(os.path.join(OUT, name + ".log"), ".commit()")
        log(f"{name} mapped")
    # Tactile composes, weston repaints: both windows over Tactile's background (0x20) fill
    # weston's screen once the second window's strip below the first shows.
    screendump_when("before", lambda p: p.colour(1279, 799) == 0x202020 and p.colour(620, 520) != 0x202020)

    # Raw (1024, 1024) of 0...4095 is weston's (320, 200) on its 1280x800 screen.
    touch.down(0, 1024, 1024); touch.frame()
    touch.up(0); touch.frame()
    second = os.path.join(OUT, "simple-touch-second.log")
    wait_for(second, ".down(")
    wait_for(second, ".up(")
    log("tap delivered")
    screendump_when("after", lambda p: p.colour(320, 200) == 0xFF0000)

    for process in clients + [tactile, weston]:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
    log("done")


if __name__ == "__main__":
    main()
