#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/README.md).

    tests/fuzz/make_seed_corpus.py

corpus/legacy_dump/seed_*: inputs in fuzz_legacy_dump.cpp's layout, built from the first
records of real dumps (the H200 samples in samples/npkit-h200 and the NCCL 2.20 port sets in
tests/data/npkit-real) plus hand-made edge cases. corpus/event_header/seed_*: header,
phase-rule, clock-value and rank-list texts. Every seed stays under 4 KB. Files found by
libFuzzer (named by their hash) are left alone. Run it again after changing the input layout.
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
MAX_SEED = 4096

# Entry kinds of fuzz_legacy_dump.cpp (kind = h % 10, rank = (h // 10) % 4, index = h // 40).
GPU, CPU, NUM, DEN, KHZ, HEADER, CALIB = 0, 3, 5, 6, 7, 8, 9


def entry(kind, rank, index, content):
    assert 0 <= rank < 4 and 0 <= index < 7 and kind < 10
    h = kind + 10 * rank + 40 * index
    if isinstance(content, str):
        content = content.encode()
    return bytes([h]) + struct.pack("<H", len(content)) + content


def options(record_size=0, table=0, channel_naming=False, table_index=0, workers=0):
    """record_size: 0 detect, 1..3 = 16/18/22; table: 0 auto, 1 header, 2 built-in #table_index;
    workers: sinks of the extra parallel read (0 = none)."""
    return bytes([record_size | table << 2 | (0x10 if channel_naming else 0) | workers << 5,
                  table_index])


def rec(id_, size=0, rsvd=0, ts=0, extra=b""):
    return struct.pack("<BI", id_, size) + rsvd.to_bytes(3, "little") + struct.pack("<Q", ts) + extra


def head(path, nbytes):
    with open(path, "rb") as f:
        return f.read(nbytes)


def clocks(rank, num="1", den="1000000000", khz="1980000"):
    return entry(NUM, rank, 0, num) + entry(DEN, rank, 0, den) + entry(KHZ, rank, 0, khz)


