#!/usr/bin/env python3
"""The contract's names and numbers are the code's (docs/microarchitecture.md, docs/rtl.md).

1. Every `meshsync_*` name the two pages give is a `module` or `package` of rtl/*.sv, or a
   name CMake defines (function, target, variable: rtl/sources.cmake, tb/, CMakeLists.txt); every `meshsync_*.sv` is a
   file of rtl/; every module of rtl/*.sv has a row in docs/rtl.md's module map.
2. Every path the pages give (model/..., rtl/..., tb/..., sw/..., scripts/..., docs/...)
   exists, and every bare file name (`geometry.hpp`, `test_directed.cpp`) is a file of
   the tree.
3. The C++ side of the unit table (microarchitecture.md, "Units") and of the module map and
   hierarchy (rtl.md): each `Class` is a class or struct of model/, each `Class::member`,
   `member_` and `function()` a name in model/. The same for the C++ column of
   microarchitecture.md's "Steps, units and tests", each of whose tests ("name" after its
   `test_*.cpp`) is a TEST_CASE of that file.
4. Every default the pages state is the code's: rtl.md's design point table (model column:
   the field's initializer in model/core/parameters.hpp; design point: meshsync_router.sv's
   parameter default and kParameters' rtl_default), "Parameters of the top (defaults ...)",
   the synthesis table's `default` row, `` `Name` = N `` for a router parameter or a
   meshsync_pkg localparam, `t_p = t_rn = N` (the papers' timing: Timing's initializers),
   `` `field`, default N `` (a RouterParams/Timing field), the notation paragraph's
   NetworkConfig fields, and the exactness minimum's "N at the design point's C children,
   M at the model's D".

One line per problem (doc:line: what); exit 1 if any, 0 if none.
usage: test_docs_contract.py [REPO_ROOT]   (default: this checkout)"""
import re
import sys
from pathlib import Path

root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
DOCS = ["docs/microarchitecture.md", "docs/rtl.md"]
problems = []


def problem(doc, line, what):
    problems.append(f"{doc}:{line}: {what}")


def read(rel):
    return (root / rel).read_text()


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


# ---- the code's side ------------------------------------------------------------------
sv_files = sorted([*(root / "rtl").glob("*.sv"), *(root / "rtl").glob("*.svh")])
sv_text = {p.name: p.read_text() for p in sv_files}
modules = {}
for name, text in sv_text.items():
    for m in re.finditer(r"^\s*(module|package)\s+(\w+)", text, re.M):
        modules[m.group(2)] = name
cmake_text = "\n".join(p.read_text() for p in [root / "rtl" / "sources.cmake", *sorted((root / "tb").rglob("CMakeLists.txt")),
                                                root / "CMakeLists.txt"] if p.exists())
# What CMake defines (a function, a target, a variable), not every name it mentions.
cmake_names = set(re.findall(r"\b(?:function|macro|add_[a-z_]+|set)\((meshsync_\w+)\b", cmake_text))

model_files = sorted(p for p in (root / "model").rglob("*") if p.suffix in (".hpp", ".cpp"))
model_text = "\n".join(p.read_text() for p in model_files)
model_words = set(re.findall(r"\b[A-Za-z_]\w*\b", model_text))
model_types = set(re.findall(r"\b(?:class|struct)\s+(\w+)", model_text))
tree_files = {p.name for d in ("model", "rtl", "sw", "tb", "scripts", "docs") for p in (root / d).rglob("*") if p.is_file()}


