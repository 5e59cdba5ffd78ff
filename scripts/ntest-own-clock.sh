#!/usr/bin/env bash
# Builds NTest for clock matches, reading its own clock. Over NBoard, NTest b2dd603 takes its
# remaining time from the opponent's clock (src/PlayerComputer.cpp, CPlayerComputer::GetMove
# indexes the position's clocks with !IsBlackMove(), while COsPosition::Update charges the
# mover's clock at IsBlackMove()): behind on time it overspends and loses on time, ahead it
# leaves its time unused. This build changes that one index, outside the repository, from the
# tarball ../shared/opponents/build.sh uses, and writes $OPPONENTS/ntest-nboard-clock-own.
#   OPPONENTS (default ~/.cache/wedge-opponents), SHARED (default ../shared/opponents).
set -euo pipefail
cd "$(dirname "$0")/.."
OPPONENTS=${OPPONENTS:-$HOME/.cache/wedge-opponents}
SHARED=${SHARED:-../shared/opponents}
dir="$OPPONENTS/ntest-own"
[ -x "$OPPONENTS/ntest/run/ntest" ] || { echo "run $SHARED/build.sh first" >&2; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
tar -xzf "$SHARED"/ntest-*.tar.gz -C "$dir"
src="$dir/ntest/src/PlayerComputer.cpp"
grep -q 'pos.cks\[!pos.board.IsBlackMove()\]' "$src" || { echo "$src: the clock read is not the one this script fixes" >&2; exit 1; }
sed -i 's/pos.cks\[!pos.board.IsBlackMove()\]/pos.cks[pos.board.IsBlackMove()]/' "$src"
(cd "$dir/ntest" && mkdir -p build && cd build && cmake -DCMAKE_BUILD_TYPE=Release ../src >/dev/null && make -j2 >/dev/null)
run="$dir/ntest/run"
mkdir -p "$run"
cp "$dir/ntest/build/ntest" "$run/"
for f in coefficients resource TestGames.ggf; do ln -sfn "../src/resource/$f" "$run/$f"; done
cp "$OPPONENTS/ntest/run/parameters.txt" "$run/"
cat > "$OPPONENTS/ntest-nboard-clock-own" <<SH
#!/bin/sh
# NTest over NBoard on the game record's clock, reading its own clock (scripts/ntest-own-clock.sh).
cd "$run" && exec ./ntest x m15
SH
chmod +x "$OPPONENTS/ntest-nboard-clock-own"
echo "NTest reading its own clock: $OPPONENTS/ntest-nboard-clock-own"
