#!/usr/bin/env bash
# Installs what is missing, builds Baton (`default` preset) and runs the built-in demo: one
# deferred-renderer frame planned for D3D12 enhanced barriers, D3D12 legacy states and Vulkan.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/install-deps.sh
cmake --preset default
cmake --build --preset default --target baton_cli
./build/default/tools/baton/baton
