#pragma once
// Swimlanes: one lane per rank, grouped by host, events as marks on one time axis. The initiating
// finding's evidence is emphasised and linked by an arrow from the earliest connect failure to the
// aborted retry, and on to the collateral reports that point at it.

#include <QWidget>

#include <memory>
#include <vector>

#include "models/analysisindex.h"
#include "timeline/timecoords.h"

namespace rl
{

class TimelineWidget final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget* parent = nullptr);

    void setIndex(std::shared_ptr<const AnalysisIndex> index);
    QSize sizeHint() const override { return {900, 260}; }
    QSize minimumSizeHint() const override { return {300, 120}; }

    const TimeCoords& coords() const { return m_coords; }
    // Where the mark for `where` is drawn, if its lane is shown (for tests and hit checks).
    std::optional<QPointF> markPosition(LineRef where) const;
    std::optional<LineRef> selectedLine() const { return m_selected; }

public slots:
    void fitAll();
    void zoomToInitiating();
    void zoomBy(double factor);
    void setSelectedLine(rl::LineRef where);

signals:
    void lineActivated(rl::LineRef where);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Mark {
        std::int64_t pos;
        LineRef where;
        int eventIndex;
        int weight; // draw order and size: higher is more important
    };
    struct Lane {
        ProcessId process;
        QString label;
        bool hostHeader = false;
        QString host;
        std::vector<Mark> marks; // sorted by pos
    };

    void rebuildLanes();
    double laneAreaLeft() const { return 128; }
    double laneTop() const { return 30; }
    double laneHeight() const { return 20; }
    int laneAt(double y) const;
    double xOf(std::int64_t pos) const { return laneAreaLeft() + m_coords.toX(pos); }
    double laneCenterY(ProcessId p) const;
    const Mark* markAt(QPointF pos) const;
    void setCoords(const TimeCoords& c);
    QColor colorFor(const Mark& m) const;

    std::shared_ptr<const AnalysisIndex> m_index;
    std::vector<Lane> m_lanes;
    std::vector<QString> m_collapsedHosts;
    TimeCoords m_coords;
    std::int64_t m_fullStart = 0;
    std::int64_t m_fullEnd = 1;
    std::optional<LineRef> m_selected;
    QPointF m_dragStart;
    TimeCoords m_dragCoords;
    bool m_dragging = false;
    bool m_dragMoved = false;
};

} // namespace rl
