#!/usr/bin/env bash
# Modelled GPU cycles per kernel of one step, from GPGPU-Sim's performance mode (its cycle
# model of an RTX 2060: 30 SMs at 1365 MHz, 5,000 cycles of launch latency per kernel). These
# are a simulator's model, not measurements of a GPU: use them to compare launch counts, block
# shapes and occupancy between builds, not as speed.
#
#   bash bench/gpu_sim_cycles.sh [AGENTS] [STEPS]   (default 300 agents, 2 steps; minutes)
#
# Runs `crowd run` with --backend cuda on the bench scene of AGENTS agents (crowd bench
# --write-scenes) for STEPS steps and prints every kernel launch of the last step: cycles, us,
# instructions, IPC and the share of the step. Needs the normal build and the simulator
# (.ci/gpu-sim finds and prepares it; run that once first).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
agents="${1:-300}"
steps="${2:-2}"
sim="${CROWD_GPGPUSIM_DIR:-$repo/../shared/tools/gpgpu-sim}"
work="$repo/build-gpusim"
[ -e "$work/lib/libcudart.so.13" ] || { echo "run bash .ci/gpu-sim first" >&2; exit 1; }
out="$work/cycles-$agents"
rm -rf "$out" && mkdir -p "$out"
build/crowd bench --agents "$agents" --steps 1 --backends cpu --write-scenes "$out" \
  --out "$out/bench.json" >/dev/null 2>&1
set +u
# shellcheck disable=SC1091
source "$sim/env.sh"
set -u
export LD_LIBRARY_PATH="$work/lib:$LD_LIBRARY_PATH"
export PTX_SIM_MODE_FUNC=0 # the cycle model
cd "$out"
gpgpusim_configs .
"$repo/build/crowd" run "bench_$agents.json" --backend cuda --steps "$steps" --quiet \
  --out trajectory.csv >sim.log 2>&1
python3 "$sim/kernel_cycles.py" sim.log >launches.txt
python3 - launches.txt "$steps" "$agents" <<'PY'
import re, sys
rows = [l for l in open(sys.argv[1]).read().splitlines() if l.strip()]
steps, agents = int(sys.argv[2]), int(sys.argv[3])
per_step = len(rows) // steps
last = rows[-per_step:]
total_cycles = sum(int(re.search(r"(\d+) cycles", r).group(1)) for r in last)
print(f"GPGPU-Sim performance model (RTX 2060 config), {agents} agents, last of {steps} steps: "
      f"{per_step} launches, {total_cycles} cycles = {total_cycles / 1365:.1f} us modelled")
print(f"{'kernel':42s} {'cycles':>9s} {'us':>8s} {'share':>6s}")
for r in last:
    name = r[:42].strip()
    cycles = int(re.search(r"(\d+) cycles", r).group(1))
    print(f"{name:42s} {cycles:9d} {cycles / 1365:8.1f} {100 * cycles / total_cycles:5.1f}%")
PY
