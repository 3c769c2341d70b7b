#pragma once
// Lines the user marked, shared by the log view (a flag and a tint) and the timeline (a flag above
// the lane). Kept in line order so next/previous are a binary search away.

#include <QObject>

#include <optional>
#include <set>
#include <vector>

#include "util/strong_id.h"

namespace rl
{

class Bookmarks final : public QObject
{
    Q_OBJECT
public:
    explicit Bookmarks(QObject* parent = nullptr) : QObject(parent) {}

    bool contains(LineRef where) const { return m_lines.count(where) > 0; }
    bool empty() const { return m_lines.empty(); }
    std::size_t size() const { return m_lines.size(); }
    std::vector<LineRef> lines() const { return {m_lines.begin(), m_lines.end()}; }

    void toggle(LineRef where)
    {
        if (!m_lines.erase(where))
            m_lines.insert(where);
        emit changed(where);
    }
    void clear()
    {
        m_lines.clear();
        emit reset();
    }

signals:
    void changed(rl::LineRef where);
    void reset();

private:
    std::set<LineRef> m_lines;
};

} // namespace rl
