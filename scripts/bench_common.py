"""What scripts/peer-bench and scripts/latency-bench share."""
import glob
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build(*products):
    """The products' paths, built as the package ships tactile (scripts/package's build,
    which this reuses: release, the Swift runtime linked in)."""
    with open(os.path.join(ROOT, "scripts", "package-build-options")) as f:
        options = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    command = ["swift", "build"] + options + ["--scratch-path", ".build-package"]
    for product in products:
        subprocess.run(command + ["--product", product], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    bin = subprocess.run(command + ["--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    return [os.path.join(bin, product) for product in products]


def wait_for_socket(runtime, process, seconds=15):
    """The name of the first Wayland socket `process` makes in `runtime`; None when it makes
    none in time or exits first."""
    deadline = time.time() + seconds
    while time.time() < deadline and process.poll() is None:
        sockets = sorted(p for p in glob.glob(os.path.join(runtime, "wayland-*")) if not p.endswith(".lock"))
        if sockets:
            time.sleep(0.5)  # globals, outputs and shells are set up after the socket
            return os.path.basename(sockets[0])
        time.sleep(0.05)
    return None
