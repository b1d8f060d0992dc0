#!/usr/bin/env bash
# Writes the seed inputs of the fuzz targets that read crowd's own files, with the build in
# ./build: a trajectory, a film CSV and a checkpoint of tests/fuzz/checkpoint_scenario.json, the checkpoint
# as a whole file and as its body alone (tests/fuzz/fuzz_checkpoint_reader.cpp says why both).
# They are committed, so that every fuzz run starts from the same bytes (the checkpoint holds
# absolute paths). Rerun and commit when the checkpoint format changes: the CTest
# FuzzSeeds.CheckpointSeedsRestore fails until then.
#
#   bash tests/fuzz/make_seeds.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
seeds=tests/fuzz/seeds
build/crowd run tests/fuzz/checkpoint_scenario.json --backend cpu --steps 6 --quiet \
  --out "$seeds/fuzz_trajectory_reader/trajectory.csv"
# 0.6 s at 10 fps: 7 frames, a type label and a waypoint wait among them.
build/crowd run tests/fuzz/checkpoint_scenario.json --backend cpu --steps 6 --quiet --fps 10 \
  --out "$seeds/fuzz_film_csv_reader/film.csv"
rm -f "$seeds/fuzz_checkpoint_reader/seed.ckpt"
build/crowd run tests/fuzz/checkpoint_scenario.json --backend cpu --steps 4 --quiet \
  --checkpoint "$seeds/fuzz_checkpoint_reader/seed.ckpt" --checkpoint-every 2 >/dev/null 2>&1
python3 - "$seeds/fuzz_checkpoint_reader/seed.ckpt" "$seeds/fuzz_checkpoint_reader/seed.body" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
at = 8 + 4  # magic, format
at += 8 + struct.unpack_from("<Q", data, at)[0]  # build version string
at += 8 + 8  # body length, checksum
open(sys.argv[2], "wb").write(data[at:])
PY
echo "make_seeds: wrote $(ls "$seeds"/*/* | tr '\n' ' ')"
