#!/usr/bin/env bash
# Runs Baton's Vulkan proofs on the NVIDIA H200 machine (issue 3, items 6 and 8), from the
# repository root, with binaries built on the Debian machine:
#
#   OUT=/path/to/logs scripts/h200.sh BIN_DIR
#
# BIN_DIR holds test_exec, gpu_barrier_cost and baton; shared libraries are taken from
# $LIB_DIR (default: BIN_DIR/../lib). The Vulkan loader and the Khronos validation layer come
# from unpacked Debian .deb files: set DEB_ROOT to the unpack root (adds its
# usr/lib/x86_64-linux-gnu to LD_LIBRARY_PATH and its explicit_layer.d to VK_LAYER_PATH), or put
# the libraries in LIB_DIR and set VK_LAYER_PATH yourself.
#
# Runs: the whole test_exec suite with BATON_VK_DEVICE=gpu (includes AsyncCompute.*), `baton run
# demo --device gpu --format json`, and gpu_barrier_cost (a, b, c interleaved, then a under the
# layer). Logs go to $OUT; a summary goes to stdout. Each step has a timeout; all together < 8 min.
# BATON_SKIP_TEST_EXEC / BATON_SKIP_BENCH (non-empty) leave out steps 1 (and 1b') and 3; BATON_REPEAT (20)
# repeats test_runtime and test_exec's SharedMemory.* / AsyncCompute.* (step 1b'), BATON_SAMPLE_REPEAT (5) the sample; BATON_SHARING_MODES (all three) picks the
# `baton run --sharing` modes of step 2b.
set -u
if [ $# -lt 1 ] || [ -z "${OUT:-}" ]; then
  echo "usage: OUT=/path/to/logs $0 BIN_DIR" >&2
  exit 2
fi
BIN=$(cd "$1" && pwd)
LIB=${LIB_DIR:-$BIN/../lib}
[ -d "$LIB" ] && LIB=$(cd "$LIB" && pwd)
mkdir -p "$OUT"

export LD_LIBRARY_PATH="$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -n "${DEB_ROOT:-}" ]; then
  export LD_LIBRARY_PATH="$DEB_ROOT/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH"
  export VK_LAYER_PATH="${VK_LAYER_PATH:-$DEB_ROOT/usr/share/vulkan/explicit_layer.d}"
fi
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
# Submit-time synchronization checks exist only through this variable; colon-separated (a comma
# silently disables everything). The executor sets the same value itself when it loads the layer.
export VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT:VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT
export BATON_VK_DEVICE=gpu

{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -a)"
  command -v nvidia-smi >/dev/null && nvidia-smi -L
  echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  echo "VK_DRIVER_FILES=$VK_DRIVER_FILES"
  echo "VK_LAYER_PATH=${VK_LAYER_PATH:-}"
  for b in test_exec gpu_barrier_cost baton; do
    echo "== ldd $b"
    ldd "$BIN/$b" 2>&1
  done
} >"$OUT/env.log" 2>&1
if grep -q "not found" "$OUT/env.log"; then
  echo "missing shared libraries (see $OUT/env.log):"
  grep "not found" "$OUT/env.log" | sort -u
fi

echo "== 1/3 test_exec (BATON_VK_DEVICE=gpu)"
rc_tests=0
if [ -n "${BATON_SKIP_TEST_EXEC:-}" ]; then
  echo "skipped (BATON_SKIP_TEST_EXEC set)"
else
  timeout 330 "$BIN/test_exec" --gtest_output="xml:$OUT/test_exec.xml" >"$OUT/test_exec.log" 2>&1
  rc_tests=$?
  grep -E "^test_exec device:|^\[  (PASSED|FAILED|  SKIPPED) |^demo|^async compute|detection|^\[==========\]" \
    "$OUT/test_exec.log" | sort -u | head -40
fi
echo "test_exec exit code: $rc_tests"

echo "== 1b test_runtime (BATON_VK_DEVICE=gpu): runtime frames, shared heaps, exclusive sharing with ownership transfers"
if [ -x "$BIN/test_runtime" ]; then
  for i in $(seq 1 "${BATON_REPEAT:-20}"); do
    timeout 120 "$BIN/test_runtime" >"$OUT/test_runtime.$i.log" 2>&1 || echo "test_runtime run $i failed (see $OUT/test_runtime.$i.log)"
  done
  grep -E "^\[  (PASSED|FAILED) " "$OUT"/test_runtime.*.log | sort | uniq -c
else
  echo "no test_runtime in $BIN"
fi

