#!/usr/bin/env python3
"""Figures and tables of the BTM experiments (scripts/experiments/btm) from its sweeps.

Reads OUT/groups-32x32.csv, OUT/groups-64x64.csv and OUT/trm-32x32.csv; writes
OUT/height.png, OUT/latency.png, OUT/hops.png, OUT/speedup-trm.png and OUT/summary.md.
In each row, schemes.0 is BTM and schemes.1 the CS tree (`--scheme btm,cs`), each the
mean of 100 barriers on fresh random member sets.
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


def by_group(table):
    """(group sizes, {metric: (btm values, cs values)}) sorted by group size."""
    table = sorted(table, key=lambda r: int(r["result.members"] if "result.members" in r else r["schemes.0.members"]))
    sizes = [int(r["schemes.0.members"]) for r in table]
    metrics = {}
    for m in ("height", "latency_cycles", "hops"):
        metrics[m] = ([float(r[f"schemes.0.{m}"]) for r in table], [float(r[f"schemes.1.{m}"]) for r in table])
    metrics["speedup"] = [float(r["speedup"]) for r in table]
    return sizes, metrics


def figure(out, name, ylabel, series):
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, xs, ys, style in series:
        ax.plot(xs, ys, style, label=label)
    ax.set_xlabel("group size (members)")
    ax.set_ylabel(ylabel)
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
            sizes, m = meshes[mesh]
            series.append((f"BTM {mesh}", sizes, m[metric][0], "o" + style))
            series.append((f"CS {mesh}", sizes, m[metric][1], "s" + style))
        figure(out, name, ylabel, series)

    trm = sorted(rows(out / "trm-32x32.csv"), key=lambda r: int(r["trm"]))
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([int(r["trm"]) for r in trm], [float(r["speedup"]) for r in trm], "o-", label="simulated")
    ax.plot([20, 40, 60], [1.3, 1.6, 1.8], "x", markersize=10, label="paper (Fig. 12)")
    ax.set_xlabel("t_rm (cycles = ns)")
    ax.set_ylabel("speed-up of BTM over CS (1024 members, 32x32)")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    plot_output.save(fig, out / "speedup-trm.png", dpi=120)
    plt.close(fig)

    lines = []
    for mesh in ("32x32", "64x64"):
        sizes, m = meshes[mesh]
        lines += [f"### {mesh}, 100 random member sets a point", "",
                  "| members | height BTM | height CS | latency BTM | latency CS | speed-up | hops BTM | hops CS |",
                  "|---|---|---|---|---|---|---|---|"]
        for i, n in enumerate(sizes):
            lines.append(f"| {n} | {m['height'][0][i]:.2f} | {m['height'][1][i]:.2f} | "
                         f"{m['latency_cycles'][0][i]:.0f} | {m['latency_cycles'][1][i]:.0f} | "
                         f"{m['speedup'][i]:.2f} | {m['hops'][0][i]:.0f} | {m['hops'][1][i]:.0f} |")
        lines.append("")
    lines += ["### t_rm on 32x32, 1024 members", "", "| t_rm | latency BTM | latency CS | speed-up |",
              "|---|---|---|---|"]
    for r in trm:
        lines.append(f"| {r['trm']} | {float(r['schemes.0.latency_cycles']):.0f} | "
                     f"{float(r['schemes.1.latency_cycles']):.0f} | {float(r['speedup']):.2f} |")
    plot_output.write_summary(out, lines)


if __name__ == "__main__":
    main()
