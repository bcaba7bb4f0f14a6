#!/bin/bash
# Compare two builds' plans: every examples/*.json through `baton compile` with each API (as text, as
# --format json, with --split-barriers on) and --dump of each graph phase, the outputs and exit codes
# compared byte for byte. Usage: scripts/compare-plans.sh BASE_BATON NEW_BATON
# Prints each output that differs and a count; exits 1 if any differ.
set -u
if [ $# -ne 2 ]; then echo "usage: $0 BASE_BATON NEW_BATON" >&2; exit 2; fi
base=$1 new=$2
cd "$(dirname "$0")/.."
a=$(mktemp) b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
n=0 bad=0
one() {  # one() ARGS...: run both binaries with ARGS, compare
  "$base" compile "$@" >"$a" 2>&1; local ra=$?
  "$new" compile "$@" >"$b" 2>&1; local rb=$?
  n=$((n + 1))
  if [ $ra != $rb ] || ! cmp -s "$a" "$b"; then bad=$((bad + 1)); echo "differs: compile $*"; fi
}
for f in examples/*.json; do
  for api in vulkan d3d12 d3d12-legacy; do
    one "$f" --api $api
    one "$f" --api $api --format json
    one "$f" --api $api --split-barriers on
  done
  for phase in validate cull schedule lifetimes aliasing transitions restores checks; do one "$f" --dump $phase; done
done
echo "compared $n outputs, $bad differ"
[ $bad = 0 ]
