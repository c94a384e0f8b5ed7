#!/usr/bin/python3
"""Touch-to-present latency, Tactile against weston, on the guest's own screen: runs inside the
QEMU guest (scripts/guest/run), as root.

Alternately runs `tactile serve --backend drm --kiosk` and weston 10 (DRM backend, pixman),
each with tactile-latency-probe full screen drawing on frame callbacks (as toolkits do), and
drives a uinput touchscreen at 120 Hz for three seconds: a finger down, then a motion every
1/120 s. The probe prints, for every touch event, the time from the event's device timestamp
to the presentation of the first frame showing it, and for every frame the latency of its
newest and oldest event (both compositors offer wp_presentation and input timestamps).
latency-summary.md gets the figures (scripts/latency_figures.py), which build of tactile ran
(TACTILE_EXECUTABLE: the release or package build, as a kiosk runs it), and what Tactile's
frame clock chose; everything goes to OUTDIR, where LatencyGuestTests (on the host) checks it.
A last Tactile run has `touch.feedback: ripple`: its log says when each frame showed the
finger's mark, and the summary has touch to feedback beside touch to present.
TACTILE_LATENCY_RUNS (default 2) sets how many times each compositor runs.

Usage: latency.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import signal
import subprocess
import sys
import time

from guest_input import AXIS_MAX, Journal, Touchscreen, read, wait_for

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts"))
import latency_figures  # noqa: E402

OUT, TACTILE = sys.argv[1], sys.argv[2]
PROBE = os.path.join(os.path.dirname(TACTILE), "TactileLatencyProbe")
RUNS = int(os.environ.get("TACTILE_LATENCY_RUNS", "2"))
WESTON_INI = "[core]\nidle-time=0\n\n[shell]\nanimation=none\nstartup-animation=none\npanel-position=none\n"

journal = Journal(OUT)
log = journal.log


def drive(touch):
    """A finger down at the middle, then 360 motions at 120 Hz, then up."""
    x, y = AXIS_MAX // 2, AXIS_MAX // 2
    touch.down(0, x, y); touch.frame()
    start = time.monotonic()
    for k in range(1, 361):
        delay = start + k / 120 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        touch.move(0, x + (k % 60) * 8, y); touch.frame()
    touch.up(0); touch.frame()


def run(compositor, index, touch):
    name = f"{compositor}-{index}"
    server_log = os.path.join(OUT, f"{name}.log")
    socket = f"wayland-{name}"
    with open(server_log, "w") as stream:
        if compositor.startswith("tactile"):
            # Debug: the log then says what budget the frame scheduler chose, and with ripple
            # when each frame showed the finger's mark.
            command = [TACTILE, "serve", "--backend", "drm", "--kiosk", "--socket", socket, "--log-level", "debug"]
            if compositor == "tactile-ripple":
                config = os.path.join(OUT, "ripple.yaml")
                with open(config, "w") as f:
                    f.write("touch:\n  feedback: ripple\n")
                command += ["--config", config]
            server = subprocess.Popen(command, stdout=stream, stderr=subprocess.STDOUT)
            wait_for(server_log, "listening on", timeout=120)
        else:
            ini = os.path.join(OUT, "weston.ini")
            with open(ini, "w") as f:
                f.write(WESTON_INI)
            server = subprocess.Popen(["weston", "--backend=drm-backend.so", "--use-pixman", "--tty=2", f"--socket={socket}", f"--config={ini}"],
                                      stdout=stream, stderr=subprocess.STDOUT)
            path = os.path.join(os.environ["XDG_RUNTIME_DIR"], socket)
            deadline = time.monotonic() + 120
            while not os.path.exists(path):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"weston did not start; see {name}.log")
                time.sleep(0.05)
    probe_err = os.path.join(OUT, f"probe-{name}.err")
    with open(os.path.join(OUT, f"latency-{name}.txt"), "w") as out, open(probe_err, "w") as err:
        probe = subprocess.Popen([PROBE, "--frame-callbacks"], stdout=out, stderr=err, env=dict(os.environ, WAYLAND_DISPLAY=socket))
        wait_for(probe_err, "window, presentation clock", timeout=60)
        time.sleep(2)
        drive(touch)
        time.sleep(1)
        probe.kill()
        probe.wait()
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    log(f"{name} done")
    time.sleep(1)


def scheduling():
    """What Tactile's frame clock chose on the DRM screen: a deadline before each vblank
    (logged when it moves by 1 ms), or, on a display without vblanks (bochs), none."""
    logs = [read(os.path.join(OUT, f"tactile-{k}.log")) for k in range(1, RUNS + 1)]
    if all("shows frames without vblanks" in log for log in logs):
        return "no vblanks: frames composed at once, frame callbacks on the refresh grid"
    budgets = [line.split("frames composed ", 1)[1].split(" ")[0] for log in logs for line in log.splitlines() if "frames composed " in line]
    return "repaint budgets (ms before the vblank, in order): " + " ".join(budgets)


def feedback():
    """Touch to the ripple's mark on screen, from the ripple run's log."""
    shown = [int(line.split("touch feedback: shown ", 1)[1].split(" ")[0]) / 1000
             for line in read(os.path.join(OUT, "tactile-ripple-1.log")).splitlines() if "touch feedback: shown " in line]
    if not shown:
        return "none logged"
    return (f"{len(shown)} frames, p50 {latency_figures.percentile(shown, 0.5):.1f} ms, p90 {latency_figures.percentile(shown, 0.9):.1f} ms, "
            f"p99 {latency_figures.percentile(shown, 0.99):.1f} ms")


def summary():
    figures = {}
    for compositor, runs in (("tactile", RUNS), ("weston", RUNS), ("tactile-ripple", 1)):
        measured = [latency_figures.Run(read(os.path.join(OUT, f"latency-{compositor}-{k}.txt"))) for k in range(1, runs + 1)]
        figures[compositor] = latency_figures.Figures(measured)
    with open(os.path.join(OUT, "latency-summary.md"), "w") as f:
        f.write(f"tactile build: {latency_figures.build_kind(TACTILE)} ({TACTILE})\n")
        f.write(f"tactile frame clock: {scheduling()}\n")
        f.write(f"tactile touch to feedback (touch.feedback: ripple): {feedback()}\n\n")
        f.write(latency_figures.table(figures) + "\n")


def main():
    with open("/dev/tty1", "w") as tty:
        tty.write("\033[2J\033[H\033[?25l")
    # weston's drm backend opens the input devices it finds at start-up.
    touch = Touchscreen("Tactile Test Touchscreen")
    subprocess.run(["udevadm", "settle"], check=True)
    for index in range(1, RUNS + 1):
        for compositor in ("tactile", "weston"):
            run(compositor, index, touch)
    # Once: the server's own mark under the finger, and what it costs the app's frames.
    run("tactile-ripple", 1, touch)
    summary()
    log("done")


if __name__ == "__main__":
    main()
