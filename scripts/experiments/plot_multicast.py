#!/usr/bin/env python3
"""Figures and table of scripts/experiments/multicast from its sweeps.

Reads OUT/fig{3,4,5,6}.csv (one row per algorithm and offered load, `meshsync multicast
--json` flattened: algorithms.0.*) and OUT/times.txt; writes OUT/fig{N}.png (mean
multicast latency against offered load, as the QG paper's Figs. 3-6) and OUT/summary.md:
per figure the latencies, who wins at the lowest and at the highest load any algorithm
still carries, and where two curves cross.
"""
import csv
import sys
from pathlib import Path

import matplotlib

import plot_output  # noqa: E402  (beside this script)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ALGOS = ("dp", "mp", "cp", "qg")
STYLE = {"dp": ("o-", "tab:blue"), "mp": ("s-", "tab:orange"), "cp": ("^-", "tab:green"), "qg": ("D-", "tab:red")}
FIGS = {"3": ("10x10", 10), "4": ("10x10", 20), "5": ("16x16", 10), "6": ("16x16", 20)}


def load(path):
    """{algo: {rate: (latency, stderr, saturated)}}"""
    data = {a: {} for a in ALGOS}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            a = r["algorithms.0.algorithm"]
            data[a][float(r["rate"])] = (float(r["algorithms.0.latency_avg"]),
                                         float(r["algorithms.0.latency_stderr"]),
                                         r["algorithms.0.saturated"] == "true")
    return data


def crossings(data, rates):
    """Pairs whose order changes between two loads both of them carry."""
    out = []
    for i, a in enumerate(ALGOS):
        for b in ALGOS[i + 1:]:
            prev = None
            for r in rates:
                la, lb = data[a].get(r), data[b].get(r)
                if not la or not lb or la[2] or lb[2]:
                    continue
                sign = la[0] < lb[0]
                if prev is not None and sign != prev[1]:
                    low, high = (a, b) if sign else (b, a)
                    out.append(f"{low.upper()} drops below {high.upper()} between {prev[0]:g} and {r:g}")
                prev = (r, sign)
    return out


def winner(data, r):
    alive = [(data[a][r][0], a) for a in ALGOS if r in data[a] and not data[a][r][2]]
    return min(alive)[1].upper() if alive else None


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "results/multicast")
    lines = []
    for fig, (mesh, k) in FIGS.items():
        path = out / f"fig{fig}.csv"
        if not path.exists():
            continue
        data = load(path)
        rates = sorted({r for a in ALGOS for r in data[a]})
        fig_, ax = plt.subplots(figsize=(6, 4.2))
        for i, a in enumerate(ALGOS):
            ok = [(r, data[a][r][0]) for r in rates if r in data[a] and not data[a][r][2]]
            style, color = STYLE[a]
            if ok:
                ax.plot([r for r, _ in ok], [v for _, v in ok], style, color=color, label=a.upper())
            sat = [r for r in rates if r in data[a] and data[a][r][2]]
            if sat:  # saturated: crosses along the top edge, one row per algorithm
                ax.plot(sat, [0.97 - 0.03 * i] * len(sat), "x", color=color, transform=ax.get_xaxis_transform())
        ax.ticklabel_format(axis="x", style="sci", scilimits=(0, 0))
        ax.set_xlabel("offered traffic (multicasts/node/cycle)")
        ax.set_ylabel("mean multicast latency (cycles)")
        ax.set_title(f"Fig. {fig}: {mesh}, {k} destinations, 32 flits, start-up 33 (x: saturated)", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        fig_.tight_layout()
        plot_output.save(fig_, out / f"fig{fig}.png", dpi=120)
        plt.close(fig_)

        lines += [f"### Fig. {fig}: {mesh}, {k} destinations", "",
                  "| load | DP | MP | CP | QG | best |", "|---|---|---|---|---|---|"]
        for r in rates:
            cells = []
            for a in ALGOS:
                v = data[a].get(r)
                cells.append("-" if v is None else ("saturated" if v[2] else f"{v[0]:.0f} ± {v[1]:.0f}"))
            lines.append(f"| {r:g} | " + " | ".join(cells) + f" | {winner(data, r) or '-'} |")
        carried = [r for r in rates if winner(data, r)]
        lines.append("")
        if carried:
            lines.append(f"Lowest load {carried[0]:g}: {winner(data, carried[0])} wins; highest load an algorithm "
                         f"still carries, {carried[-1]:g}: {winner(data, carried[-1])} wins.")
        for a in ALGOS:
            sat = [r for r in rates if r in data[a] and data[a][r][2]]
            if sat:
                lines.append(f"{a.upper()} saturated from {sat[0]:g}.")
        cross = crossings(data, rates)
        lines.append("Crossings: " + ("; ".join(cross) if cross else "none") + ".")
        lines.append("")
    plot_output.write_summary(out, lines, "Wall time per figure (40 points, `meshsync sweep --workers 2`):")


if __name__ == "__main__":
    main()
