#include "probe/isolated.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rl
{

namespace
{

void writeAll(int fd, const std::string& s)
{
    std::size_t done = 0;
    while (done < s.size()) {
        ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += static_cast<std::size_t>(n);
    }
}

} // namespace

IsolatedResult runIsolated(const std::function<std::string()>& work, int timeoutMs)
{
    IsolatedResult r;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        r.error = std::string("pipe failed: ") + std::strerror(errno);
        return r;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        r.error = std::string("fork failed: ") + std::strerror(errno);
        ::close(fds[0]);
        ::close(fds[1]);
        return r;
    }
    if (pid == 0) {
        // The child: only the calling thread exists here. glibc resets its malloc and loader
        // locks after fork, so dlopen and std::string are safe; _exit skips the parent's atexit
        // handlers and static destructors.
        ::close(fds[0]);
        // A library that crashes here should just end the child, not run the parent's crash
        // handlers (a test framework's stack dumper, say).
        for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
            ::signal(sig, SIG_DFL);
        std::string out;
        try {
            out = work();
        } catch (...) {
            ::_exit(3);
        }
        writeAll(fds[1], out);
        ::_exit(0);
    }
    ::close(fds[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    bool timedOut = false;
    char buf[4096];
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                .count();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        int n = ::poll(&p, 1, static_cast<int>(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            timedOut = n == 0;
            break;
        }
        ssize_t got = ::read(fds[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break; // end of file: the child is done
        r.output.append(buf, static_cast<std::size_t>(got));
    }
    ::close(fds[0]);
    if (timedOut)
        ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timedOut) {
        r.error = "the probe process did not answer within " + std::to_string(timeoutMs) + " ms";
    } else if (WIFSIGNALED(status)) {
        r.signal = WTERMSIG(status);
        r.error = std::string("the probe process died: ") + ::strsignal(r.signal);
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        r.error = "the probe process failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
    } else {
        r.ok = true;
    }
    return r;
}

} // namespace rl
