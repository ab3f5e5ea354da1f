#!/usr/bin/env python3
"""Figure and table of scripts/experiments/barrier-load from its sweeps.

Reads OUT/{uniform,transpose,hotspot}.csv and OUT/quiet.json (the same barrier without
load); writes OUT/barrier-load.png and OUT/summary.md. schemes.0 is BTM, schemes.1 CS.
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
    data = {}
    for p in PATTERNS:
        with open(out / f"{p}.csv", newline="") as f:
            data[p] = sorted(csv.DictReader(f), key=lambda r: float(r["load-rate"]))

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    colors = dict(zip(PATTERNS, ("tab:blue", "tab:orange", "tab:red")))
    for p in PATTERNS:
        rates = [float(r["load-rate"]) for r in data[p]]
        for s, (name, style) in enumerate((("BTM", "o-"), ("CS", "s--"))):
            ax.plot(rates, [float(r[f"schemes.{s}.latency_cycles"]) for r in data[p]], style,
                    color=colors[p], label=f"{name}, {p}")
    for s, name in enumerate(("BTM", "CS")):
        ax.axhline(zero[s], color="grey", linewidth=0.8, linestyle=":" if s else "-")
        ax.annotate(f"{name} without load", (0, zero[s]), textcoords="offset points", xytext=(2, 3),
                    fontsize=8, color="grey")
    ax.set_xlabel("background load (flits/node/cycle, 4-flit packets)")
    ax.set_ylabel("barrier latency (cycles), 8x8, 64 members")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    plot_output.save(fig, out / "barrier-load.png", dpi=120)
    plt.close(fig)

    lines = [f"Without load: BTM {zero[0]} cycles, CS {zero[1]} cycles.", "",
             "| load | rate | accepted | packet latency | BTM latency | CS latency | BTM over CS |",
             "|---|---|---|---|---|---|---|"]
    for p in PATTERNS:
        for r in data[p]:
            lines.append(f"| {p} | {float(r['load-rate']):g} | {float(r['load.accepted']):.3f} | "
                         f"{float(r['load.latency_avg']):.1f} | {float(r['schemes.0.latency_cycles']):.1f} | "
                         f"{float(r['schemes.1.latency_cycles']):.1f} | {float(r['speedup']):.2f} |")
    plot_output.write_summary(out, lines)


if __name__ == "__main__":
    main()
