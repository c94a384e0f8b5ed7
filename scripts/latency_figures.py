"""Touch-to-present figures from tactile-latency-probe's output, for scripts/latency-bench (on
the host) and the QEMU guest's latency.py: one place says what each figure means.

The probe prints a `latency_us L stroke_event K` line per touch event (the time from the event
to the first frame showing it; K: its place in its stroke, 0 for the down) and a
`frame_us NEWEST OLDEST N` line per frame shown that carried events (the latency of its
newest and of its oldest event, and how many it carried), and a `commit_us TO_COMMIT TO_PRESENT`
line per frame drawn on a frame callback (from the callback's `done` to the commit, and from
the commit to the frame's presentation).
"""


class Run:
    """What one probe printed."""

    def __init__(self, text):
        self.events, self.first_ten, self.newest, self.oldest, self.frames = [], [], [], [], 0
        self.to_commit, self.to_present = [], []
        for line in text.splitlines():
            fields = line.split()
            if len(fields) == 4 and fields[0] == "latency_us" and fields[2] == "stroke_event":
                self.events.append(int(fields[1]) / 1000)
                if int(fields[3]) < 10:
                    self.first_ten.append(int(fields[1]) / 1000)
            elif len(fields) == 3 and fields[0] == "commit_us":
                self.to_commit.append(int(fields[1]) / 1000)
                self.to_present.append(int(fields[2]) / 1000)
            elif len(fields) == 4 and fields[0] == "frame_us":
                self.newest.append(int(fields[1]) / 1000)
                self.oldest.append(int(fields[2]) / 1000)
                self.frames += 1


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


class Figures:
    """Every run of one compositor or set-up, together."""

    def __init__(self, runs):
        self.runs = len(runs)
        self.events = [v for run in runs for v in run.events]
        self.first_ten = [v for run in runs for v in run.first_ten]
        self.newest = [v for run in runs for v in run.newest]
        self.oldest = [v for run in runs for v in run.oldest]
        self.frames = sum(run.frames for run in runs)
        self.to_commit = [v for run in runs for v in run.to_commit]
        self.to_present = [v for run in runs for v in run.to_present]

    def complete(self):
        return bool(self.events) and self.frames > 0

    def row(self, name):
        p50 = percentile(self.events, 0.5)
        first = percentile(self.first_ten, 0.5)
        return (f"| {name} | {self.runs} | {len(self.events)} | {self.frames / max(1, len(self.events)):.2f} "
                f"| {p50:.1f} | {percentile(self.events, 0.9):.1f} | {percentile(self.events, 0.99):.1f} "
                f"| {percentile(self.newest, 0.5):.1f} | {percentile(self.oldest, 0.5):.1f} | {percentile(self.oldest, 0.99):.1f} "
                f"| {first:.1f} ({first / p50:.2f}×) |")


HEADER = ("| | runs | events | frames per event | p50 ms | p90 ms | p99 ms | newest event p50 ms "
          "| oldest event p50 ms | oldest event p99 ms | first ten of a stroke p50 ms |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")


def table(figures):
    """A Markdown table of `figures` ({name: Figures}), in their order."""
    return "\n".join([HEADER] + [f.row(name) for name, f in figures.items()])


def frame_callbacks(figures):
    """Where a frame drawn on a frame callback spends its time, per compositor: the client's
    part (callback to commit) and the compositor's (commit to present)."""
    return "; ".join(f"{name}: callback to commit p50 {percentile(f.to_commit, 0.5):.1f} ms, commit to present p50 "
                     f"{percentile(f.to_present, 0.5):.1f} ms" for name, f in figures.items() if f.to_commit)


def ratios(tactile, peer):
    """Tactile's figures over a peer's, the way the goals are put (below 1: Tactile's lower)."""
    def ratio(ours, theirs):
        return f"{ours / theirs:.2f}×" if theirs else "n/a"
    return (f"tactile/weston: p50 {ratio(percentile(tactile.events, 0.5), percentile(peer.events, 0.5))}, "
            f"p90 {ratio(percentile(tactile.events, 0.9), percentile(peer.events, 0.9))}, "
            f"p99 {ratio(percentile(tactile.events, 0.99), percentile(peer.events, 0.99))}, "
            f"oldest event p50 {ratio(percentile(tactile.oldest, 0.5), percentile(peer.oldest, 0.5))}, "
            f"frames per event {ratio(tactile.frames / max(1, len(tactile.events)), peer.frames / max(1, len(peer.events)))}")


def build_kind(tactile):
    """Which build the executable at `tactile` is, from where SwiftPM put it: the package's
    (scripts/package: release, the Swift runtime linked in), release, or debug."""
    parts = tactile.split("/")
    if any(part.startswith(".build-package") for part in parts):
        return "package"
    return "release" if "release" in parts else "debug" if "debug" in parts else "unknown"
