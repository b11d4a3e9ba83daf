#!/usr/bin/env python3
"""Compares npkit-analyze's view of a capture with what npkit-nccl-driver logged it did.

  analysis_check.py instances INSTANCES.jsonl CALLS_DIR
      `npkit-analyze instances` lines per collective function against the driver's calls of rank 0
      (calls_rank0.csv rows with an empty gpu_us). Prints one line per function with the counts
      and the algorithms/protocols NCCL chose; exit 0 when AllReduce, AllGather, ReduceScatter and
      Broadcast counts are equal, 1 otherwise (AlltoAll and SendRecv are no NCCL Coll events:
      listed, not compared).
  analysis_check.py bandwidth BANDWIDTH.csv CALLS_DIR
      the same comparison with the `instances` column of `npkit-analyze bandwidth --format csv
      --view collectives`, summed per collective.
  analysis_check.py hang HANG.json RANK
      exit 0 when `npkit-analyze hang --format json` names RANK in a stalled communicator: it is
      the only rank that never called the stuck operation (ranks_missing == [RANK]), or the rank
      the others wait on while it waits on no one ("look first at rank RANK": a rank killed right
      after a call returned has called it, like the ranks waiting for it). Prints the verdicts.
"""

import collections
import csv
import json
import os
import sys

FUNCS = {"allreduce": "AllReduce", "allgather": "AllGather", "reducescatter": "ReduceScatter",
         "broadcast": "Broadcast", "alltoall": "AlltoAll", "sendrecv": "SendRecv"}
COMPARED = ("AllReduce", "AllGather", "ReduceScatter", "Broadcast")


def driver_calls(calls_dir):
    counts = collections.Counter()
    with open(os.path.join(calls_dir, "calls_rank0.csv")) as handle:
        for row in csv.DictReader(handle):
            if row["gpu_us"] == "":
                counts[FUNCS.get(row["coll"], row["coll"])] += 1
    return counts


def compare(found, calls, detail):
    ok = True
    for func in sorted(set(found) | set(calls)):
        compared = func in COMPARED
        same = found.get(func, 0) == calls.get(func, 0)
        ok = ok and (same or not compared)
        verdict = ("same" if same else "DIFFERENT") if compared else "not compared"
        print(f"{func}: analyzer {found.get(func, 0)}, driver calls {calls.get(func, 0)}: "
              f"{verdict}{detail.get(func, '')}")
    return 0 if ok else 1


def check_instances(path, calls_dir):
    found = collections.Counter()
    chosen = collections.defaultdict(collections.Counter)
    with open(path) as handle:
        for line in handle:
            if line.strip():
                record = json.loads(line)
                found[record["func"]] += 1
                chosen[record["func"]][f"{record['bytes']} B {record['algo']}/{record['proto']}"] += 1
    detail = {func: "; " + ", ".join(f"{key} x{n}" for key, n in sorted(counter.items()))
              for func, counter in chosen.items()}
    return compare(found, driver_calls(calls_dir), detail)


def check_bandwidth(path, calls_dir):
    found = collections.Counter()
    with open(path) as handle:
        for row in csv.DictReader(handle):
            name = row.get("collective") or ""
            func = FUNCS.get(name.lower(), name)
            found[func] += int(float(row.get("instances") or 0))
    return compare(found, driver_calls(calls_dir), {})


def check_hang(path, rank):
    with open(path) as handle:
        hang = json.load(handle)
    named = False
    for comm in hang.get("communicators", []):
        print(f"{comm.get('comm')}: {comm.get('verdict')}")
        if not comm.get("stalled"):
            continue
        named = (named or comm.get("ranks_missing", []) == [rank]
                 or f"look first at rank {rank}" in comm.get("verdict", ""))
    return 0 if named else 1


def main(argv):
    if len(argv) != 3 or argv[0] not in ("instances", "bandwidth", "hang"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[0] == "instances":
        return check_instances(argv[1], argv[2])
    if argv[0] == "bandwidth":
        return check_bandwidth(argv[1], argv[2])
    return check_hang(argv[1], int(argv[2]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
