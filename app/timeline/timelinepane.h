#pragma once
// The timeline as the window shows it: a toolbar (zoom to failure, back, zoom in and out, whole run,
// collapse hosts, only the hosts with findings), the lanes, the overview of the whole run, and a
// legend of shapes and colours.

#include <QWidget>

#include <memory>
#include <vector>

#include "models/analysisindex.h"
#include "timeline/timelinewidget.h"

class QAction;
class QToolBar;

namespace rl
{

class TimelineOverview;

// Shapes (what happened) and colours (how much it matters), drawn with the timeline's own glyphs.
class TimelineLegend final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineLegend(QWidget* parent = nullptr);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Item {
        bool title;
        MarkKind kind;
        MarkTier tier;
        QString text;
    };
    std::vector<Item> items() const;
    std::vector<QPointF> layoutItems(int width, int* lines) const;
};

class TimelinePane final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelinePane(QWidget* parent = nullptr);
    TimelineWidget* timeline() const { return m_timeline; }
    TimelineOverview* overview() const { return m_overview; }
    QToolBar* toolBar() const { return m_bar; }
    // The toolbar's "Only hosts with findings" toggle (disabled when every host has some).
    QAction* onlyFindingsAction() const { return m_onlyFindings; }
    void setIndex(std::shared_ptr<const AnalysisIndex> index,
                  TimelineWidget::ViewOnNewIndex view = TimelineWidget::ViewOnNewIndex::Reset);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    TimelineWidget* m_timeline = nullptr;
    TimelineOverview* m_overview = nullptr;
    QToolBar* m_bar = nullptr;
    QAction* m_onlyFindings = nullptr;
};

} // namespace rl
