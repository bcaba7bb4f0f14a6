#!/usr/bin/env bash
# GPU cost of barriers over work sizes (issue 3, item 8): runs gpu_barrier_cost on the demo frame
# for a grid of --spin / --side / --words settings and prints one line per setting with the
# medians of (a) Baton's barriers, (b) a full barrier before every operation, (c) no barriers, and
# the ratios a/b, a/c. Used on the H200 machine (docs/h200-results.md, "GPU cost over work sizes").
#
#   scripts/gpu-cost-sweep.sh BIN_DIR [FRAMES]
set -u
BIN=${1:?usage: $0 BIN_DIR [FRAMES]}
FRAMES=${2:-15}
printf '%-6s %-6s %-7s %12s %12s %12s %7s %7s  %s\n' spin side words a_us b_us c_us a/b a/c layer
for cfg in "4000 16 256" "1000 16 256" "200 16 256" "4000 64 1024" "1000 64 1024" "200 64 1024" \
           "1000 128 4096" "200 128 4096" "50 256 16384" "200 256 16384" "50 512 65536" "20 1024 262144" \
           "200 1024 4096"; do
  set -- $cfg
  out=$(timeout 120 "$BIN/gpu_barrier_cost" --device gpu --frames "$FRAMES" --spin "$1" --side "$2" --words "$3" 2>&1)
  med() { echo "$out" | grep "^$1" | sed -E 's/.*median +([0-9.]+) us.*/\1/'; }
  a=$(med "(a) baton"); b=$(med "(b) full"); c=$(med "(c) none")
  layer=$(echo "$out" | grep -o '^(a) with validation layer: [0-9]* messages ([0-9]* hazards), [0-9]* mismatches' | sed 's/(a) with validation layer: //')
  ratio() { awk -v x="$1" -v y="$2" 'BEGIN { if (x > 0 && y > 0) printf "%.3f", x / y; else printf "n/a" }'; }
  printf '%-6s %-6s %-7s %12s %12s %12s %7s %7s  %s\n' "$1" "$2" "$3" "${a:-n/a}" "${b:-n/a}" "${c:-n/a}" \
    "$(ratio "${a:-0}" "${b:-0}")" "$(ratio "${a:-0}" "${c:-0}")" "${layer:-no layer line: $(echo "$out" | tail -1)}"
done
