#!/usr/bin/env python3
"""Session fuzzing of the real `wedge` binary over pipes: random and mutated NBoard, GTP and
console lines (learn, NUL bytes, over-long lines and bad UTF-8 included), each session ending in
a probe that must be answered. Counts panics (a non-zero exit or `panicked` on stderr) and hangs
(the probe not answered within --hang seconds). Each session has its own user's book and data
directory under a temporary folder, so nothing outside it is written.

  scripts/fuzz-sessions.py [--wedge target/release/wedge] [--lines 22000] [--seed S]
      [--protocols nboard,gtp,console] [--hang 5]

Prints one line per protocol (sessions, lines, panics, hangs) and the first failing sessions'
inputs under the temporary folder; exits 1 when any session panicked or hung.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import queue
import time

START = "---------------------------O*------*O---------------------------"
SQUARES = [c + r for c in "abcdefgh" for r in "12345678"]


def game_record(rng, moves):
    record = "(;GM[Othello]PC[fuzz]TI[%s]TY[8]BO[8 %s *]" % (rng.choice(["5:00", "0:10", "15:00", "1:00:00"]), START)
    black = True
    for m in moves:
        record += "%s[%s]" % ("B" if black else "W", m.upper())
        black = not black
    return record + ";)"


def legalish_moves(rng):
    # Prefixes of well-known openings, so `learn` and `go` often see legal games.
    lines = ["f5d6c3d3c4f4f6f3e6e7", "f5f6e6f4e3c5c4d3", "f5d6c4d3c3f4f6f3e6e7", "f5f4e3f6d3"]
    line = rng.choice(lines)
    n = rng.randint(0, len(line) // 2)
    return [line[2 * i:2 * i + 2] for i in range(n)]


def nboard_line(rng):
    kind = rng.randrange(14)
    if kind == 0:
        return "set depth %d" % rng.choice([1, 2, 3, 4, 6, 0, 61, -1])
    if kind == 1:
        return "set game " + game_record(rng, legalish_moves(rng))
    if kind == 2:
        return "move " + rng.choice(SQUARES + ["PA", "z9", ""]) + rng.choice(["", "/1.0", "/x/1", "//2"])
    if kind == 3:
        return "hint %d" % rng.choice([1, 3, 4, 0, 64])
    if kind == 4:
        return "go"
    if kind == 5:
        return "learn"
    if kind == 6:
        return "ping %d" % rng.randrange(100)
    if kind == 7:
        return "analyze"
    if kind == 8:
        return "set contempt %s" % rng.choice(["0", "5", "x", "1e9"])
    if kind == 9:
        return "nboard %s" % rng.choice(["2", "1", "x"])
    return None


def gtp_line(rng):
    kind = rng.randrange(16)
    prefix = str(rng.randrange(50)) + " " if rng.random() < 0.3 else ""
    if kind == 0:
        return prefix + "wedge-depth %d" % rng.choice([1, 2, 3, 4, 0, 99])
    if kind == 1:
        return prefix + "play %s %s" % (rng.choice(["black", "white", "b", "w", "x"]), rng.choice(SQUARES + ["pass", "z9"]))
    if kind == 2:
        return prefix + "genmove %s" % rng.choice(["black", "white", "b", "x"])
    if kind == 3:
        return prefix + rng.choice(["clear_board", "undo", "showboard", "final_score", "name", "version", "list_commands"])
    if kind == 4:
        return prefix + "time_settings %s %s %s" % (rng.choice(["5", "0", "x"]), rng.choice(["0", "1"]), rng.choice(["0", "1"]))
    if kind == 5:
        return prefix + "time_left %s %s %s" % (rng.choice(["black", "white"]), rng.choice(["3", "0", "-1"]), rng.choice(["0", "1"]))
    if kind == 6:
        return prefix + "wedge-analyze depth %d" % rng.choice([1, 2, 3])
    if kind == 7:
        return prefix + "boardsize %s" % rng.choice(["8", "19", "x"])
    if kind == 8:
        return prefix + rng.choice(["gogui-rules_legal_moves", "gogui-rules_board", "gogui-rules_final_result", "kgs-time_settings byoyomi 5 1 1"])
    return None


def console_line(rng):
    kind = rng.randrange(14)
    if kind == 0:
        return rng.choice(SQUARES + ["pass", "move 6 5", "move z9"])
    if kind == 1:
        return "depth %d" % rng.choice([1, 2, 3, 0, 99])
    if kind == 2:
        return rng.choice(["think", "play", "undo", "eval", "count", "print", "printhex", "reset", "flipv", "rotatel", "cswap", "col", "stop", "help"])
    if kind == 3:
        return "tree %d" % rng.choice([1, 2, 0])
    if kind == 4:
        return "board %s %s" % (rng.choice([START.replace("*", "X"), "x" * 64, ""]), rng.choice(["X", "O", "?"]))
    if kind == 5:
        return rng.choice(["save", "load"]) + " " + rng.choice(["", "g.ggf", "/dev/null", "missing.ggf"])
    return None


GENERATORS = {"nboard": nboard_line, "gtp": gtp_line, "console": console_line}


def mutate(rng, line):
    """Random damage: bytes flipped, NUL, control characters, bad UTF-8, truncation."""
    b = bytearray(line.encode())
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(6)
        pos = rng.randrange(len(b) + 1)
        if op == 0:
            b[pos:pos] = b"\x00"
        elif op == 1:
            b[pos:pos] = bytes([rng.choice([0x01, 0x0b, 0x0c, 0x1b, 0x7f, 0x09])])
        elif op == 2:
            b[pos:pos] = bytes([0xff, 0xfe, 0xc3])[: rng.randint(1, 3)]
        elif op == 3 and b:
            del b[pos:]
        elif op == 4:
            b[pos:pos] = os.urandom(rng.randint(1, 8)).replace(b"\n", b" ").replace(b"\r", b" ")
        else:
            b[pos:pos] = b" " * rng.randint(1, 3)
    return bytes(b)


def is_quit(line):
    """True for a line that reads as `quit` once control characters are dropped (as GTP does),
    with or without a GTP id."""
    clean = bytes(c for c in line if c >= 32 or c == 9).replace(b"\t", b" ")
    words = clean.decode(errors="replace").split()
    if words and words[0].isdigit():
        words = words[1:]
    return bool(words) and words[0].lower() == "quit"


def probe(protocol, n):
    """A line that must be answered, and how to recognise its answer."""
    if protocol == "nboard":
        return b"ping %d" % n, lambda l: l == "pong %d" % n
    if protocol == "gtp":
        return b"%d name" % n, lambda l: l.startswith("=%d " % n)
    return b"count", lambda l: l.startswith("black") and "white" in l


def session(wedge, protocol, lines, folder, hang):
    data = os.path.join(folder, "data")
    os.makedirs(data, exist_ok=True)
    args = [wedge, "--hash", "8", "--threads", "1", "--learn-book", os.path.join(folder, "learned.book"), protocol]
    if protocol != "nboard":
        args += ["--depth", "2"]
    env = dict(os.environ, XDG_DATA_HOME=data, HOME=data)
    env.pop("WEDGE_HOME", None)
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=folder, env=env)
    out = queue.Queue()

    def read(stream, sink):
        for raw in iter(stream.readline, b""):
            sink.put(raw.decode(errors="replace").rstrip("\r\n"))
        sink.put(None)

    err_lines = queue.Queue()
    threading.Thread(target=read, args=(p.stdout, out), daemon=True).start()
    threading.Thread(target=read, args=(p.stderr, err_lines), daemon=True).start()
    failure = None
    try:
        for line in lines:
            p.stdin.write(line + b"\n")
            p.stdin.flush()
            if random.random() < 0.1:
                time.sleep(random.random() * 0.05)
        text, answered = probe(protocol, 4242)
        p.stdin.write(text + b"\n")
        p.stdin.flush()
        deadline = time.time() + hang
        while True:
            left = deadline - time.time()
            try:
                line = out.get(timeout=max(left, 0.001))
            except queue.Empty:
                failure = "hang"
                break
            if line is None:
                failure = "exit before the probe was answered"
                break
            if answered(line):
                break
    except BrokenPipeError:
        failure = "exit before the probe was answered"
    try:
        p.stdin.write(b"quit\n")
        p.stdin.close()
    except BrokenPipeError:
        pass
    try:
        code = p.wait(timeout=hang)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        code = None
        failure = failure or "hang after quit"
    stderr = []
    while True:
        try:
            l = err_lines.get(timeout=1)
        except queue.Empty:
            break
        if l is None:
            break
        stderr.append(l)
    if any("panicked" in l for l in stderr):
        failure = "panic"
    elif code not in (0, None) and failure is None:
        failure = "exit code %s" % code
    return failure, stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wedge", default="target/release/wedge")
    ap.add_argument("--lines", type=int, default=22000, help="lines per protocol")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--protocols", default="nboard,gtp,console")
    ap.add_argument("--hang", type=float, default=5.0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    random.seed(a.seed)
    top = tempfile.mkdtemp(prefix="wedge-fuzz-sessions-")
    wedge = os.path.abspath(a.wedge)
    print("seed %d, folder %s" % (a.seed, top))
    bad = 0
    for protocol in a.protocols.split(","):
        gen = GENERATORS[protocol]
        sent = sessions = panics = hangs = others = 0
        while sent < a.lines:
            lines = []
            for _ in range(rng.randint(5, 40)):
                line = gen(rng)
                if line is None:
                    line = rng.choice(["", " ", "quit" if rng.random() < 0.02 else "noise", "x" * rng.choice([10, 5000, 70000])])
                raw = line.encode()
                if rng.random() < 0.25:
                    raw = mutate(rng, line)
                lines.append(raw)
            # A `quit` mid-session ends it early: the probe is then not answered, by design.
            lines = [l for l in lines if not is_quit(l)]
            folder = os.path.join(top, "%s-%05d" % (protocol, sessions))
            os.makedirs(folder)
            failure, stderr = session(wedge, protocol, lines, folder, a.hang)
            sessions += 1
            sent += len(lines)
            if failure:
                with open(os.path.join(folder, "input.txt"), "wb") as f:
                    f.write(b"\n".join(lines) + b"\n")
                with open(os.path.join(folder, "stderr.txt"), "w") as f:
                    f.write("\n".join(stderr) + "\n")
                if failure == "panic":
                    panics += 1
                elif "hang" in failure:
                    hangs += 1
                else:
                    others += 1
                print("  %s session %d: %s (%s)" % (protocol, sessions - 1, failure, folder))
            else:
                subprocess.run(["rm", "-rf", folder])
        print("%-8s sessions %5d lines %6d panics %d hangs %d other failures %d" % (protocol, sessions, sent, panics, hangs, others))
        bad += panics + hangs + others
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
