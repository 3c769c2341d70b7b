#include "probe/socket_retry.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

namespace rl
{

std::string errnoName(int error)
{
    if (error == 0)
        return "0";
    const char* n = ::strerrorname_np(error);
    return n ? n : "errno " + std::to_string(error);
}

std::string errnoText(int error)
{
    if (error == 0)
        return "no error";
    return errnoName(error) + " (" + std::strerror(error) + ")";
}

namespace
{

// The one address this file ever uses.
sockaddr_in loopback(int port)
{
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    return a;
}

int connectTo(int fd, int port)
{
    sockaddr_in a = loopback(port);
    return ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a);
}

// A port on 127.0.0.1 that nothing listens on: bind one (the kernel picks it), never listen,
// close it. Another process could take it in between; the caller checks for that.
int refusingPort(std::string& error)
{
    int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        error = std::string("socket(AF_INET) failed: ") + std::strerror(errno);
        return 0;
    }
    sockaddr_in a = loopback(0);
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(s, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0)
        error = std::string("bind(127.0.0.1:0) failed: ") + std::strerror(errno);
    else if (::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0)
        error = std::string("getsockname failed: ") + std::strerror(errno);
    else
        port = ntohs(a.sin_port);
    ::close(s);
    return port;
}

struct Attempt {
    std::vector<SocketStep> steps;
    int error = 0;         // the refusal: synchronous errno, or SO_ERROR after poll
    bool answered = false; // something accepted the connection: the port was taken meanwhile
    std::string problem;   // the attempt proved nothing (timeout, odd errno)
};

// connect() on a non-blocking fd, then poll for POLLOUT and read SO_ERROR, as NCCL's
// socketStartConnect / socketPollConnect do.
Attempt connectAndPoll(int fd, int port, int pollTimeoutMs, const std::string& label)
{
    Attempt at;
    errno = 0;
    int r = connectTo(fd, port);
    int e = r == 0 ? 0 : errno;
    at.steps.push_back({"connect() " + label, r, e,
                        e == EINPROGRESS ? "the attempt is under way (non-blocking)"
                        : e == 0         ? "connected: something listens on this port"
                                         : "failed at once"});
    if (r == 0) {
        at.answered = true;
        return at;
    }
    if (e != EINPROGRESS) {
        at.error = e;
        return at;
    }
    pollfd p{fd, POLLOUT, 0};
    r = ::poll(&p, 1, pollTimeoutMs);
    e = r < 0 ? errno : 0;
    at.steps.push_back({"poll(POLLOUT, " + std::to_string(pollTimeoutMs) + " ms)", r, e,
                        r == 0  ? "no answer in time"
                        : r < 0 ? "poll failed"
                                : "the attempt has finished"});
    if (r <= 0) {
        at.problem = r == 0 ? "no answer from 127.0.0.1 within " + std::to_string(pollTimeoutMs) + " ms"
                            : std::string("poll failed: ") + std::strerror(e);
        return at;
    }
    int soError = 0;
    socklen_t len = sizeof soError;
    r = ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len);
    at.steps.push_back({"getsockopt(SO_ERROR)", r, soError,
                        soError == 0 ? "connected: something listens on this port"
                                     : "the pending error, which reading clears"});
    if (soError == 0)
        at.answered = true;
    at.error = soError;
    return at;
}

} // namespace

SocketRetryReport reproduceSocketRetry(int maxAttempts, int pollTimeoutMs)
{
    SocketRetryReport rep;
    struct utsname u {
    };
    if (::uname(&u) == 0)
        rep.kernel = std::string(u.sysname) + " " + u.release;
    for (int attempt = 1; attempt <= maxAttempts && !rep.ran; ++attempt) {
        rep.attempts = attempt;
        rep.steps.clear();
        std::string err;
        const int port = refusingPort(err);
        if (port == 0) {
            rep.error = err;
            return rep; // no loopback to work with: retrying will not help
        }
        rep.port = port;
        int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            rep.error = std::string("socket(AF_INET) failed: ") + std::strerror(errno);
            return rep;
        }
        // 1. The first attempt: refused (NCCL 2.16.2–2.23.4 log nothing for it).
        Attempt first = connectAndPoll(fd, port, pollTimeoutMs, "on a non-blocking socket");
        rep.steps = first.steps;
        if (first.answered || !first.problem.empty()) {
            rep.error = first.answered
                            ? "port " + std::to_string(port) + " on 127.0.0.1 answered; trying another"
                            : first.problem;
            ::close(fd);
            continue;
        }
        rep.pendingError = first.error;
        // 2. NCCL 2.16.2–2.23.4: connect() again on the same fd.
        errno = 0;
        int r = connectTo(fd, port);
        rep.retryError = r == 0 ? 0 : errno;
        rep.steps.push_back({"connect() again on the same socket (NCCL 2.16.2-2.23.4)", r, rep.retryError,
                             rep.retryError == ECONNABORTED
                                 ? "the refusal is hidden: this is the errno NCCL prints"
                                 : "the kernel's answer to a retry on a failed socket"});
        // 3. NCCL 2.24.3: a brand-new socket dup2'ed onto the same descriptor number, then retry.
        int fresh = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fresh < 0 || ::dup2(fresh, fd) < 0) {
            rep.error = std::string("could not make a fresh socket: ") + std::strerror(errno);
            if (fresh >= 0)
                ::close(fresh);
            ::close(fd);
            return rep;
        }
        ::close(fresh);
        rep.steps.push_back({"socket() + dup2() onto the same descriptor (NCCL 2.24.3 socketResetFd)", 0, 0,
                             "a brand-new kernel socket behind the same fd number"});
        Attempt again = connectAndPoll(fd, port, pollTimeoutMs, "on the fresh socket");
        ::close(fd);
        rep.steps.insert(rep.steps.end(), again.steps.begin(), again.steps.end());
        if (again.answered || !again.problem.empty()) {
            rep.error = again.answered
                            ? "port " + std::to_string(port) + " on 127.0.0.1 answered; trying another"
                            : again.problem;
            continue;
        }
        rep.freshError = again.error;
        rep.ran = true;
        rep.error.clear();
    }
    if (!rep.ran) {
        rep.verdict = "The experiment could not be completed after " + std::to_string(rep.attempts) +
                      " attempt(s): " + rep.error + ".";
        return rep;
    }
    rep.reproduced =
        rep.pendingError == ECONNREFUSED && rep.retryError == ECONNABORTED && rep.freshError == ECONNREFUSED;
    const std::string k =
        rep.kernel.empty() ? std::string("This kernel") : "This kernel (" + rep.kernel + ")";
    if (rep.reproduced) {
        rep.verdict = k + " reproduces the masking behind nccl-socket-connect-abort: the refused connect's "
                          "error (ECONNREFUSED) is read and cleared through SO_ERROR, and connect() again on "
                          "the same socket fails with ECONNABORTED, \"Software caused connection abort\" — "
                          "the text NCCL 2.16.2-2.23.4 print. A fresh socket, as NCCL 2.24.3 makes, reports "
                          "the refusal as ECONNREFUSED.";
    } else {
        rep.verdict = k + " does not behave as the entry describes: the first attempt gave " +
                      errnoText(rep.pendingError) + ", the retry on the same socket " +
                      errnoText(rep.retryError) + ", the fresh socket " + errnoText(rep.freshError) +
                      ". On this kernel NCCL 2.16.2-2.23.4 would print the retry's errno instead of "
                      "\"Software caused connection abort\".";
    }
    return rep;
}

} // namespace rl
