#pragma once
// Runs a small piece of work in a short-lived child process (fork) and hands its text answer back.
// The probes use it to load libraries that must not stay in, or be confused with, this process:
// every libnccl.so.2 has the same soname, and while one is loaded (a handle still open, or a
// library glibc cannot unload) a plain dlopen("libnccl.so.2") returns it instead of what a fresh
// process would get. A child also contains a library whose constructor crashes or hangs.
//
// fork rather than dlmopen(LM_ID_NEWLM): glibc has only 16 link-map namespaces, each one loads its
// own libc and libstdc++ (NCCL needs both) and can exhaust the static TLS block, and a namespace is
// not reliably freed again; a child process costs a millisecond, starts from this process's
// state, and takes a crash or a hang with it.

#include <functional>
#include <string>

namespace rl
{

struct IsolatedResult {
    bool ok = false;    // the child ran `work` to the end and exited normally
    std::string output; // what `work` returned
    std::string error;  // why there is no answer: fork failed, timed out, killed by a signal
    int signal = 0;     // the signal that killed the child, if one did
};

// `work` runs in the child only; it must not rely on other threads of this process (they do not
// exist there). The child is killed after `timeoutMs`.
IsolatedResult runIsolated(const std::function<std::string()>& work, int timeoutMs = 10000);

} // namespace rl
