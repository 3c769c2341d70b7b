#pragma once
// The job's environment as its logs reveal it, per rank and for the whole bundle: NCCL, CUDA and
// PyTorch versions, NCCL_* settings, the interfaces and addresses each rank chose, and flags for
// the choices that commonly break multi-host jobs. Plain data for the command line and the window;
// filled by collectEnvironment (identity/environment_scan.h) during analyze().

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/intern_pool.h"
#include "util/strong_id.h"
#include "util/version.h"

namespace rl
{

struct LineClue;

// A range of NCCL versions that the form of one line implies (which releases print that text, at
// that source line, with that prefix): facts from shared/docs/nccl-log-formats.md. What a clue says
// is the same on every rank that shows it: kept once per distinct clue (Environment::clueFacts),
// which each rank's clues point to.
struct ClueFact {
    // The rule: "bootstrap-space", "init-nvmldev", "connect-abort-lines", ... (static text).
    std::string_view id;
    VersionRange range; // open ends are 0.0.0 and 999.0.0
    // What in the line says so: a rule's wording (static text), or this clue's own.
    const char* staticBasis = nullptr;
    std::string ownBasis; // when staticBasis is null
    std::string display;  // "2.18.3–2.20.5", "≥ 2.24.3", "2.16.2–2.28.x"

    std::string_view basis() const
    {
        return staticBasis ? std::string_view(staticBasis) : std::string_view(ownBasis);
    }
};

// How the environment's pool looks a clue up (util/intern_pool.h): by rule, range and wording.
struct ClueFactInternTraits {
    struct View {
        std::string_view id;
        VersionRange range;
        std::string_view basis;
    };
    static View view(const LineClue& c);
    static std::size_t hash(const View& v);
    static bool equal(const View& v, const ClueFact& kept)
    {
        return v.id == kept.id && v.range == kept.range && v.basis == kept.basis();
    }
    static ClueFact make(LineClue&& c);
};
using ClueFactPool = InternPool<ClueFact, ClueFactInternTraits>;

// One rank's clue: the fact and the line that shows it. Thousands of ranks show the same few.
struct VersionClue {
    const ClueFact* fact = nullptr; // in Environment::clueFacts
    LineRef where;
    bool agrees = true; // false when the rank's own version (line or exception) is outside

    std::string_view id() const { return fact->id; }
    const VersionRange& range() const { return fact->range; }
    std::string_view basis() const { return fact->basis(); }
    const std::string& display() const { return fact->display; }
};

// An interface and address a rank announced ("Bootstrap : Using eth0:10.0.0.11<0>").
struct RankAddress {
    std::string interface;
    std::string address;
    std::string via; // bootstrap, net-socket, net-ib-oob
    LineRef where;
};

// Per process (index = ProcessId). Its texts are views of static text or of Environment::texts:
// thousands of ranks print the same few versions.
struct RankEnvironment {
    std::string_view ncclVersionSource; // version-line, pytorch-exception, mismatch-warn, line-forms
    std::optional<Version> ncclVersion; // exact: Process::ncclVersion, or pinned by the lines' forms
    std::optional<LineRef> ncclVersionLine;
    std::optional<VersionRange> ncclRange; // what the clues that agree leave open, when not exact
    std::string_view ncclRangeDisplay;
    std::vector<VersionClue> clues;
    std::string_view ncclCuda; // "+cuda12.2" of the version line: the CUDA toolkit NCCL was built with
    std::optional<LineRef> ncclCudaLine;
    int cudaDriverCode = 0;      // "cudaDriverVersion 12020"
    std::string_view cudaDriver; // "12.2"
    std::optional<LineRef> cudaDriverLine;
    std::string_view torchVersion; // "2.1.0a0+29c30b1"
    std::optional<LineRef> torchLine;
    std::string_view torchCuda; // CUDA printed with PyTorch ("CUDA 12.2" on its line, "+cu121", collect_env)
    std::optional<LineRef> torchCudaLine;
    std::vector<RankAddress> addresses;
    std::vector<std::string_view> flags; // kinds of the EnvironmentFlags that name this rank
};

// One NCCL_* setting with the ranks that showed it.
struct NcclSetting {
    std::string name;
    std::string value;
    // "set by environment" (NCCL's INFO "NAME set by environment to V"), "set" ("NAME set to V",
    // NCCL's own echo), "printed" (NAME=V in the job's own output, e.g. an environment dump)
    std::string how;
    std::vector<ProcessId> processes;
    LineRef where; // first line
};

// Something about the environment worth a look.
struct EnvironmentFlag {
    // loopback, docker, veth, link-local, different-subnets, setting-differs
    std::string kind;
    std::string severity; // warning (likely to break a multi-host job) or note
    std::string detail;   // one or two sentences for people
    std::vector<ProcessId> processes;
    std::string interface; // address flags: the interface and address concerned
    std::string address;
    std::optional<LineRef> where;
};

struct Environment {
    std::vector<RankEnvironment> ranks; // per process, same order as Analysis::processes
    std::vector<NcclSetting> settings;
    std::vector<EnvironmentFlag> flags;
    std::string subnetNote; // how subnets were compared (NCCL prints no netmask)
    // Every distinct clue and every distinct text the ranks' views show, once. The ranks point
    // into them, so an Environment is moved, never copied (the pools themselves do not move).
    std::unique_ptr<ClueFactPool> clueFacts = std::make_unique<ClueFactPool>();
    std::unique_ptr<StringPool> texts = std::make_unique<StringPool>();
};

// Processes that agree on one NCCL version (or range); two or more groups are a mismatch.
struct VersionGroup {
    std::optional<Version> version; // exact, when known
    VersionRange range;             // version..version when exact
    std::string display;
    std::string basis; // version line, PyTorch exception, Mismatched NCCL version WARN, line forms
    std::vector<ProcessId> processes;
    LineRef where;
};

} // namespace rl
