#!/usr/bin/env python3
"""Figure and tables of scripts/experiments/reduction from its sweeps.

Reads OUT/size.csv, OUT/vector.csv and OUT/mesh.csv (one row per algorithm, communicator,
vector length or mesh, and seed: `meshsync allreduce --json` flattened, algorithms.0.*)
and writes OUT/reduction.png (allreduce latency against the communicator's size, the
vector's length and the mesh, one curve per algorithm, the mean over the seeds with its
95% interval) and OUT/summary.md (the tables of docs/results.md, which plot_output checks,
with each software algorithm's latency over btm's).
"""
import csv
import sys
from pathlib import Path

import matplotlib

import plot_output  # noqa: E402  (beside this script)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ALGOS = ("btm", "recursive-doubling", "ring", "binomial")
STYLE = {"btm": ("D-", "tab:red"), "recursive-doubling": ("o-", "tab:blue"), "ring": ("s-", "tab:orange"),
         "binomial": ("^-", "tab:green")}


def rows_of(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        if r["algorithms.0.check.passed"] != "true":
            sys.exit(f"meshsync: error: {path}: a failed check ({r['algorithms.0.check.problem']})")
    return rows


def table(lines, heading, xname, x, points):
    """One row per x: each algorithm's mean ± interval, then the best software one over btm."""
    algos = [a for a in ALGOS if points.get(a)]
    lines += [f"### {heading}", "", f"| {xname} | " + " | ".join(algos) + " | best software / btm |",
              "|---|" + "---|" * (len(algos) + 1)]
    xs = sorted({p.x for a in algos for p in points[a]})
    for xv in xs:
        at = {a: next((p for p in points[a] if p.x == xv), None) for a in algos}
        cells = [at[a].cell(0) if at[a] else "-" for a in algos]
        software = [at[a].mean for a in algos if a != "btm" and at[a]]
        ratio = f"{min(software) / at['btm'].mean:.2f}x" if at.get("btm") and software else "-"
        lines.append(f"| {x(xv)} | " + " | ".join(cells) + f" | {ratio} |")
    lines.append("")


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "results/reduction")
    size, vector, mesh = (rows_of(out / f"{part}.csv") for part in ("size", "vector", "mesh"))
    latency = "algorithms.0.latency_cycles"

    def series(rows, x):
        return {a: plot_output.over_seeds([r for r in rows if r["algo"] == a], x, latency) for a in ALGOS}

    by_size = series(size, lambda r: int(r["comm"].split(":")[1]))
    by_bytes = series(vector, lambda r: 4 * int(r["elements"]))
    by_mesh = series(mesh, lambda r: int(r["mesh"].split("x")[0]))
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.2))
    for ax, points, xlabel in ((axes[0], by_size, "ranks (random, 32x32 mesh), 4-byte vector"),
                               (axes[1], by_bytes, "vector bytes (int32), 100 random ranks"),
                               (axes[2], by_mesh, "mesh side (every node a rank), 4-byte vector")):
        for a in ALGOS:
            if points[a]:
                style, color = STYLE[a]
                plot_output.plot_series(ax, points[a], style, color=color, label=a)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("allreduce latency (cycles)")
        ax.grid(True, alpha=0.3)
        plot_output.legend(ax, fontsize=8)
    fig.suptitle("allreduce in the routers (btm) and in software, ts=1000 tp=5 trn=5 trm=30; "
                 "mean and 95% interval over 3 seeds", fontsize=9)
    fig.tight_layout()
    plot_output.save(fig, out / "reduction.png", dpi=120)
    lines = []
    table(lines, "Allreduce latency against the communicator (32x32, one int32, cycles)", "ranks", str, by_size)
    table(lines, "Allreduce latency against the vector (32x32, 100 ranks, int32, cycles)", "bytes", str, by_bytes)
    table(lines, "Allreduce latency against the mesh (every node a rank, one int32, cycles)", "mesh",
          lambda v: f"{v}x{v}", by_mesh)
    plot_output.write_summary(out, lines)


if __name__ == "__main__":
    main()
