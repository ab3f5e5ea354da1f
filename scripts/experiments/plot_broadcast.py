#!/usr/bin/env python3
"""Figures, CSV files and summary of scripts/experiments/broadcast from its JSON outputs.

Reads OUT/size/*.json, OUT/ranks.json, OUT/loss/*.json, OUT/slow.json, OUT/swapping.json, OUT/churn-*.json
(whichever parts ran); writes OUT/<part>.csv, OUT/broadcast-<part>.png, OUT/summary.md.
"""
import csv
import json
import statistics
import sys
from pathlib import Path

import matplotlib

import plot_output  # noqa: E402  (beside this script)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TREES = ("binomial", "adaptive")
STYLE = {"binomial": ("tab:blue", "o-"), "adaptive": ("tab:orange", "s--"), "twostage": ("tab:green", "^-.")}


def algos(doc):
    return [a["algorithm"] for a in doc["algorithms"]]


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def finish(fig, axes, path, legend_size=8):
    """Grid and legend on every panel, then the figure to `path`."""
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=legend_size)
    fig.tight_layout()
    plot_output.save(fig, path, dpi=120)
    plt.close(fig)


def load(out, name):
    """The part's JSON output, or None if that part did not run."""
    f = out / name
    return json.loads(f.read_text()) if f.exists() else None


def runs(doc, algo):
    return next(a["runs"] for a in doc["algorithms"] if a["algorithm"] == algo)


