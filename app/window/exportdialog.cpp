#include "window/exportdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace rl
{

namespace
{
const ReportFormat kFormats[] = {ReportFormat::Html, ReportFormat::Pdf, ReportFormat::Markdown,
                                 ReportFormat::Json};

QString extension(ReportFormat f)
{
    return QString::fromLatin1(reportFormatName(f));
}
} // namespace

ExportDialog::ExportDialog(const QString& suggestedPath, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Export Incident Report"));
    auto* form = new QFormLayout;
    m_path = new QLineEdit(suggestedPath, this);
    m_path->setObjectName(QStringLiteral("exportPath"));
    m_path->setMinimumWidth(420);
    auto* browse = new QPushButton(tr("Choose…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    auto* pathLabel = new QLabel(tr("&File:"), this);
    pathLabel->setBuddy(m_path); // a row holding a layout gets no buddy by itself
    form->addRow(pathLabel, pathRow);

    m_format = new QComboBox(this);
    m_format->addItem(tr("HTML — one self-contained file"));
    m_format->addItem(tr("PDF — paginated, for printing"));
    m_format->addItem(tr("Markdown — paste into a GitHub issue"));
    m_format->addItem(tr("JSON — for scripts (extends diagnose --json)"));
    form->addRow(tr("F&ormat:"), m_format);

    m_paper = new QComboBox(this);
    m_paper->addItem(tr("A4"));
    m_paper->addItem(tr("Letter"));
    form->addRow(tr("&Paper:"), m_paper);

    m_redact = new QCheckBox(tr("&Redact host names, IP addresses, user names and secrets"), this);
    m_redact->setObjectName(QStringLiteral("exportRedact"));
    m_redact->setChecked(true);
    auto* note =
        new QLabel(tr("Replaced by consistent pseudonyms (host-1, ip-3, secret-2). Turn off only for a "
                      "copy that stays private: it then lists which pseudonym stands for what."),
                   this);
    note->setWordWrap(true);
    note->setStyleSheet(QStringLiteral("color: palette(dark)"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_redact);
    layout->addWidget(note);
    layout->addSpacing(6);
    layout->addWidget(buttons);

    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChanged);
    connect(m_path, &QLineEdit::textEdited, this, &ExportDialog::pathEdited);
    pathEdited();
    formatChanged();
}

ExportRequest ExportDialog::request() const
{
    ExportRequest r;
    r.path = m_path->text().trimmed();
    r.format = kFormats[std::max(0, m_format->currentIndex())];
    r.paper = m_paper->currentIndex() == 1 ? PaperSize::Letter : PaperSize::A4;
    r.redact = m_redact->isChecked();
    return r;
}

void ExportDialog::setRequest(const ExportRequest& r)
{
    m_path->setText(r.path);
    for (int i = 0; i < 4; ++i)
        if (kFormats[i] == r.format)
            m_format->setCurrentIndex(i);
    m_paper->setCurrentIndex(r.paper == PaperSize::Letter ? 1 : 0);
    m_redact->setChecked(r.redact);
}

// The extension follows the format, so the file always opens with the right program.
void ExportDialog::formatChanged()
{
    const ReportFormat f = kFormats[std::max(0, m_format->currentIndex())];
    m_paper->setEnabled(f == ReportFormat::Pdf);
    QString path = m_path->text().trimmed();
    if (!path.isEmpty()) {
        QFileInfo fi(path);
        if (reportFormatFromName(fi.fileName().toStdString()))
            path.chop(fi.suffix().size() + 1);
        m_path->setText(path + QLatin1Char('.') + extension(f));
    }
    m_ok->setEnabled(!m_path->text().trimmed().isEmpty());
}

void ExportDialog::pathEdited()
{
    if (auto f = reportFormatFromName(m_path->text().trimmed().toStdString()))
        for (int i = 0; i < 4; ++i)
            if (kFormats[i] == *f) {
                QSignalBlocker block(m_format);
                m_format->setCurrentIndex(i);
                m_paper->setEnabled(*f == ReportFormat::Pdf);
            }
    m_ok->setEnabled(!m_path->text().trimmed().isEmpty());
}

void ExportDialog::browse()
{
    const QString chosen =
        QFileDialog::getSaveFileName(this, tr("Export incident report"), m_path->text(),
                                     tr("HTML (*.html);;PDF (*.pdf);;Markdown (*.md);;JSON (*.json)"));
    if (chosen.isEmpty())
        return;
    m_path->setText(chosen);
    pathEdited();
}

} // namespace rl
