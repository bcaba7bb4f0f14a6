#!/bin/sh
# Installs the build tree into a temporary prefix, builds examples/integration against it with
# find_package(baton) and runs it (docs/integration.md). Prints "integration example: ok" on success.
#   install_test.sh BUILD_DIR SOURCE_DIR CXX_COMPILER "EXTRA_CXX_FLAGS"
set -eu
build="$1"; src="$2"; cxx="$3"; flags="${4:-}"
work="$(mktemp -d "${TMPDIR:-/tmp}/baton-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }
test -f "$work/prefix/lib/cmake/baton/batonConfig.cmake" || { echo "no batonConfig.cmake installed"; exit 1; }
test -f "$work/prefix/include/baton/graph.hpp" || { echo "headers not installed"; exit 1; }
# The exported targets name no folder of this machine outside the prefix (the WSL stubs are found by
# batonConfig.cmake on the consumer's machine).
if grep -n '/usr/include' "$work/prefix/lib/cmake/baton/"batonTargets*.cmake; then
  echo "batonTargets.cmake exports an absolute include directory of the build machine"; exit 1
fi

cmake -S "$src/examples/integration" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
      -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }

out="$("$work/build/integration")"
echo "$out"
# The plan of examples/integration/main.cpp: three passes, and the depth buffer's discard at its
# first write (transient textures start undefined).
echo "$out" | grep -q "^api vulkan" || { echo "no plan printed"; exit 1; }
echo "$out" | grep -q "pass tonemap" || { echo "pass tonemap missing"; exit 1; }
echo "$out" | grep -q "depth\[all\] NONE NONE UNDEFINED ->" || { echo "no first-touch barrier for depth"; exit 1; }
echo "integration example: ok"

# The runtime component, where this build has it: examples/runtime (a deferred frame, GLSL
# compiled by glslc at the sample's build time) against the installed package, run on lavapipe
# under the validation layer; it exits 0 only if the layer was silent and frame.png matches
# examples/runtime/reference.png within the sample's tolerance.
if [ -f "$work/prefix/include/baton/runtime.hpp" ] && ls "$work/prefix/lib/"*baton_runtime* >/dev/null 2>&1; then
  cmake -S "$src/examples/runtime" -B "$work/rt" -DCMAKE_PREFIX_PATH="$work/prefix" \
        -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
        -DCMAKE_BUILD_TYPE=Release >"$work/rt-configure.log" 2>&1 || { cat "$work/rt-configure.log"; exit 1; }
  cmake --build "$work/rt" >"$work/rt-build.log" 2>&1 || { cat "$work/rt-build.log"; exit 1; }
  VK_DRIVER_FILES="${VK_DRIVER_FILES:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json}" \
    ASAN_OPTIONS=detect_leaks=0 "$work/rt/runtime_sample" "$work/frame.png" || { echo "runtime sample failed"; exit 1; }
  test -s "$work/frame.png" || { echo "runtime sample wrote no frame.png"; exit 1; }
  echo "runtime sample: ok"
fi

# Every installed header compiles in a consumer of the installed package, and every installed
# library links (issue 13: no header whose library is missing).
mkdir -p "$work/headers"
{
  # runtime_d3d12.hpp includes vkd3d's D3D12 declarations, which never meet directx-headers' (lower_d3d12.hpp)
  # in one translation unit: it gets a file of its own below.
  for h in "$work/prefix/include/baton/"*.hpp; do
    [ "$(basename "$h")" = runtime_d3d12.hpp ] || echo "#include <baton/$(basename "$h")>"
  done
  echo "int main() { return 0; }"
} >"$work/headers/all.cpp"
libs="baton::baton baton::graph baton::validate baton::triage baton::frame"
comp=""
srcs="all.cpp"
if [ -f "$work/prefix/include/baton/runtime.hpp" ]; then libs="$libs baton::runtime"; comp="runtime"; fi
if [ -f "$work/prefix/include/baton/runtime_d3d12.hpp" ]; then
  libs="$libs baton::runtime_d3d12"
  comp="$comp runtime_d3d12"
  srcs="$srcs d3d12.cpp"
  printf '#include <baton/runtime_d3d12.hpp>\nbool d3d12_refuses_no_device() { return !baton::runtime::d3d12::Runtime::create({}).ok(); }\n' \
    >"$work/headers/d3d12.cpp"
fi
[ -z "$comp" ] || comp="COMPONENTS $comp"
cat >"$work/headers/CMakeLists.txt" <<EOC
cmake_minimum_required(VERSION 3.25)
project(baton_headers LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(baton 0.1 REQUIRED $comp)
add_executable(all_headers $srcs)
target_link_libraries(all_headers PRIVATE $libs)
EOC
cmake -S "$work/headers" -B "$work/headers/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >"$work/hdr-configure.log" 2>&1 ||
  { cat "$work/hdr-configure.log"; exit 1; }
cmake --build "$work/headers/build" >"$work/hdr-build.log" 2>&1 || { cat "$work/hdr-build.log"; exit 1; }
"$work/headers/build/all_headers" || { echo "all-headers consumer failed"; exit 1; }
n=$(ls "$work/prefix/include/baton/"*.hpp | wc -l)
for h in exec_vulkan.hpp exec_d3d12.hpp view.hpp trace_player.hpp; do
  [ ! -f "$work/prefix/include/baton/$h" ] || { echo "$h is installed but its library is not"; exit 1; }
done
echo "installed headers: $n, all compiled in one consumer"
