#!/usr/bin/python3
"""Touch-to-present latency, Tactile against weston, on the guest's own screens: runs inside the
QEMU guest (scripts/guest/run), as root.

The guest has three displays (LatencyGuestTests loads their drivers), each its own DRM card:
vkms, judged on because it paces like a panel (its vblanks come from a 60 Hz timer), and, for
reference, bochs-drm (no vblanks: a flip completes when it is made) and virtio-gpu (whose
flips QEMU completes early). On each, alternately, runs `tactile serve --backend drm --kiosk`
and weston 10 (DRM backend, pixman) on that card alone, each with tactile-latency-probe full
screen drawing on frame callbacks (as toolkits do), and drives a uinput touchscreen at 120 Hz
for three seconds: a finger down, then a motion every 1/120 s. The probe prints, for every
touch event, the time from the event's device timestamp to the presentation of the first
frame showing it, and for every frame the latency of its newest and oldest event (both
compositors offer wp_presentation and input timestamps).
latency-summary.md gets the figures (scripts/latency_figures.py), which build of tactile ran
(TACTILE_EXECUTABLE: the release or package build, as a kiosk runs it), and what Tactile's
frame clock chose; everything goes to OUTDIR, where LatencyGuestTests (on the host) checks it.
A last Tactile run has `touch.feedback: ripple`: its log says when each frame showed the
finger's mark, and the summary has touch to feedback beside touch to present.
TACTILE_LATENCY_RUNS (default 2) sets how many times each compositor runs on vkms; on the
reference displays each runs once. Runs on vkms are named COMPOSITOR-K, the others
DISPLAY-COMPOSITOR-1.

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


def drive(touch, motions=360):
    """A finger down at the middle, then `motions` motions at 120 Hz, then up."""
    x, y = AXIS_MAX // 2, AXIS_MAX // 2
    touch.down(0, x, y); touch.frame()
    start = time.monotonic()
    for k in range(1, motions + 1):
        delay = start + k / 120 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        touch.move(0, x + (k % 60) * 8, y); touch.frame()
    touch.up(0); touch.frame()


def cards():
    """The DRM card of each display, by what drives it: vkms is a platform device with no
    driver link; bochs-drm's card is its PCI device's, virtio-gpu's is the virtio PCI one."""
    found = {}
    for name in sorted(os.listdir("/sys/class/drm")):
        if not name.startswith("card") or "-" in name:
            continue
        device = os.path.realpath(f"/sys/class/drm/{name}/device")
        driver = os.path.basename(os.path.realpath(f"{device}/driver")) if os.path.exists(f"{device}/driver") else ""
        display = "vkms" if "vkms" in device else {"bochs-drm": "bochs", "virtio-pci": "virtio-gpu"}.get(driver)
        if display:
            found[display] = name
    return found


def run(compositor, index, touch, display="vkms", card="card0"):
    name = f"{compositor}-{index}" if display == "vkms" else f"{display}-{compositor}-{index}"
    server_log = os.path.join(OUT, f"{name}.log")
    socket = f"wayland-{name}"
    with open(server_log, "w") as stream:
        if compositor.startswith("tactile"):
            # Debug: the log then says what budget the frame scheduler chose, and with ripple
            # when each frame showed the finger's mark.
            command = [TACTILE, "serve", "--backend", "drm", "--drm-card", f"/dev/dri/{card}", "--kiosk", "--socket", socket,
                       "--log-level", "debug"]
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
            server = subprocess.Popen(["weston", "--backend=drm-backend.so", "--use-pixman", f"--drm-device={card}", "--tty=2", f"--socket={socket}", f"--config={ini}"],
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
        # A warm-up stroke first, left out of the figures: the first touch a freshly started
        # compositor (and probe) handles runs code the guest reads from the host over 9p, as
        # a kiosk that has run for a day does not; the measured stroke is a day's stroke.
        drive(touch, motions=30)
        time.sleep(1)
        out.flush()
        warmed = os.path.getsize(out.name)
        drive(touch)
        time.sleep(1)
        probe.kill()
        probe.wait()
    with open(out.name) as f:
        f.seek(warmed)
        measured = f.read()
    with open(out.name, "w") as f:
        f.write(measured)
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    log(f"{name} done")
    time.sleep(1)


def scheduling(names):
    """What Tactile's frame clock chose on a DRM screen: a deadline before each vblank
    (logged when it moves by 1 ms), or, on a display without vblanks (bochs), none."""
    logs = [read(os.path.join(OUT, f"{name}.log")) for name in names]
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


def figures(prefix, runs, compositors):
    return {compositor: latency_figures.Figures([latency_figures.Run(read(os.path.join(OUT, f"latency-{prefix}{compositor}-{k}.txt")))
                                                 for k in range(1, runs + 1)])
            for compositor in compositors}


def summary(references):
    with open(os.path.join(OUT, "latency-summary.md"), "w") as f:
        f.write(f"tactile build: {latency_figures.build_kind(TACTILE)} ({TACTILE})\n")
        f.write(f"tactile frame clock: {scheduling([f'tactile-{k}' for k in range(1, RUNS + 1)])}\n")
        f.write(f"tactile touch to feedback (touch.feedback: ripple): {feedback()}\n\n")
        judged = figures("", RUNS, ("tactile", "weston"))
        judged.update(figures("", 1, ("tactile-ripple",)))
        f.write("vkms (60 Hz, vblanks from a timer: judged on)\n\n" + latency_figures.table(judged) + "\n")
        f.write(latency_figures.ratios(judged["tactile"], judged["weston"]) + "\n")
        f.write(latency_figures.frame_callbacks(judged) + "\n")
        for display in references:
            f.write(f"\n{display} (reference; tactile frame clock: {scheduling([f'{display}-tactile-1'])})\n\n")
            measured = figures(f"{display}-", 1, ("tactile", "weston"))
            f.write(latency_figures.table(measured) + "\n")
            f.write(latency_figures.ratios(measured["tactile"], measured["weston"]) + "\n")
            f.write(latency_figures.frame_callbacks(measured) + "\n")


def main():
    with open("/dev/tty1", "w") as tty:
        tty.write("\033[2J\033[H\033[?25l")
    # weston's drm backend opens the input devices it finds at start-up.
    touch = Touchscreen("Tactile Test Touchscreen")
    subprocess.run(["udevadm", "settle"], check=True)
    displays = cards()
    log(f"displays: {displays}")
    if "vkms" not in displays:
        raise SystemExit(f"no vkms card among {displays}: was vkms.ko built (scripts/guest/prepare) and loaded?")
    for index in range(1, RUNS + 1):
        for compositor in ("tactile", "weston"):
            run(compositor, index, touch, card=displays["vkms"])
    # Once: the server's own mark under the finger, and what it costs the app's frames.
    run("tactile-ripple", 1, touch, card=displays["vkms"])
    references = [display for display in ("bochs", "virtio-gpu") if display in displays]
    for display in references:
        for compositor in ("tactile", "weston"):
            run(compositor, 1, touch, display, displays[display])
    summary(references)
    log("done")


if __name__ == "__main__":
    main()
