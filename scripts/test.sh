#!/usr/bin/env bash
# Installs what is missing, then builds and runs every test twice: with the `default` preset, and
# with the `asan` preset (AddressSanitizer + UndefinedBehaviorSanitizer); then the frame-graph tests
# (parallel recording) under the `tsan` preset; then runs the fuzz targets for a short fixed time
# (scripts/fuzz.sh). Used by CI (.ci/run).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/install-deps.sh
jobs="$(nproc 2>/dev/null || echo 2)"

for preset in default asan; do
  echo "=== ${preset}: configure, build, test"
  cmake --preset "$preset"
  cmake --build --preset "$preset"
  ctest --preset "$preset" --parallel "$jobs"
done
# ThreadSanitizer on the frame-graph tests only (the parallel recorder, tests/graph): one target,
# kept small so that this step adds little CI time.
echo "=== tsan: configure, build test_graph, run the graph tests"
cmake --preset tsan
cmake --build --preset tsan --target test_graph test_runtime_pool
ctest --preset tsan -R '^(ParallelRecord|GraphPhases|GraphErrors|Examples|RuntimePool)\.' --parallel "$jobs"
# libFuzzer targets (clang, ASan + UBSan), 20 s each on a copy of the seed corpus.
echo "=== fuzz: build and run each target"
./scripts/fuzz.sh 20
echo "=== all tests passed (default, asan, tsan graph tests) and fuzzing found nothing"
