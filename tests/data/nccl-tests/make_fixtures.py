#!/usr/bin/env python3
"""Writes the hand-specified nccl-tests results files of this folder (README.md says what each
holds). The spec below is the source of every expected value the tests check: times in us,
algbw = S / time (GB/s, 1e9 B/s), busbw = algbw x nccl-tests' factor. The output imitates
nccl-tests' writer (src/util.cu): no blanks, doubles as %lf, root as %6i, '/' escaped."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def s(x):
    return '"' + x.replace("\\", "\\\\").replace('"', '\\"').replace("/", "\\/") + '"'


def d(x):
    return "%f" % x


def placement(time_us, size, factor, nwrong, time_key="time"):
    algbw = size / (time_us * 1e3) if time_us > 0 else 0.0
    return "{%s:%s,\"alg_bw\":%s,\"bus_bw\":%s,\"nwrong\":%s}" % (
        s(time_key), d(time_us), d(algbw), d(algbw * factor),
        "null" if nwrong is None else d(nwrong))


def per_iter(times, skip, version):
    body = []
    if version >= 3:
        body.append("\"skipped_iterations\":%d" % skip)
    kept = sorted(times[skip:])
    body.append("\"min_us\":%s,\"max_us\":%s,\"avg_us\":%s" % (d(kept[0]), d(kept[-1]),
                                                                d(sum(kept) / len(kept))))
    body.append("\"times_us\":[%s]" % ",".join(d(t) for t in times))
    return "{" + ",".join(body) + "}"


def result(row, factor, version, time_key):
    size, count, typ, redop, root = row["size"], row["count"], row["type"], row["redop"], row["root"]
    parts = ["\"size\":%d" % size, "\"count\":%d" % count, "\"type\":%s" % s(typ),
             "\"redop\":%s" % s(redop), "\"root\":%s" % s("%6i" % root)]
    oop = row.get("oop")
    parts.append("\"out_of_place\":" + ("null" if oop is None else
                                        placement(oop, size, factor, row.get("oop_wrong", 0), time_key)))
    if "oop_iters" in row:
        parts.append("\"out_of_place_per_iter\":" + per_iter(row["oop_iters"], row["skip"], version))
    parts.append("\"in_place\":" + placement(row["ip"], size, factor, row.get("ip_wrong", 0), time_key))
    parts.append("\"actual_iterations\":%d" % row["iters"])
    parts.append("\"experiment_name\":\"\"")
    return "{" + ",".join(parts) + "}"


def write(name, spec):
    v = spec["version"]
    out = ["\"version\":%d" % v, "\"start_time\":%s" % s(spec["start"]),
           "\"args\":[%s]" % ",".join(s(a) for a in spec["args"]),
           "\"env\":[%s]" % ",".join(s(e) for e in spec["env"]),
           "\"nccl_version\":%d" % spec["nccl_version"]]
    c = spec["config"]
    cfg = ["\"nthreads\":%d" % c["nthreads"], "\"ngpus\":%d" % c["ngpus"],
           "\"minimum_bytes\":%d" % c["min"], "\"maximum_bytes\":%d" % c["max"]]
    cfg.append("\"step_factor\":%d" % c["step_factor"] if "step_factor" in c
               else "\"step_bytes\":%d" % c["step_bytes"])
    cfg += ["\"warmup_iters\":%d" % c["warmup"], "\"iterations\":%d" % c["iters"],
            "\"aggregated_iterations\":1", "\"validation\":%d" % c["validation"], "\"graph\":0",
            "\"blocking_collectives\":\"false\""]
    if v >= 2:
        cfg.append("\"per_iter_timing\":%s" % s("true" if c.get("per_iter") else "false"))
    if v >= 3:
        cfg.append("\"per_iter_skip\":%d" % c.get("skip", 0))
    cfg.append("\"parallel_init\":\"false\"")
    devs = []
    for (rank, pid, host, dev) in c["devices"]:
        devs.append("{\"rank\":%d,\"group\":0,\"pid\":%d,\"hostname\":%s,\"device\":%d,"
                    "\"device_hex\":\"0000:%02x:00\",\"device_info\":\"NVIDIA H200\"}"
                    % (rank, pid, s(host), dev, 0x18 + dev))
    cfg.append("\"devices\":[" + ",".join(devs) + "]")
    out.append("\"config\":{" + ",".join(cfg) + "}")
    rows = [result(r, spec["factor"], v, spec.get("time_key", "time")) for r in spec["rows"]]
    out.append("\"results\":[" + ",".join(rows) + "]")
    out.append("\"out_of_bounds\":{\"count\":%d,\"okay\":%s}" % (spec.get("oob", 0),
                                                                  s("true" if spec.get("oob", 0) == 0 else "false")))
    busbw = [spec["factor"] * r["size"] / (t * 1e3) for r in spec["rows"]
             for t in ([r["oop"]] if r.get("oop") else []) + [r["ip"]]]
    out.append("\"average_bus_bandwidth\":{\"bandwidth\":%s,\"okay\":\"unchecked\"}"
               % d(sum(busbw) / len(busbw)))
    out.append("\"errors\":[%s]" % s(spec.get("error", "")))
    out.append("\"end_time\":%s" % s(spec["end"]))
    with open(os.path.join(HERE, name), "w") as f:
        f.write("{" + ",".join(out) + "}")


# 8 ranks on 2 hosts (2 MPI processes x 4 GPUs), AllReduce 1, 4, 16 MiB, two passes (-N 2),
# per-iteration times (-I 1, -K 1: the first of 6 iterations skipped by nccl-tests' summary).
# factor 2(n-1)/n = 1.75.
ALLREDUCE_TIMES = {1048576: 20.0, 4194304: 40.0, 16777216: 100.0}


def allreduce_rows(scale16):
    rows = []
    for p in range(2):
        for size, t in ALLREDUCE_TIMES.items():
            t16 = t * (scale16 if size == 16777216 else 1.0)
            it = [t16 * 1.5, t16, t16 + 1, t16 - 1, t16 + 0.5, t16 - 0.5]
            rows.append({"size": size, "count": size // 4, "type": "float", "redop": "sum",
                         "root": -1, "oop": t16 + p, "ip": t16 - 1, "oop_iters": it, "skip": 1,
                         "iters": 6})
    return rows


def allreduce_spec(scale16, start, end):
    return {
        "version": 3, "start": start, "end": end,
        "args": ["/opt/nccl-tests/build/all_reduce_perf_mpi", "-b", "1M", "-e", "16M", "-f", "4",
                 "-g", "4", "-n", "6", "-w", "2", "-N", "2", "-I", "1", "-K", "1", "-J",
                 "/results/all_reduce.json"],
        "env": ["HOME=/root", "NCCL_ALGO=Ring", "NCCL_PROTO=Simple", "NCCL_IB_HCA=mlx5_0"],
        "nccl_version": 22809,
        "config": {"nthreads": 1, "ngpus": 4, "min": 1048576, "max": 16777216, "step_factor": 4,
                   "warmup": 2, "iters": 6, "validation": 1, "per_iter": True, "skip": 1,
                   "devices": [(0, 4101, "node-a", 0), (4, 5202, "node-b", 0)]},
        "factor": 1.75, "rows": allreduce_rows(scale16)}


write("allreduce-8r-2hosts.json", allreduce_spec(1.0, "2026-12-01 02:00:00", "2026-12-01 02:00:09"))
# The next night: 16 MiB 20 % slower, the rest the same.
write("allreduce-8r-2hosts-slower.json",
      allreduce_spec(1.2, "2026-12-02 02:00:00", "2026-12-02 02:00:09"))

# 8 ranks on one host (-g 8), AllGather, validation off (#wrong not checked: null), nccl-tests'
# error list set, one value out of bounds. factor (n-1)/n = 0.875; size = S (all ranks' bytes).
write("allgather-8r-errors.json", {
    "version": 3, "start": "2026-12-01 03:00:00", "end": "2026-12-01 03:00:02",
    "args": ["./build/all_gather_perf", "-b", "8K", "-e", "32K", "-f", "2", "-g", "8", "-c", "0",
             "-J", "ag.json"],
    "env": ["NCCL_DEBUG=WARN"], "nccl_version": 22809,
    "config": {"nthreads": 1, "ngpus": 8, "min": 8192, "max": 32768, "step_factor": 2,
               "warmup": 5, "iters": 20, "validation": 0,
               "devices": [(0, 777, "node-c", 0)]},
    "factor": 0.875, "oob": 1, "error": "NCCL WARN Cuda failure 'out of memory'",
    "rows": [{"size": 8192, "count": 512, "type": "bfloat16", "redop": "none", "root": -1,
              "oop": 16.0, "ip": 15.0, "oop_wrong": None, "ip_wrong": None, "iters": 20},
             {"size": 16384, "count": 1024, "type": "bfloat16", "redop": "none", "root": -1,
              "oop": 16.384, "ip": 16.0, "oop_wrong": None, "ip_wrong": None, "iters": 20},
             {"size": 32768, "count": 2048, "type": "bfloat16", "redop": "none", "root": -1,
              "oop": 32.768, "ip": 20.48, "oop_wrong": None, "ip_wrong": None, "iters": 20}]})

# Format version 1 (nccl-tests 2.18): 4 ranks (4 threads x 1 GPU), ReduceScatter, CPU time
# (-C 1), linear steps (-i), one size checked wrong. factor (n-1)/n = 0.75; count = S / 2 / 4.
write("reducescatter-v1.json", {
    "version": 1, "start": "2025-11-20 10:00:00", "end": "2025-11-20 10:00:01",
    "args": ["reduce_scatter_perf", "-b", "4096", "-e", "12288", "-i", "4096", "-t", "4", "-C",
             "1", "-J", "rs.json"],
    "env": [], "nccl_version": 22703, "time_key": "cpu_time",
    "config": {"nthreads": 4, "ngpus": 1, "min": 4096, "max": 12288, "step_bytes": 4096,
               "warmup": 5, "iters": 20, "validation": 1,
               "devices": [(0, 42, "ws", 0)]},
    "factor": 0.75,
    "rows": [{"size": 4096, "count": 512, "type": "half", "redop": "sum", "root": -1,
              "oop": 8.0, "ip": 8.192, "iters": 20},
             {"size": 8192, "count": 1024, "type": "half", "redop": "sum", "root": -1,
              "oop": 8.192, "ip": 8.0, "ip_wrong": 7, "iters": 20},
             {"size": 12288, "count": 1536, "type": "half", "redop": "sum", "root": -1,
              "oop": 12.288, "ip": 12.0, "iters": 20}]})

# samples/nccl-h200/agree's own driver table (driver.csv: 2 ranks, float AllReduce) written as a
# nccl-tests results file: 1, 4, 16, 64 MiB with the driver's times; 256 MiB left out and an 8 B
# row added, so `bandwidth --driver` has a row of each side without a partner. factor 1 (n = 2).
AGREE = [(1048576, 23.913), (4194304, 36.860), (16777216, 81.435), (67108864, 258.426)]
write("agree-driver.json", {
    "version": 3, "start": "2026-11-30 12:00:00", "end": "2026-11-30 12:00:05",
    "args": ["all_reduce_perf", "-b", "8", "-e", "64M", "-g", "2", "-J", "agree.json"],
    "env": ["NCCL_NVLS_ENABLE=0"], "nccl_version": 22809,
    "config": {"nthreads": 1, "ngpus": 2, "min": 8, "max": 67108864, "step_factor": 4,
               "warmup": 2, "iters": 20, "validation": 1,
               "devices": [(0, 100, "h200", 0)]},
    "factor": 1.0,
    "rows": [{"size": 8, "count": 2, "type": "float", "redop": "sum", "root": -1, "oop": 10.0,
              "ip": 10.0, "iters": 20}] +
            [{"size": sz, "count": sz // 4, "type": "float", "redop": "sum", "root": -1,
              "oop": t, "ip": t, "iters": 20} for sz, t in AGREE]})
