#include <QTest>

#include <string>
#include <string_view>
#include <vector>

#include "parse/line_parser.h"

using namespace rl;

class TestLineParser : public QObject
{
    Q_OBJECT
private slots:
    void ncclPrefix_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("host");
        QTest::addColumn<qint64>("pid");
        QTest::addColumn<qint64>("tid");
        QTest::addColumn<int>("dev");
        QTest::addColumn<QString>("level");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("fileLine");
        QTest::addColumn<QString>("message");

        QTest::newRow("2.18 INFO") << "gpu-a:48213:48213 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.11<0>"
                                   << "gpu-a" << qint64(48213) << qint64(48213) << 0 << "INFO"
                                   << "" << 0 << "Bootstrap : Using eth0:10.0.0.11<0>";
        QTest::newRow("2.18 WARN")
            << "gpu-b:39964:40075 [3] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
               "10.0.0.11<45763> failed : Software caused connection abort"
            << "gpu-b" << qint64(39964) << qint64(40075) << 3 << "WARN"
            << "misc/socket.cc" << 483
            << "socketStartConnect: Connect to 10.0.0.11<45763> failed : Software caused connection abort";
        QTest::newRow("2.26 stamped WARN")
            << "[2025-03-20 14:02:11] gpu-b:39964:40075 [3] misc/socket.cc:544 NCCL WARN socketPollConnect: "
               "connect returned Connection refused, exceeded error retry count (35)"
            << "gpu-b" << qint64(39964) << qint64(40075) << 3 << "WARN"
            << "misc/socket.cc" << 544
            << "socketPollConnect: connect returned Connection refused, exceeded error retry count (35)";
        QTest::newRow("2.30 function") << "[2026-01-10 09:15:42] gpu-b:39964:40075 [3] os/linux.cc:288 "
                                          "(socketConnectCheck) NCCL WARN ncclOsSocketPollConnect: boom"
                                       << "gpu-b" << qint64(39964) << qint64(40075) << 3 << "WARN"
                                       << "os/linux.cc" << 288 << "ncclOsSocketPollConnect: boom";
        QTest::newRow("mpirun tag") << "[1,3]<stdout>:node7:1234:1290 [3] NCCL INFO Using network IB"
                                    << "node7" << qint64(1234) << qint64(1290) << 3 << "INFO"
                                    << "" << 0 << "Using network IB";
        QTest::newRow("srun -l") << "10: node7:1234:1234 [2] NCCL INFO comm 0x1 rank 10 nranks 16"
                                 << "node7" << qint64(1234) << qint64(1234) << 2 << "INFO"
                                 << "" << 0 << "comm 0x1 rank 10 nranks 16";
        QTest::newRow("torchrun rank") << "[rank3]:gpu-a:7:9 [3] NCCL INFO x"
                                       << "gpu-a" << qint64(7) << qint64(9) << 3 << "INFO"
                                       << "" << 0 << "x";
        QTest::newRow("k8s stamp") << "2024-05-01T12:00:00.123456789Z pod-1:55:60 [0] NCCL INFO hello"
                                   << "pod-1" << qint64(55) << qint64(60) << 0 << "INFO"
                                   << "" << 0 << "hello";
        QTest::newRow("redacted pid") << "host [5] misc/socket.cc:49 NCCL WARN socketProgress: gone"
                                      << "host" << qint64(-1) << qint64(-1) << 5 << "WARN"
                                      << "misc/socket.cc" << 49 << "socketProgress: gone";
        QTest::newRow("plugin WARN") << "kolyoz2:25146:25854 [0] ib_plugin.c:1105 NCCL WARN NET/IB : Got "
                                        "completion from peer 10.0.35.1<49189> with error 4"
                                     << "kolyoz2" << qint64(25146) << qint64(25854) << 0 << "WARN"
                                     << "ib_plugin.c" << 1105
                                     << "NET/IB : Got completion from peer 10.0.35.1<49189> with error 4";
        // nccl#928, as posted: the backtick that opened the poster's inline code.
        QTest::newRow("backtick")
            << "error log `H100-2:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : "
               "Got completion from peer fe80::966d:ae03:8b:df78%ib0<53249> with error 4"
            << "H100-2" << qint64(19989) << qint64(20082) << 1 << "WARN"
            << "transport/net_ib.cc" << 1295
            << "NET/IB : Got completion from peer fe80::966d:ae03:8b:df78%ib0<53249> with error 4";
        // nccl#778, as posted: the WARN without host:pid:tid [dev].
        QTest::newRow("headless WARN")
            << "misc/ibvwrap.cc:288 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error "
               "Operation not supported"
            << "" << qint64(-1) << qint64(-1) << -1 << "WARN"
            << "misc/ibvwrap.cc" << 288
            << "Call to ibv_reg_dmabuf_mr failed with error Operation not supported";
        // A blog post's NCCL 2.x WARN, the source line after a space: the number is no host.
        QTest::newRow("numeric token") << "ibvwrap.c: 106 NCCL WARN Call to ibv_reg_mr failed"
                                       << "" << qint64(-1) << qint64(-1) << -1 << "WARN"
                                       << "" << 0 << "Call to ibv_reg_mr failed";
        // nccl#905, as the maintainer quoted it: the message without any prefix.
        QTest::newRow("bare WARN") << "NCCL WARN NET/IB : Got async event : port error"
                                   << "" << qint64(-1) << qint64(-1) << -1 << "WARN"
                                   << "" << 0 << "NET/IB : Got async event : port error";
        // nccl#1808, as posted behind pdsh's prefix: NCCL printed an empty host name.
        QTest::newRow("empty host")
            << "2025-08-12 09:37:03.463948 worker-9 >> [2025-08-12 01:37:03] :166:1226 [0] "
               "misc/socket.cc:484 "
               "NCCL WARN socketFinalizeAccept: wrong magic 74656d2f20544547 != 7970663b906d70b9"
            << "" << qint64(166) << qint64(1226) << 0 << "WARN"
            << "misc/socket.cc" << 484
            << "socketFinalizeAccept: wrong magic 74656d2f20544547 != 7970663b906d70b9";
        QTest::newRow("quoted") << "'node1:7:8 [0] NCCL INFO x"
                                << "node1" << qint64(7) << qint64(8) << 0 << "INFO"
                                << "" << 0 << "x";
        QTest::newRow("CRLF") << "gpu-a:1:2 [0] NCCL INFO x\r"
                              << "gpu-a" << qint64(1) << qint64(2) << 0 << "INFO"
                              << "" << 0 << "x";
        // A tqdm bar redrawn with carriage returns ends no line: the WARN is glued to its last
        // drawing, whose "2.4it/s]" is not part of the host.
        QTest::newRow("after a progress bar")
            << QString::fromUtf8(
                   "\r  1%|\xe2\x96\x8f | 1/100 [00:00<00:40, 2.4it/s]\r  2%|\xe2\x96\x8e | 2/100 "
                   "[00:00<00:40, 2.4it/s]gpu-b:39962:40133 [1] misc/socket.cc:483 NCCL WARN x")
            << "gpu-b" << qint64(39962) << qint64(40133) << 1 << "WARN"
            << "misc/socket.cc" << 483 << "x";
        // The bar's first drawing, then the WARN after a carriage return and a last drawing.
        QTest::newRow("after a carriage return and a progress bar")
            << "\r45%]gpu-b:39962:40133 [1] misc/socket.cc:483 NCCL WARN x"
            << "gpu-b" << qint64(39962) << qint64(40133) << 1 << "WARN"
            << "misc/socket.cc" << 483 << "x";
        // The first line of a file that `cat` joined after another, with its byte order mark.
        QTest::newRow("byte order mark") << QString::fromUtf8("\xEF\xBB\xBFgpu-a:1:2 [0] NCCL INFO x")
                                         << "gpu-a" << qint64(1) << qint64(2) << 0 << "INFO"
                                         << "" << 0 << "x";
        // Without a carriage return a host is what it says, a redacted one included (real logs).
        QTest::newRow("redacted host") << "<cluster_name>:7:8 [0] NCCL INFO x"
                                       << "<cluster_name>" << qint64(7) << qint64(8) << 0 << "INFO"
                                       << "" << 0 << "x";
    }
    void ncclPrefix()
    {
        QFETCH(QString, line);
        QByteArray bytes = line.toUtf8();
        ParsedLine p = parseLine(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        QVERIFY(p.nccl.has_value());
        QFETCH(QString, host);
        QFETCH(qint64, pid);
        QFETCH(qint64, tid);
        QFETCH(int, dev);
        QFETCH(QString, level);
        QFETCH(QString, file);
        QFETCH(int, fileLine);
        QFETCH(QString, message);
        QCOMPARE(QString::fromUtf8(p.nccl->host.data(), static_cast<qsizetype>(p.nccl->host.size())), host);
        QCOMPARE(qint64(p.nccl->pid), pid);
        QCOMPARE(qint64(p.nccl->tid), tid);
        QCOMPARE(p.nccl->device, dev);
        QCOMPARE(QString::fromLatin1(levelName(p.nccl->level)), level);
        QCOMPARE(QString::fromUtf8(p.nccl->file.data(), static_cast<qsizetype>(p.nccl->file.size())), file);
        QCOMPARE(p.nccl->fileLine, fileLine);
        QCOMPARE(QString::fromUtf8(p.nccl->message.data(), static_cast<qsizetype>(p.nccl->message.size())),
                 message);
    }

    void notNccl_data()
    {
        QTest::addColumn<QString>("line");
        QTest::newRow("empty") << "";
        QTest::newRow("python") << "2025-06-12 14:03:16,902 INFO train.py:57 starting";
        QTest::newRow("bare version") << "NCCL version 2.18.3+cuda12.2";
        QTest::newRow("NCCL word only") << "see NCCL docs for NCCL INFOrmation";
        QTest::newRow("NCCL word opening a sentence") << "NCCL WARNings are printed on stderr";
        QTest::newRow("traceback") << "Traceback (most recent call last):";
    }
    void notNccl()
    {
        QFETCH(QString, line);
        QByteArray b = line.toUtf8();
        QVERIFY(!parseLine(std::string_view(b.constData(), static_cast<std::size_t>(b.size()))).nccl);
    }

    void decorations_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("rank");
        QTest::newRow("torchrun rank")
            << "[rank12]:[E612 14:03:17.1 x.cpp:1] boom" << int(Decoration::TorchrunRank) << 12;
        QTest::newRow("torchrun default") << "[default3]:hello" << int(Decoration::TorchrunDefault) << 3;
        QTest::newRow("torchrun role") << "[trainer3]:hello" << int(Decoration::TorchrunDefault) << 3;
        QTest::newRow("torchrun template with two numbers")
            << "[trainer0|0]:ncclInternalError: Internal check failed." << int(Decoration::TorchrunDefault)
            << 0;
        QTest::newRow("torchrun template of the rank")
            << "[12]: hello" << int(Decoration::TorchrunRank) << 12;
        QTest::newRow("horovodrun") << "[3]<stderr>:hello" << int(Decoration::MpirunTag) << 3;
        QTest::newRow("horovodrun with its stamp")
            << "Mon Oct 19 20:44:09 2020[0]<stderr>:I1019 20:44:09.594008 1 x.py:30] Step"
            << int(Decoration::MpirunTag) << 0;
        QTest::newRow("glog in brackets is not a role")
            << "[E0612 14:03:16.500000 ProcessGroupNCCL.cpp:607] x" << int(Decoration::None) << -1;
        QTest::newRow("NCCL 2.26 stamp is not a rank")
            << "[2025-06-12 14:03:16] h:1:2 [0] a.cc:1 NCCL WARN x" << int(Decoration::None) << -1;
        QTest::newRow("PyTorch's [Rank N] is not a prefix")
            << "[Rank 3] Watchdog caught collective operation timeout" << int(Decoration::None) << -1;
        QTest::newRow("torchelastic's summary entry is not a prefix")
            << "[3]:" << int(Decoration::None) << -1;
        // The same entry with its fields elided by the poster: nothing of rank 3's own.
        QTest::newRow("an elided summary entry is not a prefix")
            << "[3]: ...." << int(Decoration::None) << -1;
        QTest::newRow("an elided summary entry, one character") << "[3]: …" << int(Decoration::None) << -1;
        QTest::newRow("torchrun's rank prefix before a line of dots")
            << "[3]:...." << int(Decoration::TorchrunRank) << 3;
        QTest::newRow("a word without a number") << "[trainer]: hello" << int(Decoration::None) << -1;
        QTest::newRow("srun") << "7: hello" << int(Decoration::Srun) << 7;
        QTest::newRow("vllm worker with its rank")
            << "(VllmWorker rank=3 pid=12191) INFO 06-12 14:03:16 [x.py:1] y" << int(Decoration::Ray) << 3;
        QTest::newRow("vllm worker") << "(VllmWorkerProcess pid=652775) INFO 06-12 14:03:16 x.py:1] y"
                                     << int(Decoration::Ray) << -1;
        QTest::newRow("journald short-iso")
            << "2025-06-12T10:00:01+0000 node-j python3[8123]: hi" << int(Decoration::Journald) << -1;
        QTest::newRow("journald short")
            << "Jun 12 10:00:01 node-j python3[8123]: hi" << int(Decoration::Journald) << -1;
        QTest::newRow("journald, the kernel's own line")
            << "Jun 12 10:00:02 node-b kernel: NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus."
            << int(Decoration::Journald) << -1;
        QTest::newRow("a level then kernel is no journald host")
            << "2025-06-12 10:00:01 INFO kernel: hi" << int(Decoration::None) << -1;
        // Slurm pads the label to the width of the step's largest task id ("%*d: ").
        QTest::newRow("srun, 10 to 99 tasks") << " 7: hello" << int(Decoration::Srun) << 7;
        QTest::newRow("srun, 100 or more tasks") << "  7: hello" << int(Decoration::Srun) << 7;
        QTest::newRow("an indented number is no srun label past five columns")
            << "     7: hello" << int(Decoration::None) << -1;
        QTest::newRow("mpirun stderr") << "[1,15]<stderr>:hello" << int(Decoration::MpirunTag) << 15;
        QTest::newRow("line number then rank")
            << "[80746] [rank0]:[E321 02:07:08.408271257 P.cpp:607] x" << int(Decoration::TorchrunRank) << 0;
        QTest::newRow("a time is not srun") << "14:03:17 hello" << int(Decoration::None) << -1;
        QTest::newRow("a logger's rank of the world")
            << "[0604/1024][2025-02-16 22:31:34,422] hello" << int(Decoration::RankOfWorld) << 604;
        QTest::newRow("a counter is no rank")
            << "[12/345] Building CXX object x.o" << int(Decoration::None) << -1;
        QTest::newRow("a rank past the world is none")
            << "[1024/1024][2025-02-16 22:31:34,422] hello" << int(Decoration::None) << -1;
        // openucx/ucx#10837, as posted: UCX's signal handler names host and pid.
        QTest::newRow("ucx signal")
            << "[gpu15:85054:0:85088] Caught signal 11 (Segmentation fault: invalid permissions for mapped "
               "object at address 0x7fc62b3b0c00)"
            << int(Decoration::ProcessTag) << -1;
        // msr-fiddle/pipedream#76, as posted: in a container the host is its hex id, and UCX pads
        // the pid to five characters.
        QTest::newRow("ucx signal in a container")
            << "[8d6bf97c3bf4:3039 :0:3095] Caught signal 7 (Bus error: nonexistent physical address)"
            << int(Decoration::ProcessTag) << -1;
        QTest::newRow("ucx log") << "[node1:12345:0]  ucp_context.c:1234 UCX  ERROR x"
                                 << int(Decoration::ProcessTag) << -1;
        QTest::newRow("a bracketed ISO time is not ucx")
            << "[2025-08-12T01:37:03] hello" << int(Decoration::None) << -1;
        QTest::newRow("numbers only are not ucx") << "[10:20:30] hello" << int(Decoration::None) << -1;
        // ChenRocks/UNITER#82, as posted: Open MPI's signal handler in a container with a hex host.
        QTest::newRow("open mpi signal")
            << "[1a62e574072d:00334] *** Process received signal ***" << int(Decoration::ProcessTag) << -1;
        // nccl-tests' TESTCHECK trace names its process; its NCCLCHECK line only the host, a name
        // without a digit taken only before nccl-tests' own words.
        QTest::newRow("nccl-tests trace")
            << " .. node-a pid 41007: Test failure common.cu:842" << int(Decoration::ProcessTag) << -1;
        QTest::newRow("nccl-tests failed check")
            << "node-a: Test NCCL failure common.cu:958 'unhandled system error / '"
            << int(Decoration::HostPrefix) << -1;
        QTest::newRow("a word without a digit is no host")
            << "Warning: Test NCCL later" << int(Decoration::None) << -1;
        QTest::newRow("a short number is no open mpi pid")
            << "[2025-08-12T01:37] hello" << int(Decoration::None) << -1;
        QTest::newRow("a date is not srun")
            << "2025-06-12 14:03:16,902 INFO x" << int(Decoration::None) << -1;
        QTest::newRow("kubectl --prefix")
            << "[pod/train-worker-1/pytorch] hello" << int(Decoration::KubectlPod) << -1;
        QTest::newRow("kubectl --prefix, container unknown")
            << "[pod/train-worker-1/] hello" << int(Decoration::KubectlPod) << -1;
        QTest::newRow("kubectl --prefix before torchrun's")
            << "[pod/w-0/c] [default3]:hello" << int(Decoration::KubectlPod) << -1;
        QTest::newRow("a pod without its container is not kubectl's")
            << "[pod/train-worker-1] hello" << int(Decoration::None) << -1;
        // MPICH's and Intel MPI's mpiexec -prepend-rank ("[%r] ", hydra's -l).
        QTest::newRow("mpiexec -prepend-rank") << "[3] hello" << int(Decoration::PrependRank) << 3;
        QTest::newRow("mpiexec -prepend-rank, NCCL line")
            << "[3] node-b:303:333 [1] NCCL INFO Bootstrap : Using eth0:10.1.0.2<0>"
            << int(Decoration::PrependRank) << 3;
        QTest::newRow("mpiexec -prepend-rank, a traceback's indented line")
            << "[2]   File \"/workspace/train.py\", line 61, in <module>" << int(Decoration::PrependRank)
            << 2;
        QTest::newRow("mpiexec -prepend-rank, blank line") << "[2] " << int(Decoration::PrependRank) << 2;
        QTest::newRow("mpiexec -prepend-rank, Intel MPI's own line")
            << "[0] MPI startup(): library kind: release" << int(Decoration::PrependRank) << 0;
        // Real cases 015 and 042: NCCL lines whose host:pid:tid the reporter cut, "[dev]" left.
        QTest::newRow("a redacted NCCL INFO line's device")
            << "[0] NCCL INFO bootstrap.cc:701 -> 6" << int(Decoration::None) << -1;
        QTest::newRow("a redacted NCCL WARN line's device")
            << "[1] misc/shmutils.cc:103 NCCL WARN Cuda failure 'invalid argument'" << int(Decoration::None)
            << -1;
        QTest::newRow("a pid after a stamp is no rank")
            << "2025-06-12 14:03:16,902 [37266] INFO hello" << int(Decoration::None) << -1;
        QTest::newRow("no space, no prefix") << "[3]hello" << int(Decoration::None) << -1;
        // Indented by whoever pasted it: torchrun's and mpirun's prefixes still name the rank; an
        // indented glog bracket or mpiexec's "[3] " (a traceback's text) does not.
        QTest::newRow("indented torchrun rank") << " [rank13]:hello" << int(Decoration::TorchrunRank) << 13;
        QTest::newRow("indented mpirun tag") << "  [1,3]<stdout>:hello" << int(Decoration::MpirunTag) << 3;
        QTest::newRow("indented glog is no prefix")
            << "  [E0612 14:03:16.5 ProcessGroupNCCL.cpp:607] x" << int(Decoration::None) << -1;
        QTest::newRow("indented [3] is no prefix") << "    [3] hello" << int(Decoration::None) << -1;
    }

    // grep's file name before each line where it searched several files (-r, -H), with -n's line
    // number and a context line's hyphens; a launcher's prefix inside names the line better.
    void grepFileNames_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("decoration");
        QTest::addColumn<QString>("body");
        const int grep = int(Decoration::GrepFile);
        QTest::newRow("match") << "logs/rank3.log:hello"
                               << "logs/rank3.log" << grep << "hello";
        QTest::newRow("-n") << "logs/rank3.log:120:hello"
                            << "logs/rank3.log" << grep << "hello";
        QTest::newRow("-n context") << "logs/rank3.log-121-  File \"x.py\""
                                    << "logs/rank3.log" << grep << "  File \"x.py\"";
        QTest::newRow("hyphens in the name") << "job-worker-3.log:hello"
                                             << "job-worker-3.log" << grep << "hello";
        QTest::newRow("rotated") << "train.log.1:hello"
                                 << "train.log.1" << grep << "hello";
        QTest::newRow("slurm output") << "out/train-88123-2.out:hello"
                                      << "out/train-88123-2.out" << grep << "hello";
        QTest::newRow("torchrun's prefix inside")
            << "console.txt:[rank3]:hello"
            << "console.txt" << int(Decoration::TorchrunRank) << "hello";
        QTest::newRow("NCCL line inside") << "r1.log:7:gpu-a:1:2 [0] NCCL INFO x"
                                          << "r1.log" << grep << "gpu-a:1:2 [0] NCCL INFO x";
        QTest::newRow("python source line") << "train.py:57 x"
                                            << "" << int(Decoration::None) << "train.py:57 x";
        QTest::newRow("context without -n") << "rank3.log-hello"
                                            << "rank3.log" << grep << "hello";
        QTest::newRow("context without -n, a date first") << "rank3.log-2025-02-16 22:31:34,418 x"
                                                          << "rank3.log" << grep << "x";
        QTest::newRow("match without -n, a time first") << "rank3.log:14:03:17 x"
                                                        << "rank3.log" << grep << "14:03:17 x";
        QTest::newRow("-n context, a date first") << "rank3.log-41-2025-02-16 22:31:34,418 x"
                                                  << "rank3.log" << grep << "x";
        QTest::newRow("a word") << "ERROR: x"
                                << "" << int(Decoration::None) << "ERROR: x";
        QTest::newRow("a suffix alone") << ".log:x"
                                        << "" << int(Decoration::None) << ".log:x";
    }
    void grepFileNames()
    {
        QFETCH(QString, line);
        QFETCH(QString, file);
        QFETCH(int, decoration);
        QFETCH(QString, body);
        const QByteArray b = line.toUtf8();
        const ParsedLine p =
            parseLine(std::string_view(b.constData(), static_cast<std::size_t>(b.size())), 2025);
        QCOMPARE(QString::fromUtf8(p.decorationFile.data(), static_cast<qsizetype>(p.decorationFile.size())),
                 file);
        QCOMPARE(int(p.decoration), decoration);
        QCOMPARE(QString::fromUtf8(p.body.data(), static_cast<qsizetype>(p.body.size())), body);
    }

    void listingHeaders()
    {
        QCOMPARE(listingHeader("==> logs/rank2.log <=="), std::string_view("logs/rank2.log"));
        QCOMPARE(listingHeader("==> a b.txt <==\r"), std::string_view("a b.txt"));
        QVERIFY(listingHeader("==> <==").empty());
        QVERIFY(listingHeader("==> logs/rank2.log").empty());
        QVERIFY(listingHeader(" ==> x <==").empty());
        QCOMPARE(listingHeader("=== logs/rank2.log ==="), std::string_view("logs/rank2.log"));
        QCOMPARE(listingHeader("---------- node-b/train.out.1 ----------"),
                 std::string_view("node-b/train.out.1"));
        QCOMPARE(listingHeader("### rank3.txt ###"), std::string_view("rank3.txt"));
        QVERIFY(listingHeader("=== Epoch 3 ===").empty());    // no file's name
        QVERIFY(listingHeader("=== summary.py ===").empty()); // not a log's
        QVERIFY(listingHeader("==rank3.log==").empty());      // no spaces around it
        QVERIFY(listingHeader("=== a b.log ===").empty());    // a name of two words
        QVERIFY(listingHeader("----------------------").empty());
    }

    // Open MPI's tags in each form its I/O forwarding prints (PRRTE's "--output" formats, and the
    // one SageMaker's MPI jobs show): the rank, and the host and pid where the tag names them.
    void mpiTags_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("rank");
        QTest::addColumn<QString>("host");
        QTest::addColumn<qint64>("pid");
        QTest::addColumn<QString>("body");
        QTest::addColumn<bool>("stamped");
        QTest::newRow("tag, Open MPI 4")
            << "[1,3]<stdout>:hello" << 3 << "" << qint64(-1) << "hello" << false;
        QTest::newRow("tag, Open MPI 5")
            << "[1,3]<stdout>: hello" << 3 << "" << qint64(-1) << "hello" << false;
        QTest::newRow("stddiag") << "[1,3]<stddiag>: hello" << 3 << "" << qint64(-1) << "hello" << false;
        QTest::newRow("tag-fullname")
            << "[prterun-node-a-4242@1,12]<stderr>: hello" << 12 << "" << qint64(-1) << "hello" << false;
        QTest::newRow("tag-detailed") << "[1,5][node-b.cluster:31337]<stdout>: hello" << 5 << "node-b.cluster"
                                      << qint64(31337) << "hello" << false;
        QTest::newRow("tag-detailed, PMIx knew neither")
            << "[1,5][unknown:unknown]<stdout>: hello" << 5 << "" << qint64(-1) << "hello" << false;
        QTest::newRow("SageMaker") << "[1,mpirank:3,algo-2]<stderr>:INFO:root:Reducer buckets" << 3
                                   << "algo-2" << qint64(-1) << "INFO:root:Reducer buckets" << false;
        QTest::newRow("timestamp and tag, Open MPI 5")
            << "[Fri Dec  5 22:29:03 2025][1,3]<stdout>: hello" << 3 << "" << qint64(-1) << "hello" << true;
        QTest::newRow("timestamp and tag, Open MPI 4")
            << "Fri Dec  5 22:29:03 2025[1,3]<stdout>:hello" << 3 << "" << qint64(-1) << "hello" << true;
        QTest::newRow("timestamp alone, Open MPI 5")
            << "[Fri Dec  5 22:29:03 2025]<stdout>: hello" << -1 << "" << qint64(-1) << "hello" << true;
        QTest::newRow("timestamp alone, Open MPI 4")
            << "Fri Dec  5 22:29:03 2025<stderr>:hello" << -1 << "" << qint64(-1) << "hello" << true;
        QTest::newRow("a comma in a bracketed list is no tag")
            << "[1,2,3] hello" << -1 << "" << qint64(-1) << "[1,2,3] hello" << false;
        QTest::newRow("a bracketed Python time is no tag")
            << "[2025-06-12 14:03:16,902] hello" << -1 << "" << qint64(-1) << "hello" << true;
    }

    void mpiTags()
    {
        QFETCH(QString, line);
        QFETCH(int, rank);
        QFETCH(QString, host);
        QFETCH(qint64, pid);
        QFETCH(QString, body);
        QFETCH(bool, stamped);
        const QByteArray b = line.toUtf8();
        const ParsedLine p =
            parseLine(std::string_view(b.constData(), static_cast<std::size_t>(b.size())), 2025);
        QCOMPARE(p.decorationRank, rank);
        if (rank >= 0)
            QCOMPARE(int(p.decoration), int(Decoration::MpirunTag));
        QCOMPARE(QString::fromUtf8(p.decorationHost.data(), static_cast<qsizetype>(p.decorationHost.size())),
                 host);
        QCOMPARE(qint64(p.decorationPid), pid);
        QCOMPARE(QString::fromUtf8(p.body.data(), static_cast<qsizetype>(p.body.size())), body);
        QCOMPARE(p.stamp.has_value(), stamped);
        if (stamped && line.contains(QLatin1String("Dec")))
            QCOMPARE(p.stamp->us, civilToUnixSeconds(2025, 12, 5, 22, 29, 3) * 1000000);
    }

    // kubectl logs --prefix --timestamps: the pod names the host, the runtime's stamp follows it,
    // and NCCL's own prefix is read behind both.
    void kubectlPrefixThenStampThenNccl()
    {
        const std::string_view line = "[pod/train-worker-1/pytorch] 2025-06-12T14:03:17.414466123Z "
                                      "train-worker-1:39962:40133 [1] misc/socket.cc:483 NCCL WARN x";
        const ParsedLine p = parseLine(line, 2025);
        QCOMPARE(int(p.decoration), int(Decoration::KubectlPod));
        QCOMPARE(p.decorationHost, std::string_view("train-worker-1"));
        QVERIFY(p.stamp);
        QVERIFY(p.nccl);
        QCOMPARE(p.nccl->pid, std::int64_t{39962});
        QVERIFY(p.body.starts_with("train-worker-1:39962:40133"));
    }
    void decorations()
    {
        QFETCH(QString, line);
        QFETCH(int, kind);
        QFETCH(int, rank);
        QByteArray b = line.toUtf8();
        ParsedLine p = parseLine(std::string_view(b.constData(), static_cast<std::size_t>(b.size())), 2025);
        QCOMPARE(int(p.decoration), kind);
        QCOMPARE(p.decorationRank, rank);
    }

    // mpiexec's "[N] " is read off the line: the NCCL prefix and the level are the line's own.
    void prependRankBody()
    {
        ParsedLine p =
            parseLine("[2] node-b:302:332 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: x", 2025);
        QCOMPARE(int(p.decoration), int(Decoration::PrependRank));
        QCOMPARE(p.body,
                 std::string_view("node-b:302:332 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: x"));
        QVERIFY(p.nccl);
        QCOMPARE(p.nccl->host, std::string_view("node-b"));
        QCOMPARE(int(p.level), int(Level::Warn));
        ParsedLine blank = parseLine("[2] ", 2025);
        QCOMPARE(blank.body, std::string_view(""));
    }

    // UCX's prefix names the process: the same key as NCCL's host:pid:tid of that process.
    void ucxPrefixNamesTheProcess_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("host");
        QTest::addColumn<qint64>("pid");
        QTest::newRow("host name") << "[gpu15:85054:0:85088] Caught signal 11 (Segmentation fault)"
                                   << "gpu15" << qint64(85054);
        QTest::newRow("container id, padded pid")
            << "[8d6bf97c3bf4:3039 :0:3095] Caught signal 11 (Segmentation fault)"
            << "8d6bf97c3bf4" << qint64(3039);
    }
    void ucxPrefixNamesTheProcess()
    {
        QFETCH(QString, line);
        QFETCH(QString, host);
        QFETCH(qint64, pid);
        const QByteArray b = line.toUtf8();
        ParsedLine p = parseLine(std::string_view(b.constData(), static_cast<std::size_t>(b.size())), 2025);
        QCOMPARE(int(p.decoration), int(Decoration::ProcessTag));
        QCOMPARE(QString::fromUtf8(p.decorationHost.data(), static_cast<qsizetype>(p.decorationHost.size())),
                 host);
        QCOMPARE(qint64(p.decorationPid), pid);
        QCOMPARE(QString::fromUtf8(p.body.data(), static_cast<qsizetype>(p.body.size())),
                 QStringLiteral("Caught signal 11 (Segmentation fault)"));
    }

    // NVIDIA/nccl#1618 (real log 006) as grep printed it: a logger's rank of the world, its time, its
    // source location and a tag that names host and pid, before NCCL's level and message.
    void loggerTagsOfOneRank()
    {
        const std::string_view line =
            "rank_604.s12gn3064.4031852.log:[0604/1024][2025-02-16 22:31:34,422] [misc/socket.cc:586] "
            "[s12gn3064:pid=3942408] NCCL WARN socketPollConnect poll() returned 1, no POLLOUT events";
        const ParsedLine p = parseLine(line, 2025);
        QCOMPARE(p.decorationFile, std::string_view("rank_604.s12gn3064.4031852.log"));
        QCOMPARE(int(p.decoration), int(Decoration::RankOfWorld));
        QCOMPARE(p.decorationRank, 604);
        QCOMPARE(p.decorationHost, std::string_view("s12gn3064"));
        QCOMPARE(p.decorationPid, std::int64_t{3942408});
        QVERIFY(p.stamp);
        QCOMPARE(p.stamp->us, civilToUnixSeconds(2025, 2, 16, 22, 31, 34) * 1000000 + 422000);
        QCOMPARE(int(p.level), int(Level::Warn));
        QCOMPARE(p.body,
                 std::string_view("NCCL WARN socketPollConnect poll() returned 1, no POLLOUT events"));
        // A source location with no tag after it stays in the body.
        const ParsedLine q = parseLine("[2025-02-16 22:31:34,422] [misc/socket.cc:586] x", 2025);
        QCOMPARE(q.body, std::string_view("[misc/socket.cc:586] x"));
        QCOMPARE(int(q.decoration), int(Decoration::None));
    }

    // libfabric's own lines (FI_LOG_LEVEL=warn) name the pid that wrote them and the time in whole
    // seconds since 1970 (the form of aws/aws-ofi-nccl#715's lines); older releases print neither.
    void libfabricLines()
    {
        const ParsedLine p =
            parseLine("libfabric:41201:1764570131::efa:cq:efa_rdm_cq_open():688<warn> Unable to "
                      "create extended CQ: Invalid argument",
                      2025);
        QCOMPARE(int(p.decoration), int(Decoration::Libfabric));
        QCOMPARE(p.decorationPid, std::int64_t{41201});
        QVERIFY(p.decorationHost.empty());
        QVERIFY(p.stamp);
        QCOMPARE(p.stamp->us, std::int64_t{1764570131} * 1000000);
        QCOMPARE(p.stamp->resolutionUs, std::int64_t{1000000});
        QCOMPARE(int(p.level), int(Level::Warn));
        QCOMPARE(p.body,
                 std::string_view("libfabric:41201:1764570131::efa:cq:efa_rdm_cq_open():688<warn> Unable to "
                                  "create extended CQ: Invalid argument"));
        // A collector's stamp before it is finer than its seconds, and pdsh's host stays the line's.
        const ParsedLine q =
            parseLine("worker-3: 2025-12-01T06:22:11.527Z libfabric:41201:1764570131::efa:mr:"
                      "efa_mr_reg_impl():602<info> Registered",
                      2025);
        QCOMPARE(int(q.decoration), int(Decoration::HostPrefix));
        QCOMPARE(q.decorationHost, std::string_view("worker-3"));
        QCOMPARE(q.decorationPid, std::int64_t{41201});
        QVERIFY(q.stamp);
        QCOMPARE(q.stamp->us, civilToUnixSeconds(2025, 12, 1, 6, 22, 11) * 1000000 + 527000);
        QCOMPARE(int(q.level), int(Level::Info));
        QVERIFY(q.body.starts_with("libfabric:41201:"));
        // The older form: the level and the message, no process.
        const ParsedLine o = parseLine(
            "libfabric:efa:mr:efa_mr_regattr():632<warn> Unable to register MR: Cannot allocate memory",
            2025);
        QCOMPARE(int(o.decoration), int(Decoration::None));
        QCOMPARE(o.decorationPid, std::int64_t{-1});
        QVERIFY(!o.stamp);
        QCOMPARE(int(o.level), int(Level::Warn));
        QVERIFY(o.body.starts_with("libfabric:efa:mr:"));
        // The word alone opens no such line.
        const ParsedLine n = parseLine("libfabric: version 1.22 loaded (provider efa)", 2025);
        QCOMPARE(int(n.decoration), int(Decoration::None));
        QCOMPARE(int(n.level), int(Level::None));
        QCOMPARE(n.body, std::string_view("libfabric: version 1.22 loaded (provider efa)"));
    }

    // NCCL's Channel lines: the sender is first, except on a "[receive]" line (net.cc's recvSetup
    // prints the peer first); P2P and SHM lines are the sender's.
    void channelLines_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("rank");
        QTest::newRow("p2p") << "Channel 04/0 : 9[1] -> 10[2] via P2P/IPC/read" << 9;
        QTest::newRow("shm, no connection index") << "Channel 20 : 5[5] -> 4[4] via SHM/direct/direct" << 5;
        QTest::newRow("net send") << "Channel 00/0 : 8[0] -> 0[0] [send] via NET/Socket/0" << 8;
        QTest::newRow("net receive") << "Channel 00/0 : 0[0] -> 8[0] [receive] via NET/Socket/0" << 8;
        QTest::newRow("bus ids") << "Channel 00 : 0[18000] -> 1[18000] [receive] via NET/Socket/1" << 1;
        QTest::newRow("a ring is no connection") << "Channel 00/02 : 0 1 2 3 4 5 6 7" << -1;
        QTest::newRow("a tree is none") << "Channel 00/0 : -1 -> 0 -> 1/-1/-1" << -1;
        QTest::newRow("other words") << "Channel 00/0 : 0[0] -> 1[1] connected" << -1;
    }
    void channelLines()
    {
        QFETCH(QString, message);
        QFETCH(int, rank);
        const QByteArray m = message.toUtf8();
        QCOMPARE(channelLineRank(std::string_view(m.constData(), static_cast<std::size_t>(m.size()))), rank);
    }

    // NCCL's proxy WARN names the rank of the process whose proxy thread failed ("[Proxy Service
    // R]"), in the same words from 2.12.7 on; a "[Proxy Service]" line without a number, or the
    // words of another message, names none.
    void proxyServiceLines_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("rank");
        QTest::newRow("2.18 connect")
            << "[Proxy Service 11] Failed to execute operation Connect from rank 11, "
               "retcode 2"
            << 11;
        QTest::newRow("another rank asked")
            << "[Proxy Service 9] Failed to execute operation Connect from rank 12, retcode 6" << 9;
        QTest::newRow("setup op")
            << "[Proxy Service 0] Failed to execute operation Setup from rank 0, retcode 3" << 0;
        QTest::newRow("no number") << "[Proxy Service] Failed to set CUDA device 3" << -1;
        QTest::newRow("other words") << "[Proxy Service 4] Poll failed: Interrupted system call" << -1;
        QTest::newRow("no digits") << "[Proxy Service x] Failed to execute operation Connect from rank 1"
                                   << -1;
        QTest::newRow("cut short") << "[Proxy Service 12" << -1;
    }
    void proxyServiceLines()
    {
        QFETCH(QString, message);
        QFETCH(int, rank);
        const QByteArray m = message.toUtf8();
        QCOMPARE(proxyServiceRank(std::string_view(m.constData(), static_cast<std::size_t>(m.size()))), rank);
    }

    // Ray's deduplication suffix: how many lines it folded, and where the line's own text ends
    // (before the colour Ray puts around the suffix and the note it adds the first time).
    void rayRepeats()
    {
        const std::string_view plain =
            "(RayWorkerWrapper pid=2213, ip=10.20.0.7) x failed [repeated 3x across cluster]";
        auto r = rayRepeatIn(plain);
        QVERIFY(r);
        QCOMPARE(r->count, 3);
        QCOMPARE(plain.substr(0, r->at),
                 std::string_view("(RayWorkerWrapper pid=2213, ip=10.20.0.7) x failed"));
        const std::string_view noted =
            "x failed [repeated 14x across cluster] (Ray deduplicates logs by default. Set "
            "RAY_DEDUP_LOGS=0 to disable log deduplication.)";
        r = rayRepeatIn(noted);
        QVERIFY(r);
        QCOMPARE(r->count, 14);
        QCOMPARE(noted.substr(0, r->at), std::string_view("x failed"));
        const std::string_view coloured = "x failed\x1b[32m [repeated 2x across cluster]\x1b[0m";
        r = rayRepeatIn(coloured);
        QVERIFY(r);
        QCOMPARE(r->count, 2);
        QCOMPARE(coloured.substr(0, r->at), std::string_view("x failed"));
        QVERIFY(!rayRepeatIn("x failed [repeated twice across cluster]"));
        QVERIFY(!rayRepeatIn("x failed [repeated 3 times]"));
    }

    // Behind mpirun's rank prefix, a tag still names the host and pid (horovod/horovod#1941).
    void tagBehindARankPrefix()
    {
        const std::string_view line =
            "[1,12]<stderr>:[n-profile-user-profile-v3-16:17086] Signal: Segmentation fault (11)";
        ParsedLine p = parseLine(line, 2025);
        QCOMPARE(int(p.decoration), int(Decoration::MpirunTag));
        QCOMPARE(p.decorationRank, 12);
        QCOMPARE(QString::fromUtf8(p.decorationHost.data(), static_cast<qsizetype>(p.decorationHost.size())),
                 QStringLiteral("n-profile-user-profile-v3-16"));
        QCOMPARE(qint64(p.decorationPid), qint64(17086));

        // Behind SageMaker's tag, which names the host: the UCX tag gives the pid.
        const ParsedLine sm =
            parseLine("[1,mpirank:3,algo-2]<stderr>:[algo-2:4101:0:4110] Caught signal 11", 2025);
        QCOMPARE(sm.decorationRank, 3);
        QCOMPARE(sm.decorationHost, std::string_view("algo-2"));
        QCOMPARE(qint64(sm.decorationPid), qint64(4101));
        // Behind Ray's, which names the pid: the UCX tag gives the host.
        const ParsedLine ray = parseLine("(RayWorker pid=4101) [gpu15:4101:0:4110] Caught signal 11", 2025);
        QCOMPARE(ray.decorationHost, std::string_view("gpu15"));
        QCOMPARE(qint64(ray.decorationPid), qint64(4101));
        // Behind vLLM's engine core, which relays its Ray workers' output: the inner tag is the
        // worker that printed, its pid and address both (not the engine's pid at the worker's
        // address).
        // Whether the tag read is the worker's, pid 285 at 192.168.177.12.
        auto worker285 = [](const ParsedLine& tagged) {
            return tagged.decoration == Decoration::Ray && tagged.decorationHost == "192.168.177.12" &&
                   tagged.decorationPid == 285;
        };
        const ParsedLine relayed = parseLine("(EngineCore_DP0 pid=1088) (RayWorkerWrapper pid=285, "
                                             "ip=192.168.177.12) spark2:285:400 [0] NCCL INFO x",
                                             2025);
        QVERIFY(worker285(relayed));
        QVERIFY(relayed.nccl);
        // Coloured, as Ray writes its tags to a terminal: the colours are no part of the tag, and
        // the stamp after it is read.
        const ParsedLine coloured = parseLine("\x1b[36m(RayWorkerWrapper pid=285, ip=192.168.177.12)\x1b[0m "
                                              "ERROR 06-12 10:00:27 [worker_base.py:620] RuntimeError: x",
                                              2025);
        QVERIFY(worker285(coloured));
        QVERIFY(coloured.stamp);
        QCOMPARE(int(coloured.level), int(Level::Error));
        const ParsedLine colouredStamp = parseLine("\x1b[32m2025-06-12 10:00:27,125\x1b[0m ERROR x", 2025);
        QVERIFY(colouredStamp.stamp);
        QCOMPARE(int(colouredStamp.level), int(Level::Error));
        // Lightning's rank prefix on what every rank logs.
        const ParsedLine lightning = parseLine("[rank: 12] Seed set to 42", 2025);
        QCOMPARE(int(lightning.decoration), int(Decoration::TorchrunRank));
        QCOMPARE(lightning.decorationRank, 12);
        QCOMPARE(lightning.body, std::string_view("Seed set to 42"));
        QCOMPARE(int(parseLine("[rank: x] y", 2025).decoration), int(Decoration::None));
        // SkyPilot's node tag: the node's console (its rank is the node's, its pid the script's).
        const ParsedLine head = parseLine("(head, rank=0, pid=21170) 2025-06-12 10:00:03,412 INFO x", 2025);
        QCOMPARE(int(head.decoration), int(Decoration::HostPrefix));
        QCOMPARE(head.decorationHost, std::string_view("head"));
        QCOMPARE(head.decorationRank, -1);
        QCOMPARE(qint64(head.decorationPid), qint64(-1));
        QVERIFY(head.stamp);
        const ParsedLine worker =
            parseLine("(worker1, rank=1, pid=20075, ip=10.164.15.193) h:1:2 [0] NCCL INFO x", 2025);
        QCOMPARE(worker.decorationHost, std::string_view("worker1"));
        QVERIFY(worker.nccl);
        QCOMPARE(int(parseLine("(note, rank=1) x", 2025).decoration), int(Decoration::None));
        const ParsedLine colouredLevel = parseLine("2025-06-12 10:00:27,125 \x1b[1;31mERROR\x1b[0m x", 2025);
        QCOMPARE(int(colouredLevel.level), int(Level::Error));
    }

    void timestamps_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<qint64>("us");
        QTest::addColumn<qint64>("resolution");
        QTest::addColumn<QString>("level");
        const qint64 base = civilToUnixSeconds(2025, 6, 12, 14, 3, 16) * 1000000;
        QTest::newRow("python logging")
            << "2025-06-12 14:03:16,902 ERROR train.py:57 x" << base + 902000 << qint64(1000) << "ERROR";
        QTest::newRow("iso T micro") << "2025-06-12T14:03:16.000123 x" << base + 123 << qint64(1) << "";
        QTest::newRow("rfc3339 nanos Z")
            << "2025-06-12T14:03:16.123456789Z x" << base + 123456 << qint64(1) << "";
        QTest::newRow("rfc3339 offset") << "2025-06-12T16:03:16+02:00 x" << base << qint64(1000000) << "";
        QTest::newRow("nccl 2.26 warn stamp")
            << "[2025-06-12 14:03:16] h:1:2 [0] a.cc:1 NCCL WARN x" << base << qint64(1000000) << "WARN";
        QTest::newRow("glog in brackets")
            << "[E0612 14:03:16.500000 ProcessGroupNCCL.cpp:607] x" << base + 500000 << qint64(1) << "ERROR";
        QTest::newRow("pytorch c10 unpadded month")
            << "[rank0]:[E612 14:03:16.408271257 ProcessGroupNCCL.cpp:607] x" << base + 408271 << qint64(1)
            << "ERROR";
        QTest::newRow("glog bare") << "W0612 14:03:16.25 x" << base + 250000 << qint64(10000) << "WARN";
        // Hugging Face's example scripts and accelerate: datefmt "%m/%d/%Y %H:%M:%S".
        QTest::newRow("month/day/year") << "06/12/2025 14:03:16 - WARNING - __main__ - Process rank: 0"
                                        << base << qint64(1000000) << "WARN";
        QTest::newRow("day/month/year, the day past 12")
            << "13/06/2025 14:03:16,5 x" << base + 86400 * qint64(1000000) + 500000 << qint64(100000) << "";
        QTest::newRow("go log") << "2025/06/12 14:03:16 x" << base << qint64(1000000) << "";
        // vLLM: the level, then month-day and time ("%(levelname)s %(asctime)s", "%m-%d %H:%M:%S").
        QTest::newRow("vllm") << "WARNING 06-12 14:03:16 [pynccl.py:63] x" << base << qint64(1000000)
                              << "WARN";
        QTest::newRow("vllm worker")
            << "(VllmWorker rank=1 pid=12191) ERROR 06-12 14:03:16 [multiproc_executor.py:374] x" << base
            << qint64(1000000) << "ERROR";
        // journalctl's default output ("short", "short-precise") and syslog: no year, the day padded.
        QTest::newRow("syslog") << "Jun 12 14:03:16 node-j python3[8123]: x" << base << qint64(1000000) << "";
        QTest::newRow("journalctl short-precise")
            << "Jun 12 14:03:16.412004 node-j python3[8123]: x" << base + 412004 << qint64(1) << "";
        // A job console's collector stamp to the minute (NVIDIA/nccl#1610's paste).
        QTest::newRow("to the minute")
            << "2025-06-12 14:03 [rank13]:x" << base - 16 * qint64(1000000) << qint64(60000000) << "";
        QTest::newRow("indented, to the minute")
            << " 2025-06-12 14:03 [rank13]:x" << base - 16 * qint64(1000000) << qint64(60000000) << "";
        // The logger's finer stamp behind it says when in that minute or second, in the collector's
        // clock: moved by the whole quarter-hours between the two (a time zone), where it then fits.
        QTest::newRow("to the minute, glog's time inside it")
            << "2025-06-12 14:03 [rank13]:[E612 14:03:16.1 x.cpp:1] y" << base + 100000 << qint64(100000)
            << "ERROR";
        QTest::newRow("collector's clock five hours ahead of glog's")
            << "2025-06-12 14:03:16 [rank13]:[E612 09:03:16.1 x.cpp:1] y" << base + 100000 << qint64(100000)
            << "ERROR";
        QTest::newRow("collector's clock behind, a zone of half an hour")
            << "2025-06-12 14:03 [E612 19:33:16.25 x.cpp:1] y" << base + 250000 << qint64(10000) << "ERROR";
        QTest::newRow("journald's second, then Python's milliseconds")
            << "2025-06-12T14:03:16+0000 node-j python3[8123]: 2025-06-12 14:03:16,902 ERROR x"
            << base + 902000 << qint64(1000) << "ERROR";
        QTest::newRow("glog's 31 December behind the collector's 1 January")
            << "2026-01-01 00:30 [E1231 16:30:12.5 x.cpp:1] y"
            << qint64(civilToUnixSeconds(2026, 1, 1, 0, 30, 12) * 1000000 + 500000) << qint64(100000)
            << "ERROR";
        // Where the logger's time does not fall inside the collector's once moved by a zone, the
        // collector's stands: a clock off by minutes, a line collected in the next second.
        QTest::newRow("glog seven minutes off: the collector's minute")
            << "2025-06-12 14:03 [E612 14:10:16.1 x.cpp:1] y" << base - 16 * qint64(1000000)
            << qint64(60000000) << "ERROR";
        QTest::newRow("collected in the next second: the collector's second")
            << "2025-06-12 14:03:16 [E612 14:03:15.999 x.cpp:1] y" << base << qint64(1000000) << "ERROR";
        QTest::newRow("glog no finer than the collector: the collector's")
            << "2025-06-12 14:03:16.5 [E612 14:03:16 x.cpp:1] y" << base + 500000 << qint64(100000)
            << "ERROR";
        QTest::newRow("indented python logging")
            << "   2025-06-12 14:03:16,902 ERROR train.py:57 x" << base + 902000 << qint64(1000) << "ERROR";
        QTest::newRow("syslog, a day of one digit")
            << "Jun  2 14:03:16 node-j kernel: x" << base - 10 * 86400 * qint64(1000000) << qint64(1000000)
            << "";
    }
    void timestamps()
    {
        QFETCH(QString, line);
        QFETCH(qint64, us);
        QFETCH(qint64, resolution);
        QFETCH(QString, level);
        QByteArray b = line.toUtf8();
        ParsedLine p = parseLine(std::string_view(b.constData(), static_cast<std::size_t>(b.size())), 2025);
        QVERIFY(p.stamp.has_value());
        QCOMPARE(qint64(p.stamp->us), us);
        QCOMPARE(qint64(p.stamp->resolutionUs), resolution);
        QCOMPARE(QString::fromLatin1(levelName(p.level)), level);
    }

    void invalidDatesAreNotStamps()
    {
        for (const char* l :
             {"2025-13-12 14:03:16 x", "2025-06-12 25:03:16 x", "E1399 12:00:00 x", "Jum 12 14:03:16 x",
              "Jun 32 14:03:16 x", "Jun 12 14:03:16x", "13/13/2025 14:03:16 x", "06/12/2025 14:03:16x",
              "2025/06-12 14:03:16 x", "INFORMATION 06-12 14:03:16 x", "INFO 06-12 14:03:16x",
              "2025-06-12 14:03x", "2025-06-12 14:60 x", "2025-06-12 14:03:1 x", "  File \"x.py\", line 3"})
            QVERIFY2(!parseLine(l, 2025).stamp, l);
    }

    void trails_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("fileLine");
        QTest::addColumn<int>("code");
        QTest::newRow("plain") << "h:1:2 [0] NCCL INFO misc/socket.cc:564 -> 2"
                               << "misc/socket.cc" << 564 << 2;
        QTest::newRow("strerror") << "h:1:2 [0] NCCL INFO misc/socket.cc:504 -> 2 (Operation now in progress)"
                                  << "misc/socket.cc" << 504 << 2;
        QTest::newRow("async") << "h:1:2 [4] NCCL INFO group.cc:65 -> 2 [Async thread]"
                               << "group.cc" << 65 << 2;
        QTest::newRow("2.30 function") << "h:1:2 [4] NCCL INFO init.cc:10 (ncclCommInitRank) -> 6"
                                       << "init.cc" << 10 << 6;
    }
    void trails()
    {
        QFETCH(QString, line);
        QFETCH(QString, file);
        QFETCH(int, fileLine);
        QFETCH(int, code);
        QByteArray b = line.toUtf8();
        ParsedLine p = parseLine(std::string_view(b.constData(), static_cast<std::size_t>(b.size())));
        QVERIFY(p.trail.has_value());
        QCOMPARE(QString::fromUtf8(p.trail->file.data(), static_cast<qsizetype>(p.trail->file.size())), file);
        QCOMPARE(p.trail->fileLine, fileLine);
        QCOMPARE(p.trail->code, code);
    }

    // The error file's path names the restart attempt (<log dir>/<run id>/attempt_<n>/<local rank>/).
    void elasticRecordAttempt()
    {
        const std::vector<std::string_view> bodies = {
            "[1]:",
            "  time      : 2025-06-12_10:00:01",
            "  host      : node-a",
            "  rank      : 1 (local_rank: 1)",
            "  exitcode  : 1 (pid: 7002)",
            "  error_file: /tmp/torchelastic_x/run7_x1/attempt_12/1/error.json",
            "  traceback : Traceback (most recent call last):"};
        const auto r = elasticRecordAt(bodies, 2025);
        QVERIFY(r);
        QCOMPARE(r->attempt.value_or(-1), 12);
        std::vector<std::string_view> none = bodies;
        none[5] = "  error_file: <N/A>";
        QVERIFY(!elasticRecordAt(none, 2025)->attempt);
    }

    void notATrail()
    {
        QVERIFY(!parseLine("h:1:2 [0] NCCL INFO Channel 00 : 5[5] -> 4[4] via SHM/direct/direct").trail);
    }

    // A worker's record in torchelastic's failure box (torch/distributed/elastic/multiprocessing/
    // errors: _FAILURE_FORMAT_TEMPLATE). "lines": the record and what follows it, '|' between lines;
    // "found": the record's length and its traceback's line, host, rank, local rank, pid, or "none".
    void elasticRecords_data()
    {
        QTest::addColumn<QString>("lines");
        QTest::addColumn<QString>("found");
        const QString fields = QStringLiteral("  time      : 2024-03-05_07:01:51|"
                                              "  host      : vmnuvocinpoc.internal.cloudapp.net|"
                                              "  rank      : 2 (local_rank: 2)|"
                                              "  exitcode  : 1 (pid: 69813)|"
                                              "  error_file: <N/A>|");
        QTest::newRow("no error file (pytorch#121209)")
            << QStringLiteral("[2]:|") + fields +
                   QStringLiteral(
                       "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/"
                       "errors.html|[3]:|  time      : 2024-03-05_07:01:51")
            << QStringLiteral("7 6 vmnuvocinpoc 2 2 69813");
        QTest::newRow("error file's traceback, indented two more")
            << QStringLiteral("[2]:|") + fields +
                   QStringLiteral("  traceback : Traceback (most recent call last):|"
                                  "    File \"train.py\", line 61, in main|"
                                  "      loss = model(batch).sum()|"
                                  "  torch.OutOfMemoryError: CUDA out of memory.|"
                                  "  |"
                                  "============================================================")
            << QStringLiteral("10 6 vmnuvocinpoc 2 2 69813");
        QTest::newRow("killed by a signal, host an address")
            << QStringLiteral("[0]:|  time      : 2025-05-21_15:43:03|  host      : 10.1.2.3|"
                              "  rank      : 0 (local_rank: 0)|  exitcode  : -9 (pid: 14750)|"
                              "  error_file: <N/A>|  traceback : Signal 9 (SIGKILL) received by PID 14750|"
                              "------------------------------------------------------------")
            << QStringLiteral("7 6 10.1.2.3 0 0 14750");
        QTest::newRow("behind kubectl's --timestamps")
            << QStringLiteral(
                   "2024-03-05T07:01:52.1Z [0]:|2024-03-05T07:01:52.1Z   time      : 2024-03-05_07:01:51|"
                   "2024-03-05T07:01:52.1Z   host      : gpu-h7.cluster.internal|"
                   "2024-03-05T07:01:52.1Z   rank      : 12 (local_rank: 4)|"
                   "2024-03-05T07:01:52.1Z   exitcode  : -6 (pid: 51214)|"
                   "2024-03-05T07:01:52.1Z   error_file: <N/A>|"
                   "2024-03-05T07:01:52.1Z   traceback : Signal 6 (SIGABRT) received by PID 51214|"
                   "2024-03-05T07:01:52.1Z ============================================================")
            << QStringLiteral("7 6 gpu-h7 12 4 51214");
        QTest::newRow("no pid") << QStringLiteral("[2]:|  time      : 2024-03-05_07:01:51|  host      : h|"
                                                  "  rank      : 2 (local_rank: 2)|  traceback : x")
                                << QStringLiteral("none");
        QTest::newRow("no traceback field (cut short)")
            << QStringLiteral("[2]:|") + fields + QStringLiteral("============") << QStringLiteral("none");
        QTest::newRow("a launcher's rank prefix, not a header")
            << QStringLiteral("[2]: epoch 3|") + fields + QStringLiteral("  traceback : x")
            << QStringLiteral("none");
        QTest::newRow("an elided entry") << QStringLiteral("[2]: ....|[3]:") << QStringLiteral("none");
    }
    void elasticRecords()
    {
        QFETCH(QString, lines);
        QFETCH(QString, found);
        const QStringList parts = lines.split(QLatin1Char('|'));
        std::vector<std::string> text;
        for (const QString& l : parts)
            text.push_back(l.toStdString());
        std::vector<std::string_view> bodies;
        for (const std::string& t : text)
            bodies.push_back(parseLine(t, 2025).body);
        const auto r = elasticRecordAt(bodies, 2025);
        if (found == QLatin1String("none")) {
            QVERIFY(!r);
            return;
        }
        QVERIFY(r);
        const QString got =
            QStringLiteral("%1 %2 %3 %4 %5 %6")
                .arg(r->lineCount)
                .arg(r->tracebackAt)
                .arg(QString::fromUtf8(r->host.data(), static_cast<qsizetype>(r->host.size())))
                .arg(r->rank)
                .arg(r->localRank)
                .arg(r->pid);
        QCOMPARE(got, found);
        QVERIFY(r->time);
        QCOMPARE(r->time->resolutionUs, std::int64_t{1000000});
    }
};

QTEST_GUILESS_MAIN(TestLineParser)
#include "tst_lineparser.moc"
