// Stands in for libnccl.so.2 in tests: exports only ncclGetVersion, reporting 2.23.4 (code 22304),
// the last release with the connect-retry bug.
extern "C" __attribute__((visibility("default"))) int ncclGetVersion(int* version)
{
    if (!version)
        return 4; // ncclInvalidArgument, as the real library answers
    *version = 22304;
    return 0;
}
