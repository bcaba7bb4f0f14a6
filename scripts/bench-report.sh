#!/usr/bin/env bash
# Builds and runs the benchmark report (bench/bench_report.cpp): compile throughput and scaling,
# barriers against a brute-force minimum and a naive tracker, API calls per frame, transient
# memory against the lower bound, all measured in one run. Writes build/bench-report.md and
# build/bench-report.json (docs/benchmarks.md explains the figures). Then runs bench/graph_bench
# (frame-graph compile, the core families at 1,000..100,000 operations, every compile target of
# issue 16 with its floor from that run) into build/graph-bench.txt and appends its targets to
# build/bench-report.md, then (where valgrind is installed) scripts/instruction-budget.sh, the time
# targets as instruction budgets. BATON_SKIP_GRAPH_BENCH=1 skips both.
#
#   scripts/bench-report.sh            # the `default` preset (build/default)
#   BATON_BUILD_DIR=build/x scripts/bench-report.sh   # another build folder, same flags
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build="${BATON_BUILD_DIR:-build/default}"
if [ "$build" = "build/default" ]; then
  cmake --preset default >/dev/null
else
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null
fi
cmake --build "$build" --target bench_report graph_bench -j "$(nproc 2>/dev/null || echo 2)"
"$build/bench/bench_report" build
if [ "${BATON_SKIP_GRAPH_BENCH:-0}" != 1 ]; then
  "$build/bench/graph_bench" --benchmark_color=false > build/graph-bench.txt
  {
    printf '\n## Frame-graph compile targets (bench/graph_bench, this run)\n\n```\n'
    sed -n '/^targets/,$p' build/graph-bench.txt
    printf '```\n'
  } >> build/bench-report.md
  # The time targets as instruction budgets (scripts/instruction-budget.sh); it exits 2 where valgrind is
  # not installed, which the report says.
  rc=0
  budget=$(BATON_BUILD_DIR="$build" scripts/instruction-budget.sh 2>&1) || rc=$?
  if [ "$rc" = 2 ]; then
    printf '\n(The time targets as instruction budgets: %s)\n' "$budget" >> build/bench-report.md
  elif [ "$rc" != 0 ]; then
    printf '%s\n' "$budget" >&2
    exit "$rc"
  else
    fence='```'
    printf '\n## Time targets as instruction budgets (scripts/instruction-budget.sh, this run)\n\n%s\n%s\n%s\n' \
      "$fence" "$budget" "$fence" >> build/bench-report.md
  fi
fi
