// rankline.1 and the bash completion are written by hand; this keeps them in step with the program:
// every command and option that `rankline --help` and `rankline COMMAND --help` print must be
// documented under that command in the man page and offered by the completion, and the man page
// documents no option the program does not have.
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace
{
QString rankline(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(RANKLINE_EXE), args);
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput());
}

// Options by command ("" for the window and the options that take no command).
using Options = QMap<QString, QSet<QString>>;

const QRegularExpression kOption(QStringLiteral("(?:^|[\\s\\[|,])(--?[a-z][a-z-]*)"));

void addOptions(const QString& text, const QString& command, Options& out)
{
    auto it = kOption.globalMatch(text);
    while (it.hasNext())
        out[command].insert(it.next().captured(1));
}

QString readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Man page text with roff escapes undone (\- is -, font changes dropped), cut into its .SH and .SS
// sections by title.
QMap<QString, QString> manSections(QString roff)
{
    roff.replace(QLatin1String("\\-"), QLatin1String("-"));
    roff.replace(QRegularExpression(QStringLiteral("\\\\f[BIRP]")), QString());
    roff.replace(QLatin1String("\\~"), QLatin1String(" "));
    QMap<QString, QString> sections;
    QString current;
    for (const QString& line : roff.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String(".SH ")) || line.startsWith(QLatin1String(".SS "))) {
            current = line.mid(4).trimmed();
            sections[current];
        } else {
            sections[current] += line + QLatin1Char('\n');
        }
    }
    return sections;
}

bool hasOption(const QString& text, const QString& option)
{
    return text.contains(QRegularExpression(
        QStringLiteral("(?<![\\w-])%1(?![\\w-])").arg(QRegularExpression::escape(option))));
}
} // namespace

class TestManPage : public QObject
{
    Q_OBJECT
    QStringList m_commands;
    Options m_options;
    QMap<QString, QString> m_man;

private slots:
    void initTestCase()
    {
        // Top level: the usage lines ("Usage: rankline ...", "       rankline ...") name the
        // commands and their options.
        const QString top = rankline({QStringLiteral("--help")});
        QVERIFY2(top.startsWith(QLatin1String("Usage: rankline")), qPrintable(top));
        const QRegularExpression usage(QStringLiteral("^(?:Usage:)?\\s*rankline\\b(.*)$"));
        const QRegularExpression command(QStringLiteral("^\\s*([a-z][a-z-]*)\\b"));
        for (const QString& line : top.split(QLatin1Char('\n'))) {
            QRegularExpressionMatch u = usage.match(line);
            if (!u.hasMatch())
                continue;
            QString cmd = command.match(u.captured(1)).captured(1);
            if (!cmd.isEmpty() && !m_commands.contains(cmd))
                m_commands << cmd;
            addOptions(u.captured(1), cmd, m_options);
        }
        QVERIFY2(m_commands.size() >= 3, qPrintable(m_commands.join(QLatin1Char(' '))));

        // Each command: Qt's option list ("  -h, --help   Displays ..."), options before the gap.
        const QRegularExpression optionLine(QStringLiteral("^\\s+(-\\S.*?)(?:\\s{2,}|$)"));
        for (const QString& cmd : m_commands) {
            const QString help = rankline({cmd, QStringLiteral("--help")});
            QVERIFY2(help.contains(QLatin1String("Options:")), qPrintable(cmd));
            for (const QString& line : help.split(QLatin1Char('\n'))) {
                QRegularExpressionMatch m = optionLine.match(line);
                if (m.hasMatch())
                    addOptions(m.captured(1), cmd, m_options);
            }
        }
        for (auto it = m_options.cbegin(); it != m_options.cend(); ++it)
            qInfo("rankline %s: %s", qPrintable(it.key().isEmpty() ? QStringLiteral("(window)") : it.key()),
                  qPrintable(QStringList(it.value().begin(), it.value().end()).join(QLatin1Char(' '))));

        m_man = manSections(readFile(QStringLiteral(RANKLINE_MANPAGE)));
        QVERIFY2(m_man.contains(QStringLiteral("OPTIONS")), RANKLINE_MANPAGE);
    }

