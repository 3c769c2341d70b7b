#pragma once
// `rankline probe --socket-retry`: reproduces, on 127.0.0.1 only, the kernel behaviour behind the
// nccl-socket-connect-abort entry. NCCL 2.16.2–2.23.4 read a refused non-blocking connect's error
// with getsockopt(SO_ERROR) and then call connect() again on the same socket; Linux answers that
// retry with ECONNABORTED ("Software caused connection abort"), hiding the refusal. NCCL 2.24.3
// puts a fresh socket in place first (socketResetFd: socket() + dup2) and sees ECONNREFUSED.
//
// This file is the only place in Rankline that opens an inet socket. It binds and connects to the
// loopback address only, to a port nothing listens on, with a few bounded attempts.

#include <string>
#include <vector>

namespace rl
{

struct SocketStep {
    std::string call; // what was done: "connect() on a non-blocking socket", ...
    int result = 0;   // the call's return value
    int error = 0;    // errno after it, or the value read (SO_ERROR); 0 for none
    std::string note; // what it means
};

struct SocketRetryReport {
    bool ran = false;   // the experiment ran to the end on some attempt
    std::string error;  // why it could not (no loopback, a port that kept answering, ...)
    std::string kernel; // "Linux 6.1.0-18-amd64"
    int port = 0;       // the refusing port on 127.0.0.1
    int attempts = 0;
    std::vector<SocketStep> steps;
    int pendingError = 0;    // SO_ERROR after the first attempt (expected ECONNREFUSED)
    int retryError = 0;      // connect() again on the same socket (Linux: ECONNABORTED)
    int freshError = 0;      // the refusal as a fresh socket reports it (expected ECONNREFUSED)
    bool reproduced = false; // ECONNREFUSED, then ECONNABORTED on the retry, then ECONNREFUSED fresh
    std::string verdict;     // one paragraph for people
};

SocketRetryReport reproduceSocketRetry(int maxAttempts = 3, int pollTimeoutMs = 2000);

// "ECONNABORTED" for ECONNABORTED; "errno N" when glibc has no name for it; "0" for no error.
std::string errnoName(int error);
// "ECONNABORTED (Software caused connection abort)".
std::string errnoText(int error);

} // namespace rl
