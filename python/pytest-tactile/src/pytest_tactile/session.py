"""One headless Tactile with one app inside, driven through the `tactile` CLI.

    serve --backend headless --test-input --socket NAME -- APP...   the server, and the app in it
    inspect --socket NAME --watch                                   the routing trace, kept
    inject / inspect --wait / capture / record --socket NAME        what the test asks for

Every method is one run of the CLI; a failure raises AssertionError with what the CLI said
and, when the server has ended, its status and the tail of its log.
"""

import itertools
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from . import scripts

_sockets = itertools.count(1)

# A touch's first trace line (`touch 3 down at=...`); `--trace` on stderr prefixes `trace `.
_TOUCH_DOWN = re.compile(r"^(?:trace )?touch \S+ down ")
_FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


@dataclass(frozen=True)
class Window:
    """A toplevel as `tactile inspect` lists it: where its surface is on the outputs and
    its window geometry (what `inject --window` positions are relative to), surface-local."""
    app_id: str
    title: str
    pid: int
    x: int
    y: int
    width: int
    height: int
    geometry: tuple  # (x, y, width, height) within the surface

    @classmethod
    def parse(cls, line):
        """The window a scene line describes, or None for another node."""
        fields = {k: v for k, v in _FIELD.findall(line)}
        if fields.get("role") != "toplevel":
            return None
        x, y = (int(float(v)) for v in fields.get("at", "0,0").split(","))
        width, height = (int(v) for v in fields.get("size", "0x0").split("x"))
        geometry = (0, 0, width, height)
        if "window" in fields:
            gx, gy, size = fields["window"].split(",")
            gw, gh = size.split("x")
            geometry = (int(gx), int(gy), int(gw), int(gh))
        return cls(app_id=fields.get("app_id", ""), title=fields.get("title", "").strip('"'),
                   pid=int(fields.get("pid", "0")), x=x, y=y, width=width, height=height,
                   geometry=geometry)


