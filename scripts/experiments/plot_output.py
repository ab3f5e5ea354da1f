"""Writing an experiment's figures and summary as meshsync writes its files
(docs/reliability.md): under a temporary name beside each, renamed when complete, so
that a full disk never leaves a cut PNG or table under the name; a failure is one
`meshsync: error:` line and exit 2."""
import os
import sys
from pathlib import Path


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


def write_summary(out, lines, times_heading=None):
    """OUT/summary.md from `lines` (printed too); with `times_heading`, the wall times the
    experiment script wrote to OUT/times.txt, one per line, under that heading."""
    out = Path(out)
    times = out / "times.txt"
    if times_heading and times.exists():
        lines = lines + [times_heading, "", *[f"- {t}" for t in times.read_text().split("\n") if t], ""]
    text = "\n".join(lines) + "\n"
    _write(out / "summary.md", lambda t: Path(t).write_text(text))
    print("\n".join(lines))
