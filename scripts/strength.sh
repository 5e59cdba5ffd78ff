#!/usr/bin/env bash
# Plays Wedge against whichever reference opponents are built (../shared/opponents/build.sh puts
# them in $OPPONENTS, default ~/.cache/wedge-opponents) and prints each match's table. Not part
# of `make test`: the opponents are measuring instruments, never test dependencies.
#   GAMES (default 200), DEPTHS (default "8 12"), CLOCKS (seconds per game, default "15"),
#   WEDGE (default ./target/release/wedge), OUT (default target/strength).
set -euo pipefail
cd "$(dirname "$0")/.."
OPPONENTS=${OPPONENTS:-$HOME/.cache/wedge-opponents}
GAMES=${GAMES:-200}
DEPTHS=${DEPTHS:-8 12}
CLOCKS=${CLOCKS:-15}
WEDGE=${WEDGE:-./target/release/wedge}
OUT=${OUT:-target/strength}
mkdir -p "$OUT"
[ -x "$WEDGE" ] || { echo "no $WEDGE: run make build first" >&2; exit 1; }

found=0
match() { # name, opponent command, extra match arguments...
  local name=$1 opp=$2
  shift 2
  echo "== Wedge vs $name ($*), $GAMES games"
  "$WEDGE" match --engine "$WEDGE --hash 64 --threads 1 --no-book nboard" --engine "$opp" \
    --games "$GAMES" --openings books/openings-8ply.txt --out "$OUT/$name-${*// /_}.ggf" "$@" |
    sed -n '/^final result/,$p'
}
if [ -x "$OPPONENTS/ntest-nboard" ]; then
  found=1
  for d in $DEPTHS; do match ntest "$OPPONENTS/ntest-nboard" --depth "$d"; done
  # On a clock, NTest as built reads its opponent's clock; scripts/ntest-own-clock.sh builds
  # one that reads its own (docs/strength.md), used when present.
  clock_ntest="$OPPONENTS/ntest-nboard-clock"
  [ -x "$OPPONENTS/ntest-nboard-clock-own" ] && clock_ntest="$OPPONENTS/ntest-nboard-clock-own"
  for c in $CLOCKS; do match ntest-clock "$clock_ntest" --clock "$c"; done
fi
if [ -x "$OPPONENTS/zebra-nboard" ]; then
  found=1
  match zebra "$OPPONENTS/zebra-nboard" --depth 8
fi
if [ "$found" = 0 ]; then
  echo "no opponents built in $OPPONENTS: run ../shared/opponents/build.sh first" >&2
  exit 1
fi
