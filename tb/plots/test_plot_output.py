#!/usr/bin/env python3
"""scripts/experiments/plot_output.py: the experiments' figures and summaries are written
as the program writes its files (a complete PNG or table under its name, nothing, not even
a temporary, where the write failed, and one `meshsync: error:` line with exit 2); means
over seeds come with the right 95% Student-t interval; a curve's saturated points sit on
the top edge of the axes with their own marker and one legend entry."""
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import matplotlib  # noqa: F401
except ImportError:
    sys.exit(77)  # ctest: skipped where matplotlib is not installed

experiments = Path(__file__).resolve().parents[2] / "scripts" / "experiments"
program = f"""
import sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
sys.path.insert(0, {str(experiments)!r})
import plot_output
fig = plt.figure()
plt.plot([0, 1], [1, 0])
plot_output.save(fig, sys.argv[1], dpi=50)
plot_output.write_summary(sys.argv[2], ["| a | b |", "|---|---|"], "Wall time:", docs=sys.argv[3])
"""


def save(path, limit=None, summary_dir=None):
    def preexec():
        if limit is not None:  # a file size limit stands in for a full disk
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    summary_dir = summary_dir or Path(path).parent
    return subprocess.run([sys.executable, "-c", program, str(path), str(summary_dir), str(docs)],
                          capture_output=True, text=True, preexec_fn=preexec)


def refused(result):
    lines = result.stderr.strip().splitlines()
    return result.returncode == 2 and len(lines) == 1 and lines[0].startswith("meshsync: error: cannot write")


docs_dir = tempfile.TemporaryDirectory()
docs = Path(docs_dir.name) / "results.md"  # quotes the summary's table
docs.write_text("# Results\n\n| a | b |\n|---|---|\n")

with tempfile.TemporaryDirectory() as d:
    d = Path(d)
    (d / "times.txt").write_text("uniform: 1.5 s\n")
    good = save(d / "figure.png")
    assert good.returncode == 0, good.stderr
    assert (d / "figure.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (d / "summary.md").read_text() == "| a | b |\n|---|---|\nWall time:\n\n- uniform: 1.5 s\n\n"
    assert refused(save(d / "figure.png", summary_dir=d / "no-such-dir"))
    assert refused(save(d / "no-such-dir" / "figure.png"))
    assert refused(save(d / "full.png", limit=1024))
    assert sorted(os.listdir(d)) == ["figure.png", "summary.md", "times.txt"], os.listdir(d)
    # docs/results.md no longer quoting the summary: the summary is written, the script fails.
    docs.write_text("# Results\n\n| a | c |\n|---|---|\n")
    stale = save(d / "figure.png")
    assert stale.returncode == 1 and "is stale against" in stale.stderr and (d / "summary.md").exists(), stale

# The statistics and the curve, in this process.
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, str(experiments))
import plot_output  # noqa: E402


def close(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(b))


# t(0.975, df) from the table: exact entries, and the next smaller df's (wider) value between
assert plot_output.t975(1) == 12.706 and plot_output.t975(2) == 4.303 and plot_output.t975(9) == 2.262
assert plot_output.t975(35) == plot_output.t975(30) == 2.042
assert plot_output.t975(999) == 1.980 and plot_output.t975(10 ** 6) == 1.962
try:
    plot_output.t975(0)
    raise AssertionError("t975(0) accepted")
except ValueError:
    pass

# [1, 2, 3]: mean 2, s = 1, half-width t(0.975, 2) s / sqrt(3) = 4.303 / 1.732
m, h = plot_output.mean_interval([1, 2, 3])
assert m == 2 and close(h, 4.303 / math.sqrt(3)), (m, h)
# s = sqrt(((-1.5)^2 + (-0.5)^2 + 0.5^2 + 1.5^2) / 3) = sqrt(5/3), t(0.975, 3) = 3.182
m, h = plot_output.mean_interval([10, 11, 12, 13])
assert m == 11.5 and close(h, 3.182 * math.sqrt(5 / 3) / 2), (m, h)
assert plot_output.mean_interval([7, 7, 7]) == (7, 0)
assert plot_output.mean_interval([5]) == (5, None)  # one value: no interval
try:
    plot_output.mean_interval([])
    raise AssertionError("mean_interval([]) accepted")
except ValueError:
    pass

# Rows over seeds: grouped by x in ascending order; a point with a saturated seed has no mean.
rows = [{"rate": 0.2, "lat": 1, "sat": False}, {"rate": 0.1, "lat": 50, "sat": False},
        {"rate": 0.2, "lat": 3, "sat": False}, {"rate": 0.2, "lat": 2, "sat": False},
        {"rate": 0.3, "lat": 900, "sat": True}, {"rate": 0.3, "lat": 100, "sat": False},
        {"rate": 0.4, "lat": 990, "sat": True}]
