#pragma once
// File ▸ Export Report…: where to, which format, which paper, and whether to redact (on by
// default: reports are made to be handed on).

#include <QDialog>

#include "report/reportexport.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPushButton;

namespace rl
{

class ExportDialog final : public QDialog
{
    Q_OBJECT
public:
    // `suggestedPath` names the file without extension's worries: the format follows the combo.
    ExportDialog(const QString& suggestedPath, QWidget* parent = nullptr);

    ExportRequest request() const;
    void setRequest(const ExportRequest& request);

private:
    void formatChanged();
    void pathEdited();
    void browse();

    QLineEdit* m_path = nullptr;
    QComboBox* m_format = nullptr;
    QComboBox* m_paper = nullptr;
    QCheckBox* m_redact = nullptr;
    QPushButton* m_ok = nullptr;
};

} // namespace rl
