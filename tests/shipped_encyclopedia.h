#pragma once
// The encyclopedia that ships in resources/, as the tests that diagnose load it: once per test
// program, in its initTestCase.

#include <QtGlobal>

#include <memory>

#include "encyclopedia/encyclopedia.h"

namespace rl::test
{

// Null, having said why in the test's output, when it does not load (QVERIFY the result).
inline std::shared_ptr<const Encyclopedia> shippedEncyclopedia()
{
    auto enc = loadEncyclopedia(RANKLINE_RESOURCES_DIR "/encyclopedia");
    if (!enc.ok()) {
        qWarning("the shipped encyclopedia does not load: %s", enc.error().message().c_str());
        return nullptr;
    }
    return std::make_shared<const Encyclopedia>(std::move(*enc));
}

} // namespace rl::test