    void everyCommandIsDocumented()
    {
        for (const QString& cmd : std::as_const(m_commands)) {
            QVERIFY2(m_man[QStringLiteral("SYNOPSIS")].contains(QStringLiteral(".B rankline %1").arg(cmd)),
                     qPrintable(cmd));
            const QRegularExpression item(QStringLiteral("^\\.TP\\n(?:\\.B[IR]? +)?\"?%1\\b").arg(cmd),
                                          QRegularExpression::MultilineOption);
            QVERIFY2(m_man[QStringLiteral("COMMANDS")].contains(item),
                     qPrintable(QStringLiteral("no .TP item for %1 under COMMANDS").arg(cmd)));
        }
    }

    void everyOptionIsDocumentedUnderItsCommand()
    {
        for (auto it = m_options.cbegin(); it != m_options.cend(); ++it) {
            const QString section = it.key().isEmpty() ? QStringLiteral("Window") : it.key();
            const QString text = m_man[section] + m_man[QStringLiteral("Common")];
            for (const QString& opt : it.value())
                QVERIFY2(hasOption(text, opt), qPrintable(QStringLiteral("%1 not documented in rankline.1 "
                                                                         "under \"%2\" or \"Common\"")
                                                              .arg(opt, section)));
        }
    }

    void manPageHasNoStaleOption()
    {
        QSet<QString> known;
        for (const auto& opts : std::as_const(m_options))
            known.unite(opts);
        QString optionsText;
        for (auto it = m_man.cbegin(); it != m_man.cend(); ++it)
            if (it.key() != QLatin1String("EXAMPLES") && it.key() != QLatin1String("SEE ALSO"))
                optionsText += it.value();
        const QRegularExpression longOption(QStringLiteral("(?<![\\w-])(--[a-z][a-z-]*)"));
        auto it = longOption.globalMatch(optionsText);
        while (it.hasNext()) {
            const QString opt = it.next().captured(1);
            QVERIFY2(known.contains(opt),
                     qPrintable(opt + QStringLiteral(" is in rankline.1 but not in --help")));
        }
    }

    void bashCompletionOffersEveryOption()
    {
        QTemporaryDir cwd; // complete in an empty folder: only commands and options come back
        QVERIFY(cwd.isValid());
        auto complete = [&cwd](const QStringList& words) {
            QProcess p;
            p.setWorkingDirectory(cwd.path());
            QString array;
            for (const QString& w : words)
                array += QStringLiteral(" '%1'").arg(w);
            p.start(QStringLiteral("bash"),
                    {QStringLiteral("-c"),
                     QStringLiteral("source \"$1\"; COMP_WORDS=(%1); COMP_CWORD=%2; _rankline; "
                                    "printf '%s\\n' \"${COMPREPLY[@]}\"")
                         .arg(array)
                         .arg(words.size() - 1),
                     QStringLiteral("bash"), QStringLiteral(RANKLINE_COMPLETION)});
            p.waitForFinished(10000);
            const QStringList out =
                QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            return QSet<QString>(out.begin(), out.end());
        };

        const QSet<QString> commands = complete({QStringLiteral("rankline"), QString()});
        for (const QString& cmd : std::as_const(m_commands))
            QVERIFY2(commands.contains(cmd), qPrintable(cmd));

        for (auto it = m_options.cbegin(); it != m_options.cend(); ++it) {
            QStringList words{QStringLiteral("rankline")};
            if (!it.key().isEmpty())
                words << it.key();
            words << QStringLiteral("-");
            const QSet<QString> offered = complete(words);
            for (const QString& opt : it.value())
                if (opt.startsWith(QLatin1String("--")))
                    QVERIFY2(offered.contains(opt), qPrintable(QStringLiteral("completion of `%1` lacks %2")
                                                                   .arg(words.join(QLatin1Char(' ')), opt)));
        }
    }
};

QTEST_GUILESS_MAIN(TestManPage)
#include "tst_manpage.moc"
