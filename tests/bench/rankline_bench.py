#!/usr/bin/env python3
"""Ingestion benchmark for Rankline (issue 3, "Ingestion at scale").

Generates synthetic incident bundles (deterministic, seeded): 64 and 256 ranks of 4 MiB in a file
each, the same 64 ranks as one combined `srun -l` stream (one large file, which rankline scans in
pieces on every core), and 10,000 small files. Then times, on the same files in the same run and
with the page cache warm:

  rankline diagnose BUNDLE --json
  rg -c -f PATTERNS BUNDLE          (PATTERNS = `rankline encyclopedia --export-patterns`)
  lnav -n -r BUNDLE                 (headless; its output goes to /dev/null)

and prints a table (bytes, lines, wall seconds, MB/s, peak RSS) with the ratios and whether each
target of the issue is met. Every rankline run's diagnosis is checked (initiating entry
nccl-socket-connect-abort on the injected rank). One extra untimed lnav run counts the lines lnav
prints, since lnav -n silently loads only part of a bundle of many files (lnav 0.11.1 stopped at
112 files here); its figures are then marked "gave up" and rated on the bytes it did load.

Only the Python 3 standard library is used. Speed and memory are measured here, never by ctest.
Run `python3 tests/bench/rankline_bench.py --help` for the options; README.md ("Performance") has
the command and the figures measured.
"""

from __future__ import annotations

import argparse
import datetime as dt
import heapq
import json
import multiprocessing
import os
import platform
import random
import resource
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

MiB = 1 << 20
KiB = 1 << 10

# Targets of issue 3 ("Ingestion at scale"). Reported as PASS/MISS, never adjusted here.
TARGET_RANKLINE_OVER_RG = 2.0  # rankline wall <= 2 x rg wall
TARGET_LNAV_OVER_RANKLINE = 25.0  # rankline at least 25 x faster than lnav -n
TARGET_RSS_OVER_BYTES = 0.40  # rankline peak RSS <= 40 % of the bundle's bytes
TARGET_SMALL_OVER_LARGE = 2.0  # 10,000 small files: time per byte <= 2 x the 64-file bundle's

EXPECTED_ENTRY = "nccl-socket-connect-abort"

# ---------------------------------------------------------------------------------------------
# Generator
#
# One file per rank in a folder per host (`gpu-0003/rank27.log`), like a bundle collected from a
# torchrun job whose stdout+stderr went to a file per rank: Python logging lines with timestamps,
# NCCL 2.18.3 INFO lines (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET; no timestamps, as 2.18
# prints none), communicator inits with rings, trees and channel lines, lazy p2p connections,
# proxy/service-thread lines, comm teardown, and PyTorch (glog-style and Python warnings) lines.
# Formats follow shared/docs/nccl-log-formats.md and the sample incident
# resources/samples/connect-abort-2x4/.
#
# The bundle ends with one failure: while every rank builds a new communicator, one rank's proxy
# connect to the next host fails with the NCCL 2.16-2.23 "Software caused connection abort" WARN
# (misc/socket.cc:483 and the `-> 2` trail, as 2.18.3 prints it). A few ranks on the same host then
# report "Connection closed by remote peer", a few ranks on the target host report a PyTorch
# watchdog timeout ten minutes later, and the remaining ranks are killed silently.
# ---------------------------------------------------------------------------------------------

RANKS_PER_HOST = 8
NCCL_VERSION = "2.18.3"
MS_PER_BYTE = 2.2  # training output: one ~190-byte step line every ~420 ms
NCCL_LINE_MAX = 1023  # NCCL <= 2.28 assembles each line in a 1024-byte buffer and truncates there
BASE_TIME = dt.datetime(2025, 6, 12, 14, 3, 10)
BUS_IDS = ["1b000", "1c000", "88000", "89000", "b1000", "b2000", "db000", "dc000"]
AFFINITY = ["ffffffff,00000000,ffffffff", "ffffffff,00000000,ffffffff,00000000"]


def host_name(h: int) -> str:
    return f"gpu-{h:04d}"


def host_ip(h: int) -> str:
    return f"10.{h // 250 // 250}.{h // 250 % 250}.{h % 250 + 2}"


@dataclass
class Scenario:
    nranks: int
    per_rank_bytes: int
    seed: int
    failing_rank: int = 0
    collateral_closed: list[int] = field(default_factory=list)  # same host: closed by remote peer
    collateral_watchdog: list[int] = field(default_factory=list)  # target host: watchdog timeout

    @property
    def nhosts(self) -> int:
        return (self.nranks + RANKS_PER_HOST - 1) // RANKS_PER_HOST


def make_scenario(nranks: int, per_rank_bytes: int, seed: int) -> Scenario:
    rng = random.Random(f"scenario-{seed}-{nranks}")
    sc = Scenario(nranks=nranks, per_rank_bytes=per_rank_bytes, seed=seed)
    nhosts = sc.nhosts
    # Not on the last host, so the target host (the next one) exists; not rank 0.
    host = rng.randrange(0, max(1, nhosts - 1))
    local = rng.randrange(1, RANKS_PER_HOST) if RANKS_PER_HOST > 1 else 0
    sc.failing_rank = min(host * RANKS_PER_HOST + local, nranks - 1)
    same_host = [r for r in range(host * RANKS_PER_HOST, min(nranks, (host + 1) * RANKS_PER_HOST))
                 if r != sc.failing_rank]
    sc.collateral_closed = sorted(rng.sample(same_host, min(3, len(same_host))))
    target = (host + 1) % nhosts
    target_ranks = list(range(target * RANKS_PER_HOST, min(nranks, (target + 1) * RANKS_PER_HOST)))
    sc.collateral_watchdog = sorted(rng.sample(target_ranks, min(4, len(target_ranks))))
    return sc


class Clock:
    """Wall clock of one rank in integer milliseconds, rendered as Python logging does."""

    def __init__(self, start_ms: int):
        self.ms = start_ms
        self._day_cache: dict[int, str] = {}

    def advance(self, ms: int) -> None:
        self.ms += ms

    def stamp(self) -> str:
        day, rem = divmod(self.ms, 86_400_000)
        d = self._day_cache.get(day)
        if d is None:
            d = (BASE_TIME.date() + dt.timedelta(days=day)).isoformat()
            self._day_cache[day] = d
        h, rem = divmod(rem, 3_600_000)
        m, rem = divmod(rem, 60_000)
        s, ms = divmod(rem, 1000)
        return f"{d} {h:02d}:{m:02d}:{s:02d},{ms:03d}"


BASE_MS = (BASE_TIME.hour * 3600 + BASE_TIME.minute * 60 + BASE_TIME.second) * 1000