def write(corpus, name, data):
    assert len(data) < MAX_SEED, (name, len(data))
    path = os.path.join(HERE, "corpus", corpus, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def real_seeds():
    h200 = os.path.join(TOP, "samples", "npkit-h200")
    port = os.path.join(TOP, "tests", "data", "npkit-real")
    for name, bufs in (("ring_simple", (0, 1)), ("tree_simple", (0, 1)), ("alltoall", (0, 1))):
        d = os.path.join(h200, name, "dump")
        seed = options()
        for rank in (0, 1):
            seed += clocks(rank, *(head(os.path.join(d, f), 64).decode() for f in (
                f"cpu_clock_period_num_rank_{rank}", f"cpu_clock_period_den_rank_{rank}",
                f"gpu_clock_rate_rank_{rank}")))
            for b in bufs:
                p = os.path.join(d, f"gpu_events_rank_{rank}_buf_{b}")
                if os.path.exists(p):
                    seed += entry(GPU, rank, b, head(p, 30 * 16))
        write("legacy_dump", f"seed_h200_{name}", seed)
        if name == "ring_simple":
            write("legacy_dump", "seed_h200_ring_simple_parallel", options(workers=3) + seed[2:])

    # NCCL 2.20 port: 18-byte (set B) and 22-byte (set C) CPU records, steady-clock CPU times.
    for name, cpu_size, forced in (("B_nccl2.20port-ring_2rank_cpu18B", 18, 2),
                                   ("C_nccl2.20port-treesplit_4rank_cpu22B", 22, 3)):
        d = os.path.join(port, name, "dump")
        files = sorted(os.listdir(d))
        body = b""
        for rank in (0, 1):
            body += clocks(rank, "1", "1000000000", head(os.path.join(d, f"gpu_clock_rate_rank_{rank}"), 64).decode())
            gpu = [f for f in files if f.startswith(f"gpu_events_rank_{rank}_buf_")][:1]
            cpu = [f for f in files if f.startswith(f"cpu_events_rank_{rank}_channel_")][:1]
            for f in gpu:
                body += entry(GPU, rank, int(f.rsplit("_", 1)[1]) % 7, head(os.path.join(d, f), 24 * 16))
            for f in cpu:
                body += entry(CPU, rank, int(f.rsplit("_", 1)[1]) % 7, head(os.path.join(d, f), 24 * cpu_size))
        short = name.split("_")[0]
        write("legacy_dump", f"seed_port_{short}_detect", options() + body)
        write("legacy_dump", f"seed_port_{short}_forced", options(record_size=forced) + body)


def ring_collective(t0_ns, g0, with_sync=True):
    """One ring all-reduce of 2 ranks on one buffer: sync pair, ENTRY, 3 steps, EXIT."""
    out = b""
    if with_sync:
        out += rec(0x34, ts=t0_ns) + rec(0x33, ts=g0)
    t = g0 + 500
    out += rec(0x01, 1024, ts=t)
    for step in (0x35, 0x39, 0x3D):
        t += 1000
        out += rec(step, 512, ts=t) + rec(0x25, 512, ts=t + 100) + rec(0x26, 512, ts=t + 900)
        t += 1000
        out += rec(step + 1, 512, 777, ts=t)
    return out + rec(0x02, 1024, ts=t + 300)


def net_events(t0, n, slot0=0x1F4A20):
    out = b""
    for i in range(n):
        out += rec(0x31, 4096, slot0 + i, t0 + 10 * i) + rec(0x2F, 4096, slot0 + 100 + i, t0 + 10 * i + 3)
    for i in range(n):
        out += rec(0x32, 4096, slot0 + i, t0 + 500 + 10 * i) + rec(0x30, 4096, slot0 + 100 + i, t0 + 505 + 10 * i)
    return out


def edge_seeds():
    T, G = 1796023542649048027, 38428525413
    ok = ring_collective(T, G) + ring_collective(T + 40000, G + 79200)
    base = options() + clocks(0) + clocks(1)
    seeds = {
        "edge_two_ranks_gpu_cpu": base + entry(GPU, 0, 0, ok) + entry(GPU, 1, 0, ok)
        + entry(CPU, 0, 0, net_events(T, 4)) + entry(CPU, 1, 1, net_events(T + 7, 4)),
        "edge_truncated_record": base + entry(GPU, 0, 0, ok[:-9]),
        "edge_no_time_sync": base + entry(GPU, 0, 0, ring_collective(T, G, with_sync=False)),
        "edge_events_before_sync": base + entry(GPU, 0, 0, rec(0x35, 64, ts=G - 10) + ok),
        "edge_exit_without_entry": base + entry(GPU, 0, 0, rec(0x34, ts=T) + rec(0x33, ts=G) + rec(0x02, 8, ts=G + 5) + rec(0x36, ts=G + 9)),
        "edge_entry_without_exit": base + entry(GPU, 0, 0, ok + rec(0x01, 99, ts=G + 99999) + rec(0x35, ts=G + 100000)),
        "edge_interleaved_names": base + entry(GPU, 0, 0, rec(0x34, ts=T) + rec(0x33, ts=G) + rec(0x01, ts=G + 1) + rec(0x35, ts=G + 2) + rec(0x02, ts=G + 3) + rec(0x36, ts=G + 4)),
        "edge_nonmonotonic": base + entry(GPU, 0, 0, ring_collective(T, G) + ring_collective(T - 5000, G - 100000)),
        "edge_extreme_timestamps": base + entry(GPU, 0, 0, rec(0x34, ts=2**64 - 1) + rec(0x33, ts=0) + rec(0x01, ts=2**64 - 1) + rec(0x02, ts=0) + rec(0x34, ts=0) + rec(0x33, ts=2**64 - 1) + rec(0x35, ts=0) + rec(0x36, ts=2**64 - 1))
        + entry(CPU, 0, 0, rec(0x2F, 1, 1, 2**64 - 1) + rec(0x30, 1, 1, 0) + rec(0x31, 2, 2, 0) + rec(0x32, 2, 2, 2**63)),
        "edge_unknown_ids": base + entry(GPU, 0, 0, b"".join(rec(i, i, i, G + i) for i in range(0x4F, 0x100, 7))),
        "edge_empty_files": options() + entry(GPU, 0, 0, b"") + entry(GPU, 0, 1, b"") + entry(CPU, 0, 0, b"") + clocks(0),
        "edge_missing_clock_files": options() + entry(GPU, 0, 0, ok) + entry(GPU, 1, 0, ok) + entry(KHZ, 1, 0, "1980000"),
        "edge_bad_clock_text": options() + clocks(0, "0", "abc", "-5") + clocks(1, " 1\n", "99999999999999999999999", "100000.000000") + entry(GPU, 0, 0, ok) + entry(GPU, 1, 0, ok),
        "edge_amd_float_clock": options() + clocks(0, "1", "1000000000", "100000.000000") + entry(GPU, 0, 0, ok),
        "edge_differing_clocks": options() + clocks(0) + clocks(1, khz="1755000") + entry(GPU, 0, 0, ok) + entry(GPU, 1, 0, ok),
        "edge_rank_gap": options() + clocks(0) + clocks(3) + entry(GPU, 0, 0, ok) + entry(GPU, 3, 2, ok) + entry(GPU, 3, 5, ok),
        "edge_channel_naming": options(channel_naming=True) + clocks(0) + entry(GPU, 0, 0, ok) + entry(GPU, 0, 1, ok),
        "edge_calibration_files": base + entry(CALIB, 0, 0, "123") + entry(GPU, 0, 0, ok),
        "edge_mscclpp_leading_ids": base + entry(GPU, 0, 0, rec(0x02, ts=T) + rec(0x01, ts=G) + rec(0x1B, ts=G + 1) + rec(0x1D + 2, ts=G + 2) + rec(0x3B + 2, ts=G + 3) + rec(0x1C, ts=G + 4)),
        "edge_cpu_576_bytes": base + entry(CPU, 0, 0, net_events(T, 18)[: 576]),
        "edge_cpu_forced_22": options(record_size=3) + clocks(0) + entry(CPU, 0, 0, net_events(T, 5)),
        "edge_builtin_table_rccl": options(table=2, table_index=1) + clocks(0) + entry(GPU, 0, 0, ok),
        "edge_header_table": options(table=1) + clocks(0) + entry(GPU, 0, 0, ok)
        + entry(HEADER, 0, 0, "#define NPKIT_EVENT_TIME_SYNC_CPU 0x34\n#define NPKIT_EVENT_TIME_SYNC_GPU 0x33\n"
                "#define NPKIT_EVENT_ALL_REDUCE_RING_ENTRY 0x1\n#define NPKIT_EVENT_ALL_REDUCE_RING_EXIT 0x2\n"
                "#define NPKIT_EVENT_ALL_REDUCE_RING_SEND_ENTRY 0x35\n#define NPKIT_EVENT_ALL_REDUCE_RING_SEND_EXIT 0x35\n"),
        "edge_same_slot_reused": base + entry(CPU, 0, 0, rec(0x2F, 1, 5, T) + rec(0x2F, 2, 5, T + 1) + rec(0x30, 1, 5, T + 2) + rec(0x30, 2, 5, T + 3) + rec(0x30, 3, 5, T + 4)),
    }
    seeds["edge_parallel_2_sinks"] = options(workers=2) + seeds["edge_two_ranks_gpu_cpu"][2:]
    seeds["edge_parallel_3_sinks_rank_gap"] = options(workers=3) + seeds["edge_rank_gap"][2:]
    for name, data in seeds.items():
        write("legacy_dump", "seed_" + name, data)


STANDARD_HEADER = "".join(
    f"#define NPKIT_EVENT_{n} 0x{i:X}\n" for n, i in (
        ("ALL_REDUCE_RING_ENTRY", 0x1), ("ALL_REDUCE_RING_EXIT", 0x2),
        ("PRIM_SIMPLE_REDUCE_OR_COPY_MULTI_ENTRY", 0x25), ("PRIM_SIMPLE_REDUCE_OR_COPY_MULTI_EXIT", 0x26),
        ("NET_SEND_ENTRY", 0x2F), ("NET_SEND_EXIT", 0x30), ("NET_RECV_ENTRY", 0x31), ("NET_RECV_EXIT", 0x32),
        ("TIME_SYNC_GPU", 0x33), ("TIME_SYNC_CPU", 0x34),
        ("ALL_REDUCE_RING_SEND_ENTRY", 0x35), ("ALL_REDUCE_RING_SEND_EXIT", 0x36),
        ("SEND_RECV_SEND_ENTRY", 0x4B), ("SEND_RECV_SEND_EXIT", 0x4C)))

TEXT_SEEDS = {
    "header_standard_excerpt": "#ifndef NPKIT_EVENT_H_\n#define NPKIT_EVENT_H_\n\n" + STANDARD_HEADER
    + "\n#define NPKIT_PRIM_COLLECT_DATA_PROCESS_TIME 0x4F\n\n#endif\n",
    "header_rccl_tabs": "#define NPKIT_EVENT_MSCCL_SEND_ENTRY\t0x5E\n#define NPKIT_EVENT_MSCCL_SEND_EXIT\t0x5F\n"
    "#define NPKIT_EVENT_NET_TEST_ENTRY 0x58\n#define NPKIT_EVENT_NET_TEST_EXIT 0x59\n",
    "header_upper_0X": "#define NPKIT_EVENT_NET_SEND_TEST_ENTRY 0X50\n#define NPKIT_EVENT_NET_SEND_TEST_EXIT 0X51\n",
    "header_mscclpp_bases": "#define NPKIT_EVENT_TIME_SYNC_GPU 0x1\n#define NPKIT_EVENT_TIME_SYNC_CPU 0x2\n"
    "#define NPKIT_EVENT_EXECUTOR_INIT_ENTRY 0x19\n#define NPKIT_EVENT_EXECUTOR_INIT_EXIT 0x1A\n"
    "#define NPKIT_EVENT_EXECUTOR_OP_BASE_ENTRY 0x1D\n#define NPKIT_EVENT_EXECUTOR_OP_BASE_EXIT 0x3B\n",
    "header_mscclpp_bases_overflow": "#define NPKIT_EVENT_EXECUTOR_OP_BASE_ENTRY 0xF0\n#define NPKIT_EVENT_EXECUTOR_OP_BASE_EXIT 0xFE\n",
    "header_bad_values": "#define NPKIT_EVENT_A_ENTRY 256\n",
    "header_bad_literal": "#define NPKIT_EVENT_A_ENTRY 0x1G\n#define NPKIT_EVENT_B_ENTRY 017\n",
    "header_octal_binary_dup": "#define NPKIT_EVENT_A_ENTRY 0o17\n#define NPKIT_EVENT_A_EXIT 0b10000\n#define NPKIT_EVENT_B 0x10\n",
    "phases_builtin_like": "# pattern phase [func algo]\nALL_REDUCE_RING other allreduce ring\n"
    "ALL_REDUCE_RING_SEND reduce_scatter\nPRIM_*_WAIT_* sync\nNET_SEND net_send\n* inherit\n",
    "phases_user_override": "ALL_REDUCE_RING_DIRECT_RECV my-phase.1\n*_SEND* sending\n**A*B*C** abc # comment\n",
    "phases_bad_fields": "ONLY_ONE_FIELD\nA B C\n",
    "phases_bad_char": "A/B phase\n",
    "clock_value_int": "1980000",
    "clock_value_float": "100000.000000\n",
    "clock_value_huge": "1000000000000000000000.5",
    "ranks_list": "0,2-5,7",
    "ranks_all": "all",
    "ranks_bad": "5-3,x,,4294967296",
}


def main():
    real_seeds()
    edge_seeds()
    for name, text in TEXT_SEEDS.items():
        write("event_header", "seed_" + name, text.encode())


if __name__ == "__main__":
    main()
