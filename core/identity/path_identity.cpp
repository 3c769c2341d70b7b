#include "identity/path_identity.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <vector>

#include "util/paths.h"
#include "util/strings.h"

namespace rl
{

namespace
{

std::vector<std::string> components(const std::string& path)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : path) {
        if (c == '/' || c == '!') {
            if (!cur.empty() && cur != ".") // "a/./b" is a/b
                out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

std::string lower(std::string s)
{
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Digits only, at most `most` of them (a rank or an attempt: seven).
bool allDigits(std::string_view s, std::size_t most = 7)
{
    if (s.empty() || s.size() > most)
        return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return false;
    return true;
}

// The number right after `word` (allowing one '_', '-' or '.' between), if any. `notLocal`: not
// where the word follows "local" and one separator ("local_rank3" is no global rank).
std::optional<int> numberAfter(const std::string& name, const std::string& word, bool notLocal = false)
{
    for (std::size_t at = name.find(word); at != std::string::npos; at = name.find(word, at + 1)) {
        // The word must start a token: "rank3" yes, "crank3" no.
        if (at > 0 && std::isalpha(static_cast<unsigned char>(name[at - 1])))
            continue;
        if (notLocal && at >= 6 && name.compare(at - 6, 5, "local") == 0)
            continue;
        std::size_t p = at + word.size();
        if (p < name.size() && (name[p] == '_' || name[p] == '-' || name[p] == '.'))
            ++p;
        int v = 0;
        std::size_t digits = 0;
        while (p < name.size() && std::isdigit(static_cast<unsigned char>(name[p])) && digits < 7) {
            v = v * 10 + (name[p] - '0');
            ++p;
            ++digits;
        }
        if (digits > 0)
            return v;
    }
    return std::nullopt;
}

std::string stem(const std::string& name)
{
    std::string s(uncompressedName(name));
    for (std::string_view ext : {".log", ".txt", ".out", ".err"})
        if (s.size() > ext.size() && s.ends_with(ext))
            s.resize(s.size() - ext.size());
    return s;
}

// "train-job-worker-7" (a pod of a PyTorchJob, a DeepSpeed worker) names a host.
bool podLike(const std::string& s)
{
    for (const char* role : {"-worker-", "-master-", "-launcher-", "-node-"}) {
        std::size_t at = s.rfind(role);
        if (at != std::string::npos && allDigits(s.substr(at + std::string(role).size())))
            return true;
    }
    return false;
}

bool hostLike(const std::string& s)
{
    bool digit = false, alpha = false;
    for (char c : s) {
        if (std::isdigit(static_cast<unsigned char>(c)))
            digit = true;
        else if (std::isalpha(static_cast<unsigned char>(c)))
            alpha = true;
        else if (c != '-' && c != '.' && c != '_')
            return false;
    }
    return digit && alpha;
}

} // namespace

PathIdentity identityFromPath(const std::string& displayPath)
{
    PathIdentity id;
    std::vector<std::string> parts = components(displayPath);
    if (parts.empty())
        return id;
    const std::string file = lower(parts.back());
    const std::string base = stem(file);

    if (base == "stdout" || base == "stderr" || base == "stddiag")
        id.stream = base;
    else if (uncompressedName(file) == "error.json")
        id.stream = "error.json";

    // NeMo names each rank's log "nemo_log_globalrank-3_localrank-3.txt".
    id.rank = numberAfter(base, "globalrank");
    if (!id.rank)
        id.rank = numberAfter(base, "global_rank");
    if (!id.rank)
        id.rank = numberAfter(base, "rank", true);
    // Azure Machine Learning keeps one log per process of a distributed job, named by its rank:
    // "user_logs/std_log_process_01.txt", and before its v2 "azureml-logs/70_driver_log_1.txt".
    for (const std::string prefix : {"std_log_process_", "70_driver_log_"})
        if (!id.rank && base.size() > prefix.size() && base.starts_with(prefix) &&
            allDigits(base.substr(prefix.size())))
            id.rank = std::stoi(base.substr(prefix.size()));
    if (auto lr = numberAfter(base, "local_rank"); lr)
        id.localRank = lr;
    else if (auto lr2 = numberAfter(base, "localrank"); lr2)
        id.localRank = lr2;
    else if (auto g = numberAfter(base, "gpu"); g)
        id.localRank = g;
    if (podLike(base))
        id.host = parts.back().substr(0, base.size());

    // How many of `parts` name the archive the file was read from, with its folders: "a/x.tgz!b/f"
    // has two (the last is the archive itself).
    const std::size_t bang = displayPath.rfind('!');
    const std::size_t archiveParts =
        bang == std::string::npos ? 0 : components(displayPath.substr(0, bang)).size();
    // torchrun --log-dir: [<node>/]<run_id>/attempt_<n>/<local_rank>/<file>
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        std::string c = lower(parts[i]);
        if (c.rfind("attempt_", 0) == 0 && allDigits(c.substr(8))) {
            id.attempt = std::stoi(c.substr(8));
            id.run = "torchrun attempt " + std::to_string(*id.attempt);
            if (i + 2 < parts.size() && allDigits(parts[i + 1]))
                id.localRank = std::stoi(parts[i + 1]);
            // The folder above the run's, unless that is the archive the tree was read from
            // ("node-a.tgz!run7/attempt_1/0/stdout.log": an archive's name is no host's).
            if (i >= 2 && id.host.empty() && i - 2 + 1 != archiveParts)
                id.host = parts[i - 2];
            break;
        }
    }
    // A folder of one rank's streams, as Open MPI's mpirun --output-filename DIR writes them:
    // DIR/<job>/rank.<N>/{stdout,stderr,stddiag}, N zero-filled ("rank.03").
    if (!id.rank && parts.size() >= 2) {
        const std::string folder = lower(parts[parts.size() - 2]);
        std::size_t p = 4;
        if (folder.size() > p && (folder[p] == '.' || folder[p] == '_' || folder[p] == '-'))
            ++p;
        if (folder.rfind("rank", 0) == 0 && allDigits(folder.substr(p)))
            id.rank = std::stoi(folder.substr(p));
    }
    // node-07/gpu2.log: a per-GPU file inside a host folder.
    if (id.host.empty() && id.localRank && parts.size() >= 2 && !id.attempt &&
        hostLike(parts[parts.size() - 2]))
        id.host = parts[parts.size() - 2];
    // A pod-named folder holding the pod's logs.
    if (id.host.empty() && parts.size() >= 2 && podLike(lower(parts[parts.size() - 2])))
        id.host = parts[parts.size() - 2];
    return id;
}

void deepSpeedLaunches(std::vector<PathIdentity>& ids, const std::vector<std::string_view>& displayPaths)
{
    struct RankLog {
        std::string_view time; // %Y%m%d%H%M%S
        int rank;
        std::size_t at;
    };
    std::vector<RankLog> logs;
    for (std::size_t i = 0; i < displayPaths.size() && i < ids.size(); ++i) {
        const std::string_view path = displayPaths[i];
        const std::size_t slash = path.find_last_of("/!");
        // Gzipped when the logs were collected, as often: "20250612140316_rank3.log.gz".
        const std::string_view name =
            uncompressedName(path.substr(slash == std::string_view::npos ? 0 : slash + 1));
        // "20250612140316_rank3.log"
        if (name.size() < 24 || name.substr(14, 5) != "_rank" || !name.ends_with(".log") ||
            !allDigits(name.substr(0, 14), 14) || !allDigits(name.substr(19, name.size() - 23)) ||
            ids[i].attempt)
            continue;
        logs.push_back({name.substr(0, 14), std::stoi(std::string(name.substr(19, name.size() - 23))), i});
    }
    std::sort(logs.begin(), logs.end(), [](const RankLog& x, const RankLog& y) {
        return std::tie(x.time, x.rank) < std::tie(y.time, y.rank);
    });
    std::vector<int> launchOf(logs.size(), 0);
    std::vector<std::string> launchTime(1);
    std::set<int> ranks;
    for (std::size_t k = 0; k < logs.size(); ++k) {
        if (!ranks.insert(logs[k].rank).second) {
            ranks = {logs[k].rank};
            launchTime.emplace_back();
        }
        if (launchTime.back().empty())
            launchTime.back() = logs[k].time;
        launchOf[k] = static_cast<int>(launchTime.size()) - 1;
    }
    if (launchTime.size() < 2)
        return;
    for (std::size_t k = 0; k < logs.size(); ++k) {
        PathIdentity& id = ids[logs[k].at];
        const std::string& t = launchTime[static_cast<std::size_t>(launchOf[k])];
        id.attempt = launchOf[k];
        id.deepSpeed = true;
        id.run = "DeepSpeed launch of " + t.substr(0, 4) + "-" + t.substr(4, 2) + "-" + t.substr(6, 2) + " " +
                 t.substr(8, 2) + ":" + t.substr(10, 2) + ":" + t.substr(12, 2);
    }
}

namespace
{

// What numberedSeries reads of one file's name: the number that would tell it from its siblings,
// and the name with that number taken out (its folder, what comes before and after).
struct SeriesName {
    std::string key;
    int number = 0;
};

bool isSeparator(char c)
{
    return c == '-' || c == '_' || c == '.';
}

// `key` with every digit from `from` on masked: names that differ only in numbers compare equal.
std::string maskDigits(std::string key, std::size_t from)
{
    for (std::size_t c = from; c < key.size(); ++c)
        if (std::isdigit(static_cast<unsigned char>(key[c])))
            key[c] = '#';
    return key;
}

std::optional<SeriesName> seriesName(std::string_view displayPath)
{
    const std::size_t slash = displayPath.find_last_of("/!");
    const std::string_view folder =
        slash == std::string_view::npos ? std::string_view{} : displayPath.substr(0, slash + 1);
    const std::string name = lower(std::string(displayPath.substr(folder.size())));
    // Slurm's default name for a job array's tasks: each an array task (a job of its own), not a rank.
    {
        const std::string_view n = uncompressedName(name);
        const std::size_t under = n.find('_');
        if (n.starts_with("slurm-") && n.ends_with(".out") && under != std::string_view::npos &&
            allDigits(n.substr(6, under - 6), 12) && allDigits(n.substr(under + 1, n.size() - under - 5)))
            return std::nullopt;
    }
    const std::string base = stem(name);
    // The last run of digits in the stem, standing apart: at the start or after a separator, at
    // the end or before one ("node07", "gpu2", "v2" are words with a number in them).
    const auto [begin, end] = lastDigitRun(base);
    if (begin == end || end - begin > 5 || (end < base.size() && !isSeparator(base[end])) ||
        (begin > 0 && !isSeparator(base[begin - 1])))
        return std::nullopt;
    if (begin > 0) {
        const std::string_view before = std::string_view(base).substr(0, begin - 1);
        // A rotated log ("train.log.1"), and numbers that count something other than ranks.
        for (std::string_view ext : {".log", ".txt", ".out", ".err"})
            if (before.ends_with(ext))
                return std::nullopt;
        std::size_t w = before.size();
        while (w > 0 && std::isalpha(static_cast<unsigned char>(before[w - 1])))
            --w;
        const std::string_view word = before.substr(w);
        for (std::string_view other :
             {"node",  "host",    "worker",    "server",  "machine", "instance",  "pod",   "vm",
              "gpu",   "cuda",    "device",    "dev",     "local",   "localrank", "port",  "step",
              "epoch", "iter",    "iteration", "part",    "chunk",   "shard",     "batch", "try",
              "retry", "attempt", "run",       "restart", "day",     "week",      "v",     "version"})
            if (word == other)
                return std::nullopt;
    }
    SeriesName out;
    out.number = std::stoi(base.substr(begin, end - begin));
    out.key.reserve(folder.size() + base.size());
    out.key.append(folder).append(base, 0, begin).append(1, '\0').append(base, end, std::string::npos);
    return out;
}

} // namespace

void numberedSeries(std::vector<PathIdentity>& ids, const std::vector<std::string_view>& displayPaths,
                    const std::vector<std::uint64_t>& sizes)
{
    std::map<std::string, std::vector<std::pair<int, std::size_t>>> groups; // key -> (number, file)
    for (std::size_t i = 0; i < displayPaths.size() && i < ids.size(); ++i) {
        const PathIdentity& id = ids[i];
        if (id.rank || id.localRank || id.attempt || !id.host.empty() || !id.stream.empty())
            continue;
        if (auto n = seriesName(displayPaths[i]))
            groups[std::move(n->key)].push_back({n->number, i});
    }
    // Slurm's `--output=%x-%N-%t.out` names each task's file by its node and its task number,
    // which counts across the job: "train-node07-0.out", "train-node07-1.out",
    // "train-node08-2.out". Each node's files alone are no series (node08's start at 2), together
    // they are one. So groups of one folder whose names differ only in other digits are taken as
    // one where no number is in two of them; where one is ("node07-0" beside "node08-0": each
    // node's local ranks, or two jobs), they stay apart, and are then both left unread below.
    {
        std::map<std::string, std::vector<std::string>> byMasked; // masked key -> keys
        for (const auto& [key, files] : groups) {
            const std::size_t name = key.find_last_of("/!", key.find('\0'));
            byMasked[maskDigits(key, name == std::string::npos ? 0 : name + 1)].push_back(key);
        }
        for (const auto& [masked, keys] : byMasked) {
            if (keys.size() < 2)
                continue;
            // ("train-node07-0.out" and "train-node07-0.err" are one group: its numbers repeat.)
            std::map<int, std::size_t> owner; // number -> the group (index in keys) counting it
            bool disjoint = true;
            for (std::size_t k = 0; k < keys.size(); ++k)
                for (const auto& f : groups[keys[k]])
                    disjoint = disjoint && owner.try_emplace(f.first, k).first->second == k;
            // The other digits are in a host's name ("node07"), not a number of their own (two
            // jobs' ids, "train-88123-0.out" beside "train-88200-1.out").
            const std::string& first = keys.front();
            auto inHostName = [&](const std::string& key) {
                std::size_t at = 0;
                while (at < key.size() && key[at] == first[at])
                    ++at;
                std::size_t from = at, to = at;
                while (from > 0 && !isSeparator(key[from - 1]) && key[from - 1] != '/')
                    --from;
                while (to < key.size() && !isSeparator(key[to]) && key[to] != '\0')
                    ++to;
                return std::any_of(key.begin() + static_cast<std::ptrdiff_t>(from),
                                   key.begin() + static_cast<std::ptrdiff_t>(to),
                                   [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
            };
            if (!disjoint || !std::all_of(keys.begin() + 1, keys.end(), inHostName))
                continue;
            auto& into = groups[keys.front()];
            for (std::size_t k = 1; k < keys.size(); ++k) {
                auto& from = groups[keys[k]];
                into.insert(into.end(), from.begin(), from.end());
                groups.erase(keys[k]);
            }
        }
    }
    // The series that pass, each with its folder and its name pattern (every digit masked).
    struct Series {
        const std::vector<std::pair<int, std::size_t>>* files;
        std::string folder, pattern;
    };
    std::vector<Series> series;
    for (auto& [key, files] : groups) {
        std::set<int> numbers;
        for (const auto& f : files)
            numbers.insert(f.first);
        // "train-3.out" and "train-3.err" are one rank's; the numbers start at 0, and a bundle that
        // kept some of the files may miss some numbers, but not more of them than it holds.
        if (numbers.size() < 2 || *numbers.begin() != 0 ||
            static_cast<std::size_t>(*numbers.rbegin()) >= 2 * numbers.size())
            continue;
        const std::size_t cut = key.find_last_of("/!", key.find('\0'));
        series.push_back({&files, key.substr(0, cut == std::string::npos ? 0 : cut + 1), maskDigits(key, 0)});
    }
    // Two series that count the same numbers in two folders ("node-a/0.log" beside
    // "node-b/0.log": each node's local ranks, or two jobs' folders), or in one folder under names
    // that differ only in a number ("node07-0.log" beside "node08-0.log", two jobs'
    // "train-88123-0.out" and "train-88200-0.out"): whose rank each file is the names cannot tell,
    // so neither is read. A copy of a folder (the same names and sizes) is no other series: the
    // copies are found and set aside once read. Series of one folder whose names differ in words
    // ("out-0.log" beside "err-0.log") are one job's two streams.
    std::map<std::pair<std::string_view, std::string_view>, int> perPattern; // (folder, pattern)
    // folder -> the names (within it) and sizes of its series' files
    std::map<std::string_view, std::vector<std::pair<std::string_view, std::uint64_t>>> folderFiles;
    for (const Series& k : series) {
        ++perPattern[{k.folder, k.pattern}];
        for (const auto& [number, i] : *k.files)
            folderFiles[k.folder].emplace_back(displayPaths[i].substr(k.folder.size()),
                                               i < sizes.size() ? sizes[i] : 0);
    }
    std::map<std::string_view, std::string> folderContent; // the same in a copy of the folder
    for (auto& [folder, named] : folderFiles) {
        std::sort(named.begin(), named.end());
        for (const auto& [name, size] : named)
            folderContent[folder].append(name).append(1, '\0').append(std::to_string(size)).append(1, '\0');
    }
    std::map<int, std::set<std::string_view>> claims; // number -> the folder contents counting it
    for (const Series& k : series)
        for (const auto& f : *k.files)
            claims[f.first].insert(folderContent[k.folder]);
    int next = 0;
    for (const Series& k : series) {
        bool ambiguous = perPattern[{k.folder, k.pattern}] > 1;
        for (const auto& f : *k.files)
            ambiguous = ambiguous || claims[f.first].size() > 1;
        if (ambiguous)
            continue;
        for (const auto& [number, i] : *k.files) {
            ids[i].rank = number;
            ids[i].series = next;
        }
        ++next;
    }
}

} // namespace rl
