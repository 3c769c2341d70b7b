#pragma once
// What `rankline probe` reports about this machine: every NCCL library, the kernel, and whether
// an NVIDIA driver is installed. A machine without a GPU is a normal answer, not an error.

#include <string>
#include <vector>

#include "probe/nccl_discovery.h"

namespace rl
{

struct KernelInfo {
    std::string sysname; // "Linux"
    std::string release; // "6.1.0-18-amd64"
    std::string version; // build string
    std::string machine; // "x86_64"
};

struct CudaDriverInfo {
    bool found = false;               // libcuda.so.1 loads
    std::string path;                 // the file the loader resolved
    int driverVersion = 0;            // cuDriverGetVersion: 12020 = CUDA 12.2
    std::string error;                // why it is absent
    std::string nvidiaDriver;         // first line of /proc/driver/nvidia/version, when present
    std::vector<std::string> devices; // /dev/nvidia0, /dev/nvidia1, ...
};

struct LocalFacts {
    NcclDiscovery nccl;
    KernelInfo kernel;
    CudaDriverInfo cuda;
};

KernelInfo kernelInfo();
// dlopen("libcuda.so.1") and cuDriverGetVersion in a child process (no cuInit, no GPU needed).
CudaDriverInfo probeCudaDriver(int timeoutMs = 10000);
LocalFacts gatherLocalFacts(const DiscoveryOptions& options = {});

// "12.2" from the driver's (or NCCL's cudaDriverVersion) integer 12020.
std::string cudaVersionString(int code);

} // namespace rl
