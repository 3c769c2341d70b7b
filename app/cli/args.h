#pragma once
// Command-line options for the headless commands, without Qt: `diagnose`, `probe` and
// `encyclopedia` run on login nodes and in scripts, and loading Qt's libraries costs them more
// resident memory than a small bundle's whole analysis (see app/main.cpp). Parses and prints help
// the way QCommandLineParser does for the commands that still use it (`report`, the window), so
// that all of them read alike: --name, --name=value, --name value, -h, "--" ends the options, "-" is
// an argument (standard input).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rl::cli
{

struct OptionSpec {
    std::vector<std::string> names; // without dashes; one letter: -x, longer: --name
    std::string description;
    std::string valueName; // empty: a flag
    std::string defaultValue;
};

class ArgParser
{
public:
    // -h/--help is there from the start.
    explicit ArgParser(std::string description);
    // `syntax` is how the usage line shows it ("PATH..."); empty: the name.
    void addPositional(std::string name, std::string description, std::string syntax = {});
    void addOption(OptionSpec option);

    // Reads args[1...] (args[0] is the program as it was invoked). Returns the exit status when the
    // command should end here: 0 after printing the help that -h/--help asked for, 1 after printing
    // an error (an unknown option, a missing value) on standard error; nullopt to go on.
    std::optional<int> process(const std::vector<std::string>& args);

    bool isSet(std::string_view name) const;
    // The last value given, else the default.
    std::string value(std::string_view name) const;
    std::vector<std::string> values(std::string_view name) const;
    const std::vector<std::string>& positionals() const { return m_positionals; }
    std::string helpText(const std::string& program) const;
    // Empty when the arguments parsed.
    const std::string& error() const { return m_error; }
    bool parse(const std::vector<std::string>& args);

private:
    struct Positional {
        std::string name, description, syntax;
    };
    // Index into m_options, or -1.
    int find(std::string_view name) const;

    std::string m_description;
    std::vector<Positional> m_positionalSpecs;
    std::vector<OptionSpec> m_options;
    std::vector<std::pair<int, std::string>> m_given; // (option, value) in the order given
    std::vector<std::string> m_positionals;
    std::string m_error;
};

} // namespace rl::cli
