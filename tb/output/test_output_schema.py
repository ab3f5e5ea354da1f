#!/usr/bin/env python3
"""Every subcommand's --json output, and every line of a sweep's JSONL, against the one
schema of docs/output-schema.json: a key the schema does not name, a key missing or of the
wrong type fails. The runs cover each subcommand's shapes (one scheme and several,
--repeat, a background load, per-rank rows, the QG plan, both adaptive-tree experiments,
RTL co-simulation where the program has it).

usage: test_output_schema.py MESHSYNC"""
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import jsonschema
except ImportError:
    sys.exit(77)  # ctest: skipped where python3-jsonschema is not installed (scripts/setup installs it)

root = Path(__file__).resolve().parents[2]
meshsync = sys.argv[1]
schema = json.loads((root / "docs" / "output-schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)


def part(name):
    """One definition of the schema as the root, so that its errors name the key at fault."""
    return jsonschema.Draft202012Validator({"$schema": schema["$schema"], "$defs": schema["$defs"],
                                            "$ref": f"#/$defs/{name}"})


output_part, row_part = part("output"), part("sweep_row")

RUNS = [
    "barrier --mesh 4x4",
    "barrier --mesh 8x8 --scheme btm,cs --repeat 2 --members random:10",
    "barrier --mesh 8x8 --scheme btm,cs --load uniform --load-rate 0.05 --load-warmup 200",
    "tree --mesh 8x8",
    "tree --mesh 8x8 --scheme cs --members random:5",
    "traffic --mesh 4x4 --rate 0.05 --cycles 2000",
    "traffic --mesh 4x4 --rate 0.6 --cycles 3000",
    "multicast-plan --mesh 8x8 --algo dp,mp,cp,qg",
    "multicast --mesh 8x8 --trials 2",
    "multicast --mesh 8x8 --rate 0.0005 --algo qg --batches 3 --batch-size 50 --warmup 500",
    "multicast --mesh 8x8 --algo dp --load uniform --load-rate 0.05 --load-warmup 200",
    "bcast --mesh 4x4",
    "bcast --mesh 8x8 --comm random:24 --algo twostage --loss 0.2 --repeat 2 --per-rank",
    "bcast --mesh 8x8 --algo adaptive --repeat 3 --slow-link 0,0:+X:5000",
    "bcast --mesh 4x4 --algo binomial,adaptive,twostage --repeat 2",
    "adaptive-tree --experiment swapping --topologies 2 --nodes 16",
    "adaptive-tree --experiment churn --nodes 16 --operations 10",
    "adaptive-tree --distances docs/examples/adaptive-tree/table5.csv --steps 'join 8; leave 7; swap 5 6; raise 0 5 9'",
    "soak --mesh 4x4 --cycles 2000",
    "allreduce --mesh 4x4 --comm random:5 --elements 3",
    "allreduce --mesh 8x8 --type float32 --elements 4 --algo ring",
    "bcast --mesh 8x8 --comm random:24 --algo twostage --send-overhead 50 --send-latency 500 --send-gap 500 --multicast-latency 1500 --done-at delivered",
    "multicast --mesh 8x8 --tp 0 --addresses within --qg-routing e-cube --sender-busy delivery --algo qg",
    # What a run did not measure is null (never 0): a load saturated before any measured
    # multicast finished, a window without a packet, a broadcast with the root alone.
    "multicast --mesh 8x8 --rate 0.5 --algo dp --dests random:10",
    "traffic --mesh 4x4 --rate 0.0001 --cycles 10",
    "bcast --mesh 4x4 --comm 0,0 --repeat 2",
]
# With the Verilated routers, where the program was built with them (not under the sanitizers).
RTL_RUNS = [
    "barrier --mesh 4x4 --rtl all",
    "traffic --mesh 4x4 --rate 0.05 --cycles 500 --lockstep all",
]


def run(args):
    r = subprocess.run([meshsync, *args], capture_output=True, text=True, timeout=600, cwd=root)
    if r.returncode != 0:
        raise RuntimeError(f"meshsync {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


failures = []


def check(what, doc, kind):
    errors = sorted(kind.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if not errors and not validator.is_valid(doc):
        failures.append(f"{what}: valid as {kind.schema['$ref']} but not under the whole schema")
    for e in errors[:5]:
        failures.append(f"{what}: at {'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:300]}")


has_rtl = "Verilator none" not in run(["--version"])
seen = set()
for line in RUNS + (RTL_RUNS if has_rtl else []):
    args = shlex.split(line) + ["--json"]
    doc = json.loads(run(args))
    seen.add(doc.get("command"))
    if doc.get("command") != args[0]:
        failures.append(f"{line}: command is {doc.get('command')!r}")
    check(line, doc, output_part)

# Every subcommand that prints JSON is covered: a new one must be added here.
help_text = run(["--help"])
subcommands = {l.split()[0] for l in help_text.split("Subcommands:")[1].splitlines() if l.startswith("  ")}
missing = subcommands - seen - {"sweep"}
if missing:
    failures.append(f"subcommands with no run here: {sorted(missing)}")

# A sweep's rows: the envelope and each point's result.
with tempfile.TemporaryDirectory() as tmp:
    spec = Path(tmp) / "sweep.yaml"
    spec.write_text("command: bcast\noutput: out\nseeds: [1, 2]\nparameters:\n  mesh: 4x4\n"
                    "  algo: [binomial, twostage]\n")
    run(["sweep", str(spec)])
    rows = (Path(tmp) / "out.jsonl").read_text().splitlines()
    if len(rows) != 4:
        failures.append(f"sweep: {len(rows)} rows, expected 4")
    for k, row in enumerate(rows):
        doc = json.loads(row)
        if "point" not in doc:
            failures.append(f"sweep row {k}: no point")
        check(f"sweep row {k}", doc, row_part)

# The schema is not vacuous: a renamed key and an unknown one are refused.
good = json.loads(run(["barrier", "--mesh", "4x4", "--json"]))
renamed = json.loads(json.dumps(good))
renamed["schemes"][0]["latency_avg"] = renamed["schemes"][0].pop("latency_cycles")
unknown = {**good, "extra": 1}
if not validator.is_valid(good) or validator.is_valid(renamed) or validator.is_valid(unknown):
    failures.append("the schema does not tell a renamed or an unknown key from the output")

for f in failures:
    print(f, file=sys.stderr)
sys.exit(1 if failures else 0)