def verilog_defaults(text):
    """`parameter int unsigned Name = N` (numbers only) of one module's header."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"parameter\s+int\s+unsigned\s+(\w+)\s*=\s*(\d+)\s*[,)\n]", text)}


# The router declares MeshW and MeshH and includes the rest (meshsync_router_params.svh).
rtl_defaults = verilog_defaults(sv_text.get("meshsync_router.sv", "") + "\n" + sv_text.get("meshsync_router_params.svh", ""))
pkg_params = {m.group(1): int(m.group(2)) for m in re.finditer(r"localparam\s+int\s+unsigned\s+(\w+)\s*=\s*(\d+)\s*;",
                                                                sv_text.get("meshsync_pkg.sv", ""))}
params_hpp = read("model/core/parameters.hpp")
config_hpp = read("model/core/config.hpp")
# The C++ defaults: the fields' initializers of Timing and RouterParams.
cpp_fields = {}
for struct in ("Timing", "RouterParams"):
    body = re.search(r"struct " + struct + r" \{(.*?)\n\};", params_hpp, re.S)
    if body is None:
        problem("model/core/parameters.hpp", 1, f"no struct {struct}")
        continue
    for m in re.finditer(r"std::uint32_t\s+(\w+)\s*=\s*(\d+)\s*;", body.group(1)):
        cpp_fields[m.group(1)] = int(m.group(2))
config_fields = set(re.findall(r"^\s+[\w:<>]+\s+(\w+)\s*[{;=]", re.search(r"struct NetworkConfig \{(.*?)\n\};", config_hpp, re.S).group(1), re.M))
# kParameters: Verilog name -> (its rtl_default, the C++ field).
table = {}
for m in re.finditer(r'\{"[\w-]+",\s*"\w+",\s*"(\w+)",\s*(\d+),(.*?)&(?:Timing|RouterParams)::(\w+)', params_hpp, re.S):
    table[m.group(1)] = (int(m.group(2)), m.group(4))
for name, (rtl_default, field) in table.items():
    if rtl_defaults.get(name) != rtl_default:
        problem("model/core/parameters.hpp", 1, f"kParameters' rtl_default of {name} is {rtl_default}, "
                f"meshsync_router.sv's {rtl_defaults.get(name)}")


def check_design(doc, line, name, value, what):
    """A Verilog parameter's documented design-point default."""
    if name not in rtl_defaults:
        problem(doc, line, f"{what}: {name} is no numeric parameter of meshsync_router.sv")
    elif rtl_defaults[name] != value:
        problem(doc, line, f"{what}: {name} = {value}, but meshsync_router.sv's default is {rtl_defaults[name]}")
    if name in table and table[name][0] != value:
        problem(doc, line, f"{what}: {name} = {value}, but kParameters' rtl_default is {table[name][0]}")


def check_model(doc, line, name, value, what):
    """A parameter's documented model default (a Verilog name or a C++ field)."""
    field = table[name][1] if name in table else name
    if field not in cpp_fields:
        problem(doc, line, f"{what}: {name} is no field of Timing/RouterParams (model/core/parameters.hpp)")
    elif cpp_fields[field] != value:
        problem(doc, line, f"{what}: {name} = {value}, but the model's default ({field}) is {cpp_fields[field]}")


