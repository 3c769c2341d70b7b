#include "bundle/pickle.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace rl
{

namespace
{

using nlohmann::json;

// A value on the pickle machine's stack. Shared, because a memo slot and the stack hold the same
// list or dict, which APPENDS and SETITEMS then fill; a container takes a copy of a value when it
// is put in, by which time the pickle has finished building that value.
struct Node {
    json value;
    std::uint64_t weight = 1; // values in it, itself included: what copying it costs
    std::uint32_t depth = 1;  // containers nested in it, itself included
    std::string global;       // a GLOBAL's "module.name", else empty
};
using NodePtr = std::shared_ptr<Node>;

class Machine
{
public:
    Machine(std::string_view bytes, const std::string& file, const PickleLimits& limits)
        : m_bytes(bytes), m_file(file), m_limits(limits)
    {
        // A value costs a byte or more of the pickle, but for memo references (two bytes for a
        // string, or a dict of a stack frame that many entries share): a dump with stack traces
        // builds a few values per byte. Sixteen is room enough, and keeps a pickle of a few
        // hundred bytes that references itself into billions from taking gigabytes first.
        m_limits.maxValues =
            std::min<std::uint64_t>(m_limits.maxValues, 16 * std::uint64_t{bytes.size()} + (1u << 20));
    }

    Expected<json> run()
    {
        while (true) {
            if (m_at >= m_bytes.size())
                return fail("it ends before its STOP opcode (a truncated file)");
            const auto op = static_cast<unsigned char>(m_bytes[m_at++]);
            if (op == '.') {
                if (m_stack.empty())
                    return fail("STOP with nothing built");
                return std::move(m_stack.back()->value);
            }
            if (!step(op))
                return Error{m_file, m_problem, kHint};
        }
    }

private:
    static constexpr const char* kHint =
        "the file is not a pickle of plain data, or it was cut short while being written";

    Error fail(std::string cause) const { return Error{m_file, "not a readable pickle: " + cause, kHint}; }
    bool problem(std::string cause)
    {
        m_problem = "not a readable pickle: " + std::move(cause) + " (at byte " + std::to_string(m_at) + ")";
        return false;
    }

    // Bytes of the input, checked against its end.
    std::optional<std::string_view> take(std::uint64_t n)
    {
        if (n > m_bytes.size() - m_at)
            return std::nullopt;
        std::string_view s = m_bytes.substr(m_at, static_cast<std::size_t>(n));
        m_at += static_cast<std::size_t>(n);
        return s;
    }
    std::optional<std::uint64_t> little(unsigned n)
    {
        auto s = take(n);
        if (!s)
            return std::nullopt;
        std::uint64_t v = 0;
        for (unsigned i = 0; i < n; ++i)
            v |= std::uint64_t{static_cast<unsigned char>((*s)[i])} << (8 * i);
        return v;
    }
    // Protocol 0's operands: text up to a newline.
    std::optional<std::string_view> line()
    {
        const std::size_t nl = m_bytes.find('\n', m_at);
        if (nl == std::string_view::npos)
            return std::nullopt;
        std::string_view s = m_bytes.substr(m_at, nl - m_at);
        m_at = nl + 1;
        return s;
    }

    bool push(json v)
    {
        if (m_stack.size() >= kMaxStack)
            return problem("more values on its stack than any dump holds");
        auto n = std::make_shared<Node>();
        n->value = std::move(v);
        m_stack.push_back(std::move(n));
        return count(1);
    }
    bool pushNode(NodePtr n)
    {
        if (m_stack.size() >= kMaxStack)
            return problem("more values on its stack than any dump holds");
        m_stack.push_back(std::move(n));
        return true;
    }
    bool count(std::uint64_t values)
    {
        m_values += values;
        if (m_values > m_limits.maxValues)
            return problem("it builds more than " + std::to_string(m_limits.maxValues) +
                           " values (references that copy a value into itself, or not a dump)");
        return true;
    }
    NodePtr pop()
    {
        NodePtr n = std::move(m_stack.back());
        m_stack.pop_back();
        return n;
    }
    std::size_t floor() const { return m_marks.empty() ? 0 : m_marks.back(); }
    bool has(std::size_t n) const { return m_stack.size() - floor() >= n; }
    // The values above the last MARK, which goes.
    std::optional<std::vector<NodePtr>> popMark()
    {
        if (m_marks.empty())
            return std::nullopt;
        const std::size_t at = m_marks.back();
        m_marks.pop_back();
        std::vector<NodePtr> items(std::make_move_iterator(m_stack.begin() + static_cast<std::ptrdiff_t>(at)),
                                   std::make_move_iterator(m_stack.end()));
        m_stack.resize(at);
        return items;
    }

    // Puts a copy of `item` into `into` (an array), or as the value of `key` (an object).
    bool insert(Node& into, const Node& item, const Node* key = nullptr)
    {
        if (!count(item.weight))
            return false;
        if (item.depth + 1 > m_limits.maxDepth)
            return problem("containers nested deeper than " + std::to_string(m_limits.maxDepth));
        into.weight += item.weight;
        into.depth = std::max<std::uint32_t>(into.depth, item.depth + 1);
        if (key) {
            if (!into.value.is_object())
                return problem("SETITEM on something that is not a dict");
            const std::string k = key->value.is_string()
                                      ? key->value.get<std::string>()
                                      : key->value.dump(-1, ' ', false, json::error_handler_t::replace);
            into.value[k] = item.value;
        } else {
            if (!into.value.is_array())
                return problem("APPEND on something that is not a list");
            into.value.push_back(item.value);
        }
        return true;
    }
    bool container(json empty, std::vector<NodePtr> items)
    {
        auto n = std::make_shared<Node>();
        n->value = std::move(empty);
        for (const auto& item : items)
            if (!insert(*n, *item))
                return false;
        return pushNode(std::move(n)) && count(1);
    }

    bool integer(std::string_view text)
    {
        if (text == "01")
            return push(true);
        if (text == "00")
            return push(false);
        if (!text.empty() && text.back() == 'L')
            text.remove_suffix(1);
        const std::string s(text);
        char* end = nullptr;
        errno = 0;
        const long long v = std::strtoll(s.c_str(), &end, 10);
        if (end == s.c_str() || *end != '\0')
            return problem("an INT that is no number");
        if (errno == ERANGE)
            return push(std::strtod(s.c_str(), nullptr));
        return push(static_cast<std::int64_t>(v));
    }
    // LONG1 and LONG4: little-endian two's complement.
    bool longInteger(std::string_view b)
    {
        if (b.empty())
            return push(0);
        const bool negative = (static_cast<unsigned char>(b.back()) & 0x80) != 0;
        if (b.size() <= 8) {
            std::uint64_t v = 0;
            for (std::size_t i = 0; i < b.size(); ++i)
                v |= std::uint64_t{static_cast<unsigned char>(b[i])} << (8 * i);
            if (!negative)
                return push(v); // json keeps an unsigned value exact
            if (b.size() < 8)
                v |= ~std::uint64_t{0} << (8 * b.size());
            return push(static_cast<std::int64_t>(v));
        }
        double d = 0;
        for (std::size_t i = b.size(); i-- > 0;)
            d = d * 256 + static_cast<unsigned char>(b[i]);
        if (negative)
            d -= std::ldexp(1.0, static_cast<int>(8 * b.size()));
        return push(d);
    }
    bool text(std::optional<std::string_view> s)
    {
        if (!s)
            return problem("a string longer than the rest of the file");
        return push(std::string(*s));
    }
    bool memoPut(std::uint64_t index)
    {
        if (m_stack.empty())
            return problem("PUT with nothing to keep");
        if (m_memo.size() >= kMaxStack && !m_memo.count(index))
            return problem("more memo slots than any dump uses");
        m_memo[index] = m_stack.back();
        return true;
    }
    bool memoGet(std::optional<std::uint64_t> index)
    {
        if (!index)
            return problem("GET cut short");
        auto it = m_memo.find(*index);
        if (it == m_memo.end())
            return problem("GET of memo slot " + std::to_string(*index) + ", never PUT");
        return pushNode(it->second) && count(1);
    }
    // REDUCE: only torch.jit's list builders and type tags give a value (their first argument).
    bool reduce(const Node& callable, const Node& args)
    {
        static const char* const kIdentity[] = {
            "torch.jit._pickle.build_intlist",  "torch.jit._pickle.build_doublelist",
            "torch.jit._pickle.build_boollist", "torch.jit._pickle.build_tensorlist",
            "torch.jit._pickle.build_list",     "torch.jit._pickle.restore_type_tag",
        };
        const bool identity = std::any_of(std::begin(kIdentity), std::end(kIdentity),
                                          [&](const char* g) { return callable.global == g; });
        if (identity && args.value.is_array() && !args.value.empty()) {
            auto n = std::make_shared<Node>();
            n->value = args.value.front();
            n->weight = args.weight;
            n->depth = args.depth;
            return pushNode(std::move(n));
        }
        return push(nullptr);
    }

    bool step(unsigned char op)
    {
        switch (op) {
        case 0x80: // PROTO
            return take(1) ? true : problem("PROTO cut short");
        case 0x95: // FRAME
            return take(8) ? true : problem("FRAME cut short");
        case '(': // MARK
            if (m_marks.size() >= m_limits.maxDepth)
                return problem("MARKs nested deeper than " + std::to_string(m_limits.maxDepth));
            m_marks.push_back(m_stack.size());
            return true;
        case '0': // POP
            if (has(1)) {
                m_stack.pop_back();
                return true;
            }
            if (m_marks.empty())
                return problem("POP of an empty stack");
            m_marks.pop_back();
            return true;
        case '1': // POP_MARK
            return popMark() ? true : problem("POP_MARK without a MARK");
        case '2': // DUP
            return has(1) ? pushNode(m_stack.back()) : problem("DUP of an empty stack");
        case 'N':
            return push(nullptr);
        case 0x88:
            return push(true);
        case 0x89:
            return push(false);
        case 'I': {
            auto s = line();
            return s ? integer(*s) : problem("INT cut short");
        }
        case 'L': {
            auto s = line();
            return s ? integer(*s) : problem("LONG cut short");
        }
        case 'J': {
            auto v = little(4);
            return v ? push(static_cast<std::int64_t>(static_cast<std::int32_t>(*v)))
                     : problem("BININT cut short");
        }
        case 'K': {
            auto v = little(1);
            return v ? push(*v) : problem("BININT1 cut short");
        }
        case 'M': {
            auto v = little(2);
            return v ? push(*v) : problem("BININT2 cut short");
        }
        case 0x8a: { // LONG1
            auto n = little(1);
            auto b = n ? take(*n) : std::nullopt;
            return b ? longInteger(*b) : problem("LONG1 cut short");
        }
        case 0x8b: { // LONG4
            auto n = little(4);
            auto b = n ? take(*n) : std::nullopt;
            return b ? longInteger(*b) : problem("LONG4 cut short");
        }
        case 'F': {
            auto s = line();
            return s ? push(std::strtod(std::string(*s).c_str(), nullptr)) : problem("FLOAT cut short");
        }
        case 'G': { // BINFLOAT, big-endian
            auto s = take(8);
            if (!s)
                return problem("BINFLOAT cut short");
            std::uint64_t bits = 0;
            for (char c : *s)
                bits = bits << 8 | static_cast<unsigned char>(c);
            double d = 0;
            std::memcpy(&d, &bits, sizeof d);
            return push(std::isfinite(d) ? json(d) : json(nullptr));
        }
        case 'S': { // STRING: a quoted repr
            auto s = line();
            if (!s)
                return problem("STRING cut short");
            std::string_view v = *s;
            if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front())
                v = v.substr(1, v.size() - 2);
            return push(std::string(v));
        }
        case 'V': // UNICODE (raw-unicode-escape, read as it stands)
            return text(line());
        case 'T':
        case 'X':
        case 'B': { // BINSTRING, BINUNICODE, BINBYTES
            auto n = little(4);
            return text(n ? take(*n) : std::nullopt);
        }
        case 'U':
        case 'C':
        case 0x8c: { // SHORT_BINSTRING, SHORT_BINBYTES, SHORT_BINUNICODE
            auto n = little(1);
            return text(n ? take(*n) : std::nullopt);
        }
        case 0x8d:
        case 0x8e:
        case 0x96: { // BINUNICODE8, BINBYTES8, BYTEARRAY8
            auto n = little(8);
            return text(n ? take(*n) : std::nullopt);
        }
        case 0x97: // NEXT_BUFFER: a buffer given out of band, which a file does not hold
            return push(nullptr);
        case 0x98: // READONLY_BUFFER
            return has(1) ? true : problem("READONLY_BUFFER of an empty stack");
        case ']':
        case ')':
        case 0x8f: // EMPTY_LIST, EMPTY_TUPLE, EMPTY_SET
            return push(json::array());
        case '}':
            return push(json::object());
        case 'l':
        case 't':
        case 0x91: { // LIST, TUPLE, FROZENSET
            auto items = popMark();
            return items ? container(json::array(), std::move(*items)) : problem("a list without its MARK");
        }
        case 0x85:
        case 0x86:
        case 0x87: { // TUPLE1..3
            const std::size_t n = op - 0x84u;
            if (!has(n))
                return problem("a tuple of more values than the stack holds");
            std::vector<NodePtr> items(m_stack.end() - static_cast<std::ptrdiff_t>(n), m_stack.end());
            m_stack.resize(m_stack.size() - n);
            return container(json::array(), std::move(items));
        }
        case 'd': { // DICT
            auto items = popMark();
            if (!items || items->size() % 2)
                return problem("a dict without its MARK or with a key and no value");
            auto n = std::make_shared<Node>();
            n->value = json::object();
            for (std::size_t i = 0; i < items->size(); i += 2)
                if (!insert(*n, *(*items)[i + 1], (*items)[i].get()))
                    return false;
            return pushNode(std::move(n)) && count(1);
        }
        case 'a': { // APPEND
            if (!has(2))
                return problem("APPEND without a list");
            NodePtr v = pop();
            return insert(*m_stack.back(), *v);
        }
        case 'e':
        case 0x90: { // APPENDS, ADDITEMS
            auto items = popMark();
            if (!items || m_stack.empty())
                return problem("APPENDS without its MARK or its list");
            for (const auto& v : *items)
                if (!insert(*m_stack.back(), *v))
                    return false;
            return true;
        }
        case 's': { // SETITEM
            if (!has(3))
                return problem("SETITEM without a dict");
            NodePtr v = pop();
            NodePtr k = pop();
            return insert(*m_stack.back(), *v, k.get());
        }
        case 'u': { // SETITEMS
            auto items = popMark();
            if (!items || items->size() % 2 || m_stack.empty())
                return problem("SETITEMS without its MARK, its dict, or a value for each key");
            for (std::size_t i = 0; i < items->size(); i += 2)
                if (!insert(*m_stack.back(), *(*items)[i + 1], (*items)[i].get()))
                    return false;
            return true;
        }
        case 'p': { // PUT
            auto s = line();
            return s ? memoPut(std::strtoull(std::string(*s).c_str(), nullptr, 10))
                     : problem("PUT cut short");
        }
        case 'q': {
            auto v = little(1);
            return v ? memoPut(*v) : problem("BINPUT cut short");
        }
        case 'r': {
            auto v = little(4);
            return v ? memoPut(*v) : problem("LONG_BINPUT cut short");
        }
        case 0x94: // MEMOIZE
            return memoPut(m_memo.size());
        case 'g': {
            auto s = line();
            return memoGet(
                s ? std::optional<std::uint64_t>(std::strtoull(std::string(*s).c_str(), nullptr, 10))
                  : std::nullopt);
        }
        case 'h':
            return memoGet(little(1));
        case 'j':
            return memoGet(little(4));
        case 'c': { // GLOBAL: module and name, each on a line
            auto module = line();
            auto name = module ? line() : std::nullopt;
            if (!name)
                return problem("GLOBAL cut short");
            auto n = std::make_shared<Node>();
            n->global = std::string(*module) + "." + std::string(*name);
            return pushNode(std::move(n)) && count(1);
        }
        case 0x93: { // STACK_GLOBAL
            if (!has(2))
                return problem("STACK_GLOBAL without its names");
            NodePtr name = pop();
            NodePtr module = pop();
            auto n = std::make_shared<Node>();
            if (module->value.is_string() && name->value.is_string())
                n->global = module->value.get<std::string>() + "." + name->value.get<std::string>();
            return pushNode(std::move(n)) && count(1);
        }
        case 'R': { // REDUCE
            if (!has(2))
                return problem("REDUCE without a callable and its arguments");
            NodePtr args = pop();
            NodePtr callable = pop();
            return reduce(*callable, *args);
        }
        case 0x81: // NEWOBJ: class and arguments make an object the reader does not build
            if (!has(2))
                return problem("NEWOBJ without a class and its arguments");
            m_stack.resize(m_stack.size() - 2);
            return push(nullptr);
        case 0x92: // NEWOBJ_EX
            if (!has(3))
                return problem("NEWOBJ_EX without a class and its arguments");
            m_stack.resize(m_stack.size() - 3);
            return push(nullptr);
        case 'o': // OBJ
            return popMark() ? push(nullptr) : problem("OBJ without its MARK");
        case 'i': { // INST: module and name lines, then the arguments since the MARK
            if (!line() || !line())
                return problem("INST cut short");
            return popMark() ? push(nullptr) : problem("INST without its MARK");
        }
        case 'b': // BUILD: the state of an object the reader does not build
            if (!has(2))
                return problem("BUILD without an object and its state");
            m_stack.pop_back();
            return true;
        case 'P': // PERSID: a reference to something kept outside the pickle
            return line() ? push(nullptr) : problem("PERSID cut short");
        case 'Q': // BINPERSID
            if (!has(1))
                return problem("BINPERSID of an empty stack");
            m_stack.pop_back();
            return push(nullptr);
        case 0x82:
            return take(1) ? push(nullptr) : problem("EXT1 cut short");
        case 0x83:
            return take(2) ? push(nullptr) : problem("EXT2 cut short");
        case 0x84:
            return take(4) ? push(nullptr) : problem("EXT4 cut short");
        default: {
            static const char hex[] = "0123456789abcdef";
            return problem(std::string("unknown opcode 0x") + hex[op >> 4] + hex[op & 15]);
        }
        }
    }

    // A dump's stack holds at most the items of its largest list before APPENDS (torch.jit's
    // pickler does not batch them): a ring buffer of entries, a few hundred thousand at most.
    static constexpr std::size_t kMaxStack = std::size_t{16} << 20;

    std::string_view m_bytes;
    const std::string& m_file;
    PickleLimits m_limits;
    std::size_t m_at = 0;
    std::vector<NodePtr> m_stack;
    std::vector<std::size_t> m_marks;
    std::unordered_map<std::uint64_t, NodePtr> m_memo;
    std::uint64_t m_values = 0;
    std::string m_problem;
};

} // namespace

Expected<nlohmann::json> readPickle(std::string_view bytes, const std::string& file,
                                    const PickleLimits& limits)
{
    Machine m(bytes, file, limits);
    return m.run();
}

} // namespace rl
