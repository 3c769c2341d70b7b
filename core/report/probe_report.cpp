#include "report/probe_report.h"

#include <nlohmann/json.hpp>
#include <sstream>

using nlohmann::json;

namespace rl
{

namespace
{

const Version kRetryFix{2, 24, 3};

json fixJson(const NcclProbeResult& r)
{
    return r.found ? json(r.version >= kRetryFix) : json(nullptr);
}

std::string versionText(const NcclProbeResult& r)
{
    return "NCCL " + r.version.toString() + " (code " + std::to_string(r.code) + ")";
}

} // namespace

std::string socketRetryText(const SocketRetryReport& rep)
{
    std::ostringstream o;
    o << "Socket retry experiment on 127.0.0.1";
    if (rep.port)
        o << " (port " << rep.port << ", nothing listening)";
    o << ", attempt " << rep.attempts << ":\n";
    for (const auto& s : rep.steps) {
        o << "  " << s.call << " -> " << s.result;
        if (s.error)
            o << ", " << errnoText(s.error);
        if (!s.note.empty())
            o << ": " << s.note;
        o << "\n";
    }
    o << "Verdict: " << rep.verdict << "\n";
    return o.str();
}

std::string probeText(const LocalFacts& f, const NcclProbeResult& r, const SocketRetryReport* retry)
{
    std::ostringstream o;
    if (r.found) {
        o << versionText(r) << "\n  library: " << r.path << "\n";
        o << "  connect-abort retry fix (2.24.3): "
          << (r.version >= kRetryFix ? "present" : "absent (2.16.2–2.23.4 mask connect errors)") << "\n";
    } else {
        o << "NCCL: no library found (" << r.error << ")\n";
    }
    if (!r.note.empty())
        o << "  note: " << r.note << "\n";

    const auto& libs = f.nccl.libraries;
    o << "\nEvery libnccl.so.2 found on this machine: " << libs.size() << "\n";
    for (const auto& lib : libs) {
        o << "  " << lib.realPath << "\n    ";
        if (lib.probe.found)
            o << versionText(lib.probe) << ", " << (lib.probe.version >= kRetryFix ? "has" : "lacks")
              << " the 2.24.3 connect-retry fix";
        else
            o << "no version: " << lib.probe.error;
        if (lib.loaderChoice)
            o << "; the loader's choice";
        if (!lib.package.empty())
            o << "; pip package " << lib.package;
        o << "\n";
        if (!lib.probe.note.empty())
            o << "    note: " << lib.probe.note << "\n";
        for (const auto& l : lib.locations)
            o << "    found via " << l.how << ": " << l.path
              << (l.detail.empty() ? "" : "  (" + l.detail + ")") << "\n";
    }
    if (f.nccl.loader) {
        o << "The loader (dlopen(\"libnccl.so.2\") in a fresh process) picks: ";
        if (f.nccl.loader->found)
            o << f.nccl.loader->path << ", " << versionText(*f.nccl.loader) << "\n";
        else
            o << "nothing (" << f.nccl.loader->error << ")\n";
        if (!f.nccl.loader->note.empty())
            o << "  note: " << f.nccl.loader->note << "\n";
    }
    o << "Searched:\n";
    for (const auto& s : f.nccl.searched)
        o << "  " << s << "\n";

    o << "\nKernel: " << f.kernel.sysname << " " << f.kernel.release << " " << f.kernel.machine << "\n";
    o << "CUDA driver: ";
    if (f.cuda.found)
        o << "libcuda.so.1 at " << f.cuda.path << ", CUDA " << cudaVersionString(f.cuda.driverVersion) << " ("
          << f.cuda.driverVersion << ")\n";
    else
        o << "no libcuda.so.1 (" << f.cuda.error
          << "): no NVIDIA driver here, the normal answer on a machine without a GPU\n";
    if (!f.cuda.nvidiaDriver.empty())
        o << "  " << f.cuda.nvidiaDriver << "\n";
    o << "GPU devices: ";
    if (f.cuda.devices.empty())
        o << "none (no /dev/nvidia0)\n";
    for (std::size_t i = 0; i < f.cuda.devices.size(); ++i)
        o << (i ? ", " : "") << f.cuda.devices[i] << (i + 1 == f.cuda.devices.size() ? "\n" : "");
    if (retry)
        o << "\n" << socketRetryText(*retry);
    return o.str();
}

std::string probeJson(const LocalFacts& f, const NcclProbeResult& r, const SocketRetryReport* retry,
                      int indent)
{
    json root;
    root["tool"] = "rankline";
    root["tool_version"] = RANKLINE_VERSION;
    // The original contract: the library --nccl-lib names (default: the loader's choice), or null.
    root["nccl"] =
        r.found ? json{{"version", r.version.toString()}, {"code", r.code}, {"path", r.path}} : json(nullptr);
    json libs = json::array();
    for (const auto& lib : f.nccl.libraries) {
        json via = json::array();
        for (const auto& l : lib.locations)
            via.push_back({{"how", l.how}, {"path", l.path}, {"detail", l.detail}});
        libs.push_back({{"path", lib.realPath},
                        {"version", lib.probe.found ? json(lib.probe.version.toString()) : json(nullptr)},
                        {"code", lib.probe.found ? json(lib.probe.code) : json(nullptr)},
                        {"error", lib.probe.found ? json(nullptr) : json(lib.probe.error)},
                        {"note", lib.probe.note.empty() ? json(nullptr) : json(lib.probe.note)},
                        {"loader_choice", lib.loaderChoice},
                        {"has_connect_retry_fix", fixJson(lib.probe)},
                        {"package", lib.package.empty() ? json(nullptr) : json(lib.package)},
                        {"found_via", via}});
    }
    root["libraries"] = libs;
    if (f.nccl.loader) {
        const auto& l = *f.nccl.loader;
        root["loader"] = {{"path", l.found ? json(l.path) : json(nullptr)},
                          {"version", l.found ? json(l.version.toString()) : json(nullptr)},
                          {"code", l.found ? json(l.code) : json(nullptr)},
                          {"error", l.found ? json(nullptr) : json(l.error)},
                          {"note", l.note.empty() ? json(nullptr) : json(l.note)}};
    } else {
        root["loader"] = nullptr;
    }
    root["searched"] = f.nccl.searched;
    root["kernel"] = {{"sysname", f.kernel.sysname},
                      {"release", f.kernel.release},
                      {"version", f.kernel.version},
                      {"machine", f.kernel.machine}};
    root["cuda_driver"] = {
        {"found", f.cuda.found},
        {"path", f.cuda.found ? json(f.cuda.path) : json(nullptr)},
        {"version", f.cuda.found ? json(cudaVersionString(f.cuda.driverVersion)) : json(nullptr)},
        {"code", f.cuda.found ? json(f.cuda.driverVersion) : json(nullptr)},
        {"error", f.cuda.found ? json(nullptr) : json(f.cuda.error)},
        {"nvidia_driver", f.cuda.nvidiaDriver.empty() ? json(nullptr) : json(f.cuda.nvidiaDriver)},
        {"devices", f.cuda.devices}};
    if (retry) {
        json steps = json::array();
        for (const auto& s : retry->steps)
            steps.push_back({{"call", s.call},
                             {"result", s.result},
                             {"errno", s.error},
                             {"errno_name", s.error ? json(errnoName(s.error)) : json(nullptr)},
                             {"note", s.note}});
        auto err = [](int e) { return e ? json(errnoName(e)) : json(nullptr); };
        root["socket_retry"] = {{"ran", retry->ran},
                                {"error", retry->ran ? json(nullptr) : json(retry->error)},
                                {"kernel", retry->kernel},
                                {"address", "127.0.0.1"},
                                {"port", retry->port},
                                {"attempts", retry->attempts},
                                {"pending_error", err(retry->pendingError)},
                                {"retry_error", err(retry->retryError)},
                                {"fresh_socket_error", err(retry->freshError)},
                                {"reproduced", retry->reproduced},
                                {"steps", steps},
                                {"verdict", retry->verdict}};
    }
    return root.dump(indent);
}

} // namespace rl
