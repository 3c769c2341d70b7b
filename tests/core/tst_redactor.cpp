// The redactor: what it replaces, what it must leave alone (versions, times, C++ scopes, file
// names), and that one original gets one pseudonym everywhere.
#include <QTest>

#include "report/redactor.h"

using namespace rl;

class TestRedactor : public QObject
{
    Q_OBJECT
private slots:
    void replaces_data()
    {
        QTest::addColumn<QString>("hosts"); // comma-separated known hosts, seeded first
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");

        QTest::newRow("NCCL prefix and peer") << "gpu-a,gpu-b"
                                              << "gpu-b:39962:40133 [1] misc/socket.cc:483 NCCL WARN "
                                                 "socketStartConnect: Connect to 10.0.0.11<45763> "
                                                 "failed : Software caused connection abort"
                                              << "host-2:39962:40133 [1] misc/socket.cc:483 NCCL WARN "
                                                 "socketStartConnect: Connect to ip-1<45763> "
                                                 "failed : Software caused connection abort";
        QTest::newRow("host learned from 'remote peer', FQDN shares the pseudonym")
            << ""
            << "socketProgress: Connection closed by remote peer gpu004.ds-a4-r02.abc.com<55693> (gpu004 "
               "down)"
            << "socketProgress: Connection closed by remote peer host-1<55693> (host-1 down)";
        QTest::newRow("host name is a whole word only")
            << "gpu-a"
            << "gpu-ab gpu-a. xgpu-a gpu-a/rank0.log gpu-a.log"
            << "gpu-ab host-1. xgpu-a host-1/rank0.log host-1.log";
        QTest::newRow("versions, times, scopes are not addresses")
            << ""
            << "NCCL version 2.18.3+cuda12.2 at 14:03:17,417 in c10d::ProcessGroupNCCL::allreduce 535.104.05"
            << "NCCL version 2.18.3+cuda12.2 at 14:03:17,417 in c10d::ProcessGroupNCCL::allreduce 535.104.05";
        QTest::newRow("loopback stays: it is the diagnosis")
            << ""
            << "Connect to 127.0.0.1<45069> failed; bind [::1]:29500"
            << "Connect to 127.0.0.1<45069> failed; bind [::1]:29500";
        QTest::newRow("IPv6 with zone, link-local kept as a fact")
            << ""
            << "Connect to fe80::966d:ae03:a2:8cf0%ib1<17943> failed, peer 2001:db8::7"
            << "Connect to linklocal-ip-1%ib1<17943> failed, peer ip-2";
        QTest::newRow("IPv4 in brackets and with ports") << ""
                                                         << "[10.1.2.3]:29500 and 10.1.2.3:1234, 10.1.2.4"
                                                         << "[ip-1]:29500 and ip-1:1234, ip-2";
        QTest::newRow("AWS host name carries an address") << ""
                                                          << "ip-10-0-3-17.ec2.internal and ip-10-0-3-17"
                                                          << "host-1 and host-1";
        QTest::newRow("tokens by name") << ""
                                        << "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345 "
                                           "WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567"
                                        << "HF_TOKEN=secret-1 WANDB_API_KEY=secret-2";
        QTest::newRow("AWS keys") << ""
                                  << "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE "
                                     "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
                                  << "AWS_ACCESS_KEY_ID=secret-1 AWS_SECRET_ACCESS_KEY=secret-2";
        QTest::newRow("bare token shapes")
            << ""
            << "using ghp_0123456789abcdefghijABCDEFGHIJ0123 and AKIAIOSFODNN7EXAMPLE"
            << "using secret-1 and secret-2";
        QTest::newRow("bearer and JSON password")
            << ""
            << R"(Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl {"password": "hunter22"})"
            << R"(Authorization: Bearer secret-1 {"password": "secret-2"})";
        QTest::newRow("password in a URL") << ""
                                           << "git clone https://alice:s3cr3t@git.corp.internal/repo.git"
                                           << "git clone https://user-1:secret-1@host-1/repo.git";
        QTest::newRow("home paths and the user elsewhere")
            << ""
            << "File \"/home/alice/train.py\", line 3 (alice ran it); /Users/bob/x"
            << "File \"/home/user-1/train.py\", line 3 (user-1 ran it); /Users/user-2/x";
        QTest::newRow("e-mail") << ""
                                << "contact ops.team@corp.example.com now"
                                << "contact email-1 now";
        QTest::newRow("settings are not secrets")
            << ""
            << "max_tokens: 512, num_tokens=4096, Tokenizer: loaded, token embeddings"
            << "max_tokens: 512, num_tokens=4096, Tokenizer: loaded, token embeddings";
        QTest::newRow("file names and modules are not hosts")
            << ""
            << "train.py libnccl.so.2 torch.distributed.elastic threading.local() ProcessGroupNCCL.cpp:1275"
            << "train.py libnccl.so.2 torch.distributed.elastic threading.local() ProcessGroupNCCL.cpp:1275";
        QTest::newRow("public documentation hosts stay")
            << ""
            << "see https://github.com/NVIDIA/nccl/issues/1515 and docs.nvidia.com"
            << "see https://github.com/NVIDIA/nccl/issues/1515 and docs.nvidia.com";
        QTest::newRow("generic words are never hosts") << "localhost,user,node"
                                                       << "user on node via localhost"
                                                       << "user on node via localhost";
    }

    void replaces()
    {
        QFETCH(QString, hosts);
        QFETCH(QString, input);
        QFETCH(QString, expected);
        Redactor r;
        for (const auto& h : hosts.split(QLatin1Char(','), Qt::SkipEmptyParts))
            r.addHost(h.toStdString());
        QCOMPARE(QString::fromStdString(r.apply(input.toStdString())), expected);
    }

    // One original, one pseudonym, across calls; the legend lists them in order.
    void consistentAcrossCalls()
    {
        Redactor r;
        r.addHost("gpu-a");
        QCOMPARE(r.apply("10.0.0.7 then 10.0.0.8"), std::string("ip-1 then ip-2"));
        QCOMPARE(r.apply("back to 10.0.0.8 on gpu-a"), std::string("back to ip-2 on host-1"));
        QCOMPARE(r.apply("GPU-A is gpu-a"), std::string("host-1 is host-1"));
        const auto& legend = r.legend();
        QCOMPARE(legend.size(), std::size_t{3});
        QCOMPARE(legend[0].pseudonym, std::string("host-1"));
        QCOMPARE(legend[0].original, std::string("gpu-a"));
        QCOMPARE(legend[1].original, std::string("10.0.0.7"));
        QCOMPARE(legend[2].kind, PseudonymKind::Address);
    }

    // learn() finds what a later apply() of other text must already know.
    void learnedHostsApplyEverywhere()
    {
        Redactor r;
        r.learn("socketProgress: Connection closed by remote peer trainer-7<51874>");
        QCOMPARE(r.apply("trainer-7 exited"), std::string("host-1 exited"));
        r.learn("host      : worker-3.cluster.svc");
        QCOMPARE(r.apply("worker-3 and worker-3.cluster.svc"), std::string("host-2 and host-2"));
    }

    void deterministic()
    {
        const std::string text = "a 10.1.1.1 b hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345 c /home/zoe/x d 10.1.1.2";
        Redactor a, b;
        QCOMPARE(a.apply(text), b.apply(text));
    }
};

QTEST_GUILESS_MAIN(TestRedactor)
#include "tst_redactor.moc"
