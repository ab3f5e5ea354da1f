#!/usr/bin/env python3
"""The table of scripts/experiments/multicast-model: for each model (the project's, each
of the QG paper's choices alone, all of them together) and each of Figs. 3-6, what the
paper's conclusions rest on.

Reads OUT/MODEL/fig{3,4,5,6}.csv (scripts/experiments/multicast's sweeps). The `ecube`
model runs QG alone; its DP, MP and CP are the project's, which e-cube does not change.
Writes OUT/summary.md; docs/results.md quotes its table (plot_output.write_summary checks).

Columns: the order at the lowest load (the paper: DP and MP before QG and CP with 10
destinations, QG first with 20); the loads at which QG has the lowest mean latency; the
load from which each algorithm saturates ("-": it carries every load of the figure), in
the order they give up; "deadl." where the network deadlocked instead.
"""
import sys
from pathlib import Path

import plot_multicast
import plot_output

MODELS = {
    "project": "this project's",
    "hop1": "hop 1 cycle",
    "addresses": "address flits within",
    "engaged": "sender engaged",
    "ecube": "QG on e-cube",
    "paper": "all four",
    "paper-snake": "all but e-cube",
}
ALGOS = plot_multicast.ALGOS


def low_order(data, rates):
    """Algorithms by mean latency at the lowest load all of them carry."""
    for r in rates:
        points = [(data[a][r].mean, a) for a in ALGOS if r in data[a]]
        if len(points) == len(ALGOS) and all(m is not None for m, _ in points):
            return f"{r:g}: " + " < ".join(a.upper() for _, a in sorted(points))
    return "-"


def qg_best(data, rates):
    best = [r for r in rates if plot_multicast.winner(data, r) == "QG"]
    return ", ".join(f"{r:g}" for r in best) or "never"


def give_up(data, rates):
    """Each algorithm's first saturated load, earliest first."""
    first = {}
    for a in ALGOS:
        sat = [r for r in rates if r in data[a] and data[a][r].saturated]
        first[a] = (sat[0], "deadl." if data[a][sat[0]].deadlock else "") if sat else (float("inf"), "")
    parts = []
    for a in sorted(ALGOS, key=lambda a: (first[a][0], a)):
        at, how = first[a]
        parts.append(f"{a.upper()} " + ("-" if at == float("inf") else f"{at:g}" + (f" {how}" if how else "")))
    return ", ".join(parts)


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "results/multicast-model")
    lines = ["### The paper's model, switch by switch", "",
             "| model | fig | lowest load: order | QG lowest at | saturates from |",
             "|---|---|---|---|---|"]
    for model, name in MODELS.items():
        for fig in plot_multicast.FIGS:
            path = out / model / f"fig{fig}.csv"
            if not path.exists():
                continue
            data = plot_multicast.load(path)
            if model == "ecube":
                project = plot_multicast.load(out / "project" / f"fig{fig}.csv")
                for a in ("dp", "mp", "cp"):
                    data[a] = project[a]
            rates = sorted({r for a in ALGOS for r in data[a]})
            lines.append(f"| {name} | {fig} | {low_order(data, rates)} | {qg_best(data, rates)} | "
                         f"{give_up(data, rates)} |")
    lines.append("")
    plot_output.write_summary(out, lines)


if __name__ == "__main__":
    main()
