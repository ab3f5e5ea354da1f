#!/usr/bin/env python3
"""Figure and tables of scripts/experiments/traffic from its sweeps.

Reads OUT/{uniform,transpose,hotspot}.csv (one row per rate and seed, `meshsync traffic
--json` flattened), OUT/times.txt and, when the script measured it, OUT/booksim.csv;
writes OUT/traffic.png (three panels: mean latency over the seeds against offered load,
with its 95% interval; a rate where a seed saturated as a hollow triangle on the top
edge, its latency left out; BookSim2's saturation rate as a vertical line) and
OUT/summary.md: per pattern a table over the seeds ("sat." where a seed saturated) and
the saturation rates.

meshsync's saturation rate of a pattern is the highest rate of the sweep below the run of
rates, up to the sweep's last, at which some seed stops saturated (docs/traffic.md,
"Saturation stop"); an isolated stop at a low rate (a backlog of a few dozen packets that
happened to grow three periods in a row) is shown but does not count. BookSim2's is the
highest rate at which it reports every seed stable, below the first rate where a seed is
unstable.
"""
import csv
import sys
from pathlib import Path
from statistics import mean

import matplotlib

import plot_output  # noqa: E402  (beside this script)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PATTERNS = ("uniform", "transpose", "hotspot")

def load(path):
    """The sweep's rows (one per rate and seed): rate, latency, offered, accepted, saturated."""
    with open(path, newline="") as f:
        return [{"rate": float(r["rate"]), "latency": float(r["latency_avg_cycles"]),
                 "offered": float(r["offered_flits_per_node_cycle"]),
                 "accepted": float(r["accepted_flits_per_node_cycle"]), "saturated": r["saturated"] == "true"}
                for r in csv.DictReader(f)]


def saturation(rates, unstable):
    """The highest rate below the first unstable one (None if the first is unstable)."""
    last = None
    for r in rates:
        if unstable(r):
            return last
        last = r
    return last


def saturation_tail(rates, unstable):
    """The highest rate below the unstable run that ends the sweep."""
    last = None
    for r in rates:
        if not unstable(r):
            last = r
    return last


