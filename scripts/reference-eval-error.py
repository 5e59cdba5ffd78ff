#!/usr/bin/env python3
"""The error of an NBoard engine's values on an OBF file of scored positions.

Usage: scripts/reference-eval-error.py ENGINE OBF DEPTH

Sends each position to ENGINE (an NBoard engine command, e.g. the reference opponents that
../shared/opponents/build.sh makes) with `set depth DEPTH` and `go`, reads the value of the
move it answers, and prints the mean absolute error and bias against the OBF file's scores by
empties, then the least-squares line from the engine's values to the scores and the error
left after it (an engine whose values are on another scale is judged after the rescaling).
Wedge's own figure for the same file is `wedge eval OBF --depth DEPTH --summary`.
"""
import statistics
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    engine, obf, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    proc = subprocess.Popen(engine, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    send("nboard 2")
    send(f"set depth {depth}")
    by_empties, pairs = {}, []
    for number, line in enumerate(open(obf), 1):
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        try:
            board, side = line[:64], line[65]
            score = int(line.split(";")[1])
        except (IndexError, ValueError):
            sys.exit(f"{obf}:{number}: not an OBF position with a score: {line!r}")
        ggf_board = board.replace("X", "*")
        ggf_side = "*" if side == "X" else "O"
        send(f"set game (;GM[Othello]PC[t]PB[a]PW[b]TY[8]BO[8 {ggf_board} {ggf_side}];)")
        send("go")
        while True:
            out = proc.stdout.readline()
            if not out:
                sys.exit(f"the engine ended before answering position {number}")
            if out.startswith("==="):
                fields = out.split()[1].split("/")
                # NBoard omits a zero value ("=== H4//1.00").
                value = float(fields[1]) if len(fields) > 1 and fields[1] else 0.0
                break
        error = value - score
        row = by_empties.setdefault(board.count("-"), [0, 0.0, 0.0])
        row[0] += 1
        row[1] += abs(error)
        row[2] += error
        pairs.append((value, score))
    send("quit")
    if not pairs:
        sys.exit(f"{obf} holds no positions")
    print("empties      n      MAE     bias")
    for empties in sorted(by_empties):
        n, abs_sum, sum_ = by_empties[empties]
        print(f"{empties:>7} {n:>6} {abs_sum / n:8.3f} {sum_ / n:8.3f}")
    n = len(pairs)
    print(f"{'all':>7} {n:>6} {statistics.mean(abs(v - s) for v, s in pairs):8.3f} "
          f"{statistics.mean(v - s for v, s in pairs):8.3f}")
    mean_v = statistics.mean(v for v, _ in pairs)
    mean_s = statistics.mean(s for _, s in pairs)
    sxy = sum((v - mean_v) * (s - mean_s) for v, s in pairs)
    sxx = sum((v - mean_v) ** 2 for v, _ in pairs)
    slope = sxy / sxx if sxx else 0.0
    offset = mean_s - slope * mean_v
    left = statistics.mean(abs(slope * v + offset - s) for v, s in pairs)
    print(f"score = {slope:.3f} x value {offset:+.3f}: MAE {left:.3f} after the rescaling")


if __name__ == "__main__":
    main()
