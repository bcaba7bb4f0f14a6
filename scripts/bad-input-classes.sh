#!/usr/bin/env bash
# Issue 15's classes of bad input, each shown fixed by one command (docs/cli.md, "The bad-input
# catalogue"): prints, per class, the command and what it prints now (its first line of output,
# the exit code, and for the size classes the wall time and peak RSS from /usr/bin/time). Every
# class also has a test; the table in docs/cli.md names it.
#
#   scripts/bad-input-classes.sh      # uses build/default (BATON_BUILD_DIR overrides); builds nothing
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${BATON_BUILD_DIR:-build/default}"
baton="$build/tools/baton/baton"
[ -x "$baton" ] || { echo "$baton is not built" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
show() {  # class, then the command as one shell string (run with bash -c, in the repository root)
  local class=$1 cmd=$2
  /usr/bin/time -f '%e s, %M KB peak' -o "$work/time" timeout 60 bash -c "$cmd" >"$work/out" 2>&1
  local rc=$?
  printf '%s\n  $ %s\n  -> exit %d, %s: %s\n' "$class" "$cmd" "$rc" "$(tail -n 1 "$work/time")" \
    "$(head -n 1 "$work/out" | cut -c 1-240)"
}
mkfifo "$work/fifo"
cp fuzz/corpus/recording/minimal.json "$work/in.json"
ln -s "$work/in.json" "$work/link.html"
echo "== hangs and unbounded reads"
show "a FIFO (validate)" "$baton validate $work/fifo"
show "the zero device (triage)" "$baton triage /dev/zero /dev/zero"
show "300 MiB on standard input" "head -c 314572800 /dev/zero | $baton compile -"
show "a directory (validate)" "$baton validate docs"
echo "== tiny inputs that need gigabytes"
show "trace: 60 textures x 2^20 subresources (8 KB)" "$baton validate fuzz/corpus/trace/hostile_memory_bomb.json"
show "graph: a set of 4,096 members x 26,624 subresources (1 KB)" "$baton compile fuzz/corpus/graph/hostile_memory_bomb.json --api d3d12-legacy | tail -n 3"
show "recording: 60 textures at the extent limits, D3D12 legacy" "$baton compile fuzz/corpus/recording/hostile_memory_bomb.json --api d3d12-legacy | tail -n 1"
echo "== quadratic time"
"$build/bench/gen_recording" 100000 >"$work/rec100k.json" 2>/dev/null
show "10^5 operations (compile)" "$baton compile $work/rec100k.json --api vulkan | tail -n 1"
show "700 uses of one resource in one operation" "$baton compile fuzz/corpus/recording/hostile_many_uses.json | tail -n 1"
show "a 700-pass chain (graph)" "$baton compile fuzz/corpus/graph/hostile_long_chain.json | tail -n 1"
echo "== silent acceptance"
show "graph: depth resting layout on a color texture" "$baton compile tests/cli/bad/graph_depth_resting_on_color.json"
show "graph: present resting on a non-swapchain" "$baton compile tests/cli/bad/graph_present_resting_not_swapchain.json"
show "graph: a use outside the usage" "$baton compile tests/cli/bad/graph_use_not_in_usage.json"
show "trace: a duplicate key" "$baton validate tests/cli/bad/trace_duplicate_key.json"
show "trace: a misspelt key" "$baton validate tests/cli/bad/trace_misspelt_subresource.json"
show "a NUL byte" "$baton compile tests/cli/bad/nul_byte.json"
show "planes on a color texture" "$baton compile tests/cli/bad/planes_on_color.json"
show "simultaneous access on depth" "$baton compile tests/cli/bad/simultaneous_on_depth.json"
echo "== output an input can forge"
show "a name with a newline and a fake summary line" "$baton compile fuzz/corpus/recording/hostile_forged_names.json"
show "a name with markup in the HTML view" "$baton view fuzz/corpus/recording/hostile_markup_names.json -o $work/v.html && echo \"raw '<!--<script>' in the page: \$(grep -c '<!--<script>' $work/v.html)\""
show "view FILE -o FILE" "$baton view $work/in.json -o $work/in.json"
show "-o through a symbolic link" "$baton view $work/in.json -o $work/link.html"
show "a 400-pass cycle (message length, bytes)" "$baton compile fuzz/corpus/graph/hostile_long_cycle.json 2>&1 | wc -c"
echo "== messages that do not locate"
show "1e400" "$baton compile tests/cli/bad/number_overflow.json"
show "invalid UTF-8" "$baton compile tests/cli/bad/invalid_utf8.json"
show "graph: a semantic error (validator)" "$baton compile tests/cli/bad/graph_ambiguous_write_order.json"
show "graph: a semantic error (transitions)" "$baton compile tests/cli/bad/graph_reads_on_two_queues.json"
show "trace: a semantic error" "$baton validate tests/cli/bad/trace_unknown_resource.json"
show "run on a graph names the file" "$baton run tests/cli/bad/graph_cycle.json"
