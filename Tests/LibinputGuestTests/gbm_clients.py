#!/usr/bin/python3
"""Clients of a GLES server on virtio-gpu's card, which offers linux-dmabuf there: runs inside
the QEMU guest (scripts/guest/run), as root, with virtio-gpu (`-device
virtio-gpu-pci,id=virtio`) and vgem, as gbm.py does.

1. A nested Tactile (`serve --backend wayland -- weston-simple-touch`) as a GLES kiosk's app,
   once with pixman (its frames in wl_shm buffers) and once with GLES (its frames as dmabufs
   of the parent's main device, which the kiosk scans out as they are), screendumped once
   the screen settles.
2. TactileProtocolFuzz (12,000 requests, a fixed seed) against a headless GLES server there:
   linux-dmabuf's params get memfds, hostile planes, offsets, strides, modifiers and sizes
   among every other global's requests.

Usage: gbm_clients.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import signal
import subprocess
import sys
import time

from guest_input import Journal, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]
DEVICE = "virtio"

journal = Journal(OUT)
log = journal.log


def main():
    nested()
    fuzz()
    log("done")


def settled_screendump(name, tries=40):
    """A screendump once the screen shows simple-touch (its grey at 10,10) and is not
    changing (two in a row, 2 s apart, the same): the nested server and its app take some
    seconds to draw under emulation, longer with the host busy, and the nested server's
    background alone can stay still for 2 s before the app's first frame reaches it."""
    path, previous = os.path.join(OUT, f"{name}.ppm"), None
    for _ in range(tries):
        time.sleep(2)
        journal.screendump(name, DEVICE)
        with open(path, "rb") as f:
            _, size, _, pixels = f.read().split(b"\n", 3)
        at = (10 * int(size.split()[0]) + 10) * 3
        if pixels == previous and pixels[at:at + 3] == bytes([0x58, 0x58, 0x58]):
            return
        previous = pixels
    log(f"{name}: the screen did not settle")


def nested():
    for renderer in ["pixman", "gles"]:
        tactile_log = os.path.join(OUT, f"tactile-nested-{renderer}.log")
        with open(tactile_log, "w") as stream:
            tactile = subprocess.Popen(
                [TACTILE, "serve", "--backend", "drm", "--kiosk", "--renderer", "gles", "--socket", f"wayland-outer-{renderer}",
                 "--", TACTILE, "serve", "--backend", "wayland", "--renderer", renderer, "--socket", f"wayland-inner-{renderer}",
                 "--", "env", "WAYLAND_DEBUG=client", "weston-simple-touch"],
                stdout=stream, stderr=subprocess.STDOUT)
        # simple-touch's first buffer, then the screen once the nested server has shown it.
        wait_for(tactile_log, ".attach(", timeout=180)
        settled_screendump(f"nested-{renderer}")
        tactile.send_signal(signal.SIGTERM)
        tactile.wait(timeout=60)
        log(f"nested {renderer} done")
        time.sleep(1)


def fuzz():
    server_log = os.path.join(OUT, "tactile-fuzz.log")
    fuzzer = os.path.join(os.path.dirname(TACTILE), "TactileProtocolFuzz")
    with open(server_log, "w") as stream:
        tactile = subprocess.Popen(
            [TACTILE, "serve", "--backend", "headless", "--test-input", "--renderer", "gles", "--socket", "wayland-fuzz"],
            stdout=stream, stderr=subprocess.STDOUT)
    wait_for(server_log, "listening on wayland-fuzz", timeout=120)
    with open(os.path.join(OUT, "fuzz.txt"), "w") as out:
        # --verbose: every request on stderr, so the test counts those on linux-dmabuf's params.
        status = subprocess.run([fuzzer, "--socket", "wayland-fuzz", "--seed", "20261127", "--requests", "30000",
                                 "--probe-timeout", "30000", "--verbose"],
                                stdout=out, stderr=subprocess.STDOUT, timeout=300).returncode
        out.write(f"status {status}\n")
    with open(os.path.join(OUT, "fuzz-server.txt"), "w") as out:
        out.write("alive\n" if tactile.poll() is None else f"exited {tactile.returncode}\n")
    tactile.send_signal(signal.SIGTERM)
    tactile.wait(timeout=60)
    log("fuzz done")


if __name__ == "__main__":
    main()
