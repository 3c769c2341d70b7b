#pragma once
// Text from a bundle (log lines, file and member names, host names) comes from anyone. Qt guesses
// rich text from a string's first tag in tooltips, labels and message boxes (Qt::mightBeRichText),
// so `<img src=x>` in a log line would be rendered, not shown. Everything such text reaches goes
// through these: escaped for the places that take HTML, plain-text format for the others.

#include <QLabel>
#include <QMessageBox>
#include <QString>
#include <QTextDocument>

namespace rl
{

// A tooltip that shows `text` literally, line breaks kept.
inline QString plainToolTip(const QString& text)
{
    return text.isEmpty() ? text : Qt::convertFromPlainText(text, Qt::WhiteSpacePre);
}

// A warning box whose text is never read as markup.
inline void plainWarning(QWidget* parent, const QString& title, const QString& text)
{
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

} // namespace rl
