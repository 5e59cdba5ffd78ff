#!/bin/bash
# Book expansion speed (docs/distributed.md): in-process on one thread against one and two
# local workers of one thread each, each queued run on a fresh nats-server; then checks the three
# books are the same. Usage, from the repository root with nats-server on PATH:
#   scripts/queue-book-speed.sh BUDGET DEPTH OPENINGS    (WEDGE: default target/release/wedge)
# Not part of `make test`.
set -e
W=${WEDGE:-$PWD/target/release/wedge}; B=${1:-60}; D=${2:-14}; N=${3:-40}
T=${TMPDIR:-/tmp}/wedge-book-speed; rm -rf $T; mkdir -p $T
grep -v '^#' books/openings-8ply.txt | head -$N > $T/games.txt
$W --log off --threads 1 book import $T/games.txt --book $T/start.book --depth 4 >/dev/null
args="--log off --threads 1 book expand --budget $B --depth $D --batch 32"
cp $T/start.book $T/local.book
s=$(date +%s.%N); $W $args --book $T/local.book > $T/local.out; e=$(date +%s.%N)
echo "local: $(echo "$e - $s" | bc) s"
for k in 1 2; do
  pkill -f "nats-server.*14333" || true; sleep 0.5
  rm -rf $T/js; nats-server -js -a 127.0.0.1 -p 14333 -sd $T/js >/dev/null 2>&1 &
  sleep 1
  for i in $(seq 1 $k); do $W --log off --threads 1 worker --queue nats://127.0.0.1:14333 --name w$i --cache $T/cache-w$i 2> $T/w$k-$i.log & done
  sleep 1
  cp $T/start.book $T/q$k.book
  s=$(date +%s.%N); $W $args --book $T/q$k.book --queue nats://127.0.0.1:14333 > $T/q$k.out 2>$T/q$k.err; e=$(date +%s.%N)
  echo "$k workers: $(echo "$e - $s" | bc) s"
  pkill -TERM -f "worker --queue nats://127.0.0.1:14333" || true; sleep 1
done
pkill -f "nats-server.*14333" || true
for b in local q1 q2; do $W --log off book export --book $T/$b.book --text $T/$b.txt >/dev/null; done
cmp $T/local.txt $T/q1.txt && cmp $T/local.txt $T/q2.txt && echo "books identical: $(wc -l < $T/local.txt) lines"
tail -2 $T/local.out; tail -2 $T/q2.out
