#!/usr/bin/env bash
# Runs every example scenario on our cpu backend and on DetourCrowd (the detour backend) and
# prints the metrics side by side as a Markdown table (the README's results table). The crowd
# flow columns (by contact, time ratio, lane index, deadlocked) show "-" for a build that does
# not write them.
#
#   bash bench/compare_scenarios.sh [build/crowd] [extra crowd-run options...]
#
# Both runs of a scenario happen one after the other on the same machine, so the ms-per-step
# ratio between them is meaningful even on a busy machine; absolute times are not.
set -euo pipefail
cd "$(dirname "$0")/.."
crowd="${1:-build/crowd}"
shift || true
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for scenario in samples/scenarios/*.json; do
  name="$(basename "$scenario" .json)"
  for backend in cpu detour; do
    "$crowd" run "$scenario" --backend "$backend" --quiet --metrics "$out/$name.$backend.json" "$@" \
      2>/dev/null
  done
done
python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
print("| scenario | agents | backend | arrived | by contact | mean arrival s | time ratio "
      "| lane index | stuck at end | deadlocked | overlap events | max overlap m | wall events "
      "| path ratio | ms/step (mean, p95) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for cpu in sorted(out.glob("*.cpu.json")):
    name = cpu.name[: -len(".cpu.json")]
    for backend in ("cpu", "detour"):
        m = json.loads((out / f"{name}.{backend}.json").read_text())
        # Keys a build before the crowd-flow metrics does not write show as "-".
        fmt = lambda v, f: "-" if v is None else f.format(v)
        print(f"| {name} | {m['agents']} | {backend} | {m['arrived']} | "
              f"{fmt(m.get('arrived_by_contact'), '{}')} | "
              f"{fmt(m['mean_arrival_time'], '{:.1f}')} | {fmt(m.get('mean_time_ratio'), '{:.2f}')} | "
              f"{fmt(m.get('lane_index'), '{:.2f}')} | {fmt(m.get('stuck_at_end'), '{}')} | "
              f"{fmt(m.get('deadlocked_agents'), '{}')} | {m['overlap_events']} | "
              f"{m['max_overlap']:.3f} | {m['wall_events']} | {fmt(m['mean_path_ratio'], '{:.2f}')} | "
              f"{m['step_ms_mean']:.2f}, {m['step_ms_p95']:.2f} |")
PY
