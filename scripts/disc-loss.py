#!/usr/bin/env python3
"""Where a match's discs were lost, by player and by empties: `wedge review --json` values each
move of the games in GGF records against the best one (exactly at --exact-empties or fewer,
else to --depth at 87 %); this sums the losses of each player's moves from ply --from-ply on
by empties, counts the moves losing 4 and 8 discs or more, and sums the clock each player had
left by the records (the review's `clock_left`).

  scripts/disc-loss.py GAMES.ggf... [--wedge target/release/wedge] [--depth 18]
      [--exact-empties 22] [--from-ply 10]
"""

import argparse
import json
import subprocess
import sys
from collections import defaultdict

BANDS = [(60, 45), (44, 39), (38, 33), (32, 27), (26, 23), (22, 0)]
CLOCK_MARKS = [34, 30, 26, 22, 18]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ggf", nargs="+")
    ap.add_argument("--wedge", default="target/release/wedge")
    ap.add_argument("--depth", type=int, default=18)
    ap.add_argument("--exact-empties", type=int, default=22)
    ap.add_argument("--from-ply", type=int, default=10)
    a = ap.parse_args()
    cmd = [a.wedge, "--threads", "1", "--no-book", "review", *a.ggf, "--depth", str(a.depth),
           "--exact-empties", str(a.exact_empties), "--hash", "64", "--json"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"cannot run {a.wedge}: {e}")
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    review = json.loads(done.stdout)
    if review.get("errors"):
        sys.exit(f"wedge review could not read every game: {review['errors']}")

    stats = defaultdict(lambda: [0, 0.0, 0, 0])
    clocks = defaultdict(list)
    games = review["games"]
    for game in games:
        seen = set()
        for ply, m in enumerate(game["moves"]):
            colour, empties = m["color"], m["empties"]
            name = game[colour]
            for mark in CLOCK_MARKS:
                if m["clock_left"] is not None and empties in (mark, mark - 1) and (name, mark) not in seen:
                    seen.add((name, mark))
                    clocks[(name, mark)].append(m["clock_left"])
            if ply < a.from_ply or m.get("loss") is None:
                continue
            band = next(f"{hi}-{lo}" for hi, lo in BANDS if lo <= empties <= hi)
            st = stats[(name, band)]
            st[0] += 1
            st[1] += m["loss"]
            st[2] += m["loss"] >= 4
            st[3] += m["loss"] >= 8

    n = len(games)
    print(f"{n} games; each move against the best, exact at {a.exact_empties} empties or fewer, else depth {a.depth} at 87 %")
    print("player   empties  moves  loss/move  discs/game  >=4  >=8")
    for name in sorted({k[0] for k in stats}):
        for hi, lo in BANDS:
            st = stats[(name, f"{hi}-{lo}")]
            if st[0]:
                print(f"{name:8s} {hi:2d}-{lo:<2d} {st[0]:6d} {st[1] / st[0]:10.3f} {st[1] / n:11.2f} {st[2]:4d} {st[3]:4d}")
    print("player   clock left at N empties: mean / 10th percentile / least (s)")
    for (name, mark), v in sorted(clocks.items()):
        v.sort()
        print(f"{name:8s} {mark:2d}  {sum(v) / len(v):6.2f} {v[len(v) // 10]:6.2f} {v[0]:6.2f}")


if __name__ == "__main__":
    main()
