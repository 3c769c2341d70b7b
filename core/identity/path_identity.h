#pragma once
// What a file's path says about who wrote it: the usual per-rank names (rank3.log, rank_003.txt),
// node folders with per-GPU files (node-07/gpu2.log), Kubernetes pod names (job-worker-7.log),
// NeMo's and Azure Machine Learning's per-rank logs, mpirun --output-filename folders, and torchrun
// --log-dir trees (<run_id>/attempt_<n>/<local_rank>/{stdout,stderr}.log, error.json).
// Path evidence is the weakest identity source: NCCL's own lines win when they disagree.

#include <optional>
#include <string>

namespace rl
{

struct PathIdentity {
    std::optional<int> rank;
    std::optional<int> localRank;
    std::optional<int> attempt;
    std::string host;   // a node folder or pod name
    std::string stream; // "stdout", "stderr", "error.json", or empty
    bool operator==(const PathIdentity&) const = default;
};

// `displayPath` uses '/' between folders and '!' between an archive and its member.
PathIdentity identityFromPath(const std::string& displayPath);

} // namespace rl
