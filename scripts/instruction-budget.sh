#!/usr/bin/env bash
# Turns issue 16's time targets into instruction budgets (docs/benchmarks.md, "Issue 16, session 23").
# For each target workload, in the steady state (compiled into the last frame's result):
#   - instructions per compile: callgrind, one measured compile (deterministic);
#   - CPU time per compile and the core clock: bench/graph_instructions run natively, REPS compiles;
#   - instructions per cycle = instructions / (time x clock), and the budget: how many instructions the
#     compile may take if it keeps running at the IPC it has now. The target's time x clock x IPC is
#     instructions x target / time, so the budget needs no clock; the clock gives the IPC, which says
#     whether that assumption is sound (a compile near the core's issue rate cannot trade stalls for time).
# Last, the core planner's instructions in the chain's compile (compile_all_into, callgrind's
# --toggle-collect), per use; its time per use, for its 15 ns target, is graph_bench's
# BM_GraphChainPlannerShare (the planner alone cannot be timed inside this program's whole compile).
#
#   scripts/instruction-budget.sh               # build/default (the `default` preset, -O2)
#   BATON_BUILD_DIR=build/x scripts/instruction-budget.sh
# Needs valgrind (apt-get install valgrind): its header builds graph_instructions, its callgrind counts.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v valgrind >/dev/null || [ ! -f /usr/include/valgrind/callgrind.h ]; then
  echo "instruction-budget.sh: needs valgrind (apt-get install valgrind)" >&2
  exit 2
fi
build="${BATON_BUILD_DIR:-build/default}"
if [ "$build" = "build/default" ]; then
  cmake --preset default >/dev/null
fi
cmake --build "$build" --target graph_instructions -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
bin="$build/bench/graph_instructions"
[ -x "$bin" ] || { echo "instruction-budget.sh: $bin was not built (valgrind/callgrind.h not found by cmake?)" >&2; exit 1; }

instructions() {  # FAMILY N [callgrind options...]: instructions of one steady-state compile
  local family=$1 n=$2
  shift 2
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/dev/null "$@" "$bin" "$family" "$n" 1 reuse 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
field() { sed -n "s/^$1 //p"; }  # a value graph_instructions prints as "NAME VALUE"

printf '%-34s %12s %10s %8s %6s %10s %13s %8s\n' "target" "instructions" "us" "GHz" "IPC" "target us" "budget instr" "over"
chain_uses=
# FAMILY N REPS TARGET_US LABEL
while read -r family n reps target label; do
  ir=$(instructions "$family" "$n")
  out=$("$bin" "$family" "$n" "$reps" reuse)
  us=$(field cpu_us_per_compile <<<"$out")
  ghz=$(field clock_ghz <<<"$out")
  if [ -z "$ir" ] || [ -z "$us" ] || [ -z "$ghz" ]; then
    echo "instruction-budget.sh: $family $n: no instruction count, time or clock (x86-64 only) in: $out" >&2
    exit 1
  fi
  read -r ipc budget over < <(awk -v ir="$ir" -v us="$us" -v ghz="$ghz" -v t="$target" \
    'BEGIN { printf "%.2f %.0f %.2f\n", ir / (us * ghz * 1e3), ir * t / us, us / t }')
  printf '%-34s %12s %10.2f %8.3f %6s %10s %13s %7sx\n' "$label" "$ir" "$us" "$ghz" "$ipc" "$target" "$budget" "$over"
  if [ "$family $n" = "chain 1000" ]; then
    chain_uses=$(sed -n 's/^chain 1000: [0-9]* passes, \([0-9]*\) uses.*/\1/p' <<<"$out")
  fi
done <<'EOF'
chain 1000 4000 70 1,000-pass chain, every phase
chain 100 40000 8 100-pass chain, every phase
example 1 100000 10 examples/deferred.json
EOF

planner=$(instructions chain 1000 '--toggle-collect=baton::compile_all_into*')
awk -v ir="$planner" -v uses="$chain_uses" 'BEGIN {
  printf "core planner in the 1,000-pass chain: %d instructions, %.0f per use of %d\n", ir, ir / uses, uses
}'