class Tactile:
    """A running `tactile serve` on a socket of its own, with its app.

    Made by the `tactile` fixture; `start()` returns once the socket listens (and, given an
    app_id, once that window is mapped). `close()` ends the server, the app and the watcher.
    """

    def __init__(self, binary, command, *, app_id=None, output_size=None, kiosk=False,
                 trace=False, env=None, log_dir=None, start_timeout=30.0):
        self.binary = str(binary)
        self.command = list(command)
        self.app_id = app_id
        self.output_size = output_size
        self.kiosk = kiosk
        self.trace = trace
        self.extra_env = dict(env or {})
        self.start_timeout = start_timeout
        # The socket's path must fit sockaddr_un (108 bytes): a short runtime directory.
        self.runtime_dir = Path(tempfile.mkdtemp(prefix="tactile-pytest-"))  # mode 0700
        self.log_dir = Path(log_dir) if log_dir else self.runtime_dir
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._socket = f"tactile-pytest-{os.getpid()}-{next(_sockets)}"
        self._server = None
        self._watcher = None
        self._trace = []
        self._trace_lock = threading.Condition()
        self._captures = itertools.count(1)
        self.server_log = self.log_dir / f"{self._socket}.log"

    # --- what a second client needs ---------------------------------------------------

    @property
    def socket(self):
        """The server's socket name (WAYLAND_DISPLAY), in `env`'s XDG_RUNTIME_DIR."""
        return self._socket

    @property
    def env(self):
        """The environment a second client (or a CLI run) needs to reach this server."""
        env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY")}
        env.update(self.extra_env)
        env["XDG_RUNTIME_DIR"] = str(self.runtime_dir)
        env["WAYLAND_DISPLAY"] = self._socket
        return env

    # --- start and stop ---------------------------------------------------------------

    def start(self):
        argv = [self.binary, "serve", "--backend", "headless", "--test-input", "--socket", self._socket]
        if self.output_size:
            argv += ["--output-size", self.output_size if isinstance(self.output_size, str) else "%dx%d" % tuple(self.output_size)]
        if self.kiosk:
            argv.append("--kiosk")
        if self.trace:
            argv.append("--trace")
        argv += ["--", *self.command]
        env = self.env
        del env["WAYLAND_DISPLAY"]  # serve makes it, and sets it for the app
        with open(self.server_log, "wb") as log:
            # A session of its own: close() can end whatever the app forked.
            self._server = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                            env=env, start_new_session=True)
        self._wait_for_socket()
        self._start_watcher()
        if self.app_id:
            self.wait_for(f"mapped app_id={self.app_id}", timeout=self.start_timeout)
        return self

    def _wait_for_socket(self):
        path = self.runtime_dir / self._socket
        deadline = time.monotonic() + self.start_timeout
        while not path.exists():
            if self._server.poll() is not None:
                raise AssertionError(f"tactile serve ended (status {self._server.returncode}) before its socket "
                                     f"{self._socket} listened; its log:\n{self.server_log_tail()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"tactile serve's socket {path} did not appear in {self.start_timeout} s; "
                                     f"its log:\n{self.server_log_tail()}")
            time.sleep(0.02)

    def _start_watcher(self):
        self._watcher = subprocess.Popen([self.binary, "inspect", "--socket", self._socket, "--watch"],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, env=self.env, text=True, bufsize=1)
        threading.Thread(target=self._read_trace, args=(self._watcher.stdout,), daemon=True).start()
        self._wait_connected(self._watcher.pid)

    def _read_trace(self, stream):
        for line in stream:
            with self._trace_lock:
                self._trace.append(line.rstrip("\n"))
                self._trace_lock.notify_all()

    def _wait_connected(self, pid, timeout=5.0):
        """Returns once the server lists a client of process `pid` (its connection is
        accepted, so what it asks next comes before a later client's input)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            listing = self._cli("inspect", check=False)
            if re.search(rf"^client \d+ pid={pid} ", listing.stdout, re.MULTILINE):
                return
            time.sleep(0.02)

    @property
    def running(self):
        return self._server is not None and self._server.poll() is None

    @property
    def returncode(self):
        """The server's exit status once it has ended (it ends with its app's), else None."""
        return self._server.poll() if self._server else None

    def close(self):
        """Ends the server (SIGTERM: it ends its app), then anything left of its session."""
        for process in (self._watcher,):
            if process and process.poll() is None:
                process.terminate()
        if self._server:
            if self._server.poll() is None:
                self._server.terminate()
                try:
                    self._server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pass
            try:
                os.killpg(self._server.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self._server.wait()
        if self._watcher:
            try:
                self._watcher.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._watcher.kill()
                self._watcher.wait()
        shutil.rmtree(self.runtime_dir, ignore_errors=True)

    def server_log_tail(self, lines=40):
        """The last lines of the server's standard output and error (the app's too), less
        the notices of privileged globals refused to this plugin's own CLI runs (five each)."""
        try:
            text = self.server_log.read_text(errors="replace")
        except OSError:
            return "(no log)"
        ours = os.path.realpath(self.binary)
        kept = [line for line in text.splitlines()
                if not (" refused " in line and line.endswith(f"{ours}, not started by Tactile"))]
        return "\n".join(kept[-lines:])

    # --- running the CLI --------------------------------------------------------------

    def _cli(self, *args, input=None, timeout=120, check=True, what=None):
        argv = [self.binary, args[0], "--socket", self._socket, *args[1:]]
        try:
            done = subprocess.run(argv, input=input, capture_output=True, text=True, env=self.env, timeout=timeout)
        except subprocess.TimeoutExpired as error:
            raise AssertionError(f"`{' '.join(argv)}` still ran after {timeout} s{self._server_state()}") from error
        if check and done.returncode != 0:
            said = (done.stdout + done.stderr).strip()
            raise AssertionError(f"{what or '`' + ' '.join(argv) + '`'} failed (status {done.returncode}):\n{said}"
                                 f"{self._server_state()}")
        return done

    def _server_state(self):
        if self._server is None or self._server.poll() is None:
            return ""
        return f"\n(tactile serve has ended, status {self._server.returncode}; its log:\n{self.server_log_tail()})"

    # --- input ------------------------------------------------------------------------

    def inject(self, script, window=None, speed=None, refuse_resized=False, timeout=None):
        """Sends `script` (the inject format: one event a line, `@T`, `wait EXPR`)."""
        args = ["inject"] + self._inject_options(window, speed, refuse_resized, timeout) + ["-"]
        self._cli(*args, input=script, what="tactile inject")

    def replay(self, path, speed=1.0, window=None, refuse_resized=False, timeout=None):
        """Replays a script file, e.g. one `tactile record` wrote, at `speed` times its pace."""
        args = ["inject"] + self._inject_options(window, speed, refuse_resized, timeout) + [str(path)]
        self._cli(*args, what=f"tactile inject {path}")

    @staticmethod
    def _inject_options(window, speed, refuse_resized, timeout):
        options = []
        if window:
            options += ["--window", window]
            if refuse_resized:
                options.append("--refuse-resized")
        if speed is not None:
            options += ["--speed", str(speed)]
        if timeout is not None:
            options += ["--timeout", str(timeout)]
        return options

    def tap(self, x, y, window=None):
        """A finger down at (x, y) and up 40 ms later (the window's pixels with `window`)."""
        self.inject(scripts.tap(x, y), window=window)

    def long_press(self, x, y, ms=800, window=None):
        """A finger held still at (x, y) for `ms`."""
        self.inject(scripts.long_press(x, y, ms=ms), window=window)

    def swipe(self, x0, y0, x1, y1, duration_ms=300, steps=10, window=None):
        """One finger from (x0, y0) to (x1, y1), `steps` motions over `duration_ms`."""
        self.inject(scripts.swipe(x0, y0, x1, y1, duration_ms=duration_ms, steps=steps), window=window)

    def pinch(self, cx, cy, r0, r1, duration_ms=300, steps=10, angle=0.0, window=None):
        """Two fingers about (cx, cy), from `r0` to `r1` pixels from it (r1 > r0: spread)."""
        self.inject(scripts.pinch(cx, cy, r0, r1, duration_ms=duration_ms, steps=steps, angle=angle), window=window)

    # --- what the server shows --------------------------------------------------------

    def wait_for(self, expr, timeout=10.0):
        """Returns once the scene shows `expr` (`mapped app_id=ID`, `focused app_id=ID`,
        `idle`, `frame app_id=ID`, `titled app_id=ID TEXT`); raises AssertionError with the
        scene tactile inspect saw otherwise."""
        self._cli("inspect", "--wait", expr, "--timeout", str(timeout), timeout=timeout + 60,
                  what=f"waiting {timeout} s for `{expr}`")

    def scene(self):
        """`tactile inspect`'s listing: outputs, clients, and the scene, topmost first."""
        return self._cli("inspect").stdout

    def windows(self):
        """The toplevels the scene lists, topmost first."""
        return [w for w in map(Window.parse, self.scene().splitlines()) if w]

    def capture(self, window=None, output=None, until=None, timeout=5.0):
        """A picture of the window with that app_id (alone, even covered) or of the output
        (HEADLESS-1 when neither is named), as a PIL image; the PNG stays in the log folder.

        An app draws after the input that made it draw has been sent: with `until` (a
        function of the picture), the picture is taken again until it says True, for up to
        `timeout` seconds, and the last one is returned either way, for the test to assert on.
        """
        if window and output:
            raise ValueError("capture one window or one output, not both")
        target = ["--window", window] if window else ["--output", output or "HEADLESS-1"]
        deadline = time.monotonic() + timeout
        while True:
            path = self.log_dir / f"{self._socket}-capture-{next(self._captures)}.png"
            self._cli("capture", *target, str(path), what=f"tactile capture {' '.join(target)}")
            with Image.open(path) as image:
                image.load()
                picture = image.copy()
            if until is None or until(picture) or time.monotonic() > deadline:
                return picture
            time.sleep(0.05)

    # --- the routing trace ------------------------------------------------------------

    @property
    def trace_lines(self):
        """Every routing trace line `inspect --watch` streamed since the server started."""
        with self._trace_lock:
            return list(self._trace)

    def last_touch_trace(self, settle=0.2, timeout=3.0):
        """The trace lines from the last `touch N down` on: its hit test, its owner, and
        every decision after it. Waits until the trace has been quiet for `settle` seconds."""
        deadline = time.monotonic() + timeout
        with self._trace_lock:
            while True:
                seen = len(self._trace)
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._trace_lock.wait(min(settle, left))
                if len(self._trace) == seen and any(_TOUCH_DOWN.match(line) for line in self._trace):
                    break
            downs = [i for i, line in enumerate(self._trace) if _TOUCH_DOWN.match(line)]
            if not downs:
                raise AssertionError("the routing trace has no touch yet; it holds:\n" + "\n".join(self._trace))
            return self._trace[downs[-1]:]

    # --- recording --------------------------------------------------------------------

    def record(self, path, window=None):
        """A context manager: `tactile record` (window-relative with `window`) writes the
        input the server takes into `path` from entry until exit."""
        return _Recording(self, Path(path), window)


class _Recording:
    def __init__(self, tactile, path, window):
        self.tactile, self.path, self.window = tactile, path, window
        self.process = None

    def __enter__(self):
        args = [self.tactile.binary, "record", "--socket", self.tactile.socket, "-o", str(self.path)]
        if self.window:
            args += ["--window", self.window]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, env=self.tactile.env, text=True)
        # Its first line, a comment, is written once the server records.
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and self.process.poll() is None:
            if self.path.exists() and self.path.read_text().startswith("#"):
                break
            time.sleep(0.02)
        if self.process.poll() is not None:
            raise AssertionError(f"tactile record ended (status {self.process.returncode}): {self.process.stderr.read()}")
        return self

    def __exit__(self, *exc):
        # The server stamps events as they come; a roundtrip's worth of margin for the last.
        time.sleep(0.2)
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return False

    @property
    def text(self):
        return self.path.read_text()