def load_booksim(path):
    """{pattern: [Point of the latency over the seeds, one per rate]} and {pattern: {rate:
    mean accepted over the stable seeds or None}}; an unstable seed counts as saturated."""
    rows = {p: [] for p in PATTERNS}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows[r["pattern"]].append(r)
    unstable = lambda r: r["stable"] != "true"  # noqa: E731
    points = {p: plot_output.over_seeds(rows[p], lambda r: float(r["rate"]), "latency_avg", unstable)
              for p in PATTERNS}
    accepted = {p: {pt.x: None for pt in points[p]} for p in PATTERNS}
    for p in PATTERNS:
        for pt in points[p]:
            acc = [float(r["accepted"]) for r in rows[p] if float(r["rate"]) == pt.x and not unstable(r)]
            accepted[p][pt.x] = mean(acc) if acc else None
    return points, accepted


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "results/traffic")
    booksim_csv = out / "booksim.csv"
    booksim, bs_accepted = load_booksim(booksim_csv) if booksim_csv.exists() else (None, None)
    # BookSim2's points only where this run measured them (BOOKSIM=... for the script):
    # docs/results.md keeps the ones measured for it.
    bs_sat = {}
    for p in PATTERNS:
        pts = {pt.x: pt for pt in booksim[p]} if booksim else {}
        bs_sat[p] = saturation(sorted(pts), lambda r, pts=pts: pts[r].saturated > 0) if pts else None
    bs_source = "measured now (OUT/booksim.csv)" if booksim else "not measured (run with BOOKSIM=...)"

    fig, axes = plt.subplots(1, 3, figsize=(12, 4.4))
    lines = []
    sats = {}
    seeds = set()
    for ax, p in zip(axes, PATTERNS):
        path = out / f"{p}.csv"
        if not path.exists():
            ax.set_visible(False)
            continue
        rows = load(path)
        points = plot_output.over_seeds(rows, "rate", "latency", lambda r: r["saturated"])
        seeds |= {pt.n for pt in points}
        by_rate = {pt.x: pt for pt in points}
        sats[p] = saturation_tail(sorted(by_rate), lambda r: by_rate[r].saturated > 0)
        plot_output.plot_series(ax, points, "o-", color="tab:blue", ms=4, label="meshsync")
        top = max((pt.mean + (pt.half or 0) for pt in points if not pt.saturated), default=0)
        if booksim and booksim[p]:
            plot_output.plot_series(ax, booksim[p], "s--", color="tab:red", ms=3, row=1, label="BookSim2")
            top = max([top] + [pt.mean + (pt.half or 0) for pt in booksim[p] if not pt.saturated])
        if top:
            ax.set_ylim(0, top * 1.15)
        if bs_sat[p] is not None:
            ax.axvline(bs_sat[p], color="tab:red", ls=":", label="BookSim2 saturation rate")
        if sats[p] is not None:
            ax.axvline(sats[p], color="tab:blue", ls=":", alpha=0.6, label="meshsync saturation rate")
        fmt = lambda v: "-" if v is None else f"{v:g}"  # noqa: E731
        ax.set_xlabel("offered load, --rate (flits/node/cycle)")
        ax.set_ylabel("mean packet latency (cycles)")
        ax.set_title(f"8x8 {p}, 4-flit packets; saturation:\nmeshsync {fmt(sats[p])}, BookSim2 {fmt(bs_sat[p])}",
                     fontsize=9)
        ax.grid(True, alpha=0.3)

        lines += [f"### {p}", "",
                  "| rate | offered | accepted | latency (mean ± 95% interval over the seeds) |",
                  "|---|---|---|---|"]
        for pt in points:
            v = [r for r in rows if r["rate"] == pt.x]
            lines.append(f"| {pt.x:g} | {mean(r['offered'] for r in v):.4f} | {mean(r['accepted'] for r in v):.4f} | "
                         f"{pt.cell()} |")
        lines.append("")
    n = "/".join(str(k) for k in sorted(seeds)) or "-"
    plot_output.legend(axes[0], fig, loc="lower center", ncol=len(axes[0].get_legend_handles_labels()[1]), fontsize=8,
                       frameon=False)
    fig.suptitle(f"Mean over {n} seeds with its 95% interval (Student's t); a triangle on the top edge: a rate "
                 "where a seed saturated" + (" (meshsync) or was unstable (BookSim2)" if booksim else ""),
                 fontsize=8, y=0.995)
    fig.tight_layout(rect=(0, 0.07, 1, 0.97))
    plot_output.save(fig, out / "traffic.png", dpi=100)
    plt.close(fig)

    lines += [f"Saturation rates (flits/node/cycle, --rate; BookSim2 {bs_source}):", "",
              "| pattern | meshsync | BookSim2 |", "|---|---|---|"]
    for p in PATTERNS:
        m, b = sats.get(p), bs_sat[p]
        lines.append(f"| {p} | {'-' if m is None else f'{m:g}'} | {'-' if b is None else f'{b:g}'} |")
    lines.append("")
    if booksim:
        lines += ["BookSim2 (OUT/booksim.csv; latency: mean ± 95% interval over the seeds, none where a seed "
                  "was unstable; accepted: mean over the stable seeds):", "",
                  "| pattern | rate | stable seeds | latency | accepted |", "|---|---|---|---|---|"]
        for p in PATTERNS:
            for pt in booksim[p]:
                acc = bs_accepted[p][pt.x]
                lines.append(f"| {p} | {pt.x:g} | {pt.n - pt.saturated} of {pt.n} | {pt.cell(saturated='unstable')} | "
                             f"{'-' if acc is None else f'{acc:.4f}'} |")
        lines.append("")
    plot_output.write_summary(out, lines, "Wall time (`meshsync sweep --workers 2`):")


if __name__ == "__main__":
    main()
