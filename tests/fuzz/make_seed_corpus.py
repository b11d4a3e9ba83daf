#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/README.md).

    tests/fuzz/make_seed_corpus.py

corpus/legacy_dump/seed_*: inputs in fuzz_legacy_dump.cpp's layout, built from the first
records of real dumps (the H200 samples in samples/npkit-h200 and the NCCL 2.20 port sets in
tests/data/npkit-real) plus hand-made edge cases. corpus/event_header/seed_*: header,
phase-rule, clock-value and rank-list texts. Every seed stays under 4 KB. Files found by
libFuzzer (named by their hash) are left alone. Run it again after changing the input layout.
"""
import gzip
import json
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


# ---- Seeds of fuzz_npkt_dump (minor 3/4 captures), fuzz_analysis, fuzz_environment, fuzz_merge --
# These corpora take whole shipped files, so their seeds may be larger (MAX_FILE_SEED); the
# fuzz script sets libFuzzer's -max_len to the largest seed of each corpus.
MAX_FILE_SEED = 32768


def write_file_seed(corpus, name, data):
    assert len(data) <= MAX_FILE_SEED, (name, len(data))
    path = os.path.join(HERE, "corpus", corpus, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def sample(rel, unzip=False):
    with open(os.path.join(TOP, "samples", rel), "rb") as f:
        data = f.read()
    return gzip.decompress(data) if unzip else data


# .npkt layout (include/npkit/format.hpp, docs/format.md): a 64-byte header, then sections of
# {u32 kind, u32 entry_size, u64 payload_size} + payload, each padded to 8 bytes.
RECORDS = 7
START, STOP, STATE, DETAIL = 1, 2, 3, 4
T_COLL, T_KERNEL_CH, T_COLL_API = 1, 6, 9
T_CE_COLL, T_CE_SYNC, T_CE_BATCH, T_KERNEL_PHASE = 12, 13, 14, 15
D_CE_COLL, D_CALL_TAG = 1, 3
STATE_KERNEL_PHASE_STOP = 31
REC = struct.Struct("<QQQBBHI32s")


def npkt_sections(image):
    count = struct.unpack_from("<I", image, 20)[0]
    at = struct.unpack_from("<I", image, 12)[0]
    sections = []
    for _ in range(count):
        kind, entry_size, size = struct.unpack_from("<IIQ", image, at)
        sections.append([kind, entry_size, image[at + 16:at + 16 + size]])
        at = (at + 16 + size + 7) // 8 * 8
    return sections


def npkt_image(header, sections, minor):
    body = b""
    for kind, entry_size, payload in sections:
        body += struct.pack("<IIQ", kind, entry_size, len(payload)) + payload
        body += b"\0" * (-len(body) % 8)
    head = bytearray(header[:64])
    struct.pack_into("<H", head, 10, minor)
    struct.pack_into("<I", head, 20, len(sections))
    struct.pack_into("<Q", head, 24, 64 + len(body))
    return bytes(head) + body


def with_minor4_records(image, call_tag=False, kernel_phase=False, copy_engine=False):
    """A minor-3 dump made minor 4, with records of what minor 3 and 4 added, placed inside
    the events they belong to: call tags (detail 3) of the first Coll and CollApi, three
    KernelPhase children (start, state 31, stop) of the first KernelCh, and a CeColl under the
    first CollApi with its CeCollDetail, one CeSync and one CeBatch."""
    sections = npkt_sections(image)
    recs_section = next(s for s in sections if s[0] == RECORDS)
    recs = [list(REC.unpack_from(recs_section[2], i))
            for i in range(0, len(recs_section[2]), REC.size)]
    next_id = max(r[1] for r in recs) + 1
    stops = {(r[1], r[4]): r for r in recs if r[3] == STOP}
    added = []

    def first(t):
        r = next(r for r in recs if r[3] == START and r[4] == t)
        return r, stops[(r[1], t)][0]

    if call_tag:
        for t in (T_COLL, T_COLL_API):
            r, _ = first(t)
            payload = struct.pack("<QHB21x", 0x5EED0000 + t, 0, 1 if t == T_COLL else 0)
            added.append([r[0], r[1], 0, DETAIL, t, r[5], D_CALL_TAG, payload])
    if kernel_phase:
        ch, ch_stop = first(T_KERNEL_CH)
        gpu0, channel = struct.unpack_from("<QB", ch[7])
        step = max(1, (ch_stop - ch[0]) // 8)
        for phase in range(3):
            host = ch[0] + step * (1 + 2 * phase)
            payload = struct.pack("<QBBH20x", gpu0 + 100 * phase, channel, phase, 0)
            added.append([host, next_id, ch[1], START, T_KERNEL_PHASE, ch[5], 0, payload])
            value = struct.pack("<QB23x", gpu0 + 100 * (phase + 1), 1)
            added.append([host + step // 2, next_id, 0, STATE, T_KERNEL_PHASE, ch[5],
                          STATE_KERNEL_PHASE_STOP, value])
            added.append([host + step, next_id, 0, STOP, T_KERNEL_PHASE, ch[5], 0, b"\0" * 32])
            next_id += 1
    if copy_engine:
        api, api_stop = first(T_COLL_API)
        coll, _ = first(T_COLL)
        func, datatype = struct.unpack_from("<HH", coll[7], 20)
        step = max(1, (api_stop - api[0]) // 10)
        ce = next_id
        payload = struct.pack("<QQiHHHBxI", 1, 1024, 0, func, datatype, 0, 1, 1)
        added.append([api[0] + step, ce, api[1], START, T_CE_COLL, api[5], 0, payload])
        detail = struct.pack("<QQQII", 0x7F0000001000, 0x7F0000002000, 0x5500, 2, 1)
        added.append([api[0] + step, ce, 0, DETAIL, T_CE_COLL, api[5], D_CE_COLL, detail])
        sync = struct.pack("<iB27x", 8, 0)
        added.append([api[0] + 2 * step, ce + 1, ce, START, T_CE_SYNC, api[5], 0, sync])
        added.append([api[0] + 3 * step, ce + 1, 0, STOP, T_CE_SYNC, api[5], 0, b"\0" * 32])
        batch = struct.pack("<QiB19x", 4096, 8, 1)
        added.append([api[0] + 4 * step, ce + 2, ce, START, T_CE_BATCH, api[5], 0, batch])
        added.append([api[0] + 5 * step, ce + 2, 0, STOP, T_CE_BATCH, api[5], 0, b"\0" * 32])
        added.append([api[0] + 6 * step, ce, 0, STOP, T_CE_COLL, api[5], 0, b"\0" * 32])
    # Time order, a start before the detail records of its event (they share its host_ns).
    order = {START: 0, DETAIL: 1, STATE: 2, STOP: 3}
    merged = sorted(recs + added, key=lambda r: (r[3] == 0, r[0], order.get(r[3], 4)))
    recs_section[2] = b"".join(REC.pack(*r) for r in merged)
    return npkt_image(image, sections, 4)


N8 = "onegpu-h200/nccl-2.28.9/matrix/n8-tree/dump/npkit_2e9a2837e243d552_rank%d.npkt.gz"
TORCH = "torch-beside-h200/dump/npkit_da2c4c5ac7e43e7e_rank%d.npkt.gz"
EXIT = "onegpu-h200/nccl-2.28.9/hangs/exit/dump/npkit_1cdd37ec4f812f1f_rank%s.npkt.gz"
STILL = ("onegpu-h200/nccl-2.28.9/hangs/still-hung/live-while-hung/"
         "npkit_65818ce030d4c234_rank%d.live.npkt.gz")


def minor4_images():
    base = sample(N8 % 0, unzip=True)
    return {
        "minor4_call_tag": with_minor4_records(base, call_tag=True),
        "minor4_kernel_phase": with_minor4_records(base, kernel_phase=True),
        "minor4_copy_engine": with_minor4_records(base, copy_engine=True),
        "minor4_all": with_minor4_records(base, True, True, True),
    }


def npkt_dump_seeds():
    # Shipped H200 captures: minor 3 with parent-group detail records (n8-tree, decompressed),
    # minor 4 (torch-beside, as shipped, gzip-compressed), minor 3 without records (2.30).
    write_file_seed("npkt_dump", "sample_n8_tree_rank0", sample(N8 % 0, unzip=True))
    write_file_seed("npkt_dump", "sample_torch_beside_rank0_gz", sample(TORCH % 0))
    write_file_seed("npkt_dump", "sample_nccl_2_30_rank0",
                    sample("nccl-2.30-h200/dump/npkit_1b5d4dd4832f91a0_rank0.npkt"))
    for name, image in minor4_images().items():
        write_file_seed("npkt_dump", name, image)


def analysis_input(files, live=False, skip_bad=False, env=None, by_tag=False):
    """fuzz_analysis.cpp's layout: byte 0 options, then each part but the last as u32 length +
    bytes, the last taking the rest; the --env file is the last part."""
    parts = list(files) + ([env] if env is not None else [])
    options = (len(files) - 1) | (4 if live else 0) | (8 if skip_bad else 0)
    options |= (16 if env is not None else 0) | (32 if by_tag else 0)
    out = bytes([options])
    for i, part in enumerate(parts):
        out += (struct.pack("<I", len(part)) if i + 1 < len(parts) else b"") + part
    return out


def analysis_seeds():
    m4 = minor4_images()
    env = sample("nccl-h200/exit/ENV.txt")
    seeds = {
        "n8_tree_4_ranks_gz": analysis_input([sample(N8 % r) for r in range(4)]),
        "torch_beside_minor4_gz": analysis_input([sample(TORCH % r) for r in range(2)],
                                                 by_tag=True),
        "hang_exit_live_and_dump_gz": analysis_input([sample(EXIT % "0.live"), sample(EXIT % 1)],
                                                     live=True),
        "hang_still_hung_live_gz": analysis_input([sample(STILL % r) for r in range(2)],
                                                  live=True, skip_bad=True),
        "minor4_all_with_env": analysis_input([m4["minor4_all"]], env=env, by_tag=True),
        "minor4_copy_engine": analysis_input([m4["minor4_copy_engine"]]),
        "minor4_kernel_phase": analysis_input([m4["minor4_kernel_phase"]]),
        "nccl_h200_exit_minor0": analysis_input(
            [sample("nccl-h200/exit/dump/npkit_006240fb40a9e703_rank0.npkt")], env=env),
        "nccl_2_30_two_comms": analysis_input(
            [sample("nccl-2.30-h200/dump/npkit_1b5d4dd4832f91a0_rank0.npkt"),
             sample("nccl-2.30-h200/dump/npkit_9bf7ff08d748bccd_rank0.npkt")]),
        "event_records_selftest": analysis_input(
            [sample("device-h200/selftest/dump/npkit_5e1f7e5700000001_rank0.npkt")]),
        "edge_empty_files": analysis_input([b"", b""], skip_bad=True),
        "edge_cut_header": analysis_input([sample(N8 % 0, unzip=True)[:100]]),
    }
    for name, data in seeds.items():
        write_file_seed("analysis", "seed_" + name, data)


ENV_EDGE = {
    "edge_crlf": b"NCCL_ALGO=Tree\r\nNPKIT_EVENTS=all\r\nNCCL_PROTO=Simple\r\n",
    "edge_repeated_key": b"NCCL_ALGO=Ring\nNCCL_ALGO=Tree\nNCCL_ALGO=\n",
    "edge_equals_in_value": b"NCCL_IB_HCA==mlx5_0:1,=mlx5_1\nNPKIT_DUMP_DIR=/a=b\n",
    "edge_names": (b"nccl_algo=x\nNCCL=short\n1NCCL_X=digit\n=empty\nNCCL_A-B=dash\n"
                   b"NCCL_\xc3\xa9=utf8\nNPKIT_=bare\n NCCL_SPACE=lead\nNCCL_OK=1"),
    "edge_multiline_value": b"BASH_FUNC_x%%=() {  echo\n NCCL_IN_FUNC=1\n}\nNCCL_AFTER=2\n",
    "edge_nul": b"NCCL_ALGO=Ring\nNCCL_PROTO=LL\0\nNPKIT_EVENTS=all\n",
    "edge_no_newline_cr": b"NCCL_ALGO=Ring\r",
    "edge_empty": b"",
    "edge_conflicts": b"NCCL_ALGO=Tree\nNPKIT_EVENTS=all\nNCCL_NEW=1\n",
}


def environment_seeds():
    for rel in ("nccl-h200/exit/ENV.txt", "nccl-h200/socket/ENV.txt", "npkit-h200/alltoall/ENV.txt",
                "nccl-tests-h200/env.txt", "device-h200/ENV.txt"):
        name = "seed_sample_" + rel.split("/ENV")[0].split("/env")[0].replace("/", "_").replace(
            "-", "_")
        write_file_seed("environment", name, sample(rel))
    for name, data in ENV_EDGE.items():
        write_file_seed("environment", "seed_" + name, data)


def kineto_head(events):
    """The shipped PyTorch profiler trace of samples/torch-beside-h200, cut to its first
    `events` events (and closed again)."""
    doc = json.loads(sample("torch-beside-h200/kineto/kineto_rank0.json.gz", unzip=True))
    doc["traceEvents"] = doc["traceEvents"][:events]
    return json.dumps(doc).encode()


MERGE_EDGE = {
    "edge_no_base": b'{"traceEvents": [{"ph": "X", "ts": 1, "dur": 2, "pid": 1, "tid": 1}]}',
    "edge_base_string": b'{"baseTimeNanoseconds": "1", "traceEvents": []}',
    "edge_base_u64": (b'{"baseTimeNanoseconds": 18446744073709551615, "traceEvents": '
                      b'[{"ts": 9.2e18, "pid": 18446744073709551615}]}'),
    "edge_base_negative": (b'{"baseTimeNanoseconds": -9223372036854775808, "traceEvents": '
                           b'[{"ts": -1e300, "pid": -1, "tid": "x"}]}'),
    "edge_events_not_array": b'{"baseTimeNanoseconds": 1, "traceEvents": {"ts": 1}}',
    "edge_events_mixed": (b'{"baseTimeNanoseconds": 5, "traceEvents": [1, "x", null, [], {}, '
                          b'{"ts": "1", "pid": 1.5}, {"ts": 1, "ts": 2, "pid": 3, "pid": 4}]}'),
    "edge_not_object": b'[{"baseTimeNanoseconds": 1, "traceEvents": []}]',
    "edge_cut": b'{"baseTimeNanoseconds": 1, "traceEvents": [{"ph": "X", "ts": 1.5',
    "edge_escapes": (b'{"baseTimeNanoseconds": 1, "traceEvents": [{"name": "\\u0000\\ud83d\\ude00'
                     b'\\n\\"", "args": {"a": [1, {"b": true}]}, "ts": 0.0005}]}'),
}


def merge_seeds():
    with open(os.path.join(TOP, "tests/golden/cases/npkt_ring_trace_merge/kineto.json"), "rb") as f:
        golden = f.read()
    write_file_seed("merge", "seed_golden_kineto", golden)
    write_file_seed("merge", "seed_golden_kineto_gz", gzip.compress(golden, mtime=0))
    write_file_seed("merge", "seed_sample_kineto_rank0_gz",
                    sample("torch-beside-h200/kineto/kineto_rank0.json.gz"))
    write_file_seed("merge", "seed_sample_kineto_rank0_head", kineto_head(12))
    for name, data in MERGE_EDGE.items():
        write_file_seed("merge", "seed_" + name, data)


def flight_recorder_seeds():
    """corpus/flight_recorder/seed_*: the dumps of tests/data/flight_recorder (pickle and JSON,
    formats 2.10 and 2.7, the hand-written build_intlist and memo pickles) and damaged copies."""
    data = os.path.join(TOP, "tests", "data", "flight_recorder")
    seeds = {
        "pickle_rank0": "pickle_2_10/nccl_trace_rank_0",
        "pickle_rank2": "pickle_2_10/nccl_trace_rank_2",
        "json_rank0": "json_2_10/nccl_trace_rank_0",
        "pickle_2_7": "pickle_2_7/nccl_trace_rank_0",
        "intlist": "handmade/intlist/nccl_trace_rank_0",
        "memo": "handmade/memo/nccl_trace_rank_0",
    }
    for name, rel in seeds.items():
        with open(os.path.join(data, rel), "rb") as f:
            whole = f.read()
        write("flight_recorder", "seed_" + name, whole)
        write("flight_recorder", "seed_cut_" + name, whole[: len(whole) // 2])
    write("flight_recorder", "seed_bad_global", b"\x80\x02cos\nsystem\n(X\x02\x00\x00\x00idtR.")
    write("flight_recorder", "seed_bad_json_type",
          b'{"version": "2.10", "entries": [{"record_id": "one"}]}')


def main():
    flight_recorder_seeds()
    real_seeds()
    edge_seeds()
    for name, text in TEXT_SEEDS.items():
        write("event_header", "seed_" + name, text.encode())
    npkt_dump_seeds()
    analysis_seeds()
    environment_seeds()
    merge_seeds()


if __name__ == "__main__":
    main()
