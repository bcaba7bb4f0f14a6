#!/usr/bin/env bash
# Stages what scripts/h200.sh runs on the H200 machine into .gl/bin and .gl/lib (git-ignored, carried
# to the device): the default build's baton, test_exec, test_runtime and gpu_barrier_cost, the
# runtime sample built against the installed package, and every shared library they need that the
# device image may lack (libc, libm and the Vulkan loader excepted; the loader comes from .gl/*.deb).
#
#   cmake --build build/default && scripts/h200-stage.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
prefix=$(mktemp -d)
sample=$(mktemp -d)
trap 'rm -rf "$prefix" "$sample"' EXIT
cmake --install build/default --prefix "$prefix" >/dev/null
cmake -S examples/runtime -B "$sample" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$sample" -j"$(nproc)" >/dev/null
rm -rf .gl/bin .gl/lib
mkdir -p .gl/bin .gl/lib
cp build/default/tools/baton/baton build/default/tests/exec/test_exec build/default/tests/runtime/test_runtime \
   build/default/src/exec/vulkan/gpu_barrier_cost "$sample/runtime_sample" .gl/bin/
for b in .gl/bin/*; do ldd "$b"; done | awk '/=> \//{print $3}' | sort -u |
  grep -v -E '/(libc|libm|libpthread|libdl|librt|libvulkan)\.so' | xargs -I{} cp -L {} .gl/lib/
du -sh .gl
