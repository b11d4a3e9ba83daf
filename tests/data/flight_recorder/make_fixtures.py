#!/usr/bin/env python3
"""Writes the Flight Recorder fixtures of tests/data/flight_recorder from the spec below.

The dumps are written by Python's own pickle module (protocol 2: the opcodes PyTorch's C++
pickler emits) and json module, in the layout PyTorch's Flight Recorder dumps
(torch/csrc/distributed/c10d/FlightRecorderDetail.hpp, format 2.10; docs/formats.md). They are
not real dumps: a job of 4 ranks with the world group and two pair groups, where global rank 2
stopped calling: ranks 0, 1 and 3 hold all_reduce #62 of default_pg scheduled, rank 2 ends at #61.
Hand-written byte sequences cover what Python's pickler never writes: torch.jit._pickle's
build_intlist + REDUCE, and LONG_BINPUT / LONG_BINGET.

The tests take their expected values from this spec (SPEC comments name them), not from the
reader. Run it from anywhere: python3 tests/data/flight_recorder/make_fixtures.py
"""
import json
import os
import pickle
import pickletools
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# SPEC: the job.
RANKS = 4
VERSION = "2.10"
COMM_LIB_VERSION = "2.28.9"
GROUPS = {  # name -> (desc, global ranks)
    "0": ("default_pg", [0, 1, 2, 3]),
    "1": ("undefined", [0, 1]),
    "2": ("undefined", [2, 3]),
}
LAST_SEQ = 62          # all_reduce #62 of default_pg: scheduled on ranks 0, 1, 3
STOPPED_RANK = 2       # rank 2 ends at #61, completed
FIRST_SEQ = 59         # each rank's ring holds default_pg's #59 on
SIZES = [[1024, 1024]]  # one float32 tensor of 1024 x 1024
PAIR_SEQ = 7           # each pair group: one completed all_reduce #7 of [[8]]
TIME0 = 1_700_000_000_000_000_000
FRAMES = [  # innermost first
    {"name": "all_reduce", "filename": "torch/distributed/distributed_c10d.py", "line": 2696},
    {"name": "wrapper", "filename": "torch/distributed/c10d_logger.py", "line": 83},
    {"name": "train_step", "filename": "train.py", "line": 141},
]


def entry(record_id, pg_name, seq, state, sizes, dtype="Float"):
    desc = GROUPS[pg_name][0]
    e = {
        "frames": FRAMES,  # one list object shared by every entry: the pickle's memo refers to it
        "record_id": record_id,
        "pg_id": int(pg_name),
        "process_group": (pg_name, desc),
        "thread_name": "pt_main_thread",
        "thread_id": "140234",
        "collective_seq_id": seq,
        "p2p_seq_id": 0,
        "op_id": seq,
        "profiling_name": "nccl:all_reduce",
        "time_created_ns": TIME0 + record_id * 1000,
        "input_sizes": sizes,
        "input_dtypes": [dtype],
        "output_sizes": sizes,
        "output_dtypes": [dtype],
        "state": state,
        "time_discovered_started_ns": None if state == "scheduled" else TIME0 + record_id * 1000 + 10,
        "time_discovered_completed_ns": TIME0 + record_id * 1000 + 500 if state == "completed" else None,
        "retired": state == "completed",
        "timeout_ms": 600000,
        "is_p2p": False,
    }
    if state == "completed":
        e["duration_ms"] = 0.25
    return e


def rank_dump(rank, version=VERSION, lib_key="comm_lib_version", threads=True):
    entries = []
    last = LAST_SEQ - 1 if rank == STOPPED_RANK else LAST_SEQ
    for seq in range(FIRST_SEQ, last + 1):
        state = "scheduled" if seq == LAST_SEQ else "completed"
        entries.append(entry(len(entries), "0", seq, state, SIZES))
    pair = "1" if rank in GROUPS["1"][1] else "2"
    entries.append(entry(len(entries), pair, PAIR_SEQ, "completed", [[8]]))
    if not threads:
        for e in entries:
            del e["thread_name"], e["thread_id"]
    return {
        "version": version,
        # A rank records the groups it is a member of.
        "pg_config": {
            name: {"name": name, "desc": desc, "ranks": "[" + ",".join(map(str, ranks)) + "]"}
            for name, (desc, ranks) in GROUPS.items() if rank in ranks
        },
        lib_key: COMM_LIB_VERSION,
        "pg_status": {
            "0": {"last_enqueued_collective": last, "last_started_collective": last - (rank != STOPPED_RANK),
                  "last_completed_collective": last - (rank != STOPPED_RANK)},
        },
        "entries": entries,
    }


