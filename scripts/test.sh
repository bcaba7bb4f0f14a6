#!/usr/bin/env bash
# Installs what is missing, then builds and runs every test twice: with the `default` preset, and
# with the `asan` preset (AddressSanitizer + UndefinedBehaviorSanitizer). Used by CI (.ci/run).
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
echo "=== all tests passed (default and asan)"
