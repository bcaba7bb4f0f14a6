#!/usr/bin/env bash
# The tools on big inputs (issue 16 item 3): a recording of N operations (bench/gen_recording) through
# `baton compile`, `emit-trace --api vulkan`, `validate` on that trace and `triage` of the two, at
# N = 10,000 and 100,000 (BATON_BIG_SIZES overrides), with wall time and peak RSS from /usr/bin/time
# and the x10 ratios. Prints a markdown table (docs/benchmarks.md, "Big inputs").
#
#   scripts/big-inputs.sh            # uses build/default (BATON_BUILD_DIR overrides)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${BATON_BUILD_DIR:-build/default}"
cmake --build "$build" --target baton_cli gen_recording -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
baton="$build/tools/baton/baton"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
read -r -a sizes <<< "${BATON_BIG_SIZES:-10000 100000}"
declare -A sec kb
measure() {  # name size command...
  local name=$1 n=$2; shift 2
  /usr/bin/time -f '%e %M' -o "$work/t" "$@" > "$work/out" 2> "$work/err" || { cat "$work/err"; exit 1; }
  read -r s k < "$work/t"
  sec[$name/$n]=$s; kb[$name/$n]=$k
}
for n in "${sizes[@]}"; do
  "$build/bench/gen_recording" "$n" > "$work/rec$n.json"
  measure compile "$n" "$baton" compile "$work/rec$n.json" --api vulkan
  measure emit-trace "$n" "$baton" emit-trace "$work/rec$n.json" --api vulkan
  cp "$work/out" "$work/tr$n.json"
  measure validate "$n" "$baton" validate "$work/tr$n.json"
  measure triage "$n" "$baton" triage "$work/rec$n.json" "$work/tr$n.json"
  echo "N=$n: recording $(stat -c %s "$work/rec$n.json") bytes, trace $(stat -c %s "$work/tr$n.json") bytes"
done
echo
echo "| command | N | wall s | peak RSS MiB | T(N)/T(N/10) | M(N)/M(N/10) |"
echo "|---|---:|---:|---:|---:|---:|"
for c in compile emit-trace validate triage; do
  prev=""
  for n in "${sizes[@]}"; do
    tr="-"; mr="-"
    if [ -n "$prev" ]; then
      tr=$(awk -v a="${sec[$c/$n]}" -v b="${sec[$c/$prev]}" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
      mr=$(awk -v a="${kb[$c/$n]}" -v b="${kb[$c/$prev]}" 'BEGIN { printf "%.1f", a / b }')
    fi
    echo "| $c | $n | ${sec[$c/$n]} | $(( ${kb[$c/$n]} / 1024 )) | $tr | $mr |"
    prev=$n
  done
done
