#pragma once
// Replaces what should not reach a ticket — IPv4/IPv6 addresses, host names, user names and home
// paths, tokens, keys and passwords — by consistent pseudonyms (host-1, ip-3, user-1, secret-2).
// Deterministic: the same inputs in the same order give the same pseudonyms, and one redactor
// gives one original the same pseudonym everywhere. Pure C++, no I/O.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rl
{

struct Analysis;

enum class PseudonymKind { Host, Address, User, Email, Secret };
const char* pseudonymKindName(PseudonymKind k);

struct Pseudonym {
    PseudonymKind kind = PseudonymKind::Host;
    std::string original; // as first seen (host names: the short name)
    std::string pseudonym;
};

class Redactor
{
public:
    Redactor();
    ~Redactor();
    Redactor(const Redactor&) = delete;
    Redactor& operator=(const Redactor&) = delete;

    // A host name to replace wherever it stands as a whole word; its fully qualified forms
    // ("gpu004.cluster.example.com") get the same pseudonym. Generic words ("localhost", "user",
    // "node") and names shorter than two characters are ignored: replacing them would garble text.
    void addHost(std::string_view host);
    // Reserves a pseudonym for an address now, so numbering follows the caller's order.
    void addAddress(std::string_view address);
    // Picks up host names from their context ("Connection closed by remote peer <host><port>",
    // "host : <name>") and user names from home paths, without changing anything.
    void learn(std::string_view text);
    // The text with every sensitive piece replaced. Learns from `text` first.
    std::string apply(std::string_view text);

    // Every pseudonym handed out so far, in the order they were assigned.
    const std::vector<Pseudonym>& legend() const { return m_legend; }

private:
    struct Patterns;
    struct Span;
    const std::string& pseudonymFor(PseudonymKind kind, const std::string& key, std::string_view original);
    void collectSpans(std::string_view text, std::vector<Span>& spans);
    void rebuildKnown();

    std::unique_ptr<Patterns> m_patterns;
    std::map<std::pair<PseudonymKind, std::string>, std::size_t> m_index; // (kind, key) -> legend
    std::vector<Pseudonym> m_legend;
    std::vector<std::string> m_hosts; // lower case, as registered
    std::vector<std::string> m_users;
    bool m_knownDirty = true;
};

// Seeds `r` with what the analysis knows, in a stable order: every process's host (rank order),
// then every process's own address.
void seedRedactor(Redactor& r, const Analysis& analysis);

} // namespace rl
