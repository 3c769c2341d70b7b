// `rankline probe --socket-retry` on this machine: a refused non-blocking connect retried on the
// same socket gives ECONNABORTED on Linux, a fresh socket ECONNREFUSED (probe/socket_retry.h).
#include <QTest>

#include <cerrno>

#include "probe/socket_retry.h"

using namespace rl;

class TestSocketRetry : public QObject
{
    Q_OBJECT
private slots:
    void thisKernel()
    {
        SocketRetryReport r = reproduceSocketRetry();
        for (const auto& s : r.steps)
            qInfo("%s -> %d %s", s.call.c_str(), s.result, errnoText(s.error).c_str());
        if (!r.ran)
            QSKIP(qPrintable(QStringLiteral("the experiment could not run here: %1")
                                 .arg(QString::fromStdString(r.error))));
        QVERIFY(r.port > 0);
        QVERIFY(r.attempts >= 1 && r.attempts <= 3);
        QVERIFY(!r.verdict.empty());
        if (r.pendingError != ECONNREFUSED || r.retryError != ECONNABORTED || r.freshError != ECONNREFUSED) {
            QVERIFY(!r.reproduced);
            QSKIP(qPrintable(
                QStringLiteral("this kernel (%1) differs: first attempt %2, retry on the same socket "
                               "%3, fresh socket %4")
                    .arg(QString::fromStdString(r.kernel), QString::fromStdString(errnoText(r.pendingError)),
                         QString::fromStdString(errnoText(r.retryError)),
                         QString::fromStdString(errnoText(r.freshError)))));
        }
        QVERIFY(r.reproduced);
        QCOMPARE(QString::fromStdString(errnoName(r.retryError)), QStringLiteral("ECONNABORTED"));
        QCOMPARE(QString::fromStdString(errnoName(r.freshError)), QStringLiteral("ECONNREFUSED"));
        QVERIFY(
            QString::fromStdString(r.verdict).contains(QStringLiteral("Software caused connection abort")));
        // The steps name NCCL's two behaviours in order: same socket, then a fresh one.
        int same = -1, fresh = -1;
        for (std::size_t i = 0; i < r.steps.size(); ++i) {
            if (r.steps[i].call.find("same socket") != std::string::npos)
                same = static_cast<int>(i);
            if (r.steps[i].call.find("dup2") != std::string::npos)
                fresh = static_cast<int>(i);
        }
        QVERIFY(same >= 0 && fresh > same);
        QCOMPARE(r.steps[static_cast<std::size_t>(same)].error, ECONNABORTED);
    }

    void errnoNames()
    {
        QCOMPARE(QString::fromStdString(errnoName(ECONNREFUSED)), QStringLiteral("ECONNREFUSED"));
        QCOMPARE(QString::fromStdString(errnoName(0)), QStringLiteral("0"));
        QCOMPARE(QString::fromStdString(errnoText(ECONNABORTED)),
                 QStringLiteral("ECONNABORTED (Software caused connection abort)"));
    }
};

QTEST_GUILESS_MAIN(TestSocketRetry)
#include "tst_socket_retry.moc"
