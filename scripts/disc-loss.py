#!/usr/bin/env python3
"""Where a match's discs were lost: every position of the games in GGF records (from ply
--from-ply on) is valued by `wedge solve` (exactly at --exact-empties or fewer, else a search to
--depth at 87 %), and each move's loss is its mover's value before it less the value after it
(the final score after the last). Prints, for each player, the mean loss a move and the discs a
game by empties, the moves losing 4 and 8 discs or more, and the clock each player had left.
Search values carry the same bias from both sides of a move, so compare the players' rows, not
a row with zero; rows at --exact-empties or fewer are exact.

  scripts/disc-loss.py GAMES.ggf... [--wedge target/release/wedge] [--depth 18]
      [--exact-empties 22] [--from-ply 10] [--work DIR]

Writes its positions and `wedge solve` outputs under --work (kept), else in a temporary folder
removed at the end.
"""

import argparse
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
BANDS = [(60, 45), (44, 39), (38, 33), (32, 27), (26, 23), (22, 0)]
CLOCK_MARKS = [34, 30, 26, 22, 18]


def flips(board, sq, me):
    """The squares `me` ('X' or 'O') flips by playing `sq` on `board` (64 characters)."""
    you = "O" if me == "X" else "X"
    r0, c0 = divmod(sq, 8)
    out = []
    for dr, dc in DIRS:
        r, c, line = r0 + dr, c0 + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == you:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == me:
            out += line
    return out


def games(paths):
    """(players by colour, total seconds, [(colour, square or None, seconds)]) of each game."""
    for path in paths:
        text = Path(path).read_text()
        for game in re.findall(r"\(;GM\[Othello\].*?;\)", text, re.S):
            found = {c: re.search(rf"P{c}\[([^\]]*)\]", game) for c in "BW"}
            if not all(found.values()):
                sys.exit(f"{path}: a game without PB[] or PW[] (the players' names)")
            names = {c: m.group(1) for c, m in found.items()}
            ti = re.search(r"TI\[(\d+):(\d+)", game)
            total = 60 * int(ti.group(1)) + int(ti.group(2)) if ti else None
            moves = []
            for colour, body in re.findall(r"(?<![A-Z])([BW])\[([^\]]*)\]", game):
                parts = body.split("/")
                mv = parts[0].lower()
                secs = float(parts[2]) if len(parts) > 2 and parts[2] else 0.0
                if mv == "pa":
                    moves.append((colour, None, secs))
                    continue
                if not re.fullmatch(r"[a-h][1-8]", mv):
                    sys.exit(f"{path}: bad move {parts[0]!r}")
                moves.append((colour, (int(mv[1]) - 1) * 8 + ord(mv[0]) - ord("a"), secs))
            yield names, total, moves


def solve(wedge, obf, out, args):
    if not obf.read_text().strip():
        out.write_text("")
        return {}
    cmd = [wedge, "--threads", "1", "solve", str(obf), "--no-book", "--hash", "64"] + args
    with out.open("w") as f:
        try:
            done = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE, text=True)
        except OSError as e:
            sys.exit(f"cannot run {wedge}: {e}")
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    values = {}
    for line in out.read_text().splitlines():
        p = line.split()
        if len(p) >= 5 and p[0].isdigit():
            values[int(p[0])] = float(p[4])
    return values


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ggf", nargs="+")
    ap.add_argument("--wedge", default="target/release/wedge")
    ap.add_argument("--depth", type=int, default=18)
    ap.add_argument("--exact-empties", type=int, default=22)
    ap.add_argument("--from-ply", type=int, default=10)
    ap.add_argument("--work")
    a = ap.parse_args()
    if a.work:
        work = Path(a.work)
        work.mkdir(parents=True, exist_ok=True)
        report(a, work)
    else:
        with tempfile.TemporaryDirectory(prefix="disc-loss-") as tmp:
            report(a, Path(tmp))


def report(a, work):
    """Values the games' positions under `work` and prints the tables."""

    # Each position before a move: (game, player, colour, empties, kind, index).
    rows, finals, clocks = [], [], defaultdict(list)
    lines = {"deep": [], "exact": []}
    for g, (names, total, moves) in enumerate(games(a.ggf)):
        board = ["-"] * 64
        board[27] = board[36] = "O"
        board[28] = board[35] = "X"
        used = {"B": 0.0, "W": 0.0}
        seen = set()
        for ply, (colour, sq, secs) in enumerate(moves):
            me = "X" if colour == "B" else "O"
            if sq is None:
                used[colour] += secs
                continue
            empties = board.count("-")
            name = names[colour]
            for mark in CLOCK_MARKS:
                if total and empties in (mark, mark - 1) and (name, mark) not in seen:
                    seen.add((name, mark))
                    clocks[(name, mark)].append(total - used[colour])
            if ply >= a.from_ply:
                kind = "exact" if empties <= a.exact_empties else "deep"
                lines[kind].append("".join(board) + f" {me};")
                rows.append((g, name, colour, empties, kind, len(lines[kind])))
            f = flips(board, sq, me)
            if board[sq] != "-" or not f:
                sys.exit(f"game {g + 1}: illegal move at ply {ply}")
            for s in f + [sq]:
                board[s] = me
            used[colour] += secs
        x, o, e = board.count("X"), board.count("O"), board.count("-")
        d = x - o
        finals.append(d + e if d > 0 else d - e if d < 0 else 0)

    values = {}
    for kind, args in (("deep", ["--depth", str(a.depth), "--selectivity", "87"]), ("exact", [])):
        obf = work / f"{kind}.obf"
        obf.write_text("".join(line + "\n" for line in lines[kind]))
        values[kind] = solve(a.wedge, obf, work / f"{kind}.out", args)

    stats = defaultdict(lambda: [0, 0.0, 0, 0])
    for i, (g, name, colour, empties, kind, idx) in enumerate(rows):
        v = values[kind].get(idx)
        if v is None:
            continue
        if i + 1 < len(rows) and rows[i + 1][0] == g:
            _, nname, _, _, nkind, nidx = rows[i + 1]
            nv = values[nkind].get(nidx)
            if nv is None:
                continue
            after = nv if nname == name else -nv
        else:
            after = finals[g] if colour == "B" else -finals[g]
        loss = v - after
        band = next(f"{hi}-{lo}" for hi, lo in BANDS if lo <= empties <= hi)
        s = stats[(name, band)]
        s[0] += 1
        s[1] += loss
        s[2] += loss >= 4
        s[3] += loss >= 8
    n_games = len(finals)
    print(f"{n_games} games; values: exact at {a.exact_empties} empties or fewer, else depth {a.depth} at 87 %")
    print("player  empties  moves  loss/move  discs/game  >=4  >=8")
    for name in sorted({k[0] for k in stats}):
        for hi, lo in BANDS:
            s = stats[(name, f"{hi}-{lo}")]
            if s[0]:
                print(f"{name:8s} {hi:2d}-{lo:<2d} {s[0]:6d} {s[1] / s[0]:10.3f} {s[1] / n_games:11.2f} {s[2]:4d} {s[3]:4d}")
    print("player  clock left at N empties: mean / 10th percentile / least (s)")
    for (name, mark), v in sorted(clocks.items()):
        v.sort()
        print(f"{name:8s} {mark:2d}  {sum(v) / len(v):6.2f} {v[len(v) // 10]:6.2f} {v[0]:6.2f}")


if __name__ == "__main__":
    main()
