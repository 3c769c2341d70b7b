// Log text, file names and folder names reach the window from anyone: a line holding <img src=x>
// must show those characters, never an image, in every widget that shows it (finding panel, log
// view and its tooltips, timeline tooltips, status bar).
#include <QApplication>
#include <QHelpEvent>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolTip>

#include "hostile_util.h"
#include "models/logmodel.h"
#include "timeline/timelinewidget.h"
#include "window/findingpanel.h"
#include "window/mainwindow.h"

using namespace rl;

namespace
{

const QString kImg = QStringLiteral("<img src=x>");
const QByteArray kMarkup = " <img src=x> <b>bold</b> <a href=\"rankline:line/0/0\">link</a> %2 %1";

// What a person sees: Qt renders a string as rich text when it guesses so (tooltips, labels).
QString shown(const QString& s)
{
    if (!Qt::mightBeRichText(s))
        return s;
    QTextDocument d;
    d.setHtml(s);
    return d.toPlainText();
}

} // namespace

class TestUntrustedText : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;

private slots:
    void initTestCase()
    {
        qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
        m_enc = hostile::encyclopedia();
        QVERIFY(m_enc);
    }

    void markupInLogsShowsLiterally()
    {
        hostile::Bundle b;
        // The folder name, a file name, the initiating line itself and an empty (skipped) file.
        const QString job = QStringLiteral("<b>job");
        QVERIFY(QDir(b.root()).rename(QStringLiteral("job"), job));
        const QString rank5 = b.path(job + QStringLiteral("/gpu-b/rank5.log"));
        QByteArray text = hostile::readAll(rank5);
        QList<QByteArray> lines = text.split('\n');
        lines[25] += kMarkup; // line 26: the aborted connect, the finding's anchor
        QFile::remove(rank5);
        QVERIFY(b.write(job + QStringLiteral("/gpu-b/rank5.log"), lines.join('\n')));
        QVERIFY(b.write(job + QStringLiteral("/<i>notes%2.log"), "note" + kMarkup + "\n"));
        QVERIFY(b.write(job + QStringLiteral("/<img src=x>.log"), ""));

        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openPaths({b.path(job)});
        // While reading, the status bar names the folder: as text.
        bool statusSeen = false;
        for (QLabel* l : w.findChildren<QLabel*>())
            if (l->text().contains(job)) {
                statusSeen = true;
                QCOMPARE(l->textFormat(), Qt::PlainText);
            }
        QVERIFY(statusSeen);
        QVERIFY(ready.wait(20000));

        // The finding panel escapes everything it quotes.
        const QString panel = w.findingPanel()->toPlainText();
        QVERIFY(panel.contains(QString::fromUtf8(kMarkup.trimmed())));
        QVERIFY(panel.contains(kImg + QStringLiteral(".log")));
        QVERIFY(!w.findingPanel()->toHtml().contains(kImg));

        // The log view: display text and tooltips, every row and column.
        auto* model = w.logView()->model();
        int hostileRows = 0;
        for (int r = 0; r < model->rowCount(); ++r) {
            for (int c = 0; c < model->columnCount(); ++c) {
                const QModelIndex i = model->index(r, c);
                const QString display = i.data(Qt::DisplayRole).toString();
                const QVariant tip = i.data(Qt::ToolTipRole);
                // The text column shows a line without its stamp and prefixes, the tooltip it whole.
                if (tip.isValid() && c == LogModel::TextColumn)
                    QVERIFY2(shown(tip.toString()).endsWith(display), qPrintable(display));
                else if (tip.isValid() && c != LogModel::TimeColumn)
                    QCOMPARE(shown(tip.toString()), display);
                if (display.contains(kImg)) {
                    ++hostileRows;
                    QVERIFY(shown(tip.toString()).contains(kImg));
                }
            }
            const QString source = model->index(r, LogModel::SourceColumn).data().toString();
            if (source.startsWith(QStringLiteral("<i>notes")))
                QCOMPARE(source, QStringLiteral("<i>notes%2.log:1"));
        }
        QCOMPARE(hostileRows, 2);

        // The timeline's tooltip on the initiating mark.
        const Analysis& a = w.currentIndex()->analysis();
        const Finding* f = a.initiatingFinding();
        QVERIFY(f);
        auto pos = w.timeline()->markPosition(f->anchor);
        QVERIFY(pos);
        // The timeline is a scroll area: its marks live on the viewport.
        QWidget* lanes = w.timeline()->viewport();
        QHelpEvent help(QEvent::ToolTip, pos->toPoint(), lanes->mapToGlobal(pos->toPoint()));
        QApplication::sendEvent(lanes, &help);
        const QString tip = QToolTip::text();
        QVERIFY2(shown(tip).contains(QString::fromUtf8(kMarkup.trimmed())), qPrintable(tip));
        QVERIFY(shown(tip).contains(QStringLiteral("rank5.log:26")));
    }
};

QTEST_MAIN(TestUntrustedText)
#include "tst_untrusted_text.moc"
