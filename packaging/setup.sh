#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: install what is missing, build, then either
# open Rankline on the sample incident (`run`) or run the whole test suite (`test`).
# Used by the README's two commands and by .ci/run, so the package list and build steps
# live in exactly one place.
set -euo pipefail

mode="${1:-run}"
shift || true
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

install_missing() {
    local wanted missing=()
    wanted=$(grep -v '^\s*#' "$here/debian-packages.txt" | grep -v '^\s*$')
    for p in $wanted; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "setup: installing ${#missing[@]} missing Debian packages: ${missing[*]}"
        as_root apt-get update -q
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    else
        echo "setup: all Debian packages present"
    fi
}

build() {
    local preset="$1"
    cmake --preset "$preset"
    cmake --build --preset "$preset"
}

case "$mode" in
run)
    install_missing
    build release
    exe="$root/build/release/app/rankline"
    sample="$root/resources/samples/connect-abort-2x4"
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        exec "$exe" "$sample" "$@"
    fi
    echo
    echo "No display found (DISPLAY/WAYLAND_DISPLAY unset): printing the diagnosis instead."
    echo "To see the window: run this on a desktop session, or with 'xvfb-run -a $exe $sample'"
    echo "and a screenshot, or 'ssh -X' into this machine."
    echo
    exec "$exe" diagnose "$sample" "$@"
    ;;
test)
    install_missing
    build dev
    ctest --preset dev "$@"
    # The suite again under AddressSanitizer + UBSan. The asan test preset leaves out the tests
    # labelled slow (ulimit -v cannot hold ASan's shadow memory), the network proof (it ran above;
    # under ASan its traced window runs past the test's timeout on this 2-core machine) and the .deb checks (a package
    # of a sanitized binary depends on libasan): README, "Hardening".
    build asan
    ctest --preset asan
    # Fuzz smoke: each libFuzzer target for a few seconds (ctest replayed the regression corpus).
    bash tests/fuzz/run.sh "${RANKLINE_FUZZ_SECONDS:-5}"
    ;;
*)
    echo "usage: $0 run|test [extra args]" >&2
    exit 2
    ;;
esac
