#!/usr/bin/env python3
"""A small PyTorch NCCL workload for profiler captures: one process per GPU on this host.

Each rank times float32 all_reduce over sizes 1 KiB .. 64 MiB (x4 steps): a few warm-up calls,
then --iters back-to-back calls between two torch.cuda.Event records; then it checks one more
all_reduce of (rank + 1) against n(n+1)/2, and runs one all_gather_into_tensor and one
reduce_scatter_tensor (both checked). Each rank writes <out>/rank<R>.json after a
torch.cuda.synchronize() and before dist.destroy_process_group() (an NCCL profiler plugin dumps at
communicator finalize, which destroy triggers). The parent then merges the ranks' files into
<out>/summary.json and prints the table (time = mean over ranks).

The profiler plugin is configured by the caller through the environment (NCCL_PROFILER_PLUGIN,
NPKIT_*), which the spawned ranks inherit. Exit status: 0 success, 1 a rank failed or hung in
teardown, 3 a result check failed.
"""

import argparse
import datetime
import json
import os
import sys
import threading
import time
import traceback

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

EXIT_FAILURE = 1
EXIT_CHECK_FAILED = 3
# Exit status of a rank whose destroy_process_group did not return in time.
EXIT_TEARDOWN_HUNG = 4
FLOAT32_BYTES = 4


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="output folder (created if missing)")
    parser.add_argument("--nprocs", type=int, default=2, help="ranks, one GPU each (default 2)")
    parser.add_argument("--min-bytes", type=int, default=1 << 10, help="first size (1 KiB)")
    parser.add_argument("--max-bytes", type=int, default=64 << 20, help="last size (64 MiB)")
    parser.add_argument("--factor", type=int, default=4, help="size step factor (4)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed calls per size (3)")
    parser.add_argument("--iters", type=int, default=10, help="timed calls per size (10)")
    parser.add_argument("--gather-bytes", type=int, default=4 << 20,
                        help="per-rank bytes of the all_gather / reduce_scatter shard (4 MiB)")
    parser.add_argument("--init-timeout-s", type=int, default=120,
                        help="process-group timeout for rendezvous and collectives (120)")
    parser.add_argument("--destroy-timeout-s", type=int, default=60,
                        help="a rank whose destroy_process_group has not returned after this "
                             "many seconds exits with status 4 (60)")
    args = parser.parse_args(argv)
    if args.nprocs < 1:
        parser.error("--nprocs must be at least 1")
    if args.min_bytes < FLOAT32_BYTES or args.max_bytes < args.min_bytes or args.factor < 2:
        parser.error("need 4 <= --min-bytes <= --max-bytes and --factor >= 2")
    if args.warmup < 0 or args.iters < 1 or args.gather_bytes < FLOAT32_BYTES:
        parser.error("need --warmup >= 0, --iters >= 1, --gather-bytes >= 4")
    return args


def sizes(args):
    size = args.min_bytes
    while size <= args.max_bytes:
        yield size
        size *= args.factor


def bandwidths(size_bytes, time_us, busbw_factor):
    """nccl-tests conventions: algbw = bytes / time (1 GB = 1e9 B), busbw = algbw * factor."""
    algbw = size_bytes / (time_us * 1e-6) / 1e9 if time_us > 0 else 0.0
    return algbw, algbw * busbw_factor


def elapsed_us(run, calls):
    """Microseconds per call of `calls` back-to-back run() calls, timed with CUDA events."""
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        run()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) * 1000.0 / calls


def time_all_reduce(rank, world, args, device):
    rows = []
    expected = world * (world + 1) / 2
    for size in sizes(args):
        numel = size // FLOAT32_BYTES
        tensor = torch.full((numel,), float(rank + 1), dtype=torch.float32, device=device)
        for _ in range(args.warmup):
            dist.all_reduce(tensor)
        torch.cuda.synchronize()
        time_us = elapsed_us(lambda: dist.all_reduce(tensor), args.iters)
        check = torch.full((numel,), float(rank + 1), dtype=torch.float32, device=device)
        dist.all_reduce(check)
        wrong = int(torch.count_nonzero(check != expected).item())
        algbw, busbw = bandwidths(numel * FLOAT32_BYTES, time_us, 2.0 * (world - 1) / world)
        rows.append({"size_bytes": numel * FLOAT32_BYTES, "numel": numel, "iters": args.iters,
                     "time_us": time_us, "algbw_gbps": algbw, "busbw_gbps": busbw,
                     "wrong": wrong})
    return rows


