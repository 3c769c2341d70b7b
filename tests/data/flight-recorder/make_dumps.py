#!/usr/bin/env python3
"""Writes the Flight Recorder fixtures beside this script. Run it again to remake them.

The dumps hold what c10d's FlightRecorder writes (torch/csrc/distributed/c10d/FlightRecorder*.hpp,
dump format 2.x): version, comm_lib_version, pg_config (name -> name, desc, ranks as the string
"[0, 1, 2, 3]"), pg_status (pg_id -> last enqueued, started and completed collective), entries
(one dict per collective or point-to-point operation), with the Python stack that called each
(`frames`, innermost first: name, filename, line) in the rank-behind and mismatch cases.

Three writers, as dumps are met in the field:
- `torch_pickle` emits the opcodes torch.jit's C++ pickler emits (protocol 2; every string
  memoised with BINPUT and repeated with BINGET; a list of ints through the global
  torch.jit._pickle.build_intlist and REDUCE; no batching of APPENDS or SETITEMS);
- Python's pickle module, protocol 2 and 4 (a dump re-saved by a script);
- JSON text as the recorder's dump_json writes it (nlohmann: compact, keys sorted).
"""
import json
import os
import pickle
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1733500000 * 10**9  # time_created_ns of the first entry


class IntList(list):
    """A list torch.jit's pickler writes through build_intlist."""


def torch_pickle(value) -> bytes:
    out = bytearray(b"\x80\x02")
    memo = {}

    def put():
        n = len(memo)
        memo[("#", n)] = n
        out.extend(b"q" + bytes([n]) if n < 256 else b"r" + struct.pack("<I", n))
        return n

    def string(s: str):
        if s in memo:
            n = memo[s]
            out.extend(b"h" + bytes([n]) if n < 256 else b"j" + struct.pack("<I", n))
            return
        b = s.encode()
        out.extend(b"X" + struct.pack("<I", len(b)) + b)
        memo[s] = len(memo)
        n = memo[s]
        out.extend(b"q" + bytes([n]) if n < 256 else b"r" + struct.pack("<I", n))

    def integer(n: int):
        if 0 <= n <= 0xFF:
            out.extend(b"K" + bytes([n]))
        elif 0 <= n <= 0xFFFF:
            out.extend(b"M" + struct.pack("<H", n))
        elif -(2**31) <= n < 2**31:
            out.extend(b"J" + struct.pack("<i", n))
        else:
            out.extend(b"\x8a\x08" + struct.pack("<q", n))

    def global_(module: str, name: str):
        key = ("global", module, name)
        if key in memo:
            out.extend(b"h" + bytes([memo[key]]))
            return
        out.extend(b"c" + module.encode() + b"\n" + name.encode() + b"\n")
        memo[key] = len(memo)
        out.extend(b"q" + bytes([memo[key]]))

    def push(v):
        if v is None:
            out.extend(b"N")
        elif v is True:
            out.extend(b"\x88")
        elif v is False:
            out.extend(b"\x89")
        elif isinstance(v, str):
            string(v)
        elif isinstance(v, int):
            integer(v)
        elif isinstance(v, float):
            out.extend(b"G" + struct.pack(">d", v))
        elif isinstance(v, IntList):
            global_("torch.jit._pickle", "build_intlist")
            out.extend(b"(]")
            out.extend(b"(")
            for x in v:
                integer(x)
            out.extend(b"et" + b"R")
        elif isinstance(v, tuple):
            for x in v:
                push(x)
            out.extend({0: b")", 1: b"\x85", 2: b"\x86", 3: b"\x87"}.get(len(v), b""))
        elif isinstance(v, list):
            out.extend(b"]")
            out.extend(b"(")
            for x in v:
                push(x)
            out.extend(b"e")
        elif isinstance(v, dict):
            out.extend(b"}(")
            for k, x in v.items():
                push(k)
                push(x)
            out.extend(b"u")
        else:
            raise TypeError(type(v))

    push(value)
    out.extend(b".")
    return bytes(out)


TORCH_PY = "/usr/local/lib/python3.10/dist-packages/torch/distributed/"


def frames(op, site):
    """The stack of a collective called from `site` (file, line, function), innermost first:
    torch.distributed's own frames, then the program's."""
    api = op.split(":")[-1].split(" ")[0]
    file, line, function = site
    return [{"name": api, "filename": TORCH_PY + "distributed_c10d.py", "line": 2501},
            {"name": "wrapper", "filename": TORCH_PY + "c10d_logger.py", "line": 83},
            {"name": function, "filename": file, "line": line},
            {"name": "main", "filename": "/workspace/train.py", "line": 140},
            {"name": "<module>", "filename": "/workspace/train.py", "line": 161}]


