#!/usr/bin/env python3
"""What README.md and docs/ show is what the program does.

1. Every transcript in README.md and docs/*.md (a code block line `$ meshsync ...` or
   `$ build/sw/meshsync ...` and the lines after it) is run and its output compared line
   by line with the one shown. In the shown output `<name>` stands for any value (host
   times, rates), `...` on a line of its own for any number of lines, and `...` inside a
   line for any text. A block after `<!-- not rerun: WHY -->` is left out (a first run).
2. The demo output README.md shows is what the command of scripts/run prints, but the
   wall time.
3. Every `build/sw/meshsync` command README.md lists ("Using meshsync") runs and exits 0
   (3 where it injects a fault), but those SKIP names with the reason (minutes long, an MPI
   launch, a build option).

usage: test_docs_commands.py MESHSYNC"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

root = Path(__file__).resolve().parents[2]
meshsync = os.path.abspath(sys.argv[1])
try:  # README's --json commands against the output schema, where python3-jsonschema is installed
    import jsonschema
    validator = jsonschema.Draft202012Validator(json.loads((root / "docs" / "output-schema.json").read_text()))
except ImportError:
    validator = None
has_rtl = "Verilator none" not in subprocess.run([meshsync, "--version"], capture_output=True, text=True).stdout

# README commands not run here, and why.
SKIP = {
    "--mesh 1024x1024": "a million routers: most of a minute and 4 GB (tb: the sparse 1024x1024 barrier)",
    "--rtl mesh": "needs a build configured with -DMESHSYNC_RTL_MESH=ON",
    "mpirun": "an MPI launch (tb: the sweep over MPI ranks)",
    "sweep-traffic-load.yaml": "a sweep of minutes (tb/system/test_examples.cpp runs every example spec, shortened)",
    "--rate 0.0001 --algo qg,cp": "the QG paper's load on 16x16: half a minute",
}
RTL_WORDS = ("--rtl", "--lockstep")
# README commands that end as they show (exit 3: a simulation failure, here an injected fault).
EXIT = {"--fault": 3}

failures = []


def run(command, cwd):
    """Runs a shell command line with `meshsync` and `build/sw/meshsync` as the program."""
    line = command.split("  #", 1)[0].strip()
    for name in ("build/sw/meshsync ", "meshsync "):
        if line.startswith(name):
            line = shlex.quote(meshsync) + " " + line[len(name):]
            break
    r = subprocess.run(["/bin/sh", "-c", line], cwd=cwd, capture_output=True, text=True, timeout=300)
    return r.returncode, without_sanitizer_notes((r.stdout + r.stderr).splitlines())


def without_sanitizer_notes(lines):
    """The output without ASan's note on SystemC's coroutine stacks (the sanitizer build
    prints it when a simulation throws: "ASan is ignoring requested __asan_handle_no_return"
    and two lines after it), which is the sanitizer's, not the program's."""
    out, skip = [], 0
    for line in lines:
        if re.match(r"==\d+==WARNING: ASan is ignoring requested __asan_handle_no_return", line):
            skip = 3
        if skip:
            skip -= 1
            continue
        out.append(line)
    return out


def line_pattern(shown):
    """A shown line as a regex: `<name>` any value, `...` any text; a run of blanks any run
    of blanks, since a value of another width moves the columns after it."""
    parts = re.split(r"(<[^<>\s][^<>]*>|\.\.\.)", shown.rstrip())
    literal = lambda text: r"\s+".join(re.escape(word) for word in re.split(r"\s+", text))
    return re.compile("".join(".*?" if p == "..." else r"\S+" if p.startswith("<") else literal(p) for p in parts))


def matches(shown, actual):
    """Shown lines against actual ones; `...` alone skips any number of actual lines."""
    def go(i, j):
        if i == len(shown):
            return j == len(actual)
        if shown[i].strip() == "...":
            return any(go(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and line_pattern(shown[i]).fullmatch(actual[j].rstrip()) is not None and go(i + 1, j + 1)
    return go(0, 0)


def transcripts(text):
    """(command, shown output lines) of every `$ meshsync` line in the code blocks."""
    out = []
    # A block right after `<!-- not rerun: why -->` shows what cannot be made again here (a
    # first run, which builds what the tree already holds).
    text = re.sub(r"<!-- not rerun:[^>]*-->\s*```[a-z]*\n.*?```", "", text, flags=re.S)
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S):
        current = None
        for line in block.splitlines():
            if line.startswith("$ "):
                current = (line[2:], [])
                out.append(current)
            elif current is not None:
                current[1].append(line)
    return [(c, s) for c, s in out if c.split()[0] in ("meshsync", "build/sw/meshsync")]


# The comparison itself: placeholders and elisions match, nothing else does.
assert matches(["a <x> b", "...", "z ... end"], ["a 12.5 b", "q", "r", "z and so on end"])
assert not matches(["a <x> b"], ["a 1 c"]) and not matches(["a"], ["a", "b"]) and not matches(["a", "b"], ["a"])
assert matches(["rate     <x>"], ["rate  1.5e+05"]) and not matches(["a b"], ["ab"])

with tempfile.TemporaryDirectory() as tmp:
    (Path(tmp) / "docs").symlink_to(root / "docs")
    checked = 0
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for command, shown in transcripts(doc.read_text()):
            if any(w in command for w in RTL_WORDS) and not has_rtl:
                continue
            while shown and not shown[-1].strip():
                shown.pop()
            _, actual = run(command, tmp)
            checked += 1
            if not matches(shown, actual):
                failures.append(f"{doc.name}: $ {command}\n  shown:\n    " + "\n    ".join(shown) +
                                "\n  printed:\n    " + "\n    ".join(actual[:40]))
    if checked < 10:
        failures.append(f"only {checked} transcripts found in README.md and docs/")

    # The demo: README's table is scripts/run's command's output.
    readme = (root / "README.md").read_text()
    demo = re.search(r"^exec build/sw/meshsync (.*?)\s+\"\$@\"$", (root / "scripts" / "run").read_text(),
                     flags=re.M | re.S)
    shown = re.search(r"and prints:\n\n```\n(.*?)```", readme, flags=re.S)
    if not demo or not shown:
        failures.append("README's demo output or scripts/run's command not found")
    else:
        command = "meshsync " + " ".join(demo.group(1).replace("\\\n", " ").split())
        shown_lines = [re.sub(r"wall time [0-9.]+ s", "wall time <seconds> s", l) for l in shown.group(1).splitlines()]
        code, actual = run(command, tmp)
        if code != 0 or not matches(shown_lines, actual):
            failures.append("README's demo output differs from scripts/run's:\n    " + "\n    ".join(actual))

    # Every command README lists runs.
    usage = readme.split("## Using meshsync", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    listed = [l for l in usage.splitlines() if l.strip().startswith(("build/sw/meshsync", "mpirun"))]
    if len(listed) < 15:
        failures.append(f"only {len(listed)} commands found in README's 'Using meshsync'")
    for line in usage.splitlines():
        command = line.split("  #", 1)[0].strip()
        if not command.startswith("build/sw/meshsync") and not command.startswith("mpirun"):
            continue
        reason = next((why for key, why in SKIP.items() if key in command), None)
        if reason or (any(w in command for w in RTL_WORDS) and not has_rtl):
            continue
        expected = next((code for key, code in EXIT.items() if key in command), 0)
        code, actual = run(command, tmp)
        if "--json" in command and code == 0 and validator is not None:
            try:
                doc = json.loads("\n".join(actual))
                errors = list(validator.iter_errors(doc))
            except json.JSONDecodeError as e:
                errors = [e]
            if errors:
                failures.append(f"README: {command}: not the JSON of docs/output-schema.json: {str(errors[0])[:300]}")
        if code != expected:
            failures.append(f"README: {command}: exit {code}, expected {expected}\n    " + "\n    ".join(actual[-5:]))

for f in failures:
    print(f, file=sys.stderr)
sys.exit(1 if failures else 0)
