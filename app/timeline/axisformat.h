#pragma once
// Tick steps and tick labels for the time axis: absolute clock time on one row, time relative to the
// initiating event on the other. Pure functions, tested with data tables.

#include <QDateTime>
#include <QString>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

#include "timeline/timecoords.h"

namespace rl
{

// A step a clock reader finds natural (…, 200 ms, 500 ms, 1 s, 2 s, 5 s, 10 s, 15 s, 30 s, 1 min, …)
// giving at least `minPixels` between ticks. Falls back to 1-2-5 steps beyond a day.
inline std::int64_t clockTickStep(const TimeCoords& c, double minPixels)
{
    if (c.width() <= 0)
        return std::max<std::int64_t>(1, c.duration());
    constexpr std::int64_t s = 1000000;
    static constexpr std::array<std::int64_t, 33> steps = {
        1,      2,      5,      10,      20,      50,      100,     200,      500,      1000,     2000,
        5000,   10000,  20000,  50000,   100000,  200000,  500000,  s,        2 * s,    5 * s,    10 * s,
        15 * s, 30 * s, 60 * s, 120 * s, 300 * s, 600 * s, 900 * s, 1800 * s, 3600 * s, 7200 * s, 21600 * s};
    const double want = static_cast<double>(c.duration()) / c.width() * minPixels;
    for (std::int64_t step : steps)
        if (static_cast<double>(step) >= want)
            return step;
    std::int64_t step = 86400 * s;
    for (bool five = true; static_cast<double>(step) < want; five = !five)
        step *= five ? 5 : 2; // 1 day, 5, 10, 50, 100, ...
    return step;
}

// First multiple of `step` at or after `t` (also for negative t).
inline std::int64_t firstTick(std::int64_t t, std::int64_t step)
{
    std::int64_t q = t / step;
    if (q * step < t)
        ++q;
    return q * step;
}

// First tick of a merged-order axis from `t`: there is no line before the first (row 0), though a
// view zoomed out around an early event starts before it.
inline std::int64_t firstLineTick(std::int64_t t, std::int64_t step)
{
    return firstTick(std::max<std::int64_t>(t, 0), step);
}

// Clock time of a tick, as precise as the step needs: "14:03:20", "14:03:17.250", "14:03:17.250120".
inline QString formatClock(std::int64_t us, std::int64_t step)
{
    const QDateTime dt = QDateTime::fromMSecsSinceEpoch(us >= 0 ? us / 1000 : (us - 999) / 1000, Qt::UTC);
    if (step % 1000000 == 0)
        return dt.toString(QStringLiteral("HH:mm:ss"));
    if (step % 1000 == 0)
        return dt.toString(QStringLiteral("HH:mm:ss.zzz"));
    const auto micros = static_cast<int>(((us % 1000) + 1000) % 1000);
    return dt.toString(QStringLiteral("HH:mm:ss.zzz")) +
           QStringLiteral("%1").arg(micros, 3, 10, QLatin1Char('0'));
}

// Signed offset from the initiating event: "+1.5 s", "−250 ms", "+20 µs", "+2 min 30 s", "0". The unit
// follows the value and the decimals the step, so neighbouring labels differ in their last digit.
inline QString formatOffset(std::int64_t us, std::int64_t step)
{
    if (us == 0)
        return QStringLiteral("0");
    const QString sign = us < 0 ? QStringLiteral("\u2212") : QStringLiteral("+");
    const std::int64_t a = std::llabs(us);
    auto decimals = [](std::int64_t stepIn, std::int64_t unit) {
        int d = 0;
        for (std::int64_t u = unit; d < 6 && stepIn % u != 0; u /= 10)
            ++d;
        return d;
    };
    // The unit follows the value, the decimals follow the step: "+1.5 s" at 500 ms steps.
    if (a < 1000)
        return sign + QStringLiteral("%1 µs").arg(a);
    if (a < 1000000)
        return sign + QStringLiteral("%1 ms").arg(static_cast<double>(a) / 1e3, 0, 'f', decimals(step, 1000));
    if (a < 60000000 || step % 1000000 != 0)
        return sign +
               QStringLiteral("%1 s").arg(static_cast<double>(a) / 1e6, 0, 'f', decimals(step, 1000000));
    const std::int64_t totalS = a / 1000000;
    const std::int64_t h = totalS / 3600, m = (totalS % 3600) / 60, sec = totalS % 60;
    QString out = sign;
    if (h > 0)
        out += QStringLiteral("%1 h").arg(h);
    if (m > 0)
        out += (h > 0 ? QStringLiteral(" ") : QString()) + QStringLiteral("%1 min").arg(m);
    if (sec > 0)
        out += (h > 0 || m > 0 ? QStringLiteral(" ") : QString()) + QStringLiteral("%1 s").arg(sec);
    return out;
}

} // namespace rl