class RankWriter:
    def __init__(self, sc: Scenario, rank: int):
        self.sc = sc
        self.rank = rank
        self.rng = random.Random(f"rank-{sc.seed}-{sc.nranks}-{rank}")
        self.host = rank // RANKS_PER_HOST
        self.local = rank % RANKS_PER_HOST
        self.hname = host_name(self.host)
        self.ip = host_ip(self.host)
        self.pid = 30000 + (self.host * 7919) % 20000 + self.local
        self.tid_async = self.pid + 160 + self.rng.randrange(0, 8)
        self.tid_proxy = self.tid_async + 13
        self.bus = BUS_IDS[self.local % len(BUS_IDS)]
        self.aff = AFFINITY[self.local * 2 // RANKS_PER_HOST % 2]
        self.clock = Clock(BASE_MS + self.rank % 97 * 3 + self.rng.randrange(0, 40))
        self.out: list[str] = []
        self.size = 0
        self.lines = 0
        self.step = 0
        self.comms = 0
        self.body_start_ms: int | None = None
        self.body_start_size = 0
        self.main = f"{self.hname}:{self.pid}:{self.pid} [{self.local}] NCCL INFO "
        self.asyn = f"{self.hname}:{self.pid}:{self.tid_async} [{self.local}] NCCL INFO "
        self.prox = f"{self.hname}:{self.pid}:{self.tid_proxy} [{self.local}] NCCL INFO "

    # -- emitting ----------------------------------------------------------------------------
    def emit(self, line: str) -> None:
        self.out.append(line)
        self.size += len(line) + 1  # ASCII only, plus the newline
        self.lines += 1

    def nccl(self, prefix: str, msg: str) -> None:
        line = prefix + msg
        self.emit(line[:NCCL_LINE_MAX])

    def warn(self, tid: int, where: str, msg: str) -> None:
        self.emit("")  # NCCL prints "\n" in front of every WARN
        self.emit(f"{self.hname}:{self.pid}:{tid} [{self.local}] {where} NCCL WARN {msg}"[:NCCL_LINE_MAX])

    def py(self, level: str, where: str, msg: str, advance: int = 0) -> None:
        if self.body_start_ms is None:
            self.clock.advance(advance)
        else:
            # Training output: time follows the bytes written, so every rank's body ends at a known time.
            t = self.body_start_ms + int((self.size - self.body_start_size) * MS_PER_BYTE) + self.rng.randrange(0, 30)
            self.clock.ms = max(self.clock.ms + 1, t)
        self.emit(f"{self.clock.stamp()} {level} {where} [rank{self.rank}] {msg}")

    # -- content blocks ----------------------------------------------------------------------
    def startup(self) -> None:
        n = self.sc.nranks
        r = self.rng
        self.py("INFO", "train.py:38", f"starting on {self.hname} (pid {self.pid}, local_rank {self.local}, "
                f"world_size {n})")
        self.py("INFO", "train.py:41", f"torch 2.1.0a0+29c30b1, CUDA 12.2, NCCL {NCCL_VERSION}, device "
                f"cuda:{self.local} (NVIDIA A100-SXM4-80GB)", 3)
        self.py("INFO", "train.py:44", "env: NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET NCCL_SOCKET_IFNAME=eth0 "
                f"PYTHONUNBUFFERED=1 MASTER_ADDR={host_ip(0)} MASTER_PORT=29500 OMP_NUM_THREADS=8 "
                f"CUDA_DEVICE_MAX_CONNECTIONS=1 TORCH_NCCL_ASYNC_ERROR_HANDLING=1", 1)
        # A long line: the whole run configuration as one dict, as many training scripts log it.
        cfg = {
            "model": {"n_layer": 48, "n_head": 25, "n_embd": 1600, "vocab_size": 50304, "block_size": 2048,
                      "dropout": 0.0, "bias": False, "activation_checkpointing": True},
            "optim": {"name": "AdamW", "lr": 3e-4, "min_lr": 3e-5, "betas": [0.9, 0.95], "eps": 1e-8,
                      "weight_decay": 0.1, "grad_clip": 1.0, "warmup_iters": 2000, "lr_decay_iters": 200000,
                      "fused": True},
            "data": {"path": "/lustre/datasets/owt2/train-*.bin", "val_path": "/lustre/datasets/owt2/val.bin",
                     "seq_len": 2048, "micro_batch": 8, "grad_accum": 4, "num_workers": 6,
                     "pin_memory": True, "prefetch_factor": 4, "seed": 1337},
            "parallel": {"dp": n, "tp": 1, "pp": 1, "zero_stage": 1, "backend": "nccl",
                         "bucket_cap_mb": 25, "static_graph": True},
            "checkpoint": {"dir": "/lustre/ckpt/gpt2-xl-run42", "every": 1000, "keep": 3, "async": True},
            "logging": {"interval": 1, "eval_interval": 500, "eval_iters": 50, "wandb": False},
        }
        self.py("INFO", "train.py:47", "config: " + json.dumps(cfg, sort_keys=True), 2)
        self.py("INFO", "train.py:57", f"initialising process group (backend=nccl, world_size={n})", 6400 + r.randrange(0, 90))
        self.emit(f"[I ProcessGroupNCCL.cpp:686] [Rank {self.rank}] ProcessGroupNCCL initialization options:"
                  "NCCL_ASYNC_ERROR_HANDLING: 1, NCCL_DESYNC_DEBUG: 0, NCCL_ENABLE_TIMING: 0, NCCL_BLOCKING_WAIT: 0, "
                  "TIMEOUT(ms): 600000, USE_HIGH_PRIORITY_STREAM: 0")
        self.py("INFO", "train.py:60", f"process group ready (rank {self.rank} of {n})", 150 + r.randrange(0, 20))
        self.py("INFO", "train.py:66", "data: /lustre/datasets/owt2/train-*.bin, 9.03B tokens, seq_len 2048, "
                "micro_batch 8", 70)
        self.py("INFO", "train.py:72", f"model built: 1557.6M parameters on cuda:{self.local}", 200)
        self.py("INFO", "train.py:81", "optimizer: AdamW (lr 3.0e-04, weight_decay 0.1, fused)", 30)
        self.py("INFO", "train.py:95", "starting warm-up all_reduce", 40)
        # NCCL process-level init (main thread), then the world communicator.
        self.nccl(self.main, "cudaDriverVersion 12020")
        self.nccl(self.main, "NCCL_SOCKET_IFNAME set to eth0")
        self.nccl(self.main, f"Bootstrap : Using eth0:{self.ip}<0>")
        self.nccl(self.main, "NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot "
                             "open shared object file: No such file or directory")
        self.nccl(self.main, "NET/Plugin : No plugin found, using internal implementation")
        if self.rank == 0:
            self.emit(f"NCCL version {NCCL_VERSION}+cuda12.2")
        self.nccl(self.asyn, "NET/IB : No device found.")
        self.nccl(self.asyn, f"NET/Socket : Using [0]eth0:{self.ip}<0>")
        self.comm_init(list(range(n)))
        self.py("INFO", "train.py:99", f"warm-up all_reduce ok ({n}.0)", 300 + r.randrange(0, 200))

    def comm_init(self, members: list[int], complete: bool = True,
                  stop_after_channels: bool = False) -> tuple[str, int]:
        """One communicator's INIT/NET lines as NCCL 2.18.3 prints them on this rank."""
        r = self.rng
        self.comms += 1
        n = len(members)
        me = members.index(self.rank)
        comm = f"0x{0x55b7e3a41f30 + self.comms * 0x2a3f0 + self.local * 0x1000:x}"
        crng = random.Random(f"comm-{self.sc.seed}-{members[0]}-{n}-{self.comms}")
        comm_id = f"0x{crng.getrandbits(64):016x}"
        dev = self.local
        self.nccl(self.asyn, "Using network Socket")
        self.nccl(self.asyn, f"comm {comm} rank {me} nranks {n} cudaDev {dev} nvmlDev {dev} busId {self.bus} "
                             f"commId {comm_id} - Init START")
        self.nccl(self.asyn, f"Setting affinity for GPU {dev} to {self.aff}")
        self.nccl(self.asyn, f"NVLS multicast support is not available on dev {dev}")
        nch = 2
        if me == 0:
            ring = "".join(f"{i:4d}" for i in range(n))
            for c in range(nch):
                self.nccl(self.asyn, f"Channel {c:02d}/{nch:02d} : {ring}")
        up = -1 if me == 0 else (me - 1) // 2
        d0 = 2 * me + 1 if 2 * me + 1 < n else -1
        d1 = 2 * me + 2 if 2 * me + 2 < n else -1
        self.nccl(self.asyn, f"Trees [0] {d0}/{d1}/-1->{me}->{up} [1] {d0}/{d1}/-1->{me}->{up}")
        self.nccl(self.asyn, "P2P Chunksize set to 131072")
        nxt = (me + 1) % n
        prv = (me - 1) % n
        same_host_next = members[nxt] // RANKS_PER_HOST == self.host
        for c in range(nch):
            if same_host_next:
                via = "via P2P/IPC/read" if r.random() < 0.5 else "via P2P/IPC"
                self.nccl(self.asyn, f"Channel {c:02d}/0 : {me}[{dev}] -> {nxt}[{members[nxt] % RANKS_PER_HOST}] {via}")
            else:
                self.nccl(self.asyn, f"Channel {c:02d}/0 : {me}[{dev}] -> {nxt}[{members[nxt] % RANKS_PER_HOST}] "
                                     "[send] via NET/Socket/0")
        if stop_after_channels:
            return comm, me
        if members[prv] // RANKS_PER_HOST != self.host:
            for c in range(nch):
                self.nccl(self.asyn, f"Channel {c:02d}/0 : {prv}[{members[prv] % RANKS_PER_HOST}] -> {me}[{dev}] "
                                     "[receive] via NET/Socket/0")
        self.nccl(self.asyn, "Connected all rings")
        for child in (d0, d1):
            if child >= 0:
                for c in range(nch):
                    self.nccl(self.asyn, f"Channel {c:02d}/0 : {me}[{dev}] -> {child}[{members[child] % RANKS_PER_HOST}] "
                                         "via SHM/direct/direct")
        self.nccl(self.asyn, "Connected all trees")
        self.nccl(self.asyn, "threadThresholds 8/8/64 | 512/8/64 | 512 | 512")
        self.nccl(self.asyn, f"{nch} coll channels, 0 nvls channels, {nch} p2p channels, 2 p2p channels per peer")
        if complete:
            self.nccl(self.asyn, f"comm {comm} rank {me} nranks {n} cudaDev {dev} nvmlDev {dev} busId {self.bus} "
                                 f"commId {comm_id} - Init COMPLETE")
        return comm, me

    def comm_destroy(self, comm: str, me: int, n: int) -> None:
        for lr in self.rng.sample(range(RANKS_PER_HOST), 2):
            self.nccl(self.prox, f"[Service thread] Connection closed by localRank {lr}")
        self.nccl(self.main, f"comm {comm} rank {me} nranks {n} cudaDev {self.local} busId {self.bus} - Destroy COMPLETE")

    def step_line(self) -> None:
        r = self.rng
        self.step += 1
        ms = 380 + r.randrange(0, 90)
        loss = 2.6 + 5.0 / (1 + self.step / 400) + r.random() * 0.05
        lr = 3e-4 * min(1.0, self.step / 2000)
        self.py("INFO", "train.py:142", f"step {self.step}/200000 | loss {loss:.4f} | lr {lr:.3e} | grad_norm "
                f"{0.6 + r.random() * 0.5:.3f} | {ms}.{r.randrange(10)} ms/step | "
                f"{65536 * 1000 // ms:,} tok/s | mem 61.{r.randrange(10)} GiB", ms)

    def block(self) -> None:
        """One unit of training-time output, chosen by weight."""
        r = self.rng
        x = r.random()
        if x < 0.80:
            self.step_line()
        elif x < 0.86:
            # Data loader and throughput chatter: short lines.
            self.py("INFO", "data.py:88", f"shard {r.randrange(1, 4096):05d} opened ({r.randrange(200, 900)} MB)")
            self.py("DEBUG", "data.py:131", f"prefetch queue {r.randrange(0, 24)}/24")
        elif x < 0.90:
            # Lazy p2p connections (e.g. an all_to_all or a send/recv pattern reaching new peers).
            peer = r.randrange(self.sc.nranks)
            pdev = peer % RANKS_PER_HOST
            for c in range(r.choice((2, 4))):
                if peer // RANKS_PER_HOST == self.host:
                    self.nccl(self.prox, f"Channel {c:02d}/1 : {self.rank}[{self.local}] -> {peer}[{pdev}] via P2P/IPC/read")
                else:
                    kind = r.choice(("send", "receive"))
                    a, b = (self.rank, peer) if kind == "send" else (peer, self.rank)
                    self.nccl(self.prox, f"Channel {c:02d}/1 : {a}[{a % RANKS_PER_HOST}] -> {b}[{b % RANKS_PER_HOST}] "
                                         f"[{kind}] via NET/Socket/0/Shared")
        elif x < 0.925:
            # A sub-communicator: the 8 ranks of this host (tensor-parallel style), then torn down later.
            first = self.host * RANKS_PER_HOST
            members = list(range(first, min(self.sc.nranks, first + RANKS_PER_HOST)))
            self.py("INFO", "train.py:171", f"new process group (ranks {members[0]}-{members[-1]})", 5)
            comm, me = self.comm_init(members)
            for _ in range(r.randrange(3, 12)):
                self.step_line()
            self.comm_destroy(comm, me, len(members))
        elif x < 0.945:
            # PyTorch: a glog-style warning over several lines, or a Python warning.
            if r.random() < 0.5:
                self.emit("[W reducer.cpp:1346] Warning: Grad strides do not match bucket view strides. This may "
                          "indicate grad was not created according to the gradient layout contract, or that the "
                          "param's strides changed since DDP was constructed.  This is not an error, but may impair "
                          "performance.")
                self.emit("grad.sizes() = [1600, 6400], strides() = [1, 1600]")
                self.emit("bucket_view.sizes() = [1600, 6400], strides() = [6400, 1] (function operator())")
            else:
                self.emit("/usr/local/lib/python3.10/dist-packages/torch/utils/checkpoint.py:429: UserWarning: "
                          "torch.utils.checkpoint: please pass in use_reentrant=True or use_reentrant=False "
                          "explicitly. The default value of use_reentrant will be updated to be False in the future. "
                          "To maintain current behavior, pass use_reentrant=True. It is recommended that you use "
                          "use_reentrant=False. Refer to docs for more details on the differences between the two "
                          "variants.")
                self.emit("  warnings.warn(")
        elif x < 0.975:
            # Evaluation: a burst of short progress lines and a summary.
            self.py("INFO", "train.py:201", f"eval at step {self.step}", 10)
            for i in range(0, 50, 5):
                self.py("INFO", "eval.py:44", f"eval {i + 5}/50", 90 + r.randrange(0, 20))
            self.py("INFO", "train.py:210", f"eval loss {2.9 + r.random() * 0.3:.4f} | ppl "
                    f"{18 + r.random() * 4:.2f} | {4.7 + r.random():.1f} s", 5)
        elif x < 0.99:
            self.py("INFO", "ckpt.py:63", f"saving checkpoint step {self.step} to /lustre/ckpt/gpt2-xl-run42/"
                    f"step{self.step:07d}/shard-{self.rank:05d}.pt (async)", 3)
            self.py("INFO", "ckpt.py:91", f"checkpoint shard written: 1.{r.randrange(10, 99)} GiB in "
                    f"{2 + r.random() * 3:.2f} s", 2500)
        else:
            self.py("WARNING", "train.py:155", f"loss spike at step {self.step} ({3.5 + r.random():.3f}); "
                    "skipping batch", 2)

    def failure(self, t0: int) -> None:
        """The end of the log: a new communicator, and what this rank sees of the failure."""
        sc = self.sc
        r = self.rng
        n = sc.nranks
        # Every rank reaches the eval group at about the same time; the failing rank first.
        self.clock.ms = max(self.clock.ms, t0) + (0 if self.rank == sc.failing_rank else 3 + self.rank % 40)
        self.py("INFO", "train.py:230", f"creating eval process group (world_size {n}) at step {self.step}")
        members = list(range(n))
        if self.rank == sc.failing_rank:
            self.comm_init(members, stop_after_channels=True)
            target = (self.host + 1) % sc.nhosts
            port = 40000 + (sc.seed * 7 + n) % 20000
            abort = f"socketStartConnect: Connect to {host_ip(target)}<{port}> failed : Software caused connection abort"
            self.warn(self.tid_proxy, "misc/socket.cc:483", abort)
            for t in ("misc/socket.cc:564", "misc/socket.cc:586", "transport/net_socket.cc:336",
                      "transport/net.cc:592", "proxy.cc:1306", "proxy.cc:1377"):
                self.nccl(self.prox, f"{t} -> 2")
            self.warn(self.tid_proxy, "proxy.cc:1519",
                      f"[Proxy Service {self.rank}] Failed to execute operation Connect from rank {self.rank}, retcode 2")
            for t in ("transport/net.cc:288", "transport.cc:148", "init.cc:1079", "init.cc:1358"):
                self.nccl(self.asyn, f"{t} -> 2")
            self.nccl(self.asyn, "group.cc:65 -> 2 [Async thread]")
            self.nccl(self.main, "group.cc:406 -> 2")
            self.nccl(self.main, "group.cc:96 -> 2")
            self.py("ERROR", "train.py:236", "eval process group failed", 569)
            self.traceback("unhandled system error (run with NCCL_DEBUG=INFO for details)",
                           "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
                           "device error. ", abort)
        elif self.rank in sc.collateral_closed:
            self.comm_init(members, stop_after_channels=True)
            peer = f"{self.hname}<{51000 + self.rank % 1000}>"
            closed = f"socketProgress: Connection closed by remote peer {peer}"
            self.warn(self.tid_async, "misc/socket.cc:49", closed)
            for t in ("misc/socket.cc:57", "misc/socket.cc:786", "bootstrap.cc:71", "bootstrap.cc:547",
                      "bootstrap.cc:434", "init.cc:1220", "init.cc:1358"):
                self.nccl(self.asyn, f"{t} -> 6")
            self.nccl(self.asyn, "group.cc:65 -> 6 [Async thread]")
            self.nccl(self.main, "group.cc:406 -> 6")
            self.nccl(self.main, "group.cc:96 -> 6")
            self.py("ERROR", "train.py:236", "eval process group failed", 680 + r.randrange(0, 300))
            self.traceback("remote process exited or there was a network error",
                           "ncclRemoteError: A call failed possibly due to a network error or a remote process "
                           "exiting prematurely.", closed)
        elif self.rank in sc.collateral_watchdog:
            self.comm_init(members)
            ran = 600000 + r.randrange(300, 400)
            wd = (f"[Rank {self.rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
                  f"OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for {ran} milliseconds before "
                  "timing out.")
            self.emit(f"[E ProcessGroupNCCL.cpp:475] {wd}")
            self.emit("[E ProcessGroupNCCL.cpp:489] Some NCCL operations have failed or timed out. Due to the "
                      "asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
                      "corrupted/incomplete data.")
            self.emit("[E ProcessGroupNCCL.cpp:495] To avoid data inconsistency, we are taking the entire process "
                      "down.")
            self.py("ERROR", "train.py:240", f"eval all_reduce returned 1.0, expected {n}.0; aborting", ran)
            self.emit(f"[E ProcessGroupNCCL.cpp:916] [Rank {self.rank}] NCCL watchdog thread terminated with "
                      f"exception: {wd}")
            self.emit("terminate called after throwing an instance of 'std::runtime_error'")
            self.emit(f"  what():  [Rank {self.rank}] NCCL watchdog thread terminated with exception: {wd}")
        else:
            # Still in the new communicator's setup when torchrun killed the job: the log just stops.
            self.comm_init(members, stop_after_channels=r.random() < 0.5, complete=False)

    def traceback(self, nccl_text: str, nccl_detail: str, last_error: str) -> None:
        self.emit("Traceback (most recent call last):")
        self.emit('  File "/workspace/train.py", line 233, in main')
        self.emit("    dist.all_reduce(t, group=eval_pg)")
        self.emit('  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/c10d_logger.py", line 47, '
                  "in wrapper")
        self.emit("    return func(*args, **kwargs)")
        self.emit('  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", '
                  "line 2050, in all_reduce")
        self.emit("    work = group.allreduce([tensor], opts)")
        self.emit("torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/"
                  f"c10d/ProcessGroupNCCL.cpp:1275, {nccl_text}, NCCL version {NCCL_VERSION}")
        self.emit(nccl_detail)
        self.emit("Last error:")
        self.emit(last_error)


def write_rank(job: tuple[Scenario, int, str]) -> tuple[int, int]:
    """Writes one rank's file; returns (bytes, lines)."""
    sc, rank, root = job
    w = RankWriter(sc, rank)
    w.startup()
    # Room for the failure at the end, measured on a scratch writer (within a few bytes).
    scratch = RankWriter(sc, rank)
    scratch.startup()
    scratch.step, scratch.comms = 99_999, w.comms + 99
    before = scratch.size
    scratch.failure(t0=failure_time(sc))
    tail_room = scratch.size - before
    w.body_start_ms, w.body_start_size = w.clock.ms, w.size
    while w.size < sc.per_rank_bytes - tail_room:
        w.block()
    w.body_start_ms = None
    # The failure happens at the same wall time everywhere: just after the slowest rank's body.
    w.failure(t0=failure_time(sc))
    folder = os.path.join(root, w.hname)
    os.makedirs(folder, exist_ok=True)
    data = ("\n".join(w.out) + "\n").encode("ascii")
    with open(os.path.join(folder, f"rank{rank}.log"), "wb") as f:
        f.write(data)
    return len(data), w.lines


def failure_time(sc: Scenario) -> int:
    # After every rank's start-up (under 10 s) and body (MS_PER_BYTE per byte written).
    return BASE_MS + 1000 + 10_000 + int(sc.per_rank_bytes * MS_PER_BYTE) + 5000


@dataclass
class BundleInfo:
    name: str
    root: str
    files: int
    bytes: int
    lines: int
    scenario: Scenario
    combined: bool = False

    @property
    def failing_file(self) -> str:
        if self.combined:
            return COMBINED_FILE
        r = self.scenario.failing_rank
        return f"{host_name(r // RANKS_PER_HOST)}/rank{r}.log"


COMBINED_FILE = "job.out"


STAMP_AT_START = re.compile(rb"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) ")


def rank_periods(path: str):
    """A rank's lines in runs that end with a stamped line, each with that stamp: the unstamped
    NCCL lines before a stamped line were written before it."""
    run: list[bytes] = []
    last = b""
    with open(path, "rb") as f:
        for line in f:
            run.append(line)
            m = STAMP_AT_START.match(line)
            if m:
                last = m.group(1)
                yield last, run
                run = []
    if run:
        yield last, run


def combine_ranks(root: str, nranks: int) -> tuple[int, int]:
    """Joins the rank files under root into one `srun -l` stream (root/job.out), as srun writes
    it: each line with its rank's "N: " prefix, padded as Slurm pads it to the width of the largest
    ("%*d: ", so " 7: " beside "63: "), the ranks' lines interleaved in the order they were written
    (by their timestamps). The rank files are deleted. Returns (bytes, lines)."""
    paths = [os.path.join(root, host_name(r // RANKS_PER_HOST), f"rank{r}.log") for r in range(nranks)]
    periods = [rank_periods(p) for p in paths]
    heap: list[tuple[bytes, int, list[bytes]]] = []
    for r, it in enumerate(periods):
        first = next(it, None)
        if first:
            heapq.heappush(heap, (first[0], r, first[1]))
    total = lines = 0
    width = len(str(nranks - 1))
    with open(os.path.join(root, COMBINED_FILE), "wb", buffering=1 << 20) as out:
        while heap:
            _, r, run = heapq.heappop(heap)
            prefix = f"{r:>{width}}: ".encode("ascii")
            for line in run:
                out.write(prefix + line)
                total += len(prefix) + len(line)
                lines += 1
            nxt = next(periods[r], None)
            if nxt:
                heapq.heappush(heap, (nxt[0], r, nxt[1]))
    for p in paths:
        os.remove(p)
    for h in range((nranks + RANKS_PER_HOST - 1) // RANKS_PER_HOST):
        folder = os.path.join(root, host_name(h))
        if os.path.isdir(folder) and not os.listdir(folder):
            os.rmdir(folder)
    return total, lines


def generate_bundle(name: str, root: str, nranks: int, per_rank_bytes: int, seed: int, jobs: int,
                    combined: bool = False) -> BundleInfo:
    sc = make_scenario(nranks, per_rank_bytes, seed)
    os.makedirs(root, exist_ok=True)
    work = [(sc, rank, root) for rank in range(nranks)]
    if jobs > 1:
        # Fresh interpreters, not forks: the timers and samplers of runs measured before this
        # bundle are threads, and a fork taken while one of them holds a lock can hang the child
        # (seen: the writers of the third bundle waiting on a futex forever).
        with multiprocessing.get_context("forkserver").Pool(jobs) as pool:
            results = pool.map(write_rank, work, chunksize=max(1, nranks // (jobs * 8)))
    else:
        results = [write_rank(j) for j in work]
    if combined:
        total, lines = combine_ranks(root, nranks)
        return BundleInfo(name, root, 1, total, lines, sc, combined=True)
    return BundleInfo(name, root, nranks, sum(b for b, _ in results), sum(n for _, n in results), sc)


# ---------------------------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------------------------


@dataclass
class Run:
    wall: float
    maxrss: int  # bytes, from wait4's rusage (the child and anything it waited for)
    rc: int
    timed_out: bool
    cpu: float = 0.0  # the child's user + system seconds
    background: float = 0.0  # average number of cores busy with other work during the run


CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_busy_seconds() -> float:
    """Machine-wide busy CPU time (all cores) from /proc/stat, in seconds."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / CLK_TCK


def wait_for_idle(max_wait: float) -> None:
    """Waits (up to max_wait seconds) until other work uses under 10 % of one core."""
    deadline = time.monotonic() + max_wait
    while True:
        b0 = cpu_busy_seconds()
        time.sleep(2.0)
        busy = (cpu_busy_seconds() - b0) / 2.0
        if busy < 0.10:
            print(f"   machine idle ({busy:.2f} cores busy)", flush=True)
            return
        if time.monotonic() > deadline:
            print(f"   machine still busy ({busy:.2f} cores) after waiting {max_wait:.0f} s; timing anyway",
                  flush=True)
            return
        time.sleep(8.0)


def run_measured(cmd: list[str], stdout_path: str, env: dict[str, str] | None = None,
                 timeout: float | None = None) -> Run:
    """Runs cmd with stdout to a file; wall time by the monotonic clock, peak RSS by wait4."""
    with open(stdout_path, "wb") as out, open(os.devnull, "rb") as devnull:
        busy0 = cpu_busy_seconds()
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=devnull, stdout=out, stderr=subprocess.DEVNULL, env=env,
                                start_new_session=True)
        timed_out = threading.Event()

        def kill() -> None:
            timed_out.set()
            try:
                os.killpg(proc.pid, 9)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer:
            timer.start()
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        busy = cpu_busy_seconds() - busy0
        if timer:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)  # keep Popen from waiting again
    cpu = ru.ru_utime + ru.ru_stime
    return Run(wall, ru.ru_maxrss * 1024, proc.returncode, timed_out.is_set(), cpu,
               max(0.0, busy - cpu) / wall if wall > 0 else 0.0)


def warm_cache(root: str) -> None:
    """One untimed read of every file (like `cat` > /dev/null), so every tool meets a warm cache."""
    buf = bytearray(1 << 20)
    for dirpath, _, files in os.walk(root):
        for fn in files:
            with open(os.path.join(dirpath, fn), "rb", buffering=0) as f:
                while f.readinto(buf):
                    pass


def count_output(cmd: list[str], env: dict[str, str], timeout: float | None) -> tuple[int, int] | None:
    """Runs cmd untimed and counts the lines and bytes it prints; None if it outlives the timeout."""
    with open(os.devnull, "rb") as devnull:
        proc = subprocess.Popen(cmd, stdin=devnull, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                start_new_session=True)
    timer = threading.Timer(timeout, lambda: os.killpg(proc.pid, 9)) if timeout else None
    if timer:
        timer.start()
    lines = size = 0
    assert proc.stdout is not None
    while chunk := proc.stdout.read(1 << 20):
        lines += chunk.count(b"\n")
        size += len(chunk)
    proc.wait()
    if timer:
        timer.cancel()
    return None if proc.returncode == -9 else (lines, size)


def rss_breakdown(cmd: list[str]) -> dict[str, int]:
    """One extra, untimed run sampling /proc/PID/status: peak VmRSS / RssAnon / RssFile in bytes."""
    peaks = {"VmRSS": 0, "RssAnon": 0, "RssFile": 0}
    with open(os.devnull, "wb") as devnull:
        proc = subprocess.Popen(cmd, stdout=devnull, stderr=devnull)
        path = f"/proc/{proc.pid}/status"
        while proc.poll() is None:
            try:
                with open(path) as f:
                    for line in f:
                        key = line.split(":", 1)[0]
                        if key in peaks:
                            peaks[key] = max(peaks[key], int(line.split()[1]) * 1024)
            except (OSError, ValueError, IndexError):
                pass
            time.sleep(0.005)
    return peaks


@dataclass
class ToolResult:
    tool: str
    runs: list[Run] = field(default_factory=list)
    note: str = ""
    skipped: bool = False
    partial: str = ""  # the tool did not read the whole bundle (its time is then not comparable)
    loaded_bytes: int | None = None  # bytes the tool printed back (lnav -n echoes what it loaded)

    @property
    def ok_runs(self) -> list[Run]:
        return [r for r in self.runs if not r.timed_out]

    @property
    def wall(self) -> float | None:
        ok = self.ok_runs
        return statistics.median(r.wall for r in ok) if ok else None

    @property
    def cpu(self) -> float | None:
        ok = self.ok_runs
        return statistics.median(r.cpu for r in ok) if ok else None

    @property
    def background(self) -> float | None:
        return max((r.background for r in self.runs), default=None)

    @property
    def maxrss(self) -> int | None:
        ok = self.ok_runs
        return max(r.maxrss for r in ok) if ok else None


# Reads the diagnosis in a child process and prints its "initiating" object. Parsing a diagnosis of
# 10,000 ranks (21 MB) here would raise this process's peak RSS past 100 MiB, and Linux starts a
# spawned child's peak RSS (ru_maxrss) at its parent's: every tool run after it would report at
# least that much.
_READ_INITIATING = """
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        print(json.dumps({"initiating": json.load(f).get("initiating")}))
except (OSError, ValueError) as e:
    print(json.dumps({"error": str(e)}))
"""


def check_diagnosis(json_path: str, info: BundleInfo) -> tuple[bool, str]:
    done = subprocess.run([sys.executable, "-c", _READ_INITIATING, json_path], capture_output=True, text=True)
    try:
        d = json.loads(done.stdout)
    except ValueError:
        return False, f"no JSON (reader exit {done.returncode})"
    if "error" in d:
        return False, f"no JSON ({d['error']})"
    ini = d.get("initiating")
    if not ini:
        return False, "no initiating finding"
    want_rank = info.scenario.failing_rank
    ok = (ini.get("entry") == EXPECTED_ENTRY and ini.get("rank") == want_rank
          and ini.get("file") == info.failing_file)
    text = (f"initiating {ini.get('entry')} rank {ini.get('rank')} on {ini.get('host')} "
            f"at {ini.get('file')}:{ini.get('line')}")
    if not ok:
        text += f" -- expected {EXPECTED_ENTRY} rank {want_rank} at {info.failing_file}"
    return ok, text


def bench_bundle(info: BundleInfo, args: argparse.Namespace, tmp: str, patterns: str,
                 run_lnav: bool, lnav_timeout: float | None, lnav_once: bool) -> dict[str, ToolResult]:
    """Times the three tools on one bundle.

    The runs are interleaved (round i: rankline, rg, lnav), each round after an untimed read of the
    whole bundle, so the page cache is warm for every run and background load on the machine hits
    all tools alike.
    """
    env = dict(os.environ)
    env.pop("RIPGREP_CONFIG_PATH", None)  # rg reads no config file: plain `rg -c -f`
    lnav_home = os.path.join(tmp, "lnav-home")  # lnav starts from its defaults, and leaves no state behind
    os.makedirs(lnav_home, exist_ok=True)
    lnav_env = dict(env, HOME=lnav_home, XDG_CONFIG_HOME=os.path.join(lnav_home, ".config"))
    out = os.path.join(tmp, "stdout")

    rl = ToolResult("rankline")
    rg = ToolResult("rg")
    ln = ToolResult("lnav")
    rl_cmd = [args.rankline, "diagnose", info.root, "--json"]
    rg_cmd = [args.rg, "-c", "-f", patterns, info.root]
    ln_cmd = [args.lnav, "-n", "-r", info.root]

    if not run_lnav:
        ln.skipped = True
        ln.note = "skipped (--no-lnav)"
    else:
        warm_cache(info.root)
        # One untimed run whose output is counted: lnav -n prints every line it loaded, so this shows
        # whether it read the whole bundle (it silently loads only part of a bundle of many files).
        counted = count_output(ln_cmd, lnav_env, lnav_timeout)
        if counted is None:
            print(f"  lnav     check run: not finished within {lnav_timeout:.0f} s", flush=True)
        else:
            printed, ln.loaded_bytes = counted
            print(f"  lnav     check run: printed {printed:,} of the bundle's {info.lines:,} lines "
                  f"({ln.loaded_bytes:,} of {info.bytes:,} bytes)", flush=True)
            if printed < info.lines:
                ln.partial = (f"gave up: loaded only {printed:,} of {info.lines:,} lines ({printed / info.lines:.1%}), "
                              "without an error message")

    kept = attempts = 0
    while kept < args.repeat:
        attempts += 1
        i = kept
        round_runs: list[tuple[ToolResult, Run]] = []
        warm_cache(info.root)

        run = run_measured(rl_cmd, out, env)
        ok, text = check_diagnosis(out, info)
        round_runs.append((rl, run))
        print(f"  rankline run {i + 1}: {run.wall:7.3f} s, peak RSS {run.maxrss / MiB:7.1f} MiB, CPU {run.cpu:6.2f} s, "
              f"other load {run.background:4.2f} cores, exit {run.rc}; "
              f"{'OK' if ok else 'WRONG'}: {text}", flush=True)
        if not ok:
            rl.note = "WRONG DIAGNOSIS"
        elif run.rc != 0:
            rl.note = f"exit {run.rc}"

        run = run_measured(rg_cmd, out, env)
        round_runs.append((rg, run))
        total = files = 0
        with open(out, encoding="utf-8", errors="replace") as f:
            for line in f:
                _, _, count = line.rstrip("\n").rpartition(":")
                if count.isdigit():
                    total += int(count)
                    files += 1
        print(f"  rg       run {i + 1}: {run.wall:7.3f} s, peak RSS {run.maxrss / MiB:7.1f} MiB, CPU {run.cpu:6.2f} s, "
              f"other load {run.background:4.2f} cores, exit {run.rc}; "
              f"{total} matching lines in {files} files", flush=True)
        if run.rc not in (0, 1):
            rg.note = f"exit {run.rc}"

        if run_lnav and not (lnav_once and i > 0) and not any(r.timed_out for r in ln.runs):
            run = run_measured(ln_cmd, os.devnull, lnav_env, timeout=lnav_timeout)
            round_runs.append((ln, run))
            state = f"killed at the {lnav_timeout:.0f} s limit" if run.timed_out else f"exit {run.rc}"
            print(f"  lnav     run {i + 1}: {run.wall:7.3f} s, peak RSS {run.maxrss / MiB:7.1f} MiB, CPU {run.cpu:6.2f} s, "
                  f"other load {run.background:4.2f} cores, {state}",
                  flush=True)
            if run.timed_out:
                ln.note = f"killed at the {lnav_timeout:.0f} s limit, not finished"
            elif run.rc != 0:
                ln.note = f"exit {run.rc}"

        # On a shared machine, a round during which other work took CPU is timed again (if asked).
        noise = max(r.background for _, r in round_runs)
        if args.wait_idle > 0 and noise > args.max_background and attempts < 4 * args.repeat:
            print(f"  round discarded: other processes kept {noise:.2f} cores busy (limit "
                  f"{args.max_background:g}); waiting and timing it again", flush=True)
            wait_for_idle(args.wait_idle)
            continue
        for tool, r in round_runs:
            tool.runs.append(r)
        kept += 1
    if ln.partial:
        ln.note = (ln.note + "; " if ln.note else "") + ln.partial

    if args.rss_breakdown:
        b = rss_breakdown(rl_cmd)
        rl.note = (rl.note + "; " if rl.note else "") + (
            f"RSS = anon {b['RssAnon'] / MiB:.0f} MiB + file-backed (mapped logs) {b['RssFile'] / MiB:.0f} MiB")
        print(f"  rankline RSS breakdown (extra untimed run, /proc sampled every 5 ms): peak VmRSS "
              f"{b['VmRSS'] / MiB:.1f} MiB, RssAnon {b['RssAnon'] / MiB:.1f} MiB, RssFile {b['RssFile'] / MiB:.1f} MiB",
              flush=True)
    return {"rankline": rl, "rg": rg, "lnav": ln}


@dataclass
class Pairs:
    """rankline on the 64-file and the small-files bundle, alternately: the walls of each; and, as a
    control, on the small files' ranks written as one `srun -l` stream."""
    base: BundleInfo
    small: BundleInfo
    control: BundleInfo | None = None
    base_walls: list[float] = field(default_factory=list)
    small_walls: list[float] = field(default_factory=list)
    control_walls: list[float] = field(default_factory=list)
    wrong: bool = False

    def ratio(self) -> float | None:
        if not self.base_walls or not self.small_walls:
            return None
        return (statistics.median(self.small_walls) / self.small.bytes) / (
            statistics.median(self.base_walls) / self.base.bytes)

    def round_ratios(self) -> list[float]:
        """The same ratio round by round: its spread says how far the median can be trusted."""
        return [(s / self.small.bytes) / (b / self.base.bytes)
                for s, b in zip(self.small_walls, self.base_walls) if b > 0]

    def control_ratio(self) -> float | None:
        """Time per byte of the small files against the same ranks in one file."""
        if not self.control or not self.control_walls or not self.small_walls:
            return None
        return (statistics.median(self.small_walls) / self.small.bytes) / (
            statistics.median(self.control_walls) / self.control.bytes)


def pair_runs(base: BundleInfo, small: BundleInfo, args: argparse.Namespace, tmp: str,
              control: BundleInfo | None = None) -> Pairs:
    """The time-per-byte target compares two bundles. Timed in their own sections, minutes apart,
    their ratio also measures how the shared host's speed drifted in between (between two runs of
    the eleventh session, rg took 17 % less on the 64-file bundle and 19 % more on the small
    files). Alternating the two, each after a read of its bundle, exposes both to the same drift.

    `control`, when given, is the small files' ranks as one stream, timed in the same rounds: the
    64-file bundle holds 64 ranks, the small files 10,000, each with its start-up lines, so their
    ratio mixes what many files cost with what many ranks cost; the control has the ranks without
    the files."""
    out = os.path.join(tmp, "stdout")
    pairs = Pairs(base, small, control)
    n = max(5, 2 * args.repeat - 1)
    print(f"\n== time per byte, {base.name} and {small.name}{' and ' + control.name if control else ''} "
          f"alternately ({n} rounds)", flush=True)
    if args.wait_idle > 0:
        wait_for_idle(args.wait_idle)
    rounds = [(base, pairs.base_walls), (small, pairs.small_walls)]
    if control:
        rounds.append((control, pairs.control_walls))
    for i in range(n):
        for info, walls in rounds:
            warm_cache(info.root)
            run = run_measured([args.rankline, "diagnose", info.root, "--json"], out)
            ok, text = check_diagnosis(out, info)
            walls.append(run.wall)
            pairs.wrong = pairs.wrong or not ok
            print(f"  round {i + 1}: {info.name:<28} {run.wall:7.3f} s, other load {run.background:4.2f} cores; "
                  f"{'OK' if ok else 'WRONG'}: {text}", flush=True)
    return pairs


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


def fmt_bytes(n: int) -> str:
    return f"{n / MiB:,.1f} MiB"


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("PASS" if ok else "MISS")


def print_report(results: list[tuple[BundleInfo, dict[str, ToolResult]]], args: argparse.Namespace,
                 pairs: Pairs | None = None) -> list[str]:
    lines: list[str] = []
    p = lines.append
    p("")
    p(f"Rankline ingestion benchmark, {dt.date.today().isoformat()}, {platform.node() or 'host'}: "
      f"{os.cpu_count()} cores, {platform.machine()}, Linux {platform.release()}; "
      f"median of {args.repeat} interleaved runs, page cache warm; peak RSS = highest of the runs (wait4 ru_maxrss; "
      f"this script's own peak, a floor under every child's on Linux, was "
      f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB); "
      f"MB = 10^6 bytes; load average at the end {os.getloadavg()[0]:.2f}; generator seed {args.seed}")
    p("")
    p("| bundle | tool | files | bytes | lines | wall s | MB/s | CPU s | peak RSS | RSS / bytes | other load | note |")
    p("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for info, tools in results:
        for name in ("rankline", "rg", "lnav"):
            t = tools[name]
            wall = t.wall
            rss = t.maxrss
            if t.skipped or wall is None:
                wall_s = mbs = "—"
                if t.runs and t.runs[0].timed_out:
                    wall_s = f"> {t.runs[0].wall:.0f}"
            else:
                wall_s = f"{wall:.3f}"
                # A tool that stopped early is rated on the bytes it read (lnav -n echoes them).
                read = t.loaded_bytes if t.partial and t.loaded_bytes else info.bytes
                mbs = f"{read / 1e6 / wall:,.0f}" + ("*" if read != info.bytes else "")
            rss_s = fmt_bytes(rss) if rss else "—"
            ratio = f"{rss / info.bytes:.2f}" if rss else "—"
            cpu_s = f"{t.cpu:.2f}" if t.cpu is not None else "—"
            bg = f"{t.background:.2f}" if t.background is not None else "—"
            p(f"| {info.name} | {name} | {info.files:,} | {info.bytes:,} | {info.lines:,} | {wall_s} | {mbs} | "
              f"{cpu_s} | {rss_s} | {ratio} | {bg} | {t.note} |")
    p("")
    p("wall s and CPU s (user + system, all threads): median of the runs. other load: the most cores that other "
      "processes kept busy during any run of that tool (from /proc/stat), i.e. the noise on a shared machine.")
    if any(t.partial for _, tools in results for t in tools.values()):
        p("* on the bytes the tool actually loaded before it stopped")
    p("")
    p("Targets (issue 3):")
    for info, tools in results:
        rl, rg, ln = tools["rankline"], tools["rg"], tools["lnav"]
        if info.name.startswith("small"):
            continue
        if rl.wall and rg.wall:
            x = rl.wall / rg.wall
            p(f"  {info.name}: rankline / rg wall time       = {x:6.2f}  (target <= {TARGET_RANKLINE_OVER_RG:g})   "
              f"{verdict(x <= TARGET_RANKLINE_OVER_RG)}")
        if rl.wall and ln.wall and not ln.partial:
            x = ln.wall / rl.wall
            p(f"  {info.name}: lnav -n / rankline wall time  = {x:6.1f}  (target >= {TARGET_LNAV_OVER_RANKLINE:g})    "
              f"{verdict(x >= TARGET_LNAV_OVER_RANKLINE)}")
        elif rl.wall and ln.wall and ln.partial and ln.loaded_bytes:
            x = (ln.wall / ln.loaded_bytes) / (rl.wall / info.bytes)
            p(f"  {info.name}: lnav -n / rankline wall time  = n/a: lnav loaded only "
              f"{ln.loaded_bytes / info.bytes:.1%} of the bytes and stopped")
            p(f"  {info.name}: lnav -n / rankline time per byte = {x:6.1f}  (on what lnav loaded; target >= "
              f"{TARGET_LNAV_OVER_RANKLINE:g}) {verdict(x >= TARGET_LNAV_OVER_RANKLINE)} (per byte, lnav incomplete)")
        elif rl.wall and ln.runs and ln.runs[0].timed_out:
            x = ln.runs[0].wall / rl.wall
            p(f"  {info.name}: lnav -n / rankline wall time  > {x:6.1f}  (lnav killed at the limit; target >= "
              f"{TARGET_LNAV_OVER_RANKLINE:g}) {verdict(x >= TARGET_LNAV_OVER_RANKLINE)}")
        if rl.maxrss:
            x = rl.maxrss / info.bytes
            p(f"  {info.name}: rankline peak RSS / bytes     = {x:6.2f}  (target <= {TARGET_RSS_OVER_BYTES:g})  "
              f"{verdict(x <= TARGET_RSS_OVER_BYTES)}")
    for info, tools in results:
        if not info.name.startswith("small"):
            continue
        rl = tools["rankline"]
        base = next((b for b in results if b[0].name.startswith("64x")), None)
        paired = pairs.ratio() if pairs and pairs.small is info else None
        if paired is not None:
            per_small = statistics.median(pairs.small_walls) / info.bytes
            per_base = statistics.median(pairs.base_walls) / pairs.base.bytes
            p(f"  {info.name}: rankline time per byte vs {pairs.base.name} = {paired:6.2f}  (target <= "
              f"{TARGET_SMALL_OVER_LARGE:g})  {verdict(paired <= TARGET_SMALL_OVER_LARGE)}  "
              f"({per_small * 1e9:.2f} vs {per_base * 1e9:.2f} ns/byte; {len(pairs.small_walls)} alternating rounds, "
              f"{min(pairs.round_ratios()):.2f}-{max(pairs.round_ratios()):.2f} round by round)")
        control = pairs.control_ratio() if pairs and pairs.small is info else None
        if control is not None and pairs and pairs.control:
            p(f"  {info.name}: (control, no target: time per byte vs the same {pairs.small.files:,} ranks as one "
              f"`srun -l` stream, {pairs.control.name} = {control:.2f}; below 1, the files cost less than "
              f"the ranks they hold)")
        if rl.wall and base and base[1]["rankline"].wall:
            per_small = rl.wall / info.bytes
            per_base = base[1]["rankline"].wall / base[0].bytes
            x = per_small / per_base
            if paired is not None:
                p(f"  {info.name}: (the same from the two bundles' own sections, minutes apart: {x:.2f})")
            else:
                p(f"  {info.name}: rankline time per byte vs {base[0].name} = {x:6.2f}  (target <= "
                  f"{TARGET_SMALL_OVER_LARGE:g})  {verdict(x <= TARGET_SMALL_OVER_LARGE)}  "
                  f"({per_small * 1e9:.2f} vs {per_base * 1e9:.2f} ns/byte)")
        if rl.maxrss:
            x = rl.maxrss / info.bytes
            p(f"  {info.name}: rankline peak RSS / bytes     = {x:6.2f}  (target <= {TARGET_RSS_OVER_BYTES:g})  "
              f"{verdict(x <= TARGET_RSS_OVER_BYTES)}")
    for line in lines:
        print(line)
    return lines


def tool_version(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "?"


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--rankline", default=os.path.join(repo, "build", "release", "app", "rankline"),
                    help="the rankline binary (build the release preset first)")
    ap.add_argument("--rg", default="rg", help="ripgrep binary")
    ap.add_argument("--lnav", default="lnav", help="lnav binary")
    ap.add_argument("--bundles", default="64,256,combined,small",
                    help="which bundles: 64 (64 ranks x 4 MiB), 256 (256 ranks x 4 MiB), combined (the 64 ranks as one "
                         "srun -l stream), small (many small files)")
    ap.add_argument("--rank-mib", type=float, default=4.0, help="MiB per rank file in the 64- and 256-rank bundles")
    ap.add_argument("--small-files", type=int, default=10_000, help="files in the small-files bundle")
    ap.add_argument("--small-kib", type=float, default=16.0, help="KiB per file in the small-files bundle")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per tool (the median is reported)")
    ap.add_argument("--seed", type=int, default=20250612, help="generator seed")
    ap.add_argument("--workdir", default=None, help="where bundles are written (default: a new temp folder)")
    ap.add_argument("--keep", action="store_true", help="keep the generated bundles")
    ap.add_argument("--generate-only", action="store_true", help="write the bundles and stop (implies --keep)")
    ap.add_argument("--no-lnav", action="store_true", help="do not run lnav at all")
    ap.add_argument("--lnav-timeout", type=float, default=900.0,
                    help="seconds after which an lnav run on the 64/256-rank bundles is killed")
    ap.add_argument("--small-lnav-timeout", type=float, default=120.0,
                    help="seconds after which lnav on the small-files bundle is killed (0: skip lnav there)")
    ap.add_argument("--no-small-control", dest="small_control", action="store_false",
                    help="do not time the small files' ranks as one stream beside the pairs (a control)")
    ap.add_argument("--no-rss-breakdown", dest="rss_breakdown", action="store_false",
                    help="skip the extra untimed rankline run that splits peak RSS into anonymous and file-backed")
    ap.add_argument("--wait-idle", type=float, default=0.0, metavar="SECONDS",
                    help="before timing each bundle, wait up to SECONDS for other work on the machine to stop")
    ap.add_argument("--max-background", type=float, default=0.3, metavar="CORES",
                    help="with --wait-idle: a round during which other processes used more than CORES cores "
                         "is discarded and timed again (at most 4 x --repeat rounds in all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="generator processes")
    ap.add_argument("--markdown-out", default=None, help="also write the table and verdicts to this file")
    args = ap.parse_args()

    if args.generate_only:
        args.keep = True
    wanted = [b.strip() for b in args.bundles.split(",") if b.strip()]
    for b in wanted:
        if b not in ("64", "256", "small", "combined"):
            ap.error(f"unknown bundle {b!r}")
    if not args.generate_only:
        missing = [t for t in (args.rankline, args.rg) + (() if args.no_lnav else (args.lnav,))
                   if not shutil.which(t)]
        if missing:
            print("missing tools: " + ", ".join(missing), file=sys.stderr)
            print("build rankline with `cmake --preset release && cmake --build --preset release`; "
                  "install the bench tools with `sudo apt-get install ripgrep lnav`", file=sys.stderr)
            return 2

    # SIGTERM (e.g. `kill PID`) unwinds like Ctrl-C, so the bundles are still deleted.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    tmp = args.workdir or tempfile.mkdtemp(prefix="rankline-bench-")
    os.makedirs(tmp, exist_ok=True)
    print(f"work folder: {tmp}{' (kept)' if args.keep else ' (deleted at the end; --keep to keep it)'}")
    if not args.generate_only:
        print(f"rankline: {args.rankline} ({tool_version([args.rankline, '--version'])})")
        print(f"rg: {tool_version([args.rg, '--version'])}")
        if not args.no_lnav:
            print(f"lnav: {tool_version([args.lnav, '-V'])}")
    results: list[tuple[BundleInfo, dict[str, ToolResult]]] = []
    base_info: BundleInfo | None = None
    pairs: Pairs | None = None
    try:
        patterns = os.path.join(tmp, "fingerprints.rg")
        if not args.generate_only:
            exp = subprocess.run([args.rankline, "encyclopedia", "--export-patterns"], capture_output=True,
                                 text=True, check=True)
            with open(patterns, "w", encoding="utf-8") as f:
                f.write(exp.stdout)
            print(f"patterns: {len(exp.stdout.splitlines())} fingerprint regexes from "
                  f"`rankline encyclopedia --export-patterns` -> {patterns}")
        specs = []
        rank_bytes = int(args.rank_mib * MiB)
        for b in wanted:
            if b == "64":
                specs.append((f"64x{args.rank_mib:g}MiB", 64, rank_bytes, False))
            elif b == "256":
                specs.append((f"256x{args.rank_mib:g}MiB", 256, rank_bytes, False))
            elif b == "combined":
                specs.append((f"combined-64x{args.rank_mib:g}MiB", 64, rank_bytes, False))
            else:
                specs.append((f"small-{args.small_files}x{args.small_kib:g}KiB", args.small_files,
                              int(args.small_kib * KiB), True))
        for name, nranks, size, small in specs:
            root = os.path.join(tmp, name)
            t0 = time.perf_counter()
            if os.path.isdir(root):
                shutil.rmtree(root)
            info = generate_bundle(name, root, nranks, size, args.seed, args.jobs,
                                   combined=name.startswith("combined"))
            sc = info.scenario
            print(f"\n== {name}: {info.files:,} files, {info.bytes:,} bytes, {info.lines:,} lines "
                  f"(generated in {time.perf_counter() - t0:.1f} s) at {root}")
            print(f"   load average before timing: {os.getloadavg()[0]:.2f}")
            print(f"   injected: connect abort on rank {sc.failing_rank} ({info.failing_file}); "
                  f"collateral: closed-by-peer on ranks {sc.collateral_closed}, watchdog on ranks "
                  f"{sc.collateral_watchdog}")
            if args.generate_only:
                continue
            if args.wait_idle > 0:
                wait_for_idle(args.wait_idle)
            run_lnav = not args.no_lnav and not (small and args.small_lnav_timeout <= 0)
            timeout = args.small_lnav_timeout if small else args.lnav_timeout
            tools = bench_bundle(info, args, tmp, patterns, run_lnav, timeout, lnav_once=small)
            if small and not run_lnav and not args.no_lnav:
                tools["lnav"].note = "skipped (--small-lnav-timeout 0)"
            results.append((info, tools))
            if small and base_info is not None:
                control = None
                if args.small_control:
                    croot = os.path.join(tmp, f"combined-{name}")
                    if os.path.isdir(croot):
                        shutil.rmtree(croot)
                    t0 = time.perf_counter()
                    control = generate_bundle(f"combined-{name}", croot, nranks, size, args.seed, args.jobs,
                                              combined=True)
                    print(f"\n== control {control.name}: the same {nranks:,} ranks as one `srun -l` stream, "
                          f"{control.bytes:,} bytes (generated in {time.perf_counter() - t0:.1f} s)")
                pairs = pair_runs(base_info, info, args, tmp, control)
                if not args.keep:
                    shutil.rmtree(base_info.root, ignore_errors=True)
                    if control:
                        shutil.rmtree(control.root, ignore_errors=True)
            if name.startswith("64x") and "small" in wanted:
                base_info = info  # kept until the small files are timed against it (pair_runs)
            elif not args.keep:
                shutil.rmtree(root)
        if results:
            lines = print_report(results, args, pairs)
            if args.markdown_out:
                with open(args.markdown_out, "w", encoding="utf-8") as f:
                    f.write("\n".join(lines) + "\n")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    wrong = [info.name for info, tools in results if "WRONG" in tools["rankline"].note]
    if pairs and pairs.wrong:
        wrong.append("the alternating pairs")
    if wrong:
        print(f"\nwrong diagnosis on: {', '.join(wrong)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
