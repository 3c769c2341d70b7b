#!/usr/bin/env bash
# Regenerates the golden incident reports from the sample incident with the built rankline.
# Review the diff before committing it: a golden change is a change in what users get.
#   tests/update-golden.sh [path/to/rankline]   (default: build/dev/app/rankline)
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:-build/dev/app/rankline}
[ -x "$exe" ] || { echo "no rankline at $exe: build first (cmake --build --preset dev)" >&2; exit 1; }
out=tests/data/golden
mkdir -p "$out"
# The same fixed inputs as tests/app/tst_reportexport.cpp: export time, no local NCCL probe.
export RANKLINE_REPORT_TIME=2025-06-12T15:00:00Z
for ext in html md json; do
    "$exe" report resources/samples/connect-abort-2x4 --no-local-nccl -o "$out/sample-report.$ext"
done
git --no-pager diff --stat -- "$out" || true
