#pragma once
// What a file's path says about who wrote it: the usual per-rank names (rank3.log, rank_003.txt),
// node folders with per-GPU files (node-07/gpu2.log), Kubernetes pod names (job-worker-7.log),
// NeMo's and Azure Machine Learning's per-rank logs, mpirun --output-filename folders, and torchrun
// --log-dir trees (<run_id>/attempt_<n>/<local_rank>/{stdout,stderr}.log, error.json).
// Path evidence is the weakest identity source: NCCL's own lines win when they disagree.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rl
{

struct PathIdentity {
    std::optional<int> rank;
    std::optional<int> localRank;
    std::optional<int> attempt; // torchrun's attempt_<n>, or the DeepSpeed launch (deepSpeedLaunches)
    // The run `attempt` counts, as the skipped list names it: "torchrun attempt 1", "DeepSpeed
    // launch of 2025-06-12 14:03:16".
    std::string run;
    bool deepSpeed = false; // `attempt` counts DeepSpeed's launches, not torchrun's attempts
    std::string host;       // a node folder or pod name
    std::string stream;     // "stdout", "stderr", "error.json", or empty
    // Where `rank` is the number that tells the file from its siblings (numberedSeries): which
    // series, so that one contradicted file can take the number from all of them; else -1.
    int series = -1;
    // Which series is no part of what the path says: two copies of a file in two folders (each
    // folder its own series) say the same.
    bool operator==(const PathIdentity& o) const
    {
        return rank == o.rank && localRank == o.localRank && attempt == o.attempt && run == o.run &&
               deepSpeed == o.deepSpeed && host == o.host && stream == o.stream;
    }
};

// `displayPath` uses '/' between folders and '!' between an archive and its member.
PathIdentity identityFromPath(const std::string& displayPath);

// DeepSpeed's launcher with --enable_each_rank_log DIR writes each rank's output to
// "DIR/<launch time>_rank<N>.log" (its node's local time, %Y%m%d%H%M%S), and a folder kept across
// restarts holds every launch. In the time order of their names, a launch names each rank once and
// a rank named again starts the next one (one launch's nodes start seconds apart, so their times
// differ): each such file's `attempt` becomes its launch's number, where there are two or more.
void deepSpeedLaunches(std::vector<PathIdentity>& ids, const std::vector<std::string_view>& displayPaths);

// Files of one folder named alike but for one number that counts from 0 — Slurm's per-task output
// (`srun --output=%x-%j-%t.out`: "train-88123-0.out" … "train-88123-3.out", `.err` beside them),
// "log_0.txt", "out.1.log" — name each its rank, as their writers do (%t is the task's rank).
// Only files whose names said nothing else of their writer are read so; the number must stand
// apart (not "node07", "gpu2", a rotated "train.log.1", Slurm's array default "slurm-%A_%a.out")
// and the numbers must include 0 and leave no wider gaps than files. The weakest witness of all:
// the caller takes the number back from every file of a series one of whose files holds several
// processes or names another rank in its own lines. Two series that count the same numbers (each
// node's local ranks in its own folder, two jobs' files side by side) are neither read, unless one
// is a copy of the other (`sizes`, the files' sizes, say so).
void numberedSeries(std::vector<PathIdentity>& ids, const std::vector<std::string_view>& displayPaths,
                    const std::vector<std::uint64_t>& sizes);

} // namespace rl
