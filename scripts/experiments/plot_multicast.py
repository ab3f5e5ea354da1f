#!/usr/bin/env python3
"""Figures and table of scripts/experiments/multicast from its sweeps.

Reads OUT/fig{3,4,5,6}.csv (one row per algorithm and offered load, `meshsync multicast
--json` flattened: algorithms.0.*) and OUT/times.txt; writes OUT/fig{N}.png (mean
multicast latency against offered load, as the QG paper's Figs. 3-6) and OUT/summary.md:
per figure the latencies, who wins at the lowest and at the highest load any algorithm
still carries, and where two curves cross.

The experiment runs one seed a point; the interval is the batch-means one: the mean of
the run's batch means (its mean latency) with the 95% Student-t interval over them
(plot_output.mean_interval), t(0.975, batches - 1) times the standard error the program
reports. A saturated point has no latency: a triangle on the top edge, "sat." in the
tables; a deadlocked one "deadl.".

With MULTICAST_MODEL set (scripts/experiments/multicast-model) the headings name that
model and docs/results.md is not checked against the tables: plot_multicast_model.py
compares the models and docs/results.md quotes its table.
"""
import csv
import os
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
    """{algo: {rate: Point}}: the mean latency over the run's batch means with its 95%
    interval, or a saturated point (its `deadlock` set when the network deadlocked)."""
    data = {a: {} for a in ALGOS}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            # A point whose network deadlocked fails (exit 3); the sweep keeps it as a row
            # with failure.message (--keep-failed) and no result columns.
            failure = r.get("failure.message") or ""
            if failure and "deadlock" not in failure:
                raise SystemExit(f"{path}: point {r['point']} failed: {failure}")
            a = r["algorithms.0.algorithm"] if not failure else r["algo"]
            batches = [] if failure else plot_output.flattened_list(r, "algorithms.0.batch_means_cycles")
            saturated = bool(failure) or r["algorithms.0.saturated"] == "true"
            point = plot_output.Point(float(r["rate"]), [] if saturated else batches, 1 if saturated else 0)
            point.deadlock = bool(failure) or r["algorithms.0.saturation"].startswith("deadlock")
            data[a][float(r["rate"])] = point
    return data


def crossings(data, rates):
    """Pairs whose order changes between two loads both of them carry."""
    out = []
    for i, a in enumerate(ALGOS):
        for b in ALGOS[i + 1:]:
            prev = None
            for r in rates:
                la, lb = data[a].get(r), data[b].get(r)
                if not la or not lb or la.saturated or lb.saturated:
                    continue
                sign = la.mean < lb.mean
                if prev is not None and sign != prev[1]:
                    low, high = (a, b) if sign else (b, a)
                    out.append(f"{low.upper()} drops below {high.upper()} between {prev[0]:g} and {r:g}")
                prev = (r, sign)
    return out


def winner(data, r):
    alive = [(data[a][r].mean, a) for a in ALGOS if r in data[a] and not data[a][r].saturated]
    return min(alive)[1].upper() if alive else None


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "results/multicast")
    model = os.environ.get("MULTICAST_MODEL", "")
    lines = []
    for fig, (mesh, k) in FIGS.items():
        path = out / f"fig{fig}.csv"
        if not path.exists():
            continue
        data = load(path)
        rates = sorted({r for a in ALGOS for r in data[a]})
        fig_, ax = plt.subplots(figsize=(6, 4.2))
        batches = set()
        row = 0
        for a in ALGOS:
            style, color = STYLE[a]
            # saturated points on the top edge, a row of triangles for each algorithm with any
            _, marks = plot_output.plot_series(ax, [data[a][r] for r in rates if r in data[a]], style, color=color,
                                               label=a.upper(), row=row)
            row += marks is not None
            batches |= {p.n for p in data[a].values() if not p.saturated}
        low, high = ax.get_ylim()
        ax.set_ylim(low, high + 0.04 * row * (high - low))  # room for the rows of triangles
        ax.ticklabel_format(axis="x", style="sci", scilimits=(0, 0))
        ax.set_xlabel("offered traffic (multicasts/node/cycle)")
        ax.set_ylabel("mean multicast latency (cycles)")
        n = "/".join(str(b) for b in sorted(batches)) or "-"
        ax.set_title(f"Fig. {fig}: {mesh}, {k} destinations, 32 flits, start-up 33{', ' + model if model else ''}\n"
                     f"one seed; mean with its 95% interval over {n} batch means", fontsize=9)
        ax.grid(True, alpha=0.3)
        plot_output.legend(ax, fontsize=8)
        fig_.tight_layout()
        plot_output.save(fig_, out / f"fig{fig}.png", dpi=120)
        plt.close(fig_)

        lines += [f"### Fig. {fig}: {mesh}, {k} destinations{' (' + model + ')' if model else ''}", "",
                  f"Mean latency ± 95% interval over the {n} batch means of one seed; sat.: saturated.", "",
                  "| load | DP | MP | CP | QG | best |", "|---|---|---|---|---|---|"]
        for r in rates:
            cells = []
            for a in ALGOS:
                v = data[a].get(r)
                cells.append("-" if v is None else "deadl." if v.deadlock else v.cell(0))
            lines.append(f"| {r:g} | " + " | ".join(cells) + f" | {winner(data, r) or '-'} |")
        carried = [r for r in rates if winner(data, r)]
        lines.append("")
        if carried:
            lines.append(f"Lowest load {carried[0]:g}: {winner(data, carried[0])} wins; highest load an algorithm "
                         f"still carries, {carried[-1]:g}: {winner(data, carried[-1])} wins.")
        for a in ALGOS:
            sat = [r for r in rates if r in data[a] and data[a][r].saturated]
            if sat:
                how = "deadlocked" if data[a][sat[0]].deadlock else "saturated"
                lines.append(f"{a.upper()} {how} from {sat[0]:g}.")
        cross = crossings(data, rates)
        lines.append("Crossings: " + ("; ".join(cross) if cross else "none") + ".")
        lines.append("")
    plot_output.write_summary(out, lines, "Wall time per figure (`meshsync sweep --workers 2`):", check=not model)


if __name__ == "__main__":
    main()