def size(out, lines):
    files = sorted((out / "size").glob("*.json"))
    if not files:
        return
    rows = []
    for f in files:
        d = json.loads(f.read_text())
        mesh = "x".join(str(v) for v in d["mesh"])
        for a in algos(d):
            r = runs(d, a)[0]
            ts = r.get("two_stage", {})
            kind = "tuned" if ts.get("fallback") else ("two-stage" if ts else "")
            rows.append([mesh, d["ranks"], a, r["latency_cycles"], r["rank1_cycles"], r["last_rank_cycles"],
                         r["median_cycles"], round(r["max_deviation_from_median_ratio"], 4), r["messages"], r["hops"],
                         kind, ts.get("max_penalty_rounds", "")])
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    write_csv(out / "size.csv", ["mesh", "ranks", "algo", "latency", "rank1", "last_rank", "median",
                                 "max_deviation", "messages", "hops", "twostage_ran", "max_penalty_rounds"], rows)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for mesh in ("32x32", "64x64"):
        for a in STYLE:
            pts = [r for r in rows if r[0] == mesh and r[2] == a]
            if not pts:
                continue
            color, style = STYLE[a]
            ls = style if mesh == "32x32" else style[0] + ":"
            axes[0].plot([r[1] for r in pts], [r[3] for r in pts], ls, color=color, label=f"{a}, {mesh}")
            axes[1].plot([r[1] for r in pts], [r[4] for r in pts], ls, color=color, label=f"rank 1, {a}, {mesh}")
            axes[1].plot([r[1] for r in pts], [r[5] for r in pts], ls, color=color, alpha=0.5,
                         label=f"last rank, {a}, {mesh}")
    axes[0].set_ylabel("broadcast latency: last rank done (cycles)")
    axes[1].set_ylabel("completion of rank 1 and of rank P-1 (cycles)")
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xlabel("communicator size P (random ranks), 2-byte message")
    finish(fig, axes, out / "broadcast-size.png", 7)
    lines += ["### Latency against communicator size (2 bytes, ts = 1000)", "",
              "| mesh | P | binomial latency | adaptive latency | two-stage latency | two-stage vs binomial | "
              "binomial rank 1 | binomial rank P-1 | two-stage rank 1 | two-stage rank P-1 |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for mesh in ("32x32", "64x64"):
        for p in sorted({r[1] for r in rows if r[0] == mesh}):
            pick = {r[2]: r for r in rows if r[0] == mesh and r[1] == p}
            b, ad, t = pick["binomial"], pick["adaptive"], pick.get("twostage")
            if t is None:
                continue
            mark = " (TUNED)" if t[10] == "tuned" else ""
            lines.append(f"| {mesh} | {p} | {b[3]} | {ad[3]} | {t[3]}{mark} | {100 * (t[3] - b[3]) / b[3]:+.0f}% | "
                         f"{b[4]} | {b[5]} | {t[4]} | {t[5]} |")
    lines.append("")


def ranks(out, lines):
    d = load(out, "ranks.json")
    if d is None:
        return
    rows = []
    fig, ax = plt.subplots(figsize=(7, 4.2))
    lines += [f"### Every rank at P = {d['ranks']} (32x32, random ranks, root rank 0)", "",
              "| algo | rank 1 done | rank 98 done | rank 1 done earlier | rank 1 received | rank 98 received | "
              "rank 1 received earlier | median done | max deviation from median | latency |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for a in algos(d):
        r = runs(d, a)[0]
        comp = [x["completion_cycle"] for x in r["ranks"]]
        recv = [x["received_cycle"] for x in r["ranks"]]
        for k, x in enumerate(r["ranks"]):
            rows.append([a, k, x["node"][0], x["node"][1], x["received_cycle"], x["forwarded_cycle"],
                         x["completion_cycle"]])
        color, style = STYLE[a]
        ax.plot(range(len(comp)), comp, ".", color=color, label=f"{a}: completion")
        ax.plot(range(len(recv)), recv, "x", color=color, alpha=0.5, markersize=3, label=f"{a}: message received")
        med = statistics.median(comp[1:])
        lines.append(f"| {a} | {comp[1]} | {comp[98]} | {100 * (comp[98] - comp[1]) / comp[98]:.1f}% | {recv[1]} | "
                     f"{recv[98]} | {100 * (recv[98] - recv[1]) / recv[98]:.1f}% | {med:g} | "
                     f"{100 * r['max_deviation_from_median_ratio']:.1f}% | {r['latency_cycles']} |")
    write_csv(out / "ranks.csv", ["algo", "rank", "x", "y", "received", "forwarded", "completion"], rows)
    ax.set_xlabel("rank")
    ax.set_ylabel("cycles after the common start")
    finish(fig, [ax], out / "broadcast-ranks.png")
    lines.append("")


def slow(out, lines):
    d = load(out, "slow.json")
    if d is None:
        return
    rows = []
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for a in TREES:
        rs = runs(d, a)
        for i, r in enumerate(rs, 1):
            rows.append([a, i, int(r["slow_link"]), r["latency_cycles"], r.get("tree_cost_cycles", ""),
                         r.get("adapt", {}).get("swaps", "")])
        color, style = STYLE[a]
        ax.plot(range(1, len(rs) + 1), [r["latency_cycles"] for r in rs], style, color=color, label=a)
    write_csv(out / "slow.csv", ["algo", "broadcast", "slow_link", "latency", "tree_cost", "swaps"], rows)
    ax.axvline(d["slow_link"]["from_run"] - 0.5, color="grey", linestyle=":")
    ax.annotate(f"link {d['slow_link']['link']} slowed", (d["slow_link"]["from_run"] - 0.45, ax.get_ylim()[0]),
                fontsize=8, color="grey", xytext=(0, 5), textcoords="offset points")
    ax.set_xlabel(f"broadcast number ({d['ranks']} ranks, {'x'.join(map(str, d['mesh']))})")
    ax.set_ylabel("broadcast latency (cycles)")
    finish(fig, [ax], out / "broadcast-slow.png")
    lines += [f"### Slowed link {d['slow_link']['link']} from broadcast {d['slow_link']['from_run']} "
              f"({d['ranks']} ranks, swapping {d['swapping']}, learning from {d['learn']})", "",
              "| broadcast | binomial | adaptive | adaptive swaps after it |", "|---|---|---|---|"]
    for i in range(len(runs(d, "binomial"))):
        b, ad = runs(d, "binomial")[i], runs(d, "adaptive")[i]
        lines.append(f"| {i + 1} | {b['latency_cycles']} | {ad['latency_cycles']} | {ad['adapt']['swaps']} |")
    lines.append("")


def loss(out, lines):
    """Penalty rounds and latency against loss; each value the mean over the point's
    broadcasts (a broadcast's k_r the mean over its ranks but the root) with its 95%
    Student-t interval over them (plot_output.mean_interval)."""
    files = sorted((out / "loss").glob("*.json"), key=lambda f: float(f.stem))
    if not files:
        return
    rows = []
    for f in files:
        d = json.loads(f.read_text())
        rs = runs(d, "twostage")
        pen = [[x["penalty_rounds"] for k, x in enumerate(r["ranks"]) if k != d["root_rank"]] for r in rs]
        e = float(f.stem)
        k_r = plot_output.Point(e, [statistics.mean(p) for p in pen])
        latency = plot_output.Point(e, [r["latency_cycles"] for r in rs])
        kept = sum(r["two_stage"]["copies_kept"] for r in rs)
        lost = sum(r["two_stage"]["copies_lost"] for r in rs)
        rows.append([e, len(rs), k_r, max(max(p) for p in pen), e / (1 - e), latency, kept, lost])
    half = lambda p: "" if p.half is None else p.half  # noqa: E731
    write_csv(out / "loss.csv", ["loss", "broadcasts", "mean_penalty_rounds", "mean_penalty_rounds_95_half_width",
                                 "max_penalty_rounds", "e_over_1_minus_e", "mean_latency",
                                 "mean_latency_95_half_width", "copies_kept", "copies_lost"],
              [[r[0], r[1], r[2].mean, half(r[2]), r[3], r[4], r[5].mean, half(r[5]), r[6], r[7]] for r in rows])
    n = "/".join(str(k) for k in sorted({r[1] for r in rows}))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    plot_output.plot_series(axes[0], [r[2] for r in rows], "^-", color="tab:green", label="mean k_r (simulated)")
    axes[0].plot([r[0] for r in rows], [r[4] for r in rows], "k:", label="e / (1 - e) (B1)")
    axes[0].set_ylabel("penalty rounds")
    plot_output.plot_series(axes[1], [r[5] for r in rows], "^-", color="tab:green", label="two-stage latency")
    axes[1].set_ylabel("broadcast latency (cycles)")
    for ax in axes:
        ax.set_xlabel("extra multicast loss e at the NIs")
    fig.suptitle(f"mean over {n} broadcasts (one seed) with its 95% interval", fontsize=9)
    finish(fig, axes, out / "broadcast-loss.png")
    lines += [f"### Two-stage broadcast against multicast loss (116 ranks on 32x32, 2 bytes, {n} broadcasts a point)",
              "", f"Mean k_r and mean latency: mean ± 95% interval over the {n} broadcasts of a point (one seed).", "",
              "| loss e | mean k_r | e/(1-e) | max k_r | mean latency | copies kept | copies lost |",
              "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r[0]:g} | {r[2].cell(2)} | {r[4]:.2f} | {r[3]} | {r[5].cell(0)} | {r[6]} | {r[7]} |")
    lines.append("")


def swapping(out, lines):
    d = load(out, "swapping.json")
    if d is None:
        return
    pts = d["points"]
    write_csv(out / "swapping.csv", ["cost_factor", "swapping", "raised", "gain", "steps", "benefit",
                                     "reached_target"],
              [[p["cost_factor"], p["swapping"], p["raised"], p["gain"], p["steps"], p["benefit"],
                p["reached_target"]] for p in pts])
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for s, style in zip(("family", "path", "leaf", "position"), ("o-", "s-", "^--", "v--")):
        ps = [p for p in pts if p["swapping"] == s]
        x = [p["cost_factor"] for p in ps]
        for ax, key in zip(axes, ("gain", "steps", "benefit")):
            ax.plot(x, [p[key] for p in ps], style, label=s)
    for ax, label in zip(axes, ("average gain", "average steps (trials)", "benefit = gain / steps")):
        ax.set_xlabel("cost factor (added to one tree edge)")
        ax.set_ylabel(label)
    axes[1].set_yscale("log")
    axes[2].set_yscale("log")
    fig.suptitle(f"{d['nodes']} nodes, distances uniform in [0, {d['max_distance']}], "
                 f"{d['topologies']} topologies a point", fontsize=9)
    finish(fig, axes, out / "broadcast-swapping.png")
    lines += [f"### Swapping (Figueira & Mendes Figs. 7-8): {d['nodes']} nodes, max distance {d['max_distance']}, "
              f"{d['topologies']} topologies", "",
              "Means over the topologies as `meshsync adaptive-tree` reports them; it reports no spread, so no "
              "interval.", "",
              "| cost factor | strategy | raised | gain | steps | benefit | back at target |", "|---|---|---|---|---|---|---|"]
    for p in pts:
        lines.append(f"| {p['cost_factor']} | {p['swapping']} | {p['raised']} | {p['gain']:.3f} | {p['steps']:.1f} | "
                     f"{p['benefit']:.4f} | {100 * p['reached_target']:.0f}% |")
    lines.append("")


def churn(out, lines):
    files = sorted(out.glob("churn-*.json"), key=lambda f: int(f.stem.split("-")[1]))
    if not files:
        return
    docs = [json.loads(f.read_text()) for f in files]
    rows = [[d["max_distance"], p["policy"], p["final_cost"], p["mean_cost"], p["steps"]] for d in docs
            for p in d["points"]]
    write_csv(out / "churn.csv", ["max_distance", "policy", "final_cost", "mean_cost", "steps"], rows)
    policies = [p["policy"] for p in docs[0]["points"]]
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    width = 0.8 / len(policies)
    for i, pol in enumerate(policies):
        xs = [j + i * width for j in range(len(docs))]
        ax.bar(xs, [next(p["final_cost"] for p in d["points"] if p["policy"] == pol) for d in docs], width,
               label=pol)
    ax.set_xticks([j + width for j in range(len(docs))])
    ax.set_xticklabels([f"max distance {d['max_distance']}" for d in docs])
    ax.set_ylabel("average tree cost after the operations")
    ax.set_title(f"{docs[0]['trees']} trees of {docs[0]['nodes']} nodes, {docs[0]['operations']} joins/leaves",
                 fontsize=9)
    finish(fig, [ax], out / "broadcast-churn.png")
    lines += [f"### Joins and leaves (Figueira & Mendes Fig. 9): {docs[0]['trees']} trees, "
              f"{docs[0]['operations']} operations", "",
              "Means over the trees as `meshsync adaptive-tree` reports them; it reports no spread, so no interval.",
              "",
              "| max distance | policy (join/leave) | final cost | mean cost | steps per operation |",
              "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r[0]} | {r[1]} | {r[2]:.1f} | {r[3]:.1f} | {r[4]:.2f} |")
    lines.append("")


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "results/broadcast")
    lines = []
    for part in (size, ranks, loss, slow, swapping, churn):
        part(out, lines)
    plot_output.write_summary(out, lines)


if __name__ == "__main__":
    main()
