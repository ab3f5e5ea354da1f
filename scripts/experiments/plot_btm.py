#!/usr/bin/env python3
"""Figures and tables of the BTM experiments (scripts/experiments/btm) from its sweeps.

Reads OUT/groups-32x32.csv, OUT/groups-64x64.csv and OUT/trm-32x32.csv; writes
OUT/height.png, OUT/latency.png, OUT/hops.png, OUT/speedup-trm.png and OUT/summary.md.
In each row, schemes.0 is BTM and schemes.1 the CS tree (`--scheme btm,cs`), each the
mean of 100 barriers on fresh random member sets (schemes.N.runs.K, one seed): the
figures and tables give that mean with its 95% Student-t interval over the runs
(plot_output.mean_interval). The t_rm sweep's 1024 members are all of 32x32, one member
set, so one run a point and no interval.
"""
import csv
import sys
from pathlib import Path

import matplotlib

import plot_output  # noqa: E402  (beside this script)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


METRICS = ("height", "latency_cycles", "hops")


def by_group(table):
    """(group sizes, {metric: (BTM Points, CS Points)}, speed-ups) sorted by group size;
    a Point is a metric's mean over the row's runs with its 95% interval."""
    table = sorted(table, key=lambda r: float(r["schemes.0.members"]))
    sizes = [round(float(r["schemes.0.members"])) for r in table]
    metrics = {m: tuple([plot_output.Point(n, plot_output.flattened_list(r, f"schemes.{s}.runs", m))
                         for n, r in zip(sizes, table)] for s in (0, 1)) for m in METRICS}
    return sizes, metrics, [float(r["speedup"]) for r in table]


def figure(out, name, ylabel, series):
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, points, style in series:
        plot_output.plot_series(ax, points, style, label=label, ms=5)
    ax.set_xlabel("group size (members)")
    ax.set_ylabel(ylabel)
    ax.set_title("mean of 100 random member sets with its 95% interval (one seed)", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    plot_output.save(fig, out / name, dpi=120)
    plt.close(fig)


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "results/btm")
    meshes = {m: by_group(rows(out / f"groups-{m}.csv")) for m in ("32x32", "64x64")}
    for metric, name, ylabel in (("height", "height.png", "average tree height (edges)"),
                                 ("latency_cycles", "latency.png", "barrier latency (cycles = ns)"),
                                 ("hops", "hops.png", "links crossed by sync messages")):
        series = []
        for mesh, style in (("32x32", "-"), ("64x64", "--")):
            _, m, _ = meshes[mesh]
            series.append((f"BTM {mesh}", m[metric][0], "o" + style))
            series.append((f"CS {mesh}", m[metric][1], "s" + style))
        figure(out, name, ylabel, series)

    trm = sorted(rows(out / "trm-32x32.csv"), key=lambda r: int(r["trm"]))
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([int(r["trm"]) for r in trm], [float(r["speedup"]) for r in trm], "o-", label="simulated")
    ax.plot([20, 40, 60], [1.3, 1.6, 1.8], "x", markersize=10, label="paper (Fig. 12)")
    ax.set_xlabel("t_rm (cycles = ns)")
    ax.set_ylabel("speed-up of BTM over CS (1024 members, 32x32)")
    ax.set_title("one run a point: all 1024 nodes are members, a single member set", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    plot_output.save(fig, out / "speedup-trm.png", dpi=120)
    plt.close(fig)

    lines = ["Height, latency and hops: mean ± 95% interval over the 100 runs of a point (random member sets, "
             "one seed); speed-up: CS's mean latency over BTM's.", ""]
    for mesh in ("32x32", "64x64"):
        sizes, m, speedup = meshes[mesh]
        lines += [f"### {mesh}, 100 random member sets a point", "",
                  "| members | height BTM | height CS | latency BTM | latency CS | speed-up | hops BTM | hops CS |",
                  "|---|---|---|---|---|---|---|---|"]
        for i, n in enumerate(sizes):
            lines.append(f"| {n} | {m['height'][0][i].cell(2)} | {m['height'][1][i].cell(2)} | "
                         f"{m['latency_cycles'][0][i].cell(0)} | {m['latency_cycles'][1][i].cell(0)} | "
                         f"{speedup[i]:.2f} | {m['hops'][0][i].cell(0)} | {m['hops'][1][i].cell(0)} |")
        lines.append("")
    lines += ["### t_rm on 32x32, 1024 members", "", "| t_rm | latency BTM | latency CS | speed-up |",
              "|---|---|---|---|"]
    for r in trm:
        lines.append(f"| {r['trm']} | {float(r['schemes.0.latency_cycles']):.0f} | "
                     f"{float(r['schemes.1.latency_cycles']):.0f} | {float(r['speedup']):.2f} |")
    plot_output.write_summary(out, lines)


if __name__ == "__main__":
    main()
