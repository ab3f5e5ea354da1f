#!/usr/bin/env python3
"""Figure and tables of scripts/experiments/traffic from its sweeps.

Reads OUT/{uniform,transpose,hotspot}.csv (one row per rate and seed, `meshsync traffic
--json` flattened), OUT/times.txt and, when the script measured it, OUT/booksim.csv;
writes OUT/traffic.png (three panels: mean latency against offered load, saturated points
as hollow markers on the top edge, BookSim2's saturation rate as a vertical line) and
OUT/summary.md: per pattern a table over the seeds and the saturation rates.

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
    """{rate: [(latency, offered, accepted, saturated), ...]} over the seeds"""
    data = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            data.setdefault(float(r["rate"]), []).append(
                (float(r["latency_avg"]), float(r["offered"]), float(r["accepted"]), r["saturated"] == "true"))
    return data


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
    """{pattern: {rate: (stable seeds, seeds, latency mean, accepted mean over the stable)}}"""
    rows = {p: {} for p in PATTERNS}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            stable = r["stable"] == "true"
            rows[r["pattern"]].setdefault(float(r["rate"]), []).append(
                (float(r["latency_avg"]), float(r["accepted"])) if stable else None)
    data = {p: {} for p in PATTERNS}
    for p in PATTERNS:
        for rate, v in rows[p].items():
            ok = [x for x in v if x]
            data[p][rate] = (len(ok), len(v), mean(x[0] for x in ok) if ok else None,
                             mean(x[1] for x in ok) if ok else None)
    return data


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "results/traffic")
    booksim_csv = out / "booksim.csv"
    booksim = load_booksim(booksim_csv) if booksim_csv.exists() else None
    # BookSim2's points only where this run measured them (BOOKSIM=... for the script):
    # docs/results.md keeps the ones measured for it.
    bs_sat = {}
    for p in PATTERNS:
        rs = sorted(booksim[p]) if booksim else []
        bs_sat[p] = saturation(rs, lambda r, p=p: booksim[p][r][0] < booksim[p][r][1]) if rs else None
    bs_source = "measured now (OUT/booksim.csv)" if booksim else "not measured (run with BOOKSIM=...)"

    fig, axes = plt.subplots(1, 3, figsize=(12, 4.2))
    lines = []
    sats = {}
    for ax, p in zip(axes, PATTERNS):
        path = out / f"{p}.csv"
        if not path.exists():
            ax.set_visible(False)
            continue
        data = load(path)
        rates = sorted(data)
        sat_any = {r: any(s for *_, s in data[r]) for r in rates}
        sats[p] = saturation_tail(rates, lambda r: sat_any[r])
        # the curve: mean over the seeds that ran to the end
        ok = [r for r in rates if not all(x[3] for x in data[r])]
        curve = [mean(x[0] for x in data[r] if not x[3]) for r in ok]
        ax.plot(ok, curve, "o-", color="tab:blue", ms=4, label="meshsync (mean of unsaturated seeds)")
        bad = [r for r in rates if sat_any[r]]
        if bad:  # saturated: hollow markers along the top edge
            ax.plot(bad, [0.96] * len(bad), "o", mfc="none", color="tab:blue", ms=5,
                    transform=ax.get_xaxis_transform(), clip_on=False, label="a meshsync seed saturated")
        top = max(curve) if curve else 0
        if booksim:
            brs = sorted(r for r in booksim[p] if booksim[p][r][0])
            if brs:
                ax.plot(brs, [booksim[p][r][2] for r in brs], "s--", color="tab:red", ms=3,
                        label="BookSim2 (mean of stable seeds)")
                top = max(top, max(booksim[p][r][2] for r in brs))
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
                  "| rate | offered | accepted | latency mean (min-max over seeds) | saturated |",
                  "|---|---|---|---|---|"]
        for r in rates:
            v = data[r]
            lat = [x[0] for x in v]
            nsat = sum(1 for x in v if x[3])
            lines.append(f"| {r:g} | {mean(x[1] for x in v):.4f} | {mean(x[2] for x in v):.4f} | "
                         f"{mean(lat):.1f} ({min(lat):.1f}-{max(lat):.1f}) | "
                         f"{'yes' if nsat == len(v) else ('no' if nsat == 0 else f'{nsat} of {len(v)} seeds')} |")
        lines.append("")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    plot_output.save(fig, out / "traffic.png", dpi=100)
    plt.close(fig)

    lines += [f"Saturation rates (flits/node/cycle, --rate; BookSim2 {bs_source}):", "",
              "| pattern | meshsync | BookSim2 |", "|---|---|---|"]
    for p in PATTERNS:
        m, b = sats.get(p), bs_sat[p]
        lines.append(f"| {p} | {'-' if m is None else f'{m:g}'} | {'-' if b is None else f'{b:g}'} |")
    lines.append("")
    if booksim:
        lines += ["BookSim2 (OUT/booksim.csv; latency and accepted: mean over the stable seeds):", "",
                  "| pattern | rate | stable seeds | latency | accepted |", "|---|---|---|---|---|"]
        for p in PATTERNS:
            for r in sorted(booksim[p]):
                n, k, lat, acc = booksim[p][r]
                lines.append(f"| {p} | {r:g} | {n} of {k} | "
                             f"{'-' if lat is None else f'{lat:.1f}'} | {'-' if acc is None else f'{acc:.4f}'} |")
        lines.append("")
    plot_output.write_summary(out, lines, "Wall time (`meshsync sweep --workers 2`):")


if __name__ == "__main__":
    main()
