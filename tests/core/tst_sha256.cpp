// SHA-256 against the FIPS 180-2 / NIST example vectors, fed whole and in awkward pieces.
#include <QTest>

#include "util/sha256.h"

using namespace rl;

class TestSha256 : public QObject
{
    Q_OBJECT
private slots:
    void vectors_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("hex");
        QTest::newRow("empty") << QByteArray()
                               << QStringLiteral(
                                      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        QTest::newRow("abc") << QByteArray("abc")
                             << QStringLiteral(
                                    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        QTest::newRow("two blocks (56 bytes)")
            << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            << QStringLiteral("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        QTest::newRow("112 bytes") << QByteArray("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhij"
                                                 "klmnoijklmnopjklmnopqklmnopqrlmnop"
                                                 "qrsmnopqrstnopqrstu")
                                   << QStringLiteral(
                                          "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
        QTest::newRow("one million a")
            << QByteArray(1000000, 'a')
            << QStringLiteral("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
        QTest::newRow("63 bytes (padding edge)")
            << QByteArray(63, 'x')
            << QStringLiteral("75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2");
    }

    void vectors()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, hex);
        const std::string_view data(input.constData(), static_cast<std::size_t>(input.size()));
        QCOMPARE(QString::fromStdString(sha256Hex(data)), hex);
        // The same in uneven pieces: buffering across block boundaries must not change the hash.
        Sha256 h;
        std::size_t at = 0, step = 1;
        while (at < data.size()) {
            std::size_t n = std::min(step, data.size() - at);
            h.update(data.substr(at, n));
            at += n;
            step = step * 3 % 127 + 1;
        }
        QCOMPARE(QString::fromStdString(h.hexDigest()), hex);
    }
};

QTEST_GUILESS_MAIN(TestSha256)
#include "tst_sha256.moc"
