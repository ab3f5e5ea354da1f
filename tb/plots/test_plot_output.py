#!/usr/bin/env python3
"""The experiments' figures and summaries are written as the program writes its files: a
complete PNG or table under its name, nothing (not even a temporary) where the write
failed, and one `meshsync: error:` line with exit 2 (scripts/experiments/plot_output.py)."""
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
plot_output.write_summary(sys.argv[2], ["| a | b |", "|---|---|"], "Wall time:")
"""


def save(path, limit=None, summary_dir=None):
    def preexec():
        if limit is not None:  # a file size limit stands in for a full disk
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    summary_dir = summary_dir or Path(path).parent
    return subprocess.run([sys.executable, "-c", program, str(path), str(summary_dir)], capture_output=True,
                          text=True, preexec_fn=preexec)


def refused(result):
    lines = result.stderr.strip().splitlines()
    return result.returncode == 2 and len(lines) == 1 and lines[0].startswith("meshsync: error: cannot write")


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
print("plot_output: ok")
