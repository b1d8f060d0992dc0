#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, with ASan and UBSan) and runs each over a seed corpus
# of the example scenarios and meshes plus the kept regression inputs. Any crash, sanitizer
# report, timeout or unexpected exception fails the script, and libFuzzer writes the input
# that caused it straight into tests/fuzz/regressions/<target>/: commit it with the fix, and
# the CTest Fuzz.<target>.Regressions (tests/fuzz/replay_main.cpp) replays it in every build.
#
#   bash tests/fuzz/run.sh [runs per target]      (default 200000, a fixed seed: repeatable)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-200000}"
cxx="$(command -v clang++-14 || command -v clang++ || true)"
if [ -z "$cxx" ]; then
  echo "fuzz: clang++ not found (install clang and libclang-rt-14-dev)" >&2
  exit 1
fi
out="build-fuzz"
mkdir -p "$out" tests/fuzz/regressions/fuzz_scenario_reader tests/fuzz/regressions/fuzz_obj_loader
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
       -I. -isystem /usr/include/recastnavigation -DGLM_FORCE_XYZW_ONLY)
scenario_sources=(host/scenario/scenario_reader.cpp host/scenario/polygon2d.cpp)
"$cxx" "${flags[@]}" tests/fuzz/fuzz_scenario_reader.cpp "${scenario_sources[@]}" \
  -o "$out/fuzz_scenario_reader"
"$cxx" "${flags[@]}" tests/fuzz/fuzz_obj_loader.cpp host/navmesh/obj_loader.cpp \
  host/navmesh/input_geometry.cpp "${scenario_sources[@]}" -o "$out/fuzz_obj_loader"

run() { # target, seed corpus files...
  local target="$1"
  shift
  local corpus="$out/corpus_$target"
  rm -rf "$corpus" && mkdir -p "$corpus"
  cp "$@" "$corpus/"
  cp tests/fuzz/regressions/"$target"/* "$corpus/" 2>/dev/null || true
  echo "fuzz: $target, $runs runs"
  "$out/$target" -seed=1 -runs="$runs" -max_len=8192 -timeout=10 \
    -artifact_prefix="tests/fuzz/regressions/$target/" "$corpus" 2>&1 | tail -n 2
  return "${PIPESTATUS[0]}"
}
run fuzz_scenario_reader samples/scenarios/*.json
run fuzz_obj_loader samples/scenarios/meshes/*.obj
echo "fuzz: no crash"