echo "== 1b' test_exec SharedMemory.* and AsyncCompute.* x BATON_REPEAT: every example and 16 generated graphs in shared heaps, automatic sharing on the graphics + compute families"
if [ -z "${BATON_SKIP_TEST_EXEC:-}" ]; then
  timeout 400 "$BIN/test_exec" --gtest_filter='SharedMemory.*:AsyncCompute.*' --gtest_repeat="${BATON_REPEAT:-20}" \
    >"$OUT/test_exec_shared.log" 2>&1
  echo "test_exec SharedMemory/AsyncCompute x${BATON_REPEAT:-20} exit code: $?"
  grep -E "^\[  (PASSED|FAILED) " "$OUT/test_exec_shared.log" | sort | uniq -c
  grep -E "^\[ +OK \] SharedMemory.ExampleAndGenerated" "$OUT/test_exec_shared.log" | wc -l | xargs echo "automatic-sharing example runs passed:"
fi

echo "== 1c runtime_sample (examples/runtime against the installed package): deferred frame, layer silent, frame.png vs reference.png"
if [ -x "$BIN/runtime_sample" ]; then
  for i in $(seq 1 "${BATON_SAMPLE_REPEAT:-5}"); do
    BATON_SAMPLE_REFERENCE="${BATON_SAMPLE_REFERENCE:-examples/runtime/reference.png}" \
      timeout 60 "$BIN/runtime_sample" "$OUT/frame.$i.png" >"$OUT/runtime_sample.$i.log" 2>&1
    echo "runtime_sample run $i exit code: $?"
  done
  tail -3 "$OUT/runtime_sample.1.log"
else
  echo "no runtime_sample in $BIN"
fi

echo "== 2/3 baton run demo --device gpu --format json"
timeout 60 "$BIN/baton" run demo --device gpu --format json >"$OUT/baton_run_demo.json" 2>"$OUT/baton_run_demo.err"
rc_run=$?
head -c 1500 "$OUT/baton_run_demo.json"
echo
tail -5 "$OUT/baton_run_demo.err"
echo "baton run exit code: $rc_run"

echo "== 2b baton run on every example (graphics family + the compute family where the device has one), each sharing mode"
rc_examples=0
for f in examples/*.json; do
  n=$(basename "$f" .json)
  for sharing in ${BATON_SHARING_MODES:-concurrent exclusive automatic}; do
    timeout 120 "$BIN/baton" run "$f" --device gpu --format json --sharing "$sharing" \
      >"$OUT/run_$n.$sharing.json" 2>"$OUT/run_$n.$sharing.err"
    rc=$?
    # exclusive may refuse a frame pairs cannot express (exit 2, the reason on stderr); anything else
    # that is not clean fails the step.
    if [ $rc -ne 0 ] && ! { [ "$sharing" = exclusive ] && [ $rc -eq 2 ]; }; then rc_examples=1; fi
    python3 - "$OUT/run_$n.$sharing.json" "$OUT/run_$n.$sharing.err" "$n" "$sharing" "$rc" <<'PY'
import json, sys
out, err, n, mode, rc = sys.argv[1:]
try:
    d = json.load(open(out))
    m, s = d["memory"], d["sharing"]
    print(f"{n:15} {mode:10} exit {rc}: {d['groups']} groups, {d['barriers']} barriers, hazards {d['hazards']}, "
          f"layer messages {sum(d['validation_messages'].values())} (same-queue RACING {d['same_queue_racing']['count']}, "
          f"excused {d['same_queue_racing']['excused']}), mismatches {d['mismatches']} of {d['subresources_checked']}, "
          f"heaps {m['heaps']} {m['heap_bytes']} B ({m['aliased_bytes']} aliased), exclusive {s['exclusive']}, "
          f"concurrent {s['concurrent']}, ownership transfers {s['ownership_transfers']}")
except Exception:
    print(f"{n:15} {mode:10} exit {rc}: {open(err).read().strip()[:300]}")
PY
  done
done
echo "examples exit code: $rc_examples"

echo "== 3/3 gpu_barrier_cost --device gpu"
rc_bench=0
if [ -n "${BATON_SKIP_BENCH:-}" ]; then
  echo "skipped (BATON_SKIP_BENCH set)"
else
  timeout 150 "$BIN/gpu_barrier_cost" --device gpu --frames 20 --spin "${BATON_SPIN:-4000}" \
    >"$OUT/gpu_barrier_cost.log" 2>&1
  rc_bench=$?
  head -40 "$OUT/gpu_barrier_cost.log"
  echo "gpu_barrier_cost exit code: $rc_bench"
fi

echo "== summary: test_exec $rc_tests, baton run $rc_run, examples $rc_examples, gpu_barrier_cost $rc_bench (0 = clean); logs in $OUT"
[ $rc_tests -eq 0 ] && [ $rc_run -eq 0 ] && [ $rc_examples -eq 0 ] && [ $rc_bench -eq 0 ]
