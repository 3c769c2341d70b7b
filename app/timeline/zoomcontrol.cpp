#include "timeline/zoomcontrol.h"

#include <QAction>

namespace rl
{

namespace
{
constexpr std::size_t kHistoryDepth = 64;
}

ZoomControl::ZoomControl(QObject* parent) : QObject(parent)
{
    m_zoomIn = new QAction(tr("Zoom in"), this);
    m_zoomIn->setToolTip(tr("Zoom in around the middle (+)"));
    connect(m_zoomIn, &QAction::triggered, this, &ZoomControl::zoomIn);
    m_zoomOut = new QAction(tr("Zoom out"), this);
    m_zoomOut->setToolTip(tr("Zoom out around the middle (−)"));
    connect(m_zoomOut, &QAction::triggered, this, &ZoomControl::zoomOut);
    m_fit = new QAction(tr("Whole run"), this);
    m_fit->setToolTip(tr("Show the whole run (Home)"));
    connect(m_fit, &QAction::triggered, this, &ZoomControl::fitAll);
    m_back = new QAction(tr("Back"), this);
    m_back->setToolTip(tr("Return to the previous zoom (Backspace)"));
    m_back->setEnabled(false);
    connect(m_back, &QAction::triggered, this, &ZoomControl::back);
}

void ZoomControl::setFullRange(TimeRange full, std::int64_t minDuration)
{
    if (full.duration() <= 0)
        full.end = full.start + 1;
    m_full = full;
    m_minDuration = std::max<std::int64_t>(1, minDuration);
    m_history.clear();
    m_back->setEnabled(false);
    m_range = {}; // force the announcement
    apply(full);
}

bool ZoomControl::apply(TimeRange r)
{
    r = clampRange(r, m_full, m_minDuration);
    if (r == m_range)
        return false;
    m_range = r;
    m_zoomIn->setEnabled(r.duration() > m_minDuration);
    m_zoomOut->setEnabled(!(r == m_full));
    emit rangeChanged(r);
    return true;
}

void ZoomControl::setRange(TimeRange r)
{
    apply(r);
}

void ZoomControl::zoom(double factor, std::int64_t anchor)
{
    apply(zoomRange(m_range, factor, anchor));
}

void ZoomControl::pan(std::int64_t delta)
{
    apply({m_range.start + delta, m_range.end + delta});
}

void ZoomControl::zoomTo(TimeRange r)
{
    const TimeRange before = m_range;
    if (!apply(r))
        return;
    m_history.push_back(before);
    if (m_history.size() > kHistoryDepth)
        m_history.erase(m_history.begin());
    m_back->setEnabled(true);
}

void ZoomControl::zoomIn()
{
    zoom(0.5, m_range.start + m_range.duration() / 2);
}

void ZoomControl::zoomOut()
{
    zoom(2.0, m_range.start + m_range.duration() / 2);
}

void ZoomControl::fitAll()
{
    zoomTo(m_full);
}

void ZoomControl::back()
{
    if (m_history.empty())
        return;
    const TimeRange r = m_history.back();
    m_history.pop_back();
    m_back->setEnabled(!m_history.empty());
    apply(r);
}

} // namespace rl
