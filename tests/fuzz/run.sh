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
scenario_sources=(host/scenario/scenario_reader.cpp host/scenario/param_table.cpp
                  host/scenario/polygon2d.cpp)
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
# Our own files that commands read back: trajectories and film CSVs (crowd render) and checkpoints (crowd
# resume), seeded from tests/fuzz/seeds/<target>/ (tests/fuzz/make_seeds.sh writes them).
# These readers need most of the library: build it once with clang and the sanitizers
# (-fsanitize=fuzzer-no-link: instrumented for the fuzzer, linked into its targets).
lib="$out/lib"
# The null check stays recoverable in the library so that .ci/ubsan-suppressions.txt can skip
# Thrust's known report (the file says why), as in .ci/sanitize; anything else still halts.
sanitize="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
sanitize+=" -fsanitize-recover=null"
cmake -S . -B "$lib" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$sanitize" -DCROWD_ENABLE_CUDA=OFF -DCROWD_BUILD_TESTS=OFF \
  -DCROWD_BUILD_BENCH=OFF >/dev/null
cmake --build "$lib" -j "$(nproc)" --target crowdsim >/dev/null
thrust="$(sed -n 's/^CROWD_THRUST_INCLUDE_DIR:PATH=//p' "$lib/CMakeCache.txt")"
library_flags=(-isystem "$thrust" -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP
               -DCROWD_SOURCE_DIR="\"$PWD\"")
library_libs=("$lib/libcrowdsim.a" -lDetourCrowd -lDetourTileCache -lDetour -lRecast -ltbb -lcairo -lpthread)
"$cxx" "${flags[@]}" "${library_flags[@]}" tests/fuzz/fuzz_trajectory_reader.cpp \
  "${library_libs[@]}" -o "$out/fuzz_trajectory_reader"
"$cxx" "${flags[@]}" "${library_flags[@]}" tests/fuzz/fuzz_film_csv_reader.cpp \
  "${library_libs[@]}" -o "$out/fuzz_film_csv_reader"
"$cxx" "${flags[@]}" "${library_flags[@]}" tests/fuzz/fuzz_checkpoint_reader.cpp \
  host/cli/run_checkpoint.cpp "${library_libs[@]}" -o "$out/fuzz_checkpoint_reader"
mkdir -p tests/fuzz/regressions/fuzz_trajectory_reader tests/fuzz/regressions/fuzz_film_csv_reader \
  tests/fuzz/regressions/fuzz_checkpoint_reader

export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$PWD/.ci/ubsan-suppressions.txt"
run fuzz_scenario_reader samples/scenarios/*.json
run fuzz_obj_loader samples/scenarios/meshes/*.obj
run fuzz_trajectory_reader tests/fuzz/seeds/fuzz_trajectory_reader/*
run fuzz_film_csv_reader tests/fuzz/seeds/fuzz_film_csv_reader/*
run fuzz_checkpoint_reader tests/fuzz/seeds/fuzz_checkpoint_reader/*
echo "fuzz: no crash"
