#pragma once
// The picture of the timeline around the failure, as geometry: lanes, ticks, marks, arrows and
// labels in abstract units (1 unit = 1 CSS pixel). The HTML report turns it into inline SVG, the
// PDF export paints it with QPainter straight into the page, so both show the same vector drawing.
// Pure: no Qt, no I/O, testable with data tables.

#include <cstdint>
#include <string>
#include <vector>

namespace rl
{

struct Analysis;

struct TimelineLayout {
    double width = 900;      // whole picture, labels included
    double labelWidth = 112; // lane labels left of the plot
    double laneHeight = 18;
    double fontSize = 11;
    std::size_t maxLanes = 16; // process lanes; the rest are summarised in `omitted`
    double minTickSpacing = 96;
};

// What a mark or arrow stands for; writers map it to a colour.
enum class PictureMarkKind { Initiating, Collateral, Error, Warn, Other, Unlogged };
const char* markKindName(PictureMarkKind k);
// The colour both renderings use, as "#rrggbb".
const char* markColor(PictureMarkKind k);

struct TimelinePicture {
    struct Lane {
        double y = 0; // top
        std::string label;
        bool header = false; // a host row
        bool initiating = false;
    };
    struct Tick {
        double x = 0;
        std::string label;
        bool zero = false; // the initiating event
    };
    struct Mark {
        double x = 0, y = 0, r = 0;
        PictureMarkKind kind = PictureMarkKind::Other;
        bool diamond = false;
    };
    struct Point {
        double x = 0, y = 0;
    };
    // From `from` to `to` as a cubic curve (straight when both controls lie on the line), ending
    // in a filled triangular head.
    struct Arrow {
        Point from, c1, c2, to;
        Point head[3];
        PictureMarkKind kind = PictureMarkKind::Initiating;
        bool dashed = false;
    };
    enum class Align { Left, Right };
    struct Label {
        double x = 0, y = 0; // anchor point: baseline-centre line of the lane; x is the start or end
        std::string text;
        Align align = Align::Left;
        PictureMarkKind kind = PictureMarkKind::Other;
    };
    struct LegendItem {
        double x = 0, y = 0;
        PictureMarkKind kind = PictureMarkKind::Other;
        bool diamond = false;
        std::string text;
    };

    double width = 0, height = 0, fontSize = 11;
    double plotLeft = 0, plotRight = 0, plotTop = 0, plotBottom = 0, laneHeight = 18;
    bool hasTime = false;
    bool empty = true; // nothing to draw (no events)
    std::string axisTitle;
    std::string caption; // one sentence under the picture: what 0 is, which lanes are shown
    std::vector<Lane> lanes;
    std::vector<Tick> ticks;
    std::vector<Mark> marks;
    std::vector<Arrow> arrows;
    std::vector<Label> labels;
    std::vector<LegendItem> legend;
    std::size_t omitted = 0; // processes not drawn
};

// A readable step (1, 2, 5 x 10^n) of at least `minStep`.
std::int64_t niceStep(double minStep);
// The same for time: 1-2-5 steps up to a minute, then clock steps (2 min, 15 min, 1 h, 1 d, 7 d…).
std::int64_t niceTimeStep(double minStepUs);
// A UTC time of day as far as `resolutionUs` says it is known: "12:54" (a minute or coarser),
// "12:54:22" (a second), "12:54:22.864" (finer).
std::string clockLabel(std::int64_t us, std::int64_t resolutionUs);
// "+1.5 s", "−200 ms", "+2 h", "0": a tick label relative to the initiating event.
std::string relativeTimeLabel(std::int64_t deltaUs, std::int64_t stepUs);

// An arrow between two points: straight when level, else an S-curve leaving and arriving
// horizontally, as the window's timeline draws it.
TimelinePicture::Arrow makeArrow(double x1, double y1, double x2, double y2, PictureMarkKind kind,
                                 bool dashed);

TimelinePicture layoutTimeline(const Analysis& analysis, const TimelineLayout& layout = {});

} // namespace rl
