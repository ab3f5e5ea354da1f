#!/usr/bin/env python3
"""Figure and table of scripts/experiments/barrier-load from its sweeps.

Reads OUT/{uniform,transpose,hotspot}.csv (one row per load rate and seed, `meshsync
barrier --json` flattened) and OUT/quiet.json (the same barrier without load); writes
OUT/barrier-load.png and OUT/summary.md. schemes.0 is BTM, schemes.1 CS; a row's latency
is the mean of its --repeat barriers, and every value shown is the mean over the seeds
with its 95% Student-t interval (plot_output.over_seeds). The background load carries no
saturation flag: the rates stop below saturation, where a barrier would not finish.
"""
import csv
import json
import sys
from pathlib import Path

import matplotlib

import plot_output  # noqa: E402  (beside this script)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PATTERNS = ("uniform", "transpose", "hotspot")


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "results/barrier-load")
    quiet = json.loads((out / "quiet.json").read_text())
    zero = [quiet["schemes"][s]["latency_cycles"] for s in (0, 1)]
    rows = {}
    for p in PATTERNS:
        with open(out / f"{p}.csv", newline="") as f:
            rows[p] = list(csv.DictReader(f))
    rate = lambda r: float(r["load-rate"])  # noqa: E731
    over = lambda p, column: plot_output.over_seeds(rows[p], rate, column)  # noqa: E731
    seeds = sorted({int(r["seed"]) for p in PATTERNS for r in rows[p]})
    repeats = sorted({r["repeat"] for p in PATTERNS for r in rows[p]})

    fig, ax = plt.subplots(figsize=(6.5, 4.4))
    colors = dict(zip(PATTERNS, ("tab:blue", "tab:orange", "tab:red")))
    for p in PATTERNS:
        for s, (name, style) in enumerate((("BTM", "o-"), ("CS", "s--"))):
            plot_output.plot_series(ax, over(p, f"schemes.{s}.latency_cycles"), style, color=colors[p],
                                    ms=4, label=f"{name}, {p}")
    for s, name in enumerate(("BTM", "CS")):
        ax.axhline(zero[s], color="grey", linewidth=0.8, linestyle=":" if s else "-")
        ax.annotate(f"{name} without load", (0, zero[s]), textcoords="offset points", xytext=(2, 3),
                    fontsize=8, color="grey")
    ax.set_xlabel("background load (flits/node/cycle, 4-flit packets)")
    ax.set_ylabel("barrier latency (cycles), 8x8, 64 members")
    ax.set_title(f"mean of {'/'.join(repeats)} barriers a seed; mean over {len(seeds)} seeds "
                 "with its 95% interval", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    plot_output.save(fig, out / "barrier-load.png", dpi=120)
    plt.close(fig)

    lines = [f"Without load: BTM {zero[0]} cycles, CS {zero[1]} cycles.", "",
             f"Each value: mean ± 95% interval over seeds {', '.join(map(str, seeds))} (Student's t); "
             f"a seed's barrier latency is the mean of its {'/'.join(repeats)} barriers.", "",
             "| load | rate | accepted | packet latency | BTM latency | CS latency | BTM over CS |",
             "|---|---|---|---|---|---|---|"]
    for p in PATTERNS:
        columns = [over(p, c) for c in ("load.accepted_flits_per_node_cycle", "load.latency_avg_cycles",
                                        "schemes.0.latency_cycles", "schemes.1.latency_cycles", "speedup")]
        for acc, lat, btm, cs, speedup in zip(*columns):
            lines.append(f"| {p} | {acc.x:g} | {acc.cell(3)} | {lat.cell()} | {btm.cell()} | {cs.cell()} | "
                         f"{speedup.cell(2)} |")
    plot_output.write_summary(out, lines)


if __name__ == "__main__":
    main()