def entry(rank, record_id, pg, seq, op, state, p2p=False, sizes=(1024,)):
    started = state in ("started", "completed")
    completed = state == "completed"
    # Each rank's clock and thread differ: no two ranks' dumps are the same bytes.
    created = T0 + record_id * 5_000_000 + rank * 137_000
    return {
        "record_id": record_id,
        "pg_id": int(pg[0]) if pg[0].isdigit() else 0,
        "process_group": pg,
        "thread_name": "pt_main_thread",
        "thread_id": str(139872394766144 + rank * 4096),
        "collective_seq_id": seq,
        "p2p_seq_id": 0,
        "op_id": record_id + 1,
        "profiling_name": op,
        "time_created_ns": created,
        "input_sizes": [IntList(sizes)],
        "input_dtypes": ["Float"],
        "output_sizes": [IntList(sizes)],
        "output_dtypes": ["Float"],
        "state": state,
        "time_discovered_started_ns": created + 1000 if started else None,
        "time_discovered_completed_ns": created + 9000 if completed else None,
        "retired": completed,
        "timeout_ms": 600000,
        "is_p2p": p2p,
    }


def dump(rank, world, last_enqueued, last_completed, op_at=lambda seq: "nccl:all_reduce", first=35,
         with_status=True, site_at=None):
    pg = ("0", "default_pg")
    entries = []
    for rid, seq in enumerate(range(first, last_enqueued + 1)):
        state = "completed" if seq <= last_completed else "scheduled" if seq > last_completed + 1 else "started"
        entries.append(entry(rank, rid, pg, seq, op_at(seq), state))
        if site_at:
            entries[-1]["frames"] = frames(op_at(seq), site_at(seq))
    d = {
        "version": "2.4",
        "pg_config": {"0": {"name": "0", "desc": "default_pg", "ranks": str(list(range(world)))}},
        "comm_lib_version": "2.21.5",
    }
    if with_status:
        d["pg_status"] = {"0": {"last_enqueued_collective": last_enqueued,
                                "last_started_collective": min(last_enqueued, last_completed + 1),
                                "last_completed_collective": last_completed}}
    d["entries"] = entries
    return d


def write(path, data: bytes):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def to_plain(v):
    if isinstance(v, IntList):
        return list(v)
    if isinstance(v, dict):
        return {k: to_plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [to_plain(x) for x in v]
    return v


def main():
    # A hang: ranks 0, 1 and 3 wait in collective 42 (an all-reduce); rank 2 stopped after 41.
    behind = os.path.join(HERE, "rank-behind")
    for rank in range(4):
        last = 41 if rank == 2 else 42
        d = dump(rank, 4, last, 41, site_at=lambda seq: ("/workspace/train.py", 88, "train_step"))
        write(os.path.join(behind, f"nccl_trace_rank_{rank}"), torch_pickle(d))
    # A mismatch: at collective 7 ranks 0 and 1 all-reduce, ranks 2 and 3 broadcast; Python's
    # own pickle, protocol 2 and 4, and one dump as JSON text.
    mismatch = os.path.join(HERE, "mismatch")
    for rank in range(4):
        op = (lambda seq: "nccl:all_reduce") if rank < 2 else (
            lambda seq: "nccl:broadcast" if seq == 7 else "nccl:all_reduce")
        site = (lambda seq: ("/workspace/train.py", 88, "train_step")) if rank < 2 else (
            lambda seq: ("/workspace/eval.py", 40, "evaluate") if seq == 7 else ("/workspace/train.py", 88, "train_step"))
        d = to_plain(dump(rank, 4, 7, 6, op_at=op, first=3, with_status=rank != 1, site_at=site))
        if rank == 3:
            write(os.path.join(mismatch, f"nccl_trace_rank_{rank}.json"), json.dumps(d, sort_keys=True, separators=(",", ":")).encode())
        else:
            write(os.path.join(mismatch, f"nccl_trace_rank_{rank}"),
                  pickle.dumps(d, protocol=4 if rank == 2 else 2))
    # A pipeline's hang: every collective completed (#20), but rank 1 waits to receive from rank 0
    # and rank 2 to send to rank 3 (point-to-point entries: is_p2p, their own p2p_seq_id).
    p2p = os.path.join(HERE, "point-to-point")
    pending = {0: ("nccl:send 0->1", "completed"), 1: ("nccl:recv 1<-0", "scheduled"),
               2: ("nccl:send 2->3", "started"), 3: None}
    for rank in range(4):
        d = dump(rank, 4, 20, 20, first=15)
        if pending[rank]:
            op, state = pending[rank]
            e = entry(rank, len(d["entries"]), ("0", "default_pg"), 20, op, state, p2p=True)
            e["p2p_seq_id"] = 1
            d["entries"].append(e)
        write(os.path.join(p2p, f"nccl_trace_rank_{rank}"), torch_pickle(d))
    # A hang after a failed connect: rank 2's proxy could not connect (its log's NCCL WARN) and
    # all four wait in collective 7; the logs (NCCL_DEBUG=WARN) name no NCCL version, the dumps do.
    # The rank logs beside them are written by hand.
    hang = os.path.join(HERE, "connect-abort-hang")
    for rank in range(4):
        write(os.path.join(hang, f"nccl_trace_rank_{rank}"), torch_pickle(dump(rank, 4, 7, 6, first=1)))
    # A stall: all four enqueued 12 and none completed it; rank 3's dump was cut short while
    # being written.
    stall = os.path.join(HERE, "stalled")
    for rank in range(4):
        data = torch_pickle(dump(rank, 4, 12, 11, first=5))
        if rank == 3:
            data = data[: len(data) // 2]
        write(os.path.join(stall, f"nccl_trace_rank_{rank}"), data)


if __name__ == "__main__":
    main()
