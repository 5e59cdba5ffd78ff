#!/usr/bin/env bash
# Coverage-guided run of every fuzz target (or those named) with AFL++ through cargo-afl:
# FUZZ_SECS seconds each, one after the other, findings under fuzz/target/afl/<target>/.
# Needs `cargo install cargo-afl` (stable toolchain; it builds its own AFL++ runtime).
set -euo pipefail
cd "$(dirname "$0")"
secs=${FUZZ_SECS:-60}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(nboard gtp console ggf obf transcript wthor book weights batch labels)
cargo afl build --release --features afl
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
mkdir -p target/afl # the logs beside each target's findings
printf '%-11s %12s %8s %8s\n' target execs crashes hangs
for t in "${targets[@]}"; do
  out=target/afl/$t
  # Resume a previous run's queue when there is one.
  input=corpus/$t
  if [ "$t" = wthor ]; then
    # Seeds cut from the repository's WTHOR files.
    wthor=../data/wthor
    input=target/wthor-seeds
    mkdir -p "$input"
    head -c 152 "$wthor/WTH_1990.wtb" >"$input/games.wtb"
    head -c 16 "$wthor/WTH_1990.wtb" >"$input/empty.wtb"
    head -c 56 "$wthor/WTHOR.JOU" >"$input/names.jou"
  fi
  [ -d "$out/default/queue" ] && input=-
  cargo afl fuzz -i "$input" -o "$out" -V "$secs" -t 1000 "target/release/$t" >"$out.log" 2>&1 \
    || { echo "$t: afl-fuzz failed, see fuzz/$out.log" >&2; exit 1; }
  stat() { sed -n "s/^$1 *: *//p" "$out/default/fuzzer_stats"; }
  printf '%-11s %12s %8s %8s\n' "$t" "$(stat execs_done)" "$(stat saved_crashes)" "$(stat saved_hangs)"
done
