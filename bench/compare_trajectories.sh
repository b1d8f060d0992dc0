#!/usr/bin/env bash
# Proves a restructuring changed no behaviour: runs every sample scenario (300 steps) and the
# bench scenes at 1,000 and 4,000 agents (60 steps) on the cpu backend with two builds of
# `crowd`, at 1 and 2 threads, and compares the trajectory CSVs byte for byte.
#
#   bash bench/compare_trajectories.sh OLD_CROWD NEW_CROWD [backend [NEW_OPTION...]]
#
# Options after the backend go to the new build's runs only, for options the old build lacks
# (e.g. `cpu --standoff off --arrival radius` checks that a build with the standoff breaker and
# arrival by contact, both turned off, gives the old build's bytes). Prints one line per run
# (same / DIFFERENT) and exits non-zero if any run differs.
set -euo pipefail
cd "$(dirname "$0")/.."
old="$(realpath "$1")"
new="$(realpath "$2")"
backend="${3:-cpu}"
shift $(($# < 3 ? $# : 3))
new_options=("$@")
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$new" bench --agents 1000,4000 --steps 1 --backends cpu --write-scenes "$out/scenes" \
  --out "$out/bench.json" >/dev/null 2>&1
runs=()
for scenario in samples/scenarios/*.json; do runs+=("$scenario:300"); done
runs+=("$out/scenes/bench_1000.json:60" "$out/scenes/bench_4000.json:60")
status=0
for run in "${runs[@]}"; do
  scenario="${run%:*}"
  steps="${run##*:}"
  name="$(basename "$scenario" .json)"
  for threads in 1 2; do
    read_by_old=1
    for build in old new; do
      binary="$old"
      extra=()
      [ "$build" = new ] && binary="$new" && extra=("${new_options[@]}")
      if ! "$binary" run "$scenario" --backend "$backend" --threads "$threads" --steps "$steps" \
        --quiet --out "$out/$name.$threads.$build.csv" "${extra[@]}" >/dev/null 2>&1; then
        [ "$build" = old ] && read_by_old=0
      fi
    done
    if [ "$read_by_old" = 0 ]; then
      # A scenario with keys the old build does not know: nothing to compare against.
      echo "new        $name (the old build does not run it)"
    elif cmp -s "$out/$name.$threads.old.csv" "$out/$name.$threads.new.csv"; then
      echo "same       $name ($steps steps, $threads threads)"
    else
      echo "DIFFERENT  $name ($steps steps, $threads threads)"
      status=1
    fi
  done
done
exit "$status"
