#include "cli/args.h"

#include <algorithm>
#include <cstdio>

namespace rl::cli
{

namespace
{

constexpr std::size_t kLineWidth = 79;

std::string dashed(const std::string& name)
{
    return (name.size() == 1 ? "-" : "--") + name;
}

// "  NAME   description", the description wrapped at spaces to the line width and continued
// under itself, as QCommandLineParser lays out its option and argument lists.
void appendEntry(std::string& out, const std::string& name, std::size_t nameWidth, const std::string& text)
{
    const std::size_t room = kLineWidth > nameWidth + 3 ? kLineWidth - nameWidth - 3 : 20;
    std::string_view rest = text;
    bool first = true;
    do {
        std::size_t take = rest.size();
        if (take > room) {
            const std::size_t space = rest.rfind(' ', room);
            take = space == std::string_view::npos || space == 0 ? room : space;
        }
        std::string label = first ? name : std::string{};
        if (label.size() < nameWidth)
            label.append(nameWidth - label.size(), ' ');
        out += "  " + label + " ";
        out.append(rest.substr(0, take));
        out += '\n';
        rest.remove_prefix(take);
        while (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
        first = false;
    } while (!rest.empty());
}

} // namespace

ArgParser::ArgParser(std::string description) : m_description(std::move(description))
{
    m_options.push_back({{"h", "help"}, "Displays help on commandline options.", {}, {}});
}

void ArgParser::addPositional(std::string name, std::string description, std::string syntax)
{
    if (syntax.empty())
        syntax = name;
    m_positionalSpecs.push_back({std::move(name), std::move(description), std::move(syntax)});
}

void ArgParser::addOption(OptionSpec option)
{
    m_options.push_back(std::move(option));
}

int ArgParser::find(std::string_view name) const
{
    for (std::size_t i = 0; i < m_options.size(); ++i)
        for (const auto& n : m_options[i].names)
            if (n == name)
                return static_cast<int>(i);
    return -1;
}

bool ArgParser::parse(const std::vector<std::string>& args)
{
    m_given.clear();
    m_positionals.clear();
    m_error.clear();
    std::vector<std::string> unknown;
    bool optionsEnded = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (optionsEnded || a.size() < 2 || a[0] != '-') {
            m_positionals.push_back(a);
            continue;
        }
        if (a == "--") {
            optionsEnded = true;
            continue;
        }
        if (a[1] == '-') {
            const std::size_t eq = a.find('=');
            const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
            const int o = find(name);
            if (o < 0) {
                unknown.push_back(name);
                continue;
            }
            const bool takesValue = !m_options[static_cast<std::size_t>(o)].valueName.empty();
            if (eq != std::string::npos) {
                if (!takesValue) {
                    m_error = "Unexpected value after '--" + name + "'.";
                    return false;
                }
                m_given.emplace_back(o, a.substr(eq + 1));
            } else if (takesValue) {
                if (i + 1 >= args.size()) {
                    m_error = "Missing value after '--" + name + "'.";
                    return false;
                }
                m_given.emplace_back(o, args[++i]);
            } else {
                m_given.emplace_back(o, std::string{});
            }
            continue;
        }
        // -abc: short options run together; one that takes a value takes the rest, or the next
        // argument.
        for (std::size_t c = 1; c < a.size(); ++c) {
            const std::string name(1, a[c]);
            const int o = find(name);
            if (o < 0) {
                unknown.push_back(name);
                continue;
            }
            if (m_options[static_cast<std::size_t>(o)].valueName.empty()) {
                m_given.emplace_back(o, std::string{});
                continue;
            }
            if (c + 1 < a.size()) {
                m_given.emplace_back(o, a.substr(c + 1));
            } else if (i + 1 < args.size()) {
                m_given.emplace_back(o, args[++i]);
            } else {
                m_error = "Missing value after '-" + name + "'.";
                return false;
            }
            break;
        }
    }
    if (unknown.size() == 1) {
        m_error = "Unknown option '" + unknown.front() + "'.";
    } else if (unknown.size() > 1) {
        m_error = "Unknown options: ";
        for (std::size_t i = 0; i < unknown.size(); ++i)
            m_error += (i ? ", " : "") + unknown[i];
        m_error += ".";
    }
    return m_error.empty();
}

std::optional<int> ArgParser::process(const std::vector<std::string>& args)
{
    if (!parse(args)) {
        std::fprintf(stderr, "rankline: %s\n", m_error.c_str());
        return 1;
    }
    if (isSet("help")) {
        const std::string text = helpText(args.empty() ? std::string("rankline") : args.front());
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    return std::nullopt;
}

bool ArgParser::isSet(std::string_view name) const
{
    const int o = find(name);
    return o >= 0 && std::any_of(m_given.begin(), m_given.end(), [o](const auto& g) { return g.first == o; });
}

std::string ArgParser::value(std::string_view name) const
{
    const int o = find(name);
    for (auto it = m_given.rbegin(); it != m_given.rend(); ++it)
        if (it->first == o)
            return it->second;
    return o >= 0 ? m_options[static_cast<std::size_t>(o)].defaultValue : std::string{};
}

std::vector<std::string> ArgParser::values(std::string_view name) const
{
    const int o = find(name);
    std::vector<std::string> out;
    for (const auto& [option, v] : m_given)
        if (option == o)
            out.push_back(v);
    return out;
}

std::string ArgParser::helpText(const std::string& program) const
{
    std::string out = "Usage: " + program + (m_options.empty() ? "" : " [options]");
    for (const auto& p : m_positionalSpecs)
        out += " " + p.syntax;
    out += "\n";
    if (!m_description.empty())
        out += m_description + "\n";
    out += "\n";
    std::vector<std::string> names;
    std::size_t width = 0;
    for (const auto& o : m_options) {
        std::string n;
        for (const auto& name : o.names)
            n += (n.empty() ? "" : ", ") + dashed(name);
        if (!o.valueName.empty())
            n += " <" + o.valueName + ">";
        width = std::max(width, n.size());
        names.push_back(std::move(n));
    }
    for (const auto& p : m_positionalSpecs)
        width = std::max(width, p.name.size());
    width = std::min<std::size_t>(width + 1, 50);
    if (!m_options.empty()) {
        out += "Options:\n";
        for (std::size_t i = 0; i < m_options.size(); ++i)
            appendEntry(out, names[i], width, m_options[i].description);
    }
    if (!m_positionalSpecs.empty()) {
        out += m_options.empty() ? "Arguments:\n" : "\nArguments:\n";
        for (const auto& p : m_positionalSpecs)
            appendEntry(out, p.name, width, p.description);
    }
    return out;
}

} // namespace rl::cli
