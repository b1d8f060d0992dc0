#!/usr/bin/env bash
# The crowd-flow scenes (standoffs, shared goals, counter-flow) on our cpu backend with the
# standoff breaker (the default), without it (--standoff off: DetourCrowd's behaviour), and on
# DetourCrowd itself, as the README's crowd-flow table: arrivals, arrivals by contact, mean
# arrival time over free walking time, lane index and deadlocked agents (metrics keys defined
# in docs/scenario-extensions.md). Any backend that writes the metrics JSON can be added.
#
#   bash bench/compare_flows.sh [build/crowd]
set -euo pipefail
cd "$(dirname "$0")/.."
crowd="${1:-build/crowd}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
scenes=(head_on_groups cross_flows circle_swap counterflow_hallway shared_goal l_corner)
for scene in "${scenes[@]}"; do
  "$crowd" run "samples/scenarios/$scene.json" --backend cpu --quiet --metrics "$out/$scene.cpu.json"
  "$crowd" run "samples/scenarios/$scene.json" --backend cpu --standoff off --quiet \
    --metrics "$out/$scene.cpu_off.json"
  "$crowd" run "samples/scenarios/$scene.json" --backend detour --quiet \
    --metrics "$out/$scene.detour.json"
done
python3 - "$out" "${scenes[@]}" <<'PY'
import json, sys
out, scenes = sys.argv[1], sys.argv[2:]
runs = {"cpu": "cpu", "cpu_off": "cpu, standoff off", "detour": "detour"}
print("| scenario | agents | run | arrived | by contact | time ratio | lane index "
      "| deadlocked agents | deadlocked at end | stuck at end |")
print("|---|---|---|---|---|---|---|---|---|---|")
for scene in scenes:
    for run, label in runs.items():
        m = json.load(open(f"{out}/{scene}.{run}.json"))
        def f(key, form="{}"):
            return "-" if m.get(key) is None else form.format(m[key])
        print(f"| {scene} | {m['agents']} | {label} | {m['arrived']} | {f('arrived_by_contact')} | "
              f"{f('mean_time_ratio', '{:.2f}')} | {f('lane_index', '{:.2f}')} | "
              f"{f('deadlocked_agents')} | {f('deadlocked_at_end')} | {f('stuck_at_end')} |")
PY