def json_form(dump):
    """PyTorch's dump_json: process_group an array, pg_status values strings, times not yet
    discovered 0, no frames, keys sorted (nlohmann::json's std::map)."""
    out = dict(dump)
    out["pg_status"] = {k: {f: str(v) for f, v in s.items()} for k, s in dump["pg_status"].items()}
    entries = []
    for e in dump["entries"]:
        e = dict(e)
        del e["frames"]
        e["process_group"] = list(e["process_group"])
        for key in ("time_discovered_started_ns", "time_discovered_completed_ns"):
            if e[key] is None:
                e[key] = 0
        entries.append(e)
    out["entries"] = entries
    return json.dumps(out, sort_keys=True)


def write(rel, data):
    path = os.path.join(HERE, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def hand_written():
    """Byte sequences Python's pickler does not write, each a dump of one entry."""
    def s(text):
        b = text.encode()
        return b"X" + struct.pack("<I", len(b)) + b

    def i(n):
        return b"J" + struct.pack("<i", n)

    # SPEC: intlist: version 2.10, one entry whose input_sizes is [build_intlist([4, 4464, -3])]
    # (BININT1, BININT2, BININT), output_sizes [[]],
    # collective_seq_id 2**40 (LONG1 of 8 bytes), duration 1.5 (BINFLOAT), state "started".
    intlist = b"torch.jit._pickle\nbuild_intlist\n"
    entry_ = (
        b"}(" + s("record_id") + b"K\x00"
        + s("process_group") + s("0") + s("default_pg") + b"\x86"
        + s("collective_seq_id") + b"\x8a\x08" + struct.pack("<q", 2**40)
        + s("profiling_name") + s("nccl:broadcast")
        + s("time_created_ns") + b"\x8a\x08" + struct.pack("<q", TIME0)
        + s("duration_ms") + b"G" + struct.pack(">d", 1.5)
        + s("input_sizes") + b"](c" + intlist + b"(](" + b"K\x04" + b"Mp\x11" + i(-3) + b"etRe"
        + s("output_sizes") + b"](]e"
        + s("state") + s("started")
        + b"u"
    )
    dump = (
        b"\x80\x02}(" + s("version") + s("2.10")
        + s("entries") + b"](" + entry_ + b"e"
        + b"u."
    )
    write("handmade/intlist/nccl_trace_rank_0", dump)

    # SPEC: memo: version 2.10; the string "nccl:all_reduce" stored with LONG_BINPUT 70000 and
    # read back with LONG_BINGET 70000 as the second entry's profiling_name; the first entry's
    # process_group tuple stored with BINPUT 5 and read back with BINGET 5 for the second entry.
    def e(record_id, group, name):
        return (b"}(" + s("record_id") + b"K" + bytes([record_id]) + s("process_group") + group
                + s("collective_seq_id") + b"K" + bytes([record_id + 1])
                + s("profiling_name") + name + s("time_created_ns") + b"K\x00"
                + s("state") + s("completed") + b"u")
    first = e(0, s("1") + s("undefined") + b"\x86q\x05", s("nccl:all_reduce") + b"r" + struct.pack("<I", 70000))
    second = e(1, b"h\x05", b"j" + struct.pack("<I", 70000))
    write("handmade/memo/nccl_trace_rank_0",
          b"\x80\x02}(" + s("version") + s("2.10") + s("entries") + b"](" + first + second + b"eu.")


def main():
    for rank in range(RANKS):
        dump = rank_dump(rank)
        write(f"pickle_2_10/nccl_trace_rank_{rank}", pickle.dumps(dump, protocol=2))
        write(f"json_2_10/nccl_trace_rank_{rank}", json_form(dump).encode())
    # SPEC: format 2.7: nccl_version instead of comm_lib_version, no thread_id / thread_name.
    write("pickle_2_7/nccl_trace_rank_0",
          pickle.dumps(rank_dump(0, "2.7", "nccl_version", threads=False), protocol=2))
    hand_written()
    # Every opcode pickletools knows, by byte, for the hostile tests' expected names.
    names = sorted((ord(op.code.encode("latin-1")), op.name) for op in pickletools.opcodes)
    write("opcode_names.txt", "".join(f"{code:#04x} {name}\n" for code, name in names).encode())


if __name__ == "__main__":
    main()
