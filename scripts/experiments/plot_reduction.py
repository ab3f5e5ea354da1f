#!/usr/bin/env python3
"""Figure and tables of scripts/experiments/reduction from its sweeps.

Reads OUT/size.csv and OUT/vector.csv (one row per algorithm, communicator or vector
length and seed: `meshsync allreduce --json` flattened, algorithms.0.*) and writes
OUT/reduction.png (allreduce latency against the communicator's size and against the
vector's length, one curve per algorithm, the mean over the seeds with its 95% interval)
and OUT/summary.md (the tables of docs/results.md, which plot_output checks).
"""
import csv
import sys
from pathlib import Path

import matplotlib

import plot_output  # noqa: E402  (beside this script)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ALGOS = ("recursive-doubling", "ring", "binomial")
STYLE = {"recursive-doubling": ("o-", "tab:blue"), "ring": ("s-", "tab:orange"), "binomial": ("^-", "tab:green")}


def rows_of(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        if r["algorithms.0.check.passed"] != "true":
            sys.exit(f"meshsync: error: {path}: a failed check ({r['algorithms.0.check.problem']})")
    return rows


def table(lines, heading, xname, x, points):
    lines += [f"### {heading}", "", f"| {xname} | " + " | ".join(ALGOS) + " |",
              "|---|" + "---|" * len(ALGOS)]
    xs = sorted({p.x for a in ALGOS for p in points[a]})
    for xv in xs:
        cells = [next((p.cell(0) for p in points[a] if p.x == xv), "-") for a in ALGOS]
        lines.append(f"| {x(xv)} | " + " | ".join(cells) + " |")
    lines.append("")


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "results/reduction")
    size, vector = rows_of(out / "size.csv"), rows_of(out / "vector.csv")
    latency = "algorithms.0.latency_cycles"
    by_size = {a: plot_output.over_seeds([r for r in size if r["algo"] == a], lambda r: int(r["comm"].split(":")[1]),
                                         latency) for a in ALGOS}
    by_bytes = {a: plot_output.over_seeds([r for r in vector if r["algo"] == a], lambda r: 4 * int(r["elements"]),
                                          latency) for a in ALGOS}
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    for ax, points, xlabel in ((left, by_size, "ranks (random, 32x32 mesh), 4-byte vector"),
                               (right, by_bytes, "vector bytes (int32), 100 random ranks")):
        for a in ALGOS:
            style, color = STYLE[a]
            plot_output.plot_series(ax, points[a], style, color=color, label=a)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("allreduce latency (cycles)")
        ax.grid(True, alpha=0.3)
        plot_output.legend(ax, fontsize=8)
    fig.suptitle("software allreduce, ts=1000 tp=5 trn=5; mean and 95% interval over 3 seeds", fontsize=9)
    fig.tight_layout()
    plot_output.save(fig, out / "reduction.png", dpi=120)
    lines = []
    table(lines, "Allreduce latency against the communicator (32x32, one int32, cycles)", "ranks", str, by_size)
    table(lines, "Allreduce latency against the vector (32x32, 100 ranks, int32, cycles)", "bytes", str, by_bytes)
    plot_output.write_summary(out, lines)


if __name__ == "__main__":
    main()
