"""What the experiments' plot scripts share.

Writing an experiment's figures and summary as meshsync writes its files
(docs/reliability.md): under a temporary name beside each, renamed when complete, so
that a full disk never leaves a cut PNG or table under the name; a failure is one
`meshsync: error:` line and exit 2 (save, write_summary).

Keeping docs/results.md true: every table an experiment's summary.md holds must be quoted
there as it is (write_summary, stale_tables).

Means over seeds or runs with a 95% Student-t interval (mean_interval, over_seeds, Point)
and curves drawn with those intervals as error bars, saturated points marked on the top
edge of the axes (plot_series)."""
import json
import math
import os
import sys
from pathlib import Path

import matplotlib.transforms


def _write(path, write):
    """`write(temporary)` writes the file; it takes `path`'s name only when complete."""
    path = Path(path)
    temporary = path.with_name(f"{path.name}.partial-{os.getpid()}")
    try:
        write(temporary)
        os.replace(temporary, path)
    except OSError as e:
        try:
            temporary.unlink()
        except OSError:
            pass
        print(f"meshsync: error: cannot write '{path}': {e.strerror or e}", file=sys.stderr)
        sys.exit(2)


def save(fig, path, **savefig_args):
    # The format from the figure's own name: the temporary's suffix is not an image's.
    suffix = Path(path).suffix.lstrip(".") or "png"
    _write(path, lambda t: fig.savefig(t, format=suffix, **savefig_args))


def write_summary(out, lines, times_heading=None, docs=None, check=True):
    """OUT/summary.md from `lines` (printed too); with `times_heading`, the wall times the
    experiment script wrote to OUT/times.txt, one per line, under that heading. Then, with
    `check`, the tables of docs/results.md that quote it are checked against it
    (stale_tables): a difference is printed and the script exits 1, after the summary is
    written."""
    out = Path(out)
    times = out / "times.txt"
    if times_heading and times.exists():
        lines = lines + [times_heading, "", *[f"- {t}" for t in times.read_text().split("\n") if t], ""]
    text = "\n".join(lines) + "\n"
    _write(out / "summary.md", lambda t: Path(t).write_text(text))
    print("\n".join(lines))
    if not check:
        return
    docs = Path(docs) if docs else Path(__file__).resolve().parents[2] / "docs" / "results.md"
    stale = stale_tables(text, docs.read_text())
    if stale:
        print(f"meshsync: error: {docs} is stale against {out / 'summary.md'}:", file=sys.stderr)
        for problem in stale:
            print(f"  {problem}", file=sys.stderr)
        sys.exit(1)


def tables(markdown):
    """[(heading, header row, rows)] of every table in `markdown`; the heading is the nearest
    one above, without its #s (a summary's ### meets the docs' ####)."""
    found, heading, current = [], "", None
    for line in markdown.splitlines():
        if line.startswith("#"):
            heading, current = line.lstrip("#").strip(), None
        elif line.startswith("|"):
            if current is None:
                current = (heading, line.strip(), [])
                found.append(current)
            elif not set(line.replace("|", "").strip()) <= set("-: "):
                current[2].append(line.strip())
        else:
            current = None
    return found


def stale_tables(summary, results):
    """What keeps docs/results.md from quoting `summary`: each table of the summary must be
    in docs/results.md, found by its header row (and by its heading where several tables
    share the header), with the same rows in the same order. The numbers quoted in prose
    are not checked."""
    quoted = tables(results)
    problems = []
    for heading, header, rows in tables(summary):
        same = [t for t in quoted if t[1] == header]
        if len(same) > 1:
            same = [t for t in same if t[0] == heading]
        if len(same) != 1:
            problems.append(f"'{heading}': {'no' if not same else 'no single'} table with the header {header}")
            continue
        if same[0][2] != rows:
            theirs = same[0][2]
            differ = [f"{a}  (docs: {b})" for a, b in zip(rows, theirs) if a != b]
            if len(rows) != len(theirs):
                differ.append(f"{len(rows)} rows, docs {len(theirs)}")
            problems.append(f"'{heading}': " + "; ".join(differ[:3]))
    return problems


# Means over seeds (or runs, or batches) with a 95% interval, and curves whose saturated
# points sit on the top edge of the axes (issue 23, item 7). No scipy: Student's t is a
# table.

# t(0.975, df), the two-sided 95% quantile of Student's t with df degrees of freedom, for
# df 1-30 and some larger df (from any statistics table). A df between two entries takes
# the smaller one's value, which is the larger t: the interval is a little wider, never
# narrower, than the exact one (by at most 1% for df > 30).
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
        18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060,
        26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 50: 2.009, 60: 2.000,
        80: 1.990, 100: 1.984, 120: 1.980, 1000: 1.962}


def t975(df):
    """Student's t quantile for a two-sided 95% interval with `df` >= 1 degrees of freedom."""
    if df < 1:
        raise ValueError(f"t975: df must be at least 1, not {df}")
    return T975[max(k for k in T975 if k <= df)]


def mean_interval(values):
    """(mean, half-width of its 95% Student-t interval) of independent samples; the
    half-width is None for a single value (no spread to estimate)."""
    values = [float(v) for v in values]
    n = len(values)
    if n == 0:
        raise ValueError("mean_interval: no values")
    m = sum(values) / n
    if n == 1:
        return m, None
    s = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    return m, t975(n - 1) * s / math.sqrt(n)


