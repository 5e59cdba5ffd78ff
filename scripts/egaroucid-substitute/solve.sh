#!/usr/bin/env bash
# Solves positions of an .obf file with Egaroucid for Console, one position per process, one
# thread, no book, level 60 (exact), pinned to core 1; prints each position's nodes, search
# seconds (Egaroucid's own time for the search, without its start-up), move and score, whether
# the score equals the file's best answer and the move is one that reaches it, and a total line. A measuring aid for
# docs/endgame.md's Egaroucid comparison (see README.md); nothing in Wedge uses it.
#
# usage: solve.sh EGAROUCID_DIR OBF_FILE FIRST-LAST
#   EGAROUCID_DIR  the folder holding Egaroucid_for_Console.out (its resources/ beside it)
#   FIRST-LAST     1-based line numbers of the .obf file, e.g. 1-10 for FFO #40-#49 in
#                  fforum-40-59.obf
# Environment: CORE (default 1) picks the core for taskset.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 EGAROUCID_DIR OBF_FILE FIRST-LAST" >&2
    exit 2
fi
dir=$1
obf=$2
range=$3
first=${range%-*}
last=${range#*-}
core=${CORE:-1}
exe="$dir/Egaroucid_for_Console.out"
[ -x "$exe" ] || { echo "no executable $exe" >&2; exit 1; }
[ -f "$obf" ] || { echo "no file $obf" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total_nodes=0
total_ms=0
wrong=0
printf '%-5s %14s %10s %5s %6s %8s %s\n' line nodes seconds move score expected check
for ((n = first; n <= last; n++)); do
    line=$(sed -n "${n}p" "$obf")
    [ -n "$line" ] || { echo "line $n: none" >&2; exit 1; }
    # 64 squares, a space, the side to move; the answers follow after ';'.
    echo "${line:0:64}${line:65:1}" > "$tmp/pos.txt"
    expected=$(echo "$line" | cut -d';' -f2 | cut -d':' -f2 | tr -d ' +')
    # The moves that reach the best score, upper case, e.g. " A2 B1 ".
    best_moves=" $(echo "$line" | cut -d';' -f2- | tr ';' '\n' | tr -d ' +' |
        awk -F: -v e="$expected" '$2 != "" && $2 == e { printf "%s ", toupper($1) }')"
    out=$(taskset -c "$core" "$exe" -nobook -l 60 -t 1 -solve "$tmp/pos.txt")
    # The result row: |level|depth|move|score|time|nodes|nps|, time as HHH:MM:SS.mmm.
    row=$(echo "$out" | grep -E '^\|[^|]*\|[^|]*\|[^|]*\|[^|]*\|[^|]*[0-9]+:[0-9]+:[0-9]+\.[0-9]+' | head -n 1)
    [ -n "$row" ] || { echo "line $n: no result row in Egaroucid's output:" >&2; echo "$out" >&2; exit 1; }
    IFS='|' read -r _ level depth move score time nodes nps _ <<< "$row"
    move=$(echo "$move" | tr -d ' ')
    score=$(echo "$score" | tr -d ' +')
    nodes=$(echo "$nodes" | tr -d ' ')
    time=$(echo "$time" | tr -d ' ')
    IFS=':.' read -r h m s ms <<< "$time"
    elapsed_ms=$(( (10#$h * 3600 + 10#$m * 60 + 10#$s) * 1000 + 10#$ms ))
    check=ok
    if [ "$score" != "$expected" ]; then
        check="WRONG score"
    elif [[ "$best_moves" != *" ${move^^} "* ]]; then
        check="WRONG move (best:$best_moves)"
    fi
    if [ "$check" != ok ]; then wrong=$((wrong + 1)); fi
    printf '%-5s %14s %10s %5s %6s %8s %s\n' "$n" "$nodes" \
        "$(awk -v t="$elapsed_ms" 'BEGIN { printf "%.3f", t / 1000 }')" "$move" "$score" "$expected" "$check"
    total_nodes=$((total_nodes + nodes))
    total_ms=$((total_ms + elapsed_ms))
done
printf 'total %14s %10s  (lines %s-%s, %s wrong)\n' "$total_nodes" \
    "$(awk -v t="$total_ms" 'BEGIN { printf "%.3f", t / 1000 }')" "$first" "$last" "$wrong"
[ "$wrong" -eq 0 ]
