#!/usr/bin/env bash
# Registers, stack, spills, static shared memory and barriers per kernel, from ptxas -v, for
# the CUDA sources compiled with the project's CUDA flags (CMakeLists.txt: the crowd_warnings
# CUDA options, C++20, CMAKE_CUDA_ARCHITECTURES' default 75). Needs nvcc, no GPU.
#
#   bash bench/kernel_resources.sh              # the project's kernels (namespace crowd)
#   bash bench/kernel_resources.sh --all        # also Thrust's and CUB's (the grid build)
#   bash bench/kernel_resources.sh FILE.cu ...  # other sources (default: cuda/**/*.cu)
#   bash bench/kernel_resources.sh --build-dir BUILD
#       # the exact nvcc command lines of a configured CMake build (its compile_commands.json,
#       # so build type and options such as --fmad=false are included; needs python3)
#
# Environment: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc), CROWD_CUDA_ARCH
# (default 75), CROWD_NVCC_EXTRA_FLAGS (appended, e.g. "--fmad=false" to compare).
#
# Spill stores/loads above 0 mean registers ran out (local memory traffic); a stack frame
# without spills is a local array indexed at run time. "smem" is static shared memory only:
# the avoidance kernel also takes dynamic shared memory for its AvoidanceScratch,
# circles [K] (48 B each) + segments [S] (20 B each) + pattern [129] (8 B each) + ORCA's
# half-planes and projected half-planes [K + S] each (16 B each), each array rounded up to
# 16 B: 1936 B at the defaults K = 6, S = 8.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nvcc_bin="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
if [[ ! -x "$nvcc_bin" ]]; then
  echo "kernel_resources.sh: nvcc not found (set NVCC or install the CUDA toolkit)" >&2
  exit 1
fi
arch="${CROWD_CUDA_ARCH:-75}"

show_all=0
build_dir=""
sources=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --all) show_all=1 ;;
    --build-dir) build_dir="${2:?--build-dir needs a directory}"; shift ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) sources+=("$1") ;;
  esac
  shift
done
if [[ ${#sources[@]} -eq 0 ]]; then
  mapfile -t sources < <(cd "$root" && find cuda -name '*.cu' | sort)
fi
if [[ ${#sources[@]} -eq 0 ]]; then
  echo "kernel_resources.sh: no .cu sources under $root/cuda" >&2
  exit 1
fi

# The flags of target crowdsim_cuda (keep in step with CMakeLists.txt).
flags=(-std=c++20 "-arch=sm_${arch}" --expt-relaxed-constexpr "-diag-suppress=20012,20014"
       -DGLM_FORCE_XYZW_ONLY "-I${root}")
# shellcheck disable=SC2206 # word splitting of the extra flags is intended
extra=(${CROWD_NVCC_EXTRA_FLAGS:-})

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# With --build-dir: the command line CMake uses for `src`, minus its -o, NUL-separated in
# $work/command; the directory to run it from in $work/directory.
command_from_build() {
  python3 - "$build_dir/compile_commands.json" "$1" "$work" <<'PY'
import json, os, shlex, sys
database, source, work = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3]
for entry in json.load(open(database)):
    if os.path.realpath(os.path.join(entry["directory"], entry["file"])) != source:
        continue
    args = entry.get("arguments") or shlex.split(entry["command"])
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        else:
            kept.append(arg)
    open(os.path.join(work, "command"), "w").write("\0".join(kept) + "\0")
    open(os.path.join(work, "directory"), "w").write(entry["directory"])
    sys.exit(0)
sys.exit("no compile command for " + source + " in " + database)
PY
}
if [[ -n "$build_dir" && ! -f "$build_dir/compile_commands.json" ]]; then
  echo "kernel_resources.sh: $build_dir/compile_commands.json not found (configure with CMake)" >&2
  exit 1
fi

raw="$work/raw.tsv"
: >"$raw"
for src in "${sources[@]}"; do
  path="$src"
  [[ -f "$path" ]] || path="$root/$src"
  log="$work/ptxas.log"
  if [[ -n "$build_dir" ]]; then
    command_from_build "$path"
    mapfile -d '' -t command <"$work/command"
    run() { (cd "$(cat "$work/directory")" && "${command[@]}" "${extra[@]}" -Xptxas -v -o "$work/out.o"); }
    shown_command="${command[*]}"
  else
    run() { "$nvcc_bin" "${flags[@]}" "${extra[@]}" -Xptxas -v -c "$path" -o "$work/out.o"; }
    shown_command="nvcc ${flags[*]} ${extra[*]:-}"
  fi
  if ! run >"$log" 2>&1; then
    cat "$log" >&2
    echo "kernel_resources.sh: compiling $src failed" >&2
    exit 1
  fi
  # One row per entry function: mangled name, registers, stack, spill stores, spill loads,
  # static smem, barriers. Fields missing from ptxas's line are 0.
  awk -v file="$(basename "$src")" '
    /Compiling entry function/ {
      match($0, /function '\''[^'\'']+'\''/)
      name = substr($0, RSTART + 10, RLENGTH - 11)
      stack = st = ld = 0
      next
    }
    name != "" && /bytes stack frame/ {
      for (i = 1; i <= NF; ++i) {
        if ($(i + 1) == "bytes" && $(i + 2) == "stack") stack = $i
        if ($(i + 1) == "bytes" && $(i + 2) == "spill" && $(i + 3) ~ /^stores/) st = $i
        if ($(i + 1) == "bytes" && $(i + 2) == "spill" && $(i + 3) ~ /^loads/) ld = $i
      }
      next
    }
    name != "" && /Used [0-9]+ registers/ {
      regs = smem = bar = 0
      for (i = 1; i <= NF; ++i) {
        if ($(i + 1) ~ /^registers/) regs = $i
        if ($(i + 1) == "bytes" && $(i + 2) ~ /^smem/) smem = $i
        if ($(i + 1) ~ /^barriers/) bar = $i
      }
      printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, file, regs, stack, st, ld, smem, bar
      name = ""
    }
  ' "$log" >>"$raw"
done

# Demangle, shorten (drop the return type, namespaces and parameter lists), filter, sort.
cut -f1 "$raw" | c++filt >"$work/names.txt"
paste "$work/names.txt" <(cut -f2- "$raw") |
  awk -F'\t' -v all="$show_all" 'BEGIN { OFS = "\t" }
    {
      name = $1
      ours = (name ~ /crowd::/ && name !~ /(cub|thrust)::/)
      if (!all && !ours) next
      sub(/^void /, "", name)
      gsub(/\(anonymous namespace\)::/, "", name)
      if (ours) {
        gsub(/crowd::/, "", name)
        sub(/\(.*$/, "", name)
      } else if (length(name) > 90) {
        name = substr(name, 1, 87) "..."
      }
      $1 = name
      print
    }' | sort -t$'\t' -k1,1V >"$work/table.tsv"

if [[ ! -s "$work/table.tsv" ]]; then
  echo "kernel_resources.sh: ptxas reported no kernels" >&2
  exit 1
fi

echo "ptxas -v of: ${shown_command}"
{
  printf "kernel\tfile\tregs\tstack B\tspill st B\tspill ld B\tsmem B\tbarriers\n"
  cat "$work/table.tsv"
} | column -t -s $'\t'
