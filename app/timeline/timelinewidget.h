#pragma once
// Swimlanes: one lane per rank, grouped (and collapsible) by host, events as shaped marks on one time
// axis that shows clock time and time relative to the initiating event. The initiating finding's
// evidence is emphasised and linked by arrows from the earliest connect failure to the aborted retry
// and on to the collateral reports that point at it.
//
// The axis stays at the top while the lanes scroll under it. The visible range belongs to a
// ZoomControl (zoomControl()); this widget, its overview and the toolbar only ask it for changes.
// Painting reads per-row geometry from a GeometryCache keyed on (range, width), so scrolling,
// hovering and selecting never rebuild it.

#include <QAbstractScrollArea>
#include <QPointer>

#include <memory>
#include <optional>
#include <vector>

#include "models/analysisindex.h"
#include "timeline/lanelayout.h"
#include "timeline/markglyphs.h"
#include "timeline/timecoords.h"
#include "timeline/timelinegeometry.h"
#include "timeline/timelinemodel.h"

namespace rl
{

class Bookmarks;
class ZoomControl;

class TimelineWidget final : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget* parent = nullptr);
    ~TimelineWidget() override;

    enum class ViewOnNewIndex { Reset, Keep };
    // Builds the model from the analysis. Keep holds the zoom, the collapsed hosts and the selection
    // (a re-analysis of the same bundle, e.g. after a clock override); Reset zooms to the failure.
    void setIndex(std::shared_ptr<const AnalysisIndex> index, ViewOnNewIndex view = ViewOnNewIndex::Reset);
    // A model with or without the analysis behind it (without: no text, tooltips or arrows).
    void setModel(std::shared_ptr<const TimelineModel> model, std::shared_ptr<const AnalysisIndex> index = {},
                  ViewOnNewIndex view = ViewOnNewIndex::Reset);
    std::shared_ptr<const TimelineModel> model() const { return m_model; }
    void setBookmarks(Bookmarks* bookmarks);

    ZoomControl* zoomControl() const { return m_zoom; }
    // The lane area's mapping for the current range and width.
    TimeCoords coords() const;
    const LaneLayout& layout() const { return m_layout; }
    // Where the mark for `where` is drawn, in viewport coordinates, if its row is laid out.
    std::optional<QPointF> markPosition(LineRef where) const;
    std::optional<LineRef> selectedLine() const { return m_selected; }
    // The second event picked with Ctrl+click, for "Pin as simultaneous".
    std::optional<LineRef> pairedLine() const { return m_paired; }
    bool isHostCollapsed(int host) const;
    void setHostCollapsed(int host, bool collapsed);
    void setAllHostsCollapsed(bool collapsed);
    // Leaves out the hosts where no finding has evidence or a collateral report: on a job of
    // thousands of hosts, the few that matter would otherwise be a long scroll apart. Nothing is
    // left out when no host has any (there would be nothing to show).
    void setQuietHostsHidden(bool hidden);
    bool quietHostsHidden() const { return m_hideQuiet; }
    // How many hosts are left out now, and how many could be.
    int hiddenHostCount() const;
    int quietHostCount() const;
    const GeometryCache& geometryCache() const { return m_cache; }

    // Layout constants (device-independent pixels).
    double axisHeight() const { return 44; }
    double labelWidth() const { return 168; }
    double rightMargin() const { return 12; }
    double laneHeight() const { return m_compact ? 13 : 19; }
    double hostHeight() const { return m_compact ? 17 : 21; }

    QSize sizeHint() const override { return {900, 300}; }
    QSize minimumSizeHint() const override { return {300, 140}; }

public slots:
    void fitAll();
    void zoomToInitiating();
    // The span of a finding's evidence (and its anchor), with room around it; its lane in view.
    void zoomToFinding(int finding);
    void zoomBy(double factor);
    void zoomBack();
    void setSelectedLine(rl::LineRef where);
    void setPairedLine(rl::LineRef where);
    void clearPairedLine();

signals:
    void lineActivated(rl::LineRef where);
    // The user's word on clocks; the window re-runs the analysis with it.
    void clockOffsetRequested(const QString& host, qint64 offsetUs);
    void clockOffsetCleared(const QString& host);
    void pinRequested(rl::LineRef a, rl::LineRef b);
    void clockSettingsCleared();
    void bookmarkToggled(rl::LineRef where);
    // The hosts left out (setQuietHostsHidden) changed: a new model, or the setting.
    void hiddenHostsChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    bool viewportEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    struct Hit {
        int row = -1;
        const MarkTrack* track = nullptr;
        const TimelineMark* mark = nullptr;
        int crowd = 0; // other marks within the same few pixels
    };
    enum class Drag { None, Pending, Pan, Range };

    void rebuildLayout();
    void updateScrollBar();
    const MarkTrack* trackOfRow(const LaneRow& row) const;
    int cacheKey(const LaneRow& row) const;
    double scrollY() const;
    double rowTopInViewport(const LaneRow& row) const { return axisHeight() + row.top - scrollY(); }
    int rowAtViewportY(double y) const;
    double xOf(std::int64_t pos, const TimeCoords& c) const { return labelWidth() + c.toX(pos); }
    Hit hitTest(QPointF pos) const;
    LineRef lineOfEvent(std::uint32_t event) const;
    int rowShowing(ProcessId process) const;
    void ensureRowVisible(int row);
    std::int64_t referencePos() const; // the initiating event's axis position, if any
    std::int64_t axisPos(LineRef where) const;
    QString tooltipFor(const Hit& hit) const;
    QString hostTooltip(int host) const;
    QString hostRanks(const TimelineHost& h) const; // "4 ranks": a process driving 4 GPUs is 4
    void askClockOffset(int host);

    void paintAxis(QPainter& p, const TimeCoords& c);
    void paintRows(QPainter& p, const TimeCoords& c, std::pair<int, int> rows);
    void paintMarks(QPainter& p, const TimeCoords& c, std::pair<int, int> rows);
    void paintArrows(QPainter& p, const TimeCoords& c);
    void paintOverlays(QPainter& p, const TimeCoords& c);

    std::shared_ptr<const AnalysisIndex> m_index;
    std::shared_ptr<const TimelineModel> m_model;
    QPointer<Bookmarks> m_bookmarks;
    ZoomControl* m_zoom = nullptr;
    LaneLayout m_layout;
    std::vector<bool> m_collapsed;
    std::vector<bool> m_quiet; // per host of the model: no mark of a finding (see setQuietHostsHidden)
    bool m_hideQuiet = false;  // the quiet hosts are left out of the layout
    bool m_compact = false;
    GeometryCache m_cache;
    GlyphAtlas m_atlas;

    std::optional<LineRef> m_selected;
    std::optional<LineRef> m_paired;
    QPointF m_hover{-1, -1};

    Drag m_drag = Drag::None;
    QPointF m_pressPos;
    TimeRange m_pressRange;
    int m_pressScroll = 0;
    double m_pinchAccum = 1.0;
};

} // namespace rl
