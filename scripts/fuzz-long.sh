#!/usr/bin/env bash
# Long fuzzing runs with figures: each target in turn for SECONDS (one at a time), with the limits of
# scripts/fuzz-args.sh, on a working copy of its corpus (fuzz/corpus/<name>/, never modified). After a
# finding the target is started again on the grown corpus until its time is up, so one run counts
# every finding, not only the first. Prints per target: executions, findings (crash, leak, timeout,
# out-of-memory: libFuzzer's artifacts, kept under build/fuzz/long/<target>/), seconds, runs per hour
# and findings per hour; exits 1 when anything was found.
#
#   scripts/fuzz-long.sh SECONDS_PER_TARGET [TARGET...]     (e.g. 3600 for an hour each; all six by default)
#
# Builds nothing: run scripts/fuzz.sh (or `cmake --build --preset fuzz`) first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/fuzz-args.sh

seconds="${1:?usage: scripts/fuzz-long.sh SECONDS_PER_TARGET [TARGET...]}"
shift
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(fuzz_recording fuzz_compile fuzz_graph fuzz_trace fuzz_validate fuzz_structured)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
printf '%-16s %12s %9s %8s %14s %13s\n' target runs findings seconds runs/hour findings/hour
total_findings=0
for t in "${targets[@]}"; do
  name="${t#fuzz_}"
  bin="build/fuzz/fuzz/${t}"
  [ -x "$bin" ] || { echo "$bin is not built (scripts/fuzz.sh builds it)" >&2; exit 2; }
  cp -r "fuzz/corpus/${name}" "$work/${name}"
  artifacts="build/fuzz/long/${t}/"
  rm -rf "$artifacts"
  mkdir -p "$artifacts"
  mapfile -t args < <(fuzz_limits "$t")
  runs=0
  start=$(date +%s.%N)
  while :; do
    left=$(awk -v s="$start" -v now="$(date +%s.%N)" -v total="$seconds" 'BEGIN { printf "%d", total - (now - s) }')
    [ "$left" -ge 1 ] || break
    log="$work/${t}.log"
    "$bin" "$work/${name}" -max_total_time="$left" "${args[@]}" -print_final_stats=1 \
      -artifact_prefix="$artifacts" >"$log" 2>&1 || true
    # Executions of this start: the final statistics, or (after a finding, which ends the run without
    # them) the last progress line's "#N".
    n=$(awk -F: '/^stat::number_of_executed_units/ { gsub(/ /, "", $2); print $2 }' "$log" | tail -n 1)
    [ -n "$n" ] || n=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
    runs=$((runs + ${n:-0}))
    grep -q '^stat::number_of_executed_units' "$log" && break  # ran out its time without a finding
  done
  elapsed=$(awk -v s="$start" -v now="$(date +%s.%N)" 'BEGIN { printf "%.1f", now - s }')
  found=$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \
          -o -name 'slow-unit-*' \) | wc -l)
  total_findings=$((total_findings + found))
  awk -v t="$t" -v r="$runs" -v f="$found" -v e="$elapsed" \
    'BEGIN { printf "%-16s %12d %9d %8.0f %14.0f %13.1f\n", t, r, f, e, r * 3600 / e, f * 3600 / e }'
  rm -rf "$work/${name}"
done
if [ "$total_findings" -gt 0 ]; then
  echo "findings: $total_findings (inputs under build/fuzz/long/<target>/)"
  exit 1
fi
echo "findings: none"
