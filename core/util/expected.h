#pragma once
// Errors travel as values through core/; the front ends word them for people.
// C++20 has no std::expected, so this is the small subset Rankline needs.

#include <string>
#include <utility>
#include <variant>

namespace rl
{

// An error a user can act on: which file, what went wrong, what to do about it.
struct Error {
    std::string file;  // the path the error is about (may be empty for bundle-wide errors)
    std::string cause; // what happened, in plain words
    std::string hint;  // what the user can do

    std::string message() const
    {
        std::string m;
        if (!file.empty())
            m += file + ": ";
        m += cause;
        if (!hint.empty())
            m += " (" + hint + ")";
        return m;
    }
};

template <typename T> class Expected
{
public:
    Expected(T value) : m_v(std::move(value)) {}
    Expected(Error error) : m_v(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_v); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(m_v); }
    const T& value() const { return std::get<T>(m_v); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<Error>(m_v); }

private:
    std::variant<T, Error> m_v;
};

} // namespace rl
