# Sourced by scripts/fuzz.sh and scripts/fuzz-long.sh: the one home of the limits every libFuzzer run
# uses, so that memory bombs and slow inputs are failures in CI's short runs and in long ones alike.
#   -timeout=10          one input running longer than 10 s is a finding (a hang or quadratic time)
#   -rss_limit_mb=2048   the process growing past 2 GiB is a finding (a tiny input needing gigabytes),
#                        and so is one allocation past 2 GiB (libFuzzer's malloc limit follows it)
#   -max_len=65536       inputs up to 64 KiB (the hostile seeds fit: fuzz/make_hostile.py)
# and the format's dictionary (fuzz/make_dicts.py): recordings for fuzz_recording and fuzz_compile,
# graphs for fuzz_graph, traces for fuzz_trace and fuzz_validate; fuzz_structured reads choices, not
# JSON, and takes none.
fuzz_limits() {
  printf '%s\n' -timeout=10 -rss_limit_mb=2048 -max_len=65536
  case "$1" in
    fuzz_recording | fuzz_compile) echo -dict=fuzz/recording.dict ;;
    fuzz_graph) echo -dict=fuzz/graph.dict ;;
    fuzz_trace | fuzz_validate) echo -dict=fuzz/trace.dict ;;
  esac
}