def run_gather_scatter(rank, world, args, device):
    shard = args.gather_bytes // FLOAT32_BYTES
    results = {}

    source = torch.full((shard,), float(rank + 1), dtype=torch.float32, device=device)
    gathered = torch.zeros(shard * world, dtype=torch.float32, device=device)
    torch.cuda.synchronize()
    time_us = elapsed_us(lambda: dist.all_gather_into_tensor(gathered, source), 1)
    expected = torch.arange(1, world + 1, dtype=torch.float32, device=device).repeat_interleave(shard)
    wrong = int(torch.count_nonzero(gathered != expected).item())
    algbw, busbw = bandwidths(shard * world * FLOAT32_BYTES, time_us, (world - 1) / world)
    results["all_gather_into_tensor"] = {
        "size_bytes": shard * world * FLOAT32_BYTES, "numel_per_rank": shard, "iters": 1,
        "time_us": time_us, "algbw_gbps": algbw, "busbw_gbps": busbw, "wrong": wrong}

    full = torch.full((shard * world,), float(rank + 1), dtype=torch.float32, device=device)
    scattered = torch.zeros(shard, dtype=torch.float32, device=device)
    torch.cuda.synchronize()
    time_us = elapsed_us(lambda: dist.reduce_scatter_tensor(scattered, full), 1)
    wrong = int(torch.count_nonzero(scattered != world * (world + 1) / 2).item())
    algbw, busbw = bandwidths(shard * world * FLOAT32_BYTES, time_us, (world - 1) / world)
    results["reduce_scatter_tensor"] = {
        "size_bytes": shard * world * FLOAT32_BYTES, "numel_per_rank": shard, "iters": 1,
        "time_us": time_us, "algbw_gbps": algbw, "busbw_gbps": busbw, "wrong": wrong}
    return results


def write_json(path, payload):
    temporary = path + ".tmp"
    with open(temporary, "w") as handle:
        json.dump(payload, handle, indent=1)
        handle.write("\n")
    os.replace(temporary, path)


def destroy_with_deadline(rank, seconds):
    """destroy_process_group(), but a hang there ends the process instead of the whole run."""
    def give_up():
        print(f"rank {rank}: destroy_process_group did not return within {seconds} s; exiting",
              file=sys.stderr, flush=True)
        os._exit(EXIT_TEARDOWN_HUNG)

    watchdog = threading.Timer(seconds, give_up)
    watchdog.daemon = True
    watchdog.start()
    started = time.monotonic()
    dist.destroy_process_group()
    watchdog.cancel()
    print(f"rank {rank}: destroy_process_group returned after {time.monotonic() - started:.2f} s",
          flush=True)


def rank_main(rank, world, args, init_method):
    try:
        if rank >= torch.cuda.device_count():
            raise RuntimeError(f"rank {rank} needs CUDA device {rank}, but only "
                               f"{torch.cuda.device_count()} are visible")
        device = torch.device("cuda", rank)
        torch.cuda.set_device(device)
        dist.init_process_group("nccl", init_method=init_method, rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=args.init_timeout_s),
                                device_id=device)
        result = {
            "rank": rank, "world_size": world, "pid": os.getpid(),
            "device": torch.cuda.get_device_name(device),
            "torch": torch.__version__,
            "nccl": ".".join(str(part) for part in torch.cuda.nccl.version()),
            "env": {key: value for key, value in sorted(os.environ.items())
                    if key.startswith(("NCCL_", "NPKIT_", "TORCH_", "NVSHMEM_"))},
            "all_reduce": time_all_reduce(rank, world, args, device),
        }
        result.update(run_gather_scatter(rank, world, args, device))
        torch.cuda.synchronize()
        write_json(os.path.join(args.out, f"rank{rank}.json"), result)
    except Exception:
        print(f"rank {rank} failed:\n{traceback.format_exc()}", file=sys.stderr, flush=True)
        raise
    destroy_with_deadline(rank, args.destroy_timeout_s)


