#!/usr/bin/env bash
# Proof that Rankline never talks to the network (issue 8), run by ctest as `no_network`:
#   1. linkage: no networking library in the binary, nor in its Qt module beyond what Qt Gui
#      itself brings in;
#   2. the same answers with no network at all (unshare -n: a namespace without interfaces);
#   3. strace: diagnose, probe and report make no inet socket and connect to nothing; the window
#      connects only to local (AF_UNIX) sockets, the X server and D-Bus; diagnose opens nothing for
#      writing, even on an archive whose members point outside (../);
#   4. probe --socket-retry, the one place allowed an inet socket, stays on 127.0.0.1.
# Parts whose tools or sub-commands are missing say so and are skipped; the rest still runs.
#
#   no_network.sh RANKLINE_EXE SAMPLE_DIR
set -uo pipefail
exe="$1"
sample="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
passed=0
skipped=0
ok() { echo "PASS: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }
skip() { echo "SKIP: $*"; skipped=$((skipped + 1)); }
# Runs in every mode without the host's NCCL (its presence would differ between machines, not runs).
diag=(diagnose "$sample" --json --no-local-nccl)
has_report=0
"$exe" --help 2>&1 | grep -qE '(^|\s)rankline report\b|^\s+report\s' && has_report=1
has_retry=0
"$exe" probe --help 2>&1 | grep -q -- '--socket-retry' && has_retry=1

# 1. Linkage. libcrypto is allowed (libarchive hashes with it); these are the ones that talk.
net_libs='libQt6Network|libcurl|libssl|libgnutls|libnghttp|libssh|librtmp|libzmq|libldap|libgrpc|libpsl|libsoup|libnss3'
# The binary links no Qt; the Qt module beside it (the window, report) brings Qt Gui in.
module="$(dirname "$exe")/rankline-gui.so"
linked=("$exe")
if [ -f "$module" ]; then linked+=("$module"); else skip "no Qt module beside $exe: its linkage not checked"; fi
# libarchive is loaded when an archive is opened (core/bundle/archive_library.h): what it links too.
libarchive="$(/sbin/ldconfig -p 2>/dev/null | awk '/libarchive\.so\.13 / {print $NF; exit}')"
if [ -n "$libarchive" ]; then linked+=("$libarchive"); else skip "libarchive.so.13 not found by ldconfig: its linkage not checked"; fi
for file in "${linked[@]}"; do
    gui_lib="$(ldd "$file" | awk '/libQt6Gui\.so/ {print $3}')"
    if [ -n "$gui_lib" ]; then
        extra="$(comm -23 <(ldd "$file" | awk '{print $1}' | sort -u) <(ldd "$gui_lib" | awk '{print $1}' | sort -u))"
    else
        extra="$(ldd "$file" | awk '{print $1}' | sort -u)"
    fi
    direct="$(readelf -d "$file" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')"
    name="$(basename "$file")"
    if echo "$direct $extra" | tr ' ' '\n' | grep -qE "^($net_libs)"; then
        bad "$name links a networking library: $(echo "$direct $extra" | tr ' ' '\n' | grep -E "^($net_libs)" | sort -u | tr '\n' ' ')"
    else
        ok "$name links no networking library (direct: $(echo $direct | tr ' ' ','); beyond Qt Gui: $(echo $extra | tr ' ' ','))"
    fi
done

# 2. Same answers without a network.
if unshare -n true 2>/dev/null; then
    cmp_run() { # name, args...
        local name="$1"
        shift
        timeout -k 5 120 "$exe" "$@" >"$work/$name.net" 2>/dev/null
        local rc1=$?
        unshare -n timeout -k 5 120 "$exe" "$@" >"$work/$name.nonet" 2>/dev/null
        local rc2=$?
        if [ $rc1 -eq $rc2 ] && cmp -s "$work/$name.net" "$work/$name.nonet" && [ -s "$work/$name.net" ]; then
            ok "'rankline $*' gives the same answer inside 'unshare -n' (exit $rc1, $(wc -c <"$work/$name.net") bytes)"
        else
            bad "'rankline $*' differs without a network (exit $rc1 vs $rc2)"
            diff "$work/$name.net" "$work/$name.nonet" | head -20
        fi
    }
    cmp_run diagnose "${diag[@]}"
    cmp_run diagnose-text diagnose "$sample" --no-local-nccl
    cmp_run probe probe --json
    if [ $has_report = 1 ]; then
        # The report prints its export time: fixed, so two runs can be compared.
        RANKLINE_REPORT_TIME=2026-01-01T00:00:00Z cmp_run report report "$sample" --no-local-nccl --format md -o -
    else
        skip "'rankline report' is not available yet (not in 'rankline --help'): its unshare -n check waits for it"
    fi
else
    skip "unshare -n is not permitted here (needs root or user namespaces): no-network comparison not run"
fi

# 3. Traces.
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
    trace() { # name, args... : trace network calls and write-opens of one run
        local name="$1"
        shift
        strace -f -qq -e trace=socket,connect,bind,sendto,sendmsg,openat,open,creat,rename,renameat2,mkdir,unlink,unlinkat \
            -o "$work/$name.trace" timeout -k 5 120 "$@" >/dev/null 2>&1 # a hang fails, never blocks
    }
    inet_calls() { grep -E 'AF_INET|AF_INET6|sin_addr|sin6_addr' "$1" || true; }
    nonlocal_connects() { grep -E '\bconnect\(' "$1" | grep -v 'AF_UNIX' || true; }
    write_opens() { grep -E '(openat|open|creat)\(.*(O_WRONLY|O_RDWR|O_CREAT)|\b(rename|renameat2|mkdir|unlink|unlinkat)\(' "$1" |
        grep -vE '"/dev/(null|tty|pts/[0-9]+)"' || true; }

    check_headless() { # name, args...
        local name="$1"
        shift
        trace "$name" "$exe" "$@"
        local inet connects
        inet="$(inet_calls "$work/$name.trace")"
        connects="$(grep -cE '\bconnect\(' "$work/$name.trace")"
        if [ -n "$inet" ]; then
            bad "'rankline $*' makes inet calls:"
            echo "$inet" | head -5
        elif [ -n "$(nonlocal_connects "$work/$name.trace")" ]; then
            bad "'rankline $*' connects to a non-local socket:"
            nonlocal_connects "$work/$name.trace" | head -5
        else
            ok "'rankline $*' under strace: no inet socket, $connects local connect(s)"
        fi
    }
    check_headless diagnose "${diag[@]}"
    check_headless probe probe --json
    if [ $has_report = 1 ]; then
        check_headless report report "$sample" --no-local-nccl -o "$work/report.html"
    else
        skip "'rankline report' is not available yet: its strace check waits for it"
    fi

    # diagnose writes nothing, even reading an archive whose members point outside.
    mkdir -p "$work/evil/a/b"
    echo "escaped" >"$work/evil/a/up.log"
    if tar -C "$work/evil/a/b" -P -cf "$work/evil/evil.tar" ../up.log 2>/dev/null; then
        rm "$work/evil/a/up.log"
        trace writes "$exe" diagnose "$sample" "$work/evil/evil.tar" --json --no-local-nccl
        w="$(write_opens "$work/writes.trace")"
        if [ -n "$w" ]; then
            bad "'rankline diagnose' opened files for writing:"
            echo "$w" | head -10
        elif [ -e "$work/evil/a/up.log" ]; then
            bad "an archive member named ../up.log was written outside"
        else
            ok "'rankline diagnose' on an archive with a ../ member writes nothing at all"
        fi
    else
        skip "tar cannot build the ../ archive here"
    fi

    # The window: local sockets only (X server, D-Bus, accessibility bus).
    if command -v xvfb-run >/dev/null; then
        trace window env -u QT_QPA_PLATFORM xvfb-run -a "$exe" --screenshot "$work/shot.png" "$sample"
        inet="$(inet_calls "$work/window.trace")"
        if [ ! -s "$work/shot.png" ]; then
            bad "the window did not open under xvfb-run (no screenshot)"
        elif [ -n "$inet" ] || [ -n "$(nonlocal_connects "$work/window.trace")" ]; then
            bad "the window makes inet calls or non-local connects:"
            { echo "$inet"; nonlocal_connects "$work/window.trace"; } | head -10
        else
            ok "the window under strace: connects only to local sockets ($(grep -oE 'sun_path=[^}]*' "$work/window.trace" | sort -u | tr '\n' ' '))"
        fi
    else
        skip "xvfb-run is missing: the window's strace check needs an X server"
    fi

    # probe --socket-retry: the only inet socket Rankline ever opens, and only to 127.0.0.1.
    if [ $has_retry = 1 ]; then
        trace retry "$exe" probe --socket-retry --json
        inet="$(inet_calls "$work/retry.trace")"
        foreign="$(echo "$inet" | grep -E 'sin_addr|sin6_addr' | grep -v 'inet_addr("127.0.0.1")' || true)"
        if [ -n "$foreign" ] || echo "$inet" | grep -q 'AF_INET6'; then
            bad "'rankline probe --socket-retry' leaves 127.0.0.1:"
            echo "$foreign" | head -5
        else
            ok "'rankline probe --socket-retry' stays on 127.0.0.1 ($(echo "$inet" | grep -c 'sin_addr') inet address(es))"
        fi
    else
        skip "'rankline probe --socket-retry' is not available yet (not in 'rankline probe --help')"
    fi
else
    skip "strace is missing or not permitted (ptrace): trace checks not run"
fi

echo "$passed passed, $failures failed, $skipped skipped"
[ $failures -eq 0 ]