class Point:
    """One x of a curve: the mean over the samples with its 95% half-width (None for one
    sample), how many samples there were and how many of them saturated. A point with a
    saturated sample has no mean: that sample's latency is not a steady state's, so the
    mean over the samples would not be one either."""

    def __init__(self, x, values, saturated=0, n=None):
        self.x = x
        self.n = len(values) + saturated if n is None else n
        self.saturated = saturated
        self.mean, self.half = mean_interval(values) if values and not saturated else (None, None)

    def cell(self, digits=1, unit="", saturated="sat."):
        """The point in a summary table: 'mean ± half', 'mean' for one sample, or 'sat.'
        (with how many of the samples saturated when not all)."""
        if self.saturated:
            return saturated if self.saturated == self.n else f"{saturated} ({self.saturated} of {self.n})"
        if self.mean is None:
            return "-"  # no samples
        if self.half is None:
            return f"{self.mean:.{digits}f}{unit}"
        return f"{self.mean:.{digits}f} ± {self.half:.{digits}f}{unit}"

    def __repr__(self):
        return f"Point(x={self.x!r}, mean={self.mean!r}, half={self.half!r}, n={self.n}, saturated={self.saturated})"


def flattened_list(row, prefix, field=None):
    """A list from a sweep's CSV row, as numbers: a list of objects is flattened into
    PREFIX.0.FIELD, PREFIX.1.FIELD, ... (`schemes.0.runs`, "latency_cycles"), read up to
    the first index the row does not have or leaves empty; a list of numbers is one
    column PREFIX holding it as JSON (`algorithms.0.batch_means_cycles`: "[69.95,67.5]")."""
    if field is None and row.get(prefix, "").startswith("["):
        return [float(v) for v in json.loads(row[prefix])]
    values = []
    while True:
        key = f"{prefix}.{len(values)}" + (f".{field}" if field else "")
        if row.get(key, "") == "":
            return values
        values.append(float(row[key]))


def _getter(key):
    return key if callable(key) else (lambda row: row[key])


def over_seeds(rows, x, y, saturated=None):
    """Rows grouped by x (a column name or a function of a row), one Point per x in
    ascending order: the mean and 95% interval of y over the group's rows (its seeds or
    runs). `saturated(row)` says whether a row's run saturated; such rows are counted,
    not averaged."""
    x, y = _getter(x), _getter(y)
    groups = {}
    for row in rows:
        groups.setdefault(x(row), []).append(row)
    points = []
    for xv in sorted(groups):
        group = groups[xv]
        sat = sum(1 for r in group if saturated and saturated(r))
        points.append(Point(xv, [float(y(r)) for r in group if not (saturated and saturated(r))], sat, len(group)))
    return points


SATURATED_MARKER = "^"  # hollow, pointing up: the value is off the top of the axes


def plot_series(ax, points, fmt="o-", color=None, label=None, row=0, **style):
    """A curve of Points on `ax`: the means joined, each with its 95% interval as an error
    bar; the saturated points as hollow triangles on the top edge of the axes (at the
    point's x, whatever the y limits become), `row` marker heights below it when several
    series share the axes. The first series with a saturated point adds one legend entry,
    'saturated', for all of them. Returns (the errorbar container or None, the saturated
    markers' line or None)."""
    ok = [p for p in points if p.mean is not None]
    curve = None
    if ok:
        curve = ax.errorbar([p.x for p in ok], [p.mean for p in ok],
                            yerr=[0 if p.half is None else p.half for p in ok],
                            fmt=fmt, color=color, label=label, capsize=2, elinewidth=0.8, **style)
        color = curve.lines[0].get_color()
    sat = [p.x for p in points if p.saturated]
    marks = None
    if sat:
        size = style.get("ms", style.get("markersize", 5))
        # x in data, y in axes fraction (1 = the top edge), shifted down by `row` markers
        transform = ax.get_xaxis_transform() + matplotlib.transforms.ScaledTranslation(
            0, -row * (size + 2) / 72, ax.figure.dpi_scale_trans)
        (marks,) = ax.plot(sat, [1.0] * len(sat), SATURATED_MARKER, mfc="none", color=color, ms=size,
                           transform=transform, clip_on=False, label="_saturated")
        # the x axis reaches them (a y in axes fraction leaves them out of the data limits)
        ax.update_datalim([(x, 0) for x in sat], updatex=True, updatey=False)
        ax.autoscale_view()
        if not any(line.get_label() == "saturated" for line in ax.lines):
            ax.plot([], [], SATURATED_MARKER, mfc="none", color="black", ms=size, ls="none", label="saturated")
    return curve, marks


def legend(ax, target=None, **kwargs):
    """`ax`'s legend (on `target`, a figure, when given) with the 'saturated' entry last,
    after the curves it marks."""
    handles, labels = ax.get_legend_handles_labels()
    pairs = sorted(zip(handles, labels), key=lambda hl: hl[1] == "saturated")
    return (target or ax).legend([h for h, _ in pairs], [lab for _, lab in pairs], **kwargs)
