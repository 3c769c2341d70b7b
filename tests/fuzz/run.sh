#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang, ASan + UBSan) and runs each one for a set
# time, seeded with the committed regression corpus and the fixtures.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]     # default: 60 s for each of the eight targets
#
# New inputs go to build/fuzz/work/<target>/ (kept between runs, never committed); a crash leaves
# its input in build/fuzz/crashes/<target>/ and makes the script exit non-zero. Keep every crashing
# input as a regression test: copy it to tests/fuzz/corpus/<target>/ once it is fixed (ctest's
# fuzz_replay_<target> replays that folder on every run). Each run is logged to build/fuzz/runs.tsv.
set -euo pipefail

seconds="${1:-60}"
shift || true
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(line_parser timestamp demux pieces archive encyclopedia matchers json_records flight)

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

reallogs="${RANKLINE_REALLOGS_DIR:-$root/../shared/fixtures/reallogs}"
seeds() {
    case "$1" in
    line_parser | matchers) echo "$reallogs" "$root/resources/samples" ;;
    demux) echo "$root/resources/samples" ;;
    pieces) echo "$root/resources/samples" ;;
    encyclopedia) echo "$root/resources/encyclopedia" ;;
    json_records) echo "$root/tests/data/shapes/collectors" ;;
    flight) echo "$root/tests/data/flight-recorder" ;;
    esac
}

build="$root/build/fuzz"
status=0
crashed=0
for t in "${targets[@]}"; do
    work="$build/work/$t"
    crashes="$build/crashes/$t"
    mkdir -p "$work" "$crashes"
    dirs=("$work" "tests/fuzz/corpus/$t")
    for d in $(seeds "$t"); do
        [ -d "$d" ] && dirs+=("$d")
    done
    echo "== fuzz_$t for ${seconds}s"
    start=$(date +%s)
    rc=0
    # -timeout: one input may take at most 10 s; -rss_limit_mb: a bomb that escapes the caps fails.
    "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/" "${dirs[@]}" \
        >"$build/fuzz_$t.log" 2>&1 || rc=$?
    elapsed=$(($(date +%s) - start))
    grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$build/fuzz_$t.log" | tr '\n' ' ' || true
    echo
    result=ok
    if [ $rc -eq 72 ] && grep -q 'run interrupted' "$build/fuzz_$t.log"; then
        result=interrupted # SIGINT/SIGTERM from outside: no finding, but the run did not complete
        echo "fuzz_$t was interrupted by a signal after ${elapsed}s (no crash input)"
    elif [ $rc -ne 0 ]; then
        result=crash
        echo "fuzz_$t FAILED (exit $rc); input in $crashes/, log in $build/fuzz_$t.log:"
        grep -E 'ERROR|SUMMARY|Test unit written' "$build/fuzz_$t.log" | head -5 || true
    fi
    if [ $result != ok ]; then
        status=1
        crashed=$((crashed + 1))
    fi
    printf '%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$elapsed" "$result" >>"$build/runs.tsv"
done
# A closing line that CI reads like a test runner's: one "test" per target.
echo "fuzz: $((${#targets[@]} - crashed)) passed, $crashed failed"
exit $status
