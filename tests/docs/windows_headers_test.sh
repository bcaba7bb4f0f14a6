#!/bin/sh
# Issue 13 item 5: Baton's D3D12 headers compile against Windows' own headers too, not only Linux's
# WSL adapter stubs. With MinGW-w64 (Debian's g++-mingw-w64-x86-64-posix) as the Windows compiler:
# its windows.h / rpc.h / unknwn.h, and directx-headers' d3d12.h (the header Microsoft ships in the
# Windows SDK and the Agility SDK) reached as <directx/d3d12.h> from a copy (mingw must not see
# /usr/include, Linux's own headers). `_WIN32` is defined there, so lower_d3d12.hpp takes its Windows
# branch (no <wsl/winadapter.h>). MinGW 10's rpcndr.h is version 475 where d3d12.h asks for 500;
# the two agree on everything d3d12.h uses, so the version requirement is lowered for the check.
# Each D3D12 header is compiled alone (-fsyntax-only); prints "windows headers: N compiled" last.
#   windows_headers_test.sh SOURCE_DIR MINGW_CXX
set -eu
src="$1"; cxx="$2"
work="$(mktemp -d "${TMPDIR:-/tmp}/baton-win.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/sdk"
cp -r /usr/include/directx "$work/sdk/"
n=0
for h in lower_d3d12.hpp lower.hpp; do
  printf '#include "baton/%s"\nint main() { return 0; }\n' "$h" > "$work/t.cpp"
  "$cxx" -std=c++20 -fsyntax-only -Wall -Wextra -Werror -D__REQUIRED_RPCNDR_H_VERSION__=475 \
    -I "$src/include/core" -I "$src/include/plan" -I "$src/include/lower" -isystem "$work/sdk" "$work/t.cpp" || { echo "baton/$h does not compile with Windows headers"; exit 1; }
  n=$((n + 1))
done
# The check is live: without directx-headers the header falls back to MinGW's own older d3d12.h,
# which lacks the enhanced-barrier types, and must fail to compile.
printf '#include "baton/lower_d3d12.hpp"\nint main() { return 0; }\n' > "$work/t.cpp"
if "$cxx" -std=c++20 -fsyntax-only -I "$src/include/core" -I "$src/include/plan" -I "$src/include/lower" "$work/t.cpp" 2>/dev/null; then
  echo "canary: lower_d3d12.hpp compiled with MinGW's old d3d12.h, so the check cannot tell"; exit 1
fi
echo "windows headers: $n compiled"