def numbers(cell):
    return [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", cell)]


# ---- the pages -------------------------------------------------------------------------
for doc in DOCS:
    text = read(doc)
    lines = text.split("\n")

    # 1. RTL names.
    for m in re.finditer(r"\bmeshsync_[a-z0-9_]+(\.svh?)?\b", text):
        name, line = m.group(0), line_of(text, m.start())
        if name.endswith((".sv", ".svh")):
            if name not in sv_text:
                problem(doc, line, f"rtl/{name} does not exist")
        elif name not in modules and name not in cmake_names:
            problem(doc, line, f"{name}: no module or package of that name in rtl/*.sv (nor a CMake name)")

    # 2. Paths and file names.
    for m in re.finditer(r"(?<![\w/.-])((?:model|rtl|sw|tb|scripts|docs)/[\w./{},-]*[\w/}])", text):
        path, line = m.group(1), line_of(text, m.start())
        brace = re.match(r"(.*)\{([\w,]+)\}(.*)", path)
        for p in ([brace.group(1) + alt + brace.group(3) for alt in brace.group(2).split(",")] if brace else [path]):
            if not (root / p).exists():
                problem(doc, line, f"{p} does not exist")
    for m in re.finditer(r"(?<![\w/.-])(\w+\.(?:cpp|hpp|sv|py|txt|cmake|vlt))\b", text):
        if m.group(1) not in tree_files:
            problem(doc, line_of(text, m.start()), f"no file {m.group(1)} in the tree")

    # 3. The C++ names beside the RTL modules.
    cells = []
    if doc == "docs/microarchitecture.md":
        sec = re.search(r"\n## Units\n(.*?)\n## ", text, re.S)
        for row in re.finditer(r"^\| `(?!-)(.*?)\|", sec.group(1) if sec else "", re.M):
            cells.append(("`" + row.group(1), line_of(text, sec.start(1) + row.start())))
        # The steps' table: its C++ column, and every test it names is a TEST_CASE of its file.
        sec = re.search(r"\n## Steps, units and tests\n(.*?)\n## ", text, re.S)
        rows = re.findall(r"^\|([^|\n]*)\|([^|\n]*)\|([^|\n]*)\|([^|\n]*)\|\s*$", sec.group(1) if sec else "", re.M)
        if not sec or len(rows) < 10:
            problem(doc, 1, "no table of the steps' units and tests (## Steps, units and tests)")
        for row in re.finditer(r"^\|[^|\n]*\|([^|\n]*)\|[^|\n]*\|([^|\n]*)\|\s*$", sec.group(1) if sec else "", re.M):
            line = line_of(text, sec.start(1) + row.start())
            cells.append((row.group(1), line))
            for m in re.finditer(r"`(test_\w+\.cpp)`((?:[ ,]*\"[^\"]+\"(?: \([^)]*\))?)+)", row.group(2)):
                files = [f for f in (root / "tb").rglob(m.group(1))]
                cases = "\n".join(f.read_text() for f in files)
                for name in re.findall(r"\"([^\"]+)\"", m.group(2)):
                    if not re.search(r'TEST_CASE\(\s*"' + re.escape(name) + '"', cases):
                        problem(doc, line, f'no TEST_CASE "{name}" in {m.group(1)}')
    else:
        sec = re.search(r"\n## Module map\n(.*?)\n## ", text, re.S)
        for row in re.finditer(r"^\|[^|\n]*\|[^\n]*\|([^|\n]*)\|\s*$", sec.group(1) if sec else "", re.M):
            cells.append((row.group(1), line_of(text, sec.start(1) + row.start())))
        hier = re.search(r"\nThe hierarchy.*?```\n(.*?)```", sec.group(1) if sec else "", re.S)
        for i, l in enumerate(hier.group(1).split("\n") if hier else []):
            right = re.search(r"meshsync_\w+(?:\s\(per VC present\))?\s{2,}(.*)$", l)
            if right:
                cells.append(("`" + right.group(1).split(":")[0].split(" (")[0].strip() + "`",
                              line_of(text, sec.start(1) + hier.start(1)) + i))
        mapped = set(re.findall(r"^\| `(meshsync_\w+)\.sv` \|", sec.group(1) if sec else "", re.M))
        for mod, file in sorted(modules.items()):
            if mod not in mapped:
                problem(doc, line_of(text, sec.start()) if sec else 1, f"module {mod} ({file}) has no row in the module map")
    for cell, line in cells:
        for span in re.findall(r"`([^`]+)`", cell):
            if "/" in span and "::" not in span and not re.match(r"^\w+::\w+(/\w+)+$", span):
                continue  # a path: checked above
            if span.startswith("meshsync_") or "." in span:
                continue  # an RTL name or a file: checked above
            head = re.match(r"^(\w+)::([\w/]+)", span)
            if head:
                owner, members = head.group(1), head.group(2).split("/")
                if owner not in model_types:
                    problem(doc, line, f"`{span}`: no class or struct {owner} in model/")
                for member in members:
                    if member not in model_words:
                        problem(doc, line, f"`{span}`: no {member} in model/")
                continue
            for word in re.findall(r"[A-Za-z_]\w*", span):
                if word[0].isupper() and not word.isupper() and word not in model_types:
                    problem(doc, line, f"`{span}`: no class or struct {word} in model/")
                elif word not in model_words and not word[0].isupper():
                    problem(doc, line, f"`{span}`: no {word} in model/")

    # 4. Defaults.
    if doc == "docs/rtl.md":
        sec = re.search(r"\n## The design point\n(.*?)\n\n(?!\|)", text, re.S)
        for row in re.finditer(r"^\| (`.*?) \| (.*?) \| (.*?) \|", sec.group(1) if sec else "", re.M):
            names = re.findall(r"`([A-Z]\w+)`", row.group(1).split("(")[0])
            if not names:
                continue
            line = line_of(text, sec.start(1) + row.start())
            model = numbers(row.group(2).split("(")[0])
            design = model if row.group(3).strip() == "same" else numbers(row.group(3).split("(")[0])
            if len(model) != len(names) or len(design) != len(names):
                problem(doc, line, f"design point table: {len(names)} parameters, {len(model)} model and {len(design)} design values")
                continue
            for name, mv, dv in zip(names, model, design):
                check_model(doc, line, name, mv, "design point table, model")
                check_design(doc, line, name, dv, "design point table, design point")
        if not sec or not re.search(r"^\| `", sec.group(1), re.M):
            problem(doc, 1, "no design point table (## The design point, | `Parameter` | model | design point |)")
        top = re.search(r"Parameters of the top \(defaults[^)]*\):(.*?)`Tp` is not", text, re.S)
        if not top:
            problem(doc, 1, "no \"Parameters of the top (defaults...)\" paragraph")
        else:
            found = set()
            for m in re.finditer(r"((?:`\w+`/)*`\w+`) (\d+)", top.group(1)):
                for name in re.findall(r"`(\w+)`", m.group(1)):
                    found.add(name)
                    check_design(doc, line_of(text, top.start(1) + m.start()), name, int(m.group(2)), "parameters of the top")
            for name in sorted(set(rtl_defaults) - found):
                if name in table or name in ("MeshW", "MeshH", "FlitW"):
                    problem(doc, line_of(text, top.start()), f"parameters of the top: {name} (default {rtl_defaults[name]}) is not listed")
        row = re.search(r"^\| default \| defaults \((.*?)\) \|", text, re.M)
        if not row:
            problem(doc, 1, "no `| default | defaults (...) |` row in the synthesis table")
        else:
            for m in re.finditer(r"(\w+)=(\d+)", row.group(1)):
                check_design(doc, line_of(text, row.start()), m.group(1), int(m.group(2)), "synthesis table, default")
    for m in re.finditer(r"`([A-Z]\w*)` = (\d+)", text):
        name, line = m.group(1), line_of(text, m.start())
        # The contract's spelling of a Verilog name (`FLIT_W` for FlitW).
        name = next((n for n in [*rtl_defaults, *pkg_params] if n.lower() == name.replace("_", "").lower()), name)
        if name in rtl_defaults:
            check_design(doc, line, name, int(m.group(2)), f"`{name}` = {m.group(2)}")
        elif name in pkg_params:
            if pkg_params[name] != int(m.group(2)):
                problem(doc, line, f"`{name}` = {m.group(2)}, but meshsync_pkg.sv has {pkg_params[name]}")
        else:
            problem(doc, line, f"`{name}` = {m.group(2)}: no parameter of meshsync_router.sv nor localparam of meshsync_pkg.sv")
    for m in re.finditer(r"\b((?:t_[a-z]+ = )+)(\d+)\b", text):
        for name in re.findall(r"t_([a-z]+)", m.group(1)):
            check_model(doc, line_of(text, m.start()), "t" + name, int(m.group(2)), f"t_{name} (the papers' timing)")
    for m in re.finditer(r"`([a-z_]+)`, default (\d+)", text):
        check_model(doc, line_of(text, m.start()), m.group(1), int(m.group(2)), f"`{m.group(1)}`, default")
    for m in re.finditer(r"(\d+) at the design point's (\d+) children, (\d+) at the model's (\d+)", text):
        line = line_of(text, m.start())
        check_design(doc, line, "MaxChildren", int(m.group(2)), "exactness minimum")
        check_model(doc, line, "max_children", int(m.group(4)), "exactness minimum")
        for minimum, children in ((int(m.group(1)), int(m.group(2))), (int(m.group(3)), int(m.group(4)))):
            if minimum != 5 + children + 1:
                problem(doc, line, f"exactness minimum {minimum} at {children} children, but exact_trm_minimum gives {5 + children + 1}")
    if doc == "docs/microarchitecture.md":
        notation = re.search(r"`NetworkConfig` \(`model/core/config.hpp`\):(.*?)\. Their ranges", text, re.S)
        if not notation:
            problem(doc, 1, "no notation paragraph naming NetworkConfig's fields")
        else:
            for m in re.finditer(r"`([a-z_]+)`", notation.group(1)):
                if m.group(1) not in cpp_fields and m.group(1) not in config_fields:
                    problem(doc, line_of(text, notation.start(1) + m.start()), f"`{m.group(1)}` is no field of NetworkConfig, Timing or RouterParams")
            for m in re.finditer(r"`([A-Z]\w+)`", text[notation.end():notation.end() + 200].split("kParameters")[0]):
                if m.group(1) not in table:
                    problem(doc, line_of(text, notation.end() + m.start()), f"`{m.group(1)}` is no Verilog parameter of kParameters")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
