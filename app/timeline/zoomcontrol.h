#pragma once
// The one owner of the timeline's visible range. The lanes, the axis and the overview all read it and
// ask it for changes; none keeps a copy. Changes are clamped to the run (clampRange) and announced
// once with rangeChanged(). Discrete jumps (zoom to a range, to the failure, reset) are remembered so
// "Zoom back" returns to where the user was; continuous wheel, pinch and drag steps are not.

#include <QObject>

#include <cstdint>
#include <vector>

#include "timeline/timecoords.h"

class QAction;

namespace rl
{

class ZoomControl final : public QObject
{
    Q_OBJECT
public:
    explicit ZoomControl(QObject* parent = nullptr);

    // The whole run and the narrowest range worth showing; clears the history and shows everything.
    void setFullRange(TimeRange full, std::int64_t minDuration);
    TimeRange fullRange() const { return m_full; }
    TimeRange range() const { return m_range; }
    std::int64_t minDuration() const { return m_minDuration; }
    bool canGoBack() const { return !m_history.empty(); }

    // Continuous changes (wheel, pinch, pan): not remembered.
    void setRange(TimeRange r);
    void zoom(double factor, std::int64_t anchor);
    void pan(std::int64_t delta);
    // A jump: remembered for back().
    void zoomTo(TimeRange r);

    QAction* zoomInAction() const { return m_zoomIn; }
    QAction* zoomOutAction() const { return m_zoomOut; }
    QAction* fitAction() const { return m_fit; }
    QAction* backAction() const { return m_back; }

public slots:
    void zoomIn();
    void zoomOut();
    void fitAll();
    void back();

signals:
    void rangeChanged(rl::TimeRange range);

private:
    bool apply(TimeRange r);

    TimeRange m_full;
    TimeRange m_range;
    std::int64_t m_minDuration = 1;
    std::vector<TimeRange> m_history;
    QAction* m_zoomIn = nullptr;
    QAction* m_zoomOut = nullptr;
    QAction* m_fit = nullptr;
    QAction* m_back = nullptr;
};

} // namespace rl

Q_DECLARE_METATYPE(rl::TimeRange)
