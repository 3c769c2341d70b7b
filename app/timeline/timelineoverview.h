#pragma once
// The whole run at a glance under the lanes: how many events happen when (all ranks together),
// coloured by the most important one, the initiating event, and the visible range as a window that
// can be dragged. Drag elsewhere to pick a range to zoom to; the wheel zooms around the cursor. It
// reads and changes the range only through the timeline's ZoomControl.

#include <QWidget>

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "timeline/timecoords.h"
#include "timeline/timelinemodel.h"

namespace rl
{

class ZoomControl;

// Event density over the whole run in fixed bins, built once per model: for each bin the number of
// marks and the highest tier among them. Pure, so it can be tested.
struct DensityBins {
    TimeRange range;
    std::vector<std::uint32_t> counts;
    std::vector<MarkTier> top;
    void build(const TimelineModel& model, TimeRange over, int bins);
    // Bins [first, last) that fall in pixel column `x` of a strip `width` pixels wide.
    std::pair<int, int> binsOfColumn(int x, int width) const;
};

class TimelineOverview final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineOverview(ZoomControl* zoom, QWidget* parent = nullptr);
    // `left`/`right` align the strip with the lane area above it; `reference` is the initiating event.
    void setModel(std::shared_ptr<const TimelineModel> model, std::optional<std::int64_t> reference);
    void setMargins(double left, double right);
    QSize sizeHint() const override { return {600, 38}; }
    QSize minimumSizeHint() const override { return {120, 30}; }
    const DensityBins& density() const { return m_density; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    TimeCoords fullCoords() const;
    QRectF windowRect() const;

    ZoomControl* m_zoom;
    std::shared_ptr<const TimelineModel> m_model;
    std::optional<std::int64_t> m_reference;
    DensityBins m_density;
    double m_left = 0;
    double m_right = 0;
    enum class Drag { None, Move, Range } m_drag = Drag::None;
    double m_pressX = 0;
    double m_hoverX = 0;
    TimeRange m_pressRange;
};

} // namespace rl
