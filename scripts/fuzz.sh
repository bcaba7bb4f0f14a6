#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang, ASan + UBSan) and runs each for a fixed
# time on a temporary copy of its seed corpus (fuzz/corpus/<name>/), so the repository's corpus is
# never modified. Fails on any crash, sanitizer report, leak, timeout or out-of-memory; the
# offending input is kept under build/fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 20 s; all six targets)
#
# fuzz_structured builds valid-shaped recordings, graphs and traces from its input (a stream of
# choices, not JSON), so it reaches the planner, the lowerings, the graph checks and the replay.
#
# Every crash found becomes a regression input under tests/cli/bad/ (or a unit test) and a fix.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/fuzz-args.sh

seconds="${1:-20}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(fuzz_recording fuzz_compile fuzz_graph fuzz_trace fuzz_validate fuzz_structured)

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=()
for t in "${targets[@]}"; do
  name="${t#fuzz_}"
  cp -r "fuzz/corpus/${name}" "$work/${name}"
  artifacts="build/fuzz/artifacts/${t}/"
  mkdir -p "$artifacts"
  echo "=== ${t}: ${seconds} s on a copy of fuzz/corpus/${name}"
  # fuzz_limits (scripts/fuzz-args.sh): -timeout (a slow input is a failure), -rss_limit_mb and
  # -malloc_limit_mb (a memory bomb is a failure), -max_len, and the target's format dictionary.
  mapfile -t args < <(fuzz_limits "$t")
  if ! "build/fuzz/fuzz/${t}" "$work/${name}" -max_total_time="$seconds" "${args[@]}" \
         -print_final_stats=1 -artifact_prefix="$artifacts" 2>"$work/${t}.log"; then
    tail -n 60 "$work/${t}.log"
    failed+=("$t")
  else
    grep -E '^stat::number_of_executed_units|^Done' "$work/${t}.log" || true
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "=== fuzzing found problems in: ${failed[*]} (inputs under build/fuzz/artifacts/)"
  exit 1
fi
echo "=== fuzzing: no crashes (${#targets[@]} targets, ${seconds} s each)"