points = plot_output.over_seeds(rows, "rate", "lat", lambda r: r["sat"])
assert [p.x for p in points] == [0.1, 0.2, 0.3, 0.4]
one, three, partly, fully = points
assert (one.mean, one.half, one.n, one.saturated) == (50, None, 1, 0)
assert three.mean == 2 and close(three.half, 4.303 / math.sqrt(3)) and three.n == 3
assert (partly.mean, partly.half, partly.n, partly.saturated) == (None, None, 2, 1)
assert (fully.n, fully.saturated) == (1, 1)
assert [p.cell() for p in points] == ["50.0", "2.0 ± 2.5", "sat. (1 of 2)", "sat."]
assert plot_output.Point(0.5, []).cell() == "-"  # no samples: no mean, not saturated
assert plot_output.flattened_list({"a.0.x": "1", "a.1.x": "2.5", "a.2.x": ""}, "a", "x") == [1, 2.5]
assert plot_output.flattened_list({"b.0": "4", "b.1": "5"}, "b") == [4, 5]
assert plot_output.flattened_list({"c": "[69.95,67.5]", "c.0": "1"}, "c") == [69.95, 67.5]
assert plot_output.flattened_list({"c": "[]"}, "c") == []

# The curve: error bars on the unsaturated means; saturated points on the top edge of the
# axes at their x, hollow triangles, whatever the y limits are set to afterwards; one
# legend entry "saturated" for two series.
fig, ax = plt.subplots()
curve, marks = plot_output.plot_series(ax, points, "o-", color="tab:blue", label="a")
curve2, marks2 = plot_output.plot_series(ax, plot_output.over_seeds(rows, "rate", "lat", lambda r: r["lat"] > 950),
                                         "s--", color="tab:red", label="b", row=1)
assert list(curve.lines[0].get_xdata()) == [0.1, 0.2] and list(curve.lines[0].get_ydata()) == [50, 2]
segments = curve.lines[2][0].get_segments()  # the error bars: none (zero length) for one seed
assert close(segments[0][0][1], 50) and close(segments[0][1][1], 50)
assert close(segments[1][0][1], 2 - 4.303 / math.sqrt(3)) and close(segments[1][1][1], 2 + 4.303 / math.sqrt(3))
assert list(marks.get_xdata()) == [0.3, 0.4] and marks.get_marker() == plot_output.SATURATED_MARKER
assert marks.get_markerfacecolor() == "none" and marks.get_color() == "tab:blue"
assert list(marks2.get_xdata()) == [0.4]
ax.set_ylim(0, 80)
fig.canvas.draw()
top = ax.get_window_extent().y1
for x, (px, py) in zip([0.3, 0.4], marks.get_transform().transform(marks.get_xydata())):
    assert abs(py - top) < 0.01, (py, top)
    assert close(px, ax.transData.transform((x, 0))[0])
(py2,) = marks2.get_transform().transform(marks2.get_xydata())[:, 1]
assert py2 < top - 1  # the second series' row just below the edge
labels = ax.get_legend_handles_labels()[1]
assert labels.count("saturated") == 1 and "a" in labels and "b" in labels, labels
assert [t.get_text() for t in plot_output.legend(ax).get_texts()] == ["a", "b", "saturated"]
plt.close(fig)
# docs/results.md against a summary: the same tables pass, whatever their heading level and
# the prose around them; a changed number, a missing row or a missing table does not.
summary = "### Fig. 3\n\n| rate | dp |\n|---|---|\n| 0.1 | 12 |\n| 0.2 | 15 |\n\n### Fig. 4\n\n| rate | dp |\n|---|---|\n| 0.1 | 20 |\n"
results = "# R\n\nText.\n\n#### Fig. 3\n\n| rate | dp |\n|---|---|\n| 0.1 | 12 |\n| 0.2 | 15 |\n\nMore.\n\n#### Fig. 4\n\n| rate | dp |\n| --- | --- |\n| 0.1 | 20 |\n"
assert plot_output.stale_tables(summary, results) == []
assert "0.2 | 16" in plot_output.stale_tables(summary, results.replace("| 0.2 | 15 |", "| 0.2 | 16 |"))[0]
assert "1 rows, docs 0" in plot_output.stale_tables(summary, results.replace("| 0.1 | 20 |", ""))[0]
assert "no table" in plot_output.stale_tables(summary + "\n| x | y |\n|---|---|\n| 1 | 2 |\n", results)[0]
print("plot_output: ok")