def merge(args, world):
    """Reads rank<R>.json of every rank; returns the summary (mean time over ranks)."""
    ranks = []
    for rank in range(world):
        with open(os.path.join(args.out, f"rank{rank}.json")) as handle:
            ranks.append(json.load(handle))

    def mean_row(rows, busbw_factor):
        time_us = sum(row["time_us"] for row in rows) / len(rows)
        algbw, busbw = bandwidths(rows[0]["size_bytes"], time_us, busbw_factor)
        merged = {key: value for key, value in rows[0].items() if key not in ("wrong",)}
        merged.update({"time_us": time_us, "algbw_gbps": algbw, "busbw_gbps": busbw,
                       "wrong": sum(row["wrong"] for row in rows)})
        return merged

    all_reduce = [mean_row([r["all_reduce"][i] for r in ranks], 2.0 * (world - 1) / world)
                  for i in range(len(ranks[0]["all_reduce"]))]
    summary = {"world_size": world, "torch": ranks[0]["torch"], "nccl": ranks[0]["nccl"],
               "devices": [r["device"] for r in ranks], "env": ranks[0]["env"],
               "all_reduce": all_reduce}
    for name in ("all_gather_into_tensor", "reduce_scatter_tensor"):
        summary[name] = mean_row([r[name] for r in ranks], (world - 1) / world)
    return summary


def print_table(summary):
    print(f"# PyTorch {summary['torch']}, NCCL {summary['nccl']}, {summary['world_size']} ranks: "
          f"{', '.join(summary['devices'])}")
    print(f"# {'collective':>22} {'size(B)':>10} {'time(us)':>10} {'algbw(GB/s)':>11} "
          f"{'busbw(GB/s)':>11} {'#wrong':>6}")
    rows = [("all_reduce", row) for row in summary["all_reduce"]]
    rows += [(name, summary[name]) for name in ("all_gather_into_tensor", "reduce_scatter_tensor")]
    for name, row in rows:
        print(f"  {name:>22} {row['size_bytes']:>10} {row['time_us']:>10.2f} "
              f"{row['algbw_gbps']:>11.2f} {row['busbw_gbps']:>11.2f} {row['wrong']:>6}")


def main(argv):
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    rendezvous = os.path.abspath(os.path.join(args.out, "rendezvous"))
    stale = [rendezvous, os.path.join(args.out, "summary.json")]
    stale += [os.path.join(args.out, f"rank{r}.json") for r in range(args.nprocs)]
    for path in stale:
        if os.path.exists(path):
            os.remove(path)
    failed = False
    try:
        mp.spawn(rank_main, args=(args.nprocs, args, "file://" + rendezvous), nprocs=args.nprocs,
                 join=True)
    except Exception as error:  # a rank raised or exited non-zero; its own message came first
        print(f"allreduce_capture: {error}", file=sys.stderr, flush=True)
        failed = True
    finally:
        if os.path.exists(rendezvous):
            os.remove(rendezvous)
    # Ranks write their results before teardown: merge them even if a teardown went wrong.
    if not all(os.path.exists(os.path.join(args.out, f"rank{r}.json")) for r in range(args.nprocs)):
        print("allreduce_capture: results of some ranks are missing", file=sys.stderr)
        return EXIT_FAILURE
    summary = merge(args, args.nprocs)
    write_json(os.path.join(args.out, "summary.json"), summary)
    print_table(summary)
    if failed:
        return EXIT_FAILURE
    wrong = sum(row["wrong"] for row in summary["all_reduce"])
    wrong += summary["all_gather_into_tensor"]["wrong"] + summary["reduce_scatter_tensor"]["wrong"]
    if wrong:
        print(f"allreduce_capture: {wrong} wrong values", file=sys.stderr)
        return EXIT_CHECK_FAILED
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
