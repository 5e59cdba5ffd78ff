#!/usr/bin/env python3
"""Checks the workspace's layers (docs/ARCHITECTURE.md): every `use`/path of a crate's module
(`crate::`, `super::`, `self::`, `wedge_core::`, `wedge_engine::`, `wedge_lab::`) outside
comments, tests included, is an edge between folders (a crate's top-level modules) and between
files. Fails when an edge goes up the layer order below, or on any cycle of files or of folders,
with no exception. A path through a module's re-export (`pub use child::Item` in a `mod.rs`)
is an edge to the child that defines the item. Crate roots (`lib.rs`) are facades, not layers.

    python3 scripts/layers.py            # check; prints the folder graph
    python3 scripts/layers.py --files    # also every file-level edge
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRATES = {
    "core": ROOT / "crates/wedge-core/src",
    "engine": ROOT / "crates/wedge-engine/src",
    "lab": ROOT / "crates/wedge-lab/src",
    "wedge": ROOT / "src",
}
EXTERN = {"wedge_core": "core", "wedge_engine": "engine", "wedge_lab": "lab"}

# The layers, lowest first: a folder may use only folders of a lower rank (its own files
# aside). No exception: any cycle between folders or between files fails.
RANK = {
    "core::rng": 0,
    "core::board": 1,
    "core::framing": 2,
    "core::paths": 2,
    "core::formats": 3,
    "core::eval": 4,
    "core::book": 4,
    "core::search": 5,
    "engine::engine": 6,
    "engine::protocol": 7,
    "lab::book": 6,
    "lab::train": 7,
    "lab::tools": 8,
    "lab::distrib": 9,
    "wedge::cli": 10,
    "wedge::main": 11,
}

PATH = re.compile(r"\b(crate|super|self|wedge_core|wedge_engine|wedge_lab)((?:::(?:\w+|\{))+)")


def module_of(crate: str, file: Path) -> list[str]:
    rel = file.relative_to(CRATES[crate]).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return parts


def strip_comments(text: str) -> str:
    out = []
    for line in text.splitlines():
        i = line.find("//")
        out.append(line if i < 0 else line[:i])
    return "\n".join(out)


def brace_items(text: str, start: int) -> list[str]:
    """The top-level items of the `{...}` group opening at `start`."""
    depth, item, items = 0, "", []
    for ch in text[start:]:
        if ch == "{":
            depth += 1
            if depth == 1:
                continue
        elif ch == "}":
            depth -= 1
            if depth == 0:
                items.append(item)
                break
        if depth == 1 and ch == ",":
            items.append(item)
            item = ""
        else:
            item += ch
    return [i.strip() for i in items if i.strip()]


def references(crate: str, module: list[str], is_mod: bool, text: str):
    """(crate, absolute module path) of every path in `text`."""
    here = module if is_mod else module[:-1]  # what `super`/`self` are relative to
    for m in PATH.finditer(text):
        head, tail = m.group(1), m.group(2)
        segs = [s for s in tail.split("::") if s]
        if head in EXTERN:
            base_crate, base = EXTERN[head], []
        elif head == "crate":
            base_crate, base = crate, []
        elif head == "self":
            base_crate, base = crate, list(module)
        else:  # super (possibly super::super)
            base_crate, base = crate, list(here)
            if not is_mod:
                pass
            while segs and segs[0] == "super":
                segs.pop(0)
                base = base[:-1]
            base = base[:-1] if is_mod else base
        groups = [segs]
        if segs and segs[-1] == "{":
            prefix = segs[:-1]
            groups = []
            for item in brace_items(text, m.end() - 1):
                names = [s.strip() for s in item.split("::") if s.strip()]
                groups.append(prefix + names[:1])
        for g in groups:
            g = [s for s in g if re.fullmatch(r"\w+", s)]
            yield base_crate, base + g


def main() -> int:
    show_files = "--files" in sys.argv
    files = {}  # (crate, module tuple) -> is_mod
    texts = {}
    for crate, src in CRATES.items():
        for f in sorted(src.rglob("*.rs")):
            mod = tuple(module_of(crate, f))
            if crate == "wedge" and mod == ("main",):
                mod = ("main",)
            files[(crate, mod)] = f.stem in ("mod", "lib")
            text = strip_comments(f.read_text())
            # A path that starts at a child module (`child::Item`, as in a `mod.rs` re-exporting
            # it) is the edge `self::child::Item`.
            for child in re.findall(r"^\s*(?:pub(?:\([\w:]+\))?\s+)?mod\s+(\w+)\s*;", text, re.M):
                text = re.sub(rf"(?<![:\w]){child}::", f"self::{child}::", text)
            texts[(crate, mod)] = (f, text)
    known = set(files)
    # What each module re-exports from its children: `pub use child::{Name, ...}`,
    # `pub(crate) use child::Name`, `pub use child::*` (after the rewrite above,
    # `self::child::...`). A path through such a name is an edge to the child that defines it.
    exports = {}
    for (crate, mod), (f, text) in texts.items():
        names = {}
        for m in re.finditer(
            r"pub(?:\([\w:]+\))?\s+use\s+self::(\w+)::(\{[^}]*\}|\*|\w+)", text
        ):
            for n in re.findall(r"\w+|\*", m.group(2)):
                names[n] = m.group(1)
        if names:
            exports[(crate, mod)] = names

    def resolve(crate, path):
        """The module (file) that defines what `path` names, through re-exports."""
        target = None
        for n in range(len(path), -1, -1):
            if (crate, tuple(path[:n])) in known:
                target, rest = (crate, tuple(path[:n])), path[n:]
                break
        while target is not None and rest:
            source = exports.get(target, {})
            sub = source.get(rest[0]) or source.get("*")
            child = (target[0], target[1] + (sub,)) if sub else None
            if child is None or child not in known or child == target:
                break
            target = child  # the item may be re-exported again below it
        return target

    def folder(crate, mod):
        return f"{crate}::{mod[0]}" if mod else f"{crate}::(root)"

    file_edges, folder_edges = {}, {}
    for (crate, mod), (f, text) in texts.items():
        for rc, path in references(crate, list(mod), files[(crate, mod)], text):
            target = resolve(rc, path)
            if target is None or target == (crate, mod):
                continue
            if not target[1] or not mod:  # a crate root: a facade over its folders, not a layer
                continue
            a, b = (crate, mod), target
            file_edges.setdefault(a, set()).add(b)
            fa, fb = folder(*a), folder(*b)
            if fa != fb:
                folder_edges.setdefault(fa, {}).setdefault(fb, set()).add(str(f.relative_to(ROOT)))

    problems = []
    for fa, targets in sorted(folder_edges.items()):
        for fb, sources in sorted(targets.items()):
            ra, rb = RANK.get(fa), RANK.get(fb)
            if ra is None or rb is None:
                problems.append(f"no layer for {fa if ra is None else fb}")
            elif rb >= ra:
                problems.append(f"{fa} -> {fb} goes up or sideways: {', '.join(sorted(sources))}")

    def cycles(graph):
        """Strongly connected components of more than one node (Tarjan)."""
        index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

        def visit(v):
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in graph.get(v, ()):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

        sys.setrecursionlimit(10000)
        for v in list(graph):
            if v not in index:
                visit(v)
        return out

    fgraph = {a: set(b) for a, b in folder_edges.items()}
    for comp in cycles(fgraph):
        problems.append("folder cycle: " + " <-> ".join(comp))
    fe = {a: set(bs) for a, bs in file_edges.items()}
    for comp in cycles(fe):
        problems.append("file cycle: " + " <-> ".join("::".join((c,) + m) for c, m in comp))

    print("folder edges (what uses what):")
    for fa in sorted(folder_edges, key=lambda x: (RANK.get(x, 99), x)):
        print(f"  {fa:18} -> {', '.join(sorted(folder_edges[fa], key=lambda x: (RANK.get(x, 99), x)))}")
    if show_files:
        for a in sorted(file_edges):
            print("  " + "::".join((a[0],) + a[1]), "->", ", ".join(sorted("::".join((c,) + m) for c, m in file_edges[a])))
    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print("  " + p)
        return 1
    print("\nno cycle, no upward import")
    return 0


if __name__ == "__main__":
    sys.exit(main())
