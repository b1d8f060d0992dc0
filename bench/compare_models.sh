#!/usr/bin/env bash
# The quality table of the avoidance models: every example scenario and the bench scene at
# 4,000 agents, each run with every agent on one model (`crowd run --avoidance MODEL`, cpu
# backend: DetourCrowd's sampling at "good" where an agent named no preset, the force model,
# ORCA, time-to-collision sampling), and on the detour backend (DetourCrowd itself) for reference, printed as a Markdown
# table: arrivals, unreachable goals, mean and max arrival time, overlap events, max overlap,
# wall events, path ratio and ms per step.
#
#   bash bench/compare_models.sh [build/crowd] [extra crowd-run options...]
#
# The runs of one scene happen one after the other on the same machine, so their ms-per-step
# ratios are meaningful even on a busy machine; absolute times are not.
set -euo pipefail
cd "$(dirname "$0")/.."
crowd="$(realpath "${1:-build/crowd}")"
shift || true
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$crowd" bench --agents 4000 --steps 1 --backends cpu --write-scenes "$out/scenes" \
  --out "$out/bench.json" >/dev/null 2>&1
scenes=(samples/scenarios/*.json "$out/scenes/bench_4000.json")
for scenario in "${scenes[@]}"; do
  name="$(basename "$scenario" .json)"
  # The bench scene runs 200 steps; the examples their own duration.
  steps=()
  [ "$name" = bench_4000 ] && steps=(--steps 200)
  for model in detour ttc mass orca; do
    "$crowd" run "$scenario" --backend cpu --avoidance "$model" "${steps[@]}" --quiet \
      --metrics "$out/$name.$model.json" "$@" >/dev/null 2>&1
  done
  "$crowd" run "$scenario" --backend detour "${steps[@]}" --quiet \
    --metrics "$out/$name.reference.json" "$@" >/dev/null 2>&1
done
python3 - "$out" "${scenes[@]}" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
names = [pathlib.Path(s).stem for s in sys.argv[2:]]
print("| scene | agents | model (backend) | arrived | unreachable | mean arrival s | max arrival s "
      "| overlap events | max overlap m | wall events | path ratio | ms/step |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
labels = {"detour": "detour (cpu)", "ttc": "ttc (cpu)", "mass": "mass (cpu)", "orca": "orca (cpu)",
          "reference": "DetourCrowd (detour)"}
for name in names:
    for run, label in labels.items():
        m = json.loads((out / f"{name}.{run}.json").read_text())
        fmt = lambda v, f: "-" if v is None else f.format(v)
        print(f"| {name} | {m['agents']} | {label} | {m['arrived']} | {m['unreachable']} | "
              f"{fmt(m['mean_arrival_time'], '{:.1f}')} | {fmt(m['max_arrival_time'], '{:.1f}')} | "
              f"{m['overlap_events']} | {m['max_overlap']:.3f} | {m['wall_events']} | "
              f"{fmt(m['mean_path_ratio'], '{:.2f}')} | {m['step_ms_mean']:.2f} |")
PY
