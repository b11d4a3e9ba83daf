#!/usr/bin/env python3
"""Many ranks of a PyTorch NCCL job on ONE GPU: each rank a process of its own on cuda:0.

NCCL refuses two ranks on one GPU ("Duplicate GPU detected") only when they share a host hash, so
each rank sets NCCL_HOSTID=onegpu-host-<rank> before its first NCCL call: NCCL then takes it for a
host of its own, the ranks talk over NET/Socket on loopback and the GPU time-slices their kernels.
Every collective is real and checked, but slow (docs/capture.md, "Testing on one GPU").

Sweep (default): for each --colls collective (all_reduce, all_gather_into_tensor,
reduce_scatter_tensor, broadcast from rank 0, all_to_all_single, and an isend/irecv ring through
batch_isend_irecv: rank r sends to (r+1)%n and receives from (r-1+n)%n) and each --sizes size
(the driver's conventions: the size is the total, per-rank counts of the gather, scatter and
all-to-all are size/4/n rounded down to 4 floats), --warmup calls, --iters timed calls and one
checked call (send tensors hold rank + 1; the expected values are those of npkit-nccl-driver
--check). Each call is timed with CUDA events recorded on the current stream right before and
right after it (async work is waited for first).

Hang mode (--hang-skip RANK:CALL): --loop-calls all_reduce calls of 1 MiB, each followed by
torch.cuda.synchronize(); rank RANK skips call CALL and every later one and sleeps, alive. With
TORCH_NCCL_ASYNC_ERROR_HANDLING=1 (set here) and the process-group timeout --pg-timeout-s
(default 20 s in this mode), PyTorch's watchdog ends the waiting ranks; the parent then ends the
rest. events_parent.txt says which rank skipped which call and how every rank ended.

With --groups pairs the job also makes one process group per pair of ranks (new_group([0, 1]),
new_group([2, 3]), ...; every rank creates every group, in that order) and, after each world call of
the sweep or of the hang loop, an all_reduce of 64 KiB in its pair's group; events_rank<R>.txt gets
a `group` line per group (name, global ranks) and a `group_call` line per pair call, numbered in
the same sequence as the world calls.

With --flight-recorder DIR PyTorch's Flight Recorder is on (a ring of 2000 entries) and dumps on a
watchdog timeout to DIR/nccl_trace_rank_<R> (pickle), as PyTorch's fr_trace reads them.

Under torchrun (RANK, LOCAL_RANK and WORLD_SIZE set, e.g. `torchrun --standalone
--nproc-per-node=3 onegpu_ranks.py --log-dir L`) each process is one rank and rendezvous through
torchrun's store (env://); --nranks is taken from WORLD_SIZE and no table is printed (each rank
writes results_rank<R>.json).

With --profile-dir DIR the sweep runs under torch.profiler and each rank writes its Chrome trace
(Kineto's, ts after its baseTimeNanoseconds) to DIR/kineto_rank<R>.json, for laying beside the
plugin's capture (npkit-analyze trace --merge).

Logs in --log-dir, the driver's format (samples/nccl-driver/README.md, "Calls and events logs"):
calls_rank<R>.csv (rank,call,coll,size_bytes,count,phase,host_call_ns,host_return_ns,gpu_us; a
row when the call returns, gpu_us empty, and the same row with gpu_us after the synchronize that
follows it), events_rank<R>.txt, events_parent.txt, results_rank<R>.json (sweep rows per rank).
The parent prints the table (time = mean over ranks of the mean timed gpu_us; #wrong summed).

Exit status: 0 success (hang mode: the job was ended by PyTorch's watchdog before --timeout-s);
1 a rank failed or the job had to be killed; 2 bad usage; 3 a check found wrong values.
Without torch only --help and the helpers work: the module imports torch inside the ranks.
"""

import argparse
import datetime
import json
import os
import signal
import sys
import time
import traceback

EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_CHECK_FAILED = 3
FLOAT32_BYTES = 4
# The driver's names, in its order (the calls log's `coll` column).
COLLS = ("allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "sendrecv")
TORCH_NAMES = {"allreduce": "all_reduce", "allgather": "all_gather_into_tensor",
               "reducescatter": "reduce_scatter_tensor", "alltoall": "all_to_all_single",
               "broadcast": "broadcast", "sendrecv": "batch_isend_irecv ring"}
CALLS_HEADER = "rank,call,coll,size_bytes,count,phase,host_call_ns,host_return_ns,gpu_us\n"
HANG_SIZE_BYTES = 1 << 20


def parse_size(text):
    """'4K', '1M', '64' -> bytes (powers of 1024); ValueError otherwise."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip()
    scale = units.get(text[-1:].upper(), 1)
    number = text[:-1] if scale != 1 else text
    if not number.isdigit() or int(number) == 0:
        raise ValueError(f"not a positive size: '{text}'")
    return int(number) * scale


def parse_skip(text):
    """'1:10' -> (1, 10); ValueError otherwise."""
    parts = text.split(":")
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise ValueError(f"expected RANK:CALL, got '{text}'")
    return int(parts[0]), int(parts[1])


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nranks", type=int, default=2, help="ranks, all on cuda:0 (default 2)")
    parser.add_argument("--log-dir", required=True, help="calls and events logs (created)")
    parser.add_argument("--colls", default=",".join(COLLS),
                        help="comma list of " + ", ".join(COLLS) + " (default: all)")
    parser.add_argument("--sizes", default="4K,64K,1M", help="sizes, K/M/G suffixes (4K,64K,1M)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed calls per size (1)")
    parser.add_argument("--iters", type=int, default=4, help="timed calls per size (4)")
    parser.add_argument("--hang-skip", metavar="RANK:CALL",
                        help="hang mode: rank RANK skips call CALL and every later one")
    parser.add_argument("--loop-calls", type=int, default=20,
                        help="hang mode: all_reduce calls of 1 MiB (20)")
    parser.add_argument("--pg-timeout-s", type=int,
                        help="process-group timeout (default 20 in hang mode, else 120)")
    parser.add_argument("--timeout-s", type=int, default=240,
                        help="the parent kills every rank after this many seconds (240)")
    parser.add_argument("--groups", choices=("world", "pairs"), default="world",
                        help="pairs: also a process group per pair of ranks and a 64 KiB "
                             "all_reduce in it after every world call (world)")
    parser.add_argument("--flight-recorder", metavar="DIR",
                        help="PyTorch's Flight Recorder on; dumps on timeout to "
                             "DIR/nccl_trace_rank_<R>")
    parser.add_argument("--profile-dir",
                        help="sweep under torch.profiler (CPU and CUDA activities); each rank "
                             "writes its Chrome trace to DIR/kineto_rank<R>.json")
    parser.add_argument("--destroy-timeout-s", type=int, default=60,
                        help="a rank whose destroy_process_group has not returned after this "
                             "many seconds exits with status 4 (60)")
    args = parser.parse_args(argv)
    try:
        args.colls = [name.strip().lower() for name in args.colls.split(",")]
        unknown = [name for name in args.colls if name not in COLLS]
        if unknown or not args.colls:
            raise ValueError(f"--colls: unknown {unknown} (known: {', '.join(COLLS)})")
        args.sizes = [parse_size(item) for item in args.sizes.split(",")]
        args.hang_skip = parse_skip(args.hang_skip) if args.hang_skip else None
    except ValueError as error:
        parser.error(str(error))
    if args.nranks < 1 or args.warmup < 0 or args.iters < 1 or args.loop_calls < 1:
        parser.error("need --nranks >= 1, --warmup >= 0, --iters >= 1, --loop-calls >= 1")
    if args.hang_skip and args.hang_skip[0] >= args.nranks:
        parser.error(f"--hang-skip names rank {args.hang_skip[0]} of {args.nranks}")
    if args.groups == "pairs" and args.nranks % 2:
        parser.error("--groups pairs needs an even --nranks")
    if args.pg_timeout_s is None:
        args.pg_timeout_s = 20 if args.hang_skip else 120
    return args


def shape(coll, size_bytes, nranks):
    """(count, size_bytes) of one call: the count argument and the size the table shows."""
    count = size_bytes // FLOAT32_BYTES
    if coll in ("allgather", "reducescatter", "alltoall"):
        per_rank = count // nranks // 4 * 4  # nccl-tests: 16-byte aligned per-rank counts
        return per_rank, per_rank * FLOAT32_BYTES * nranks
    return count, count * FLOAT32_BYTES


def expected_value(coll, rank, nranks, count, index):
    """What element `index` of rank's output must hold when every input holds rank + 1."""
    if coll in ("allreduce", "reducescatter"):
        return nranks * (nranks + 1) / 2
    if coll in ("allgather", "alltoall"):
        return index // count + 1
    if coll == "broadcast":
        return 1
    return (rank - 1 + nranks) % nranks + 1  # sendrecv: from the left neighbour


def call_row(rank, call, coll, size_bytes, count, phase, call_ns, return_ns, gpu_us=None):
    gpu = "" if gpu_us is None else f"{gpu_us:.3f}"
    return f"{rank},{call},{coll},{size_bytes},{count},{phase},{call_ns},{return_ns},{gpu}\n"


def event_line(who, text):
    return f"{time.time_ns()} {who} {text}\n"


def describe_exit(code):
    if code is None:
        return "still running"
    if code < 0:
        return f"was killed by signal {-code} ({signal.Signals(-code).name})"
    return f"exited with status {code}"


class RankLogs:
    """A rank's calls and events logs: each row is written and flushed at once."""

    def __init__(self, log_dir, rank):
        self.rank = rank
        self.calls = open(os.path.join(log_dir, f"calls_rank{rank}.csv"), "w", buffering=1)
        self.events = open(os.path.join(log_dir, f"events_rank{rank}.txt"), "w", buffering=1)
        self.calls.write(CALLS_HEADER)

    def event(self, text):
        self.events.write(event_line(f"rank{self.rank}", text))


class Caller:
    """Makes the rank's collective calls, numbers and logs them, and applies --hang-skip."""

    def __init__(self, torch, dist, rank, nranks, logs, skip):
        self.torch, self.dist = torch, dist
        self.rank, self.nranks, self.logs, self.skip = rank, nranks, logs, skip
        self.next_call = 0
        self.pending = []
        self.pair = None  # (group, name, buffer) with --groups pairs

    def make_pairs(self, device):
        """Every rank creates every pair group, in order; keeps its own pair's."""
        for first in range(0, self.nranks, 2):
            members = [first, first + 1]
            group = self.dist.new_group(members)
            name = f"pair{first // 2}"
            self.logs.event(f"group name={name} ranks={','.join(map(str, members))}")
            if self.rank in members:
                count = (64 << 10) // FLOAT32_BYTES
                buffer = self.torch.full((count,), float(self.rank + 1), device=device)
                self.pair = (group, name, buffer)

    def pair_call(self, index):
        """A 64 KiB all_reduce in the rank's pair group (after world call `index`)."""
        if self.pair is None:
            return
        group, name, buffer = self.pair
        self.dist.all_reduce(buffer, group=group)
        self.logs.event(f"group_call after_call={index} group={name} coll=allreduce "
                        f"size_bytes={buffer.numel() * FLOAT32_BYTES}")

    def _run(self, coll, output, source):
        dist = self.dist
        if coll == "allreduce":
            output.copy_(source)
            dist.all_reduce(output)
        elif coll == "allgather":
            dist.all_gather_into_tensor(output, source)
        elif coll == "reducescatter":
            dist.reduce_scatter_tensor(output, source)
        elif coll == "alltoall":
            dist.all_to_all_single(output, source)
        elif coll == "broadcast":
            output.copy_(source)
            dist.broadcast(output, src=0)
        else:
            ops = [dist.P2POp(dist.isend, source, (self.rank + 1) % self.nranks),
                   dist.P2POp(dist.irecv, output, (self.rank - 1 + self.nranks) % self.nranks)]
            for work in dist.batch_isend_irecv(ops):
                work.wait()

    def call(self, coll, output, source, count, size_bytes, phase):
        index = self.next_call
        self.next_call += 1
        if self.skip and self.skip == (self.rank, index):
            self.logs.event(f"hang_skip call={index}: no call from here on; sleeping until killed")
            print(f"onegpu_ranks: rank {self.rank} skips call {index} and every later call",
                  file=sys.stderr, flush=True)
            while True:
                time.sleep(3600)
        start = self.torch.cuda.Event(enable_timing=True)
        stop = self.torch.cuda.Event(enable_timing=True)
        start.record()
        call_ns = time.time_ns()
        self._run(coll, output, source)
        return_ns = time.time_ns()
        stop.record()
        row = (self.rank, index, coll, size_bytes, count, phase, call_ns, return_ns)
        self.logs.calls.write(call_row(*row))
        self.pending.append((row, start, stop))
        self.pair_call(index)

    def synchronize(self):
        self.torch.cuda.synchronize()
        times = []
        for row, start, stop in self.pending:
            gpu_us = start.elapsed_time(stop) * 1000.0
            self.logs.calls.write(call_row(*row, gpu_us))
            times.append((row[5], gpu_us))
        self.pending = []
        return times


def tensors(torch, coll, rank, nranks, count, device):
    """(output, source) for one call; the source holds rank + 1."""
    total = count * nranks
    sizes = {"allreduce": (count, count), "broadcast": (count, count),
             "sendrecv": (count, count), "allgather": (total, count),
             "reducescatter": (count, total), "alltoall": (total, total)}
    out_n, src_n = sizes[coll]
    source = torch.full((src_n,), float(rank + 1), dtype=torch.float32, device=device)
    return torch.zeros(out_n, dtype=torch.float32, device=device), source


def expected_tensor(torch, coll, rank, nranks, count, numel, device):
    if coll in ("allgather", "alltoall"):
        blocks = torch.arange(1, nranks + 1, dtype=torch.float32, device=device)
        return blocks.repeat_interleave(count)
    value = expected_value(coll, rank, nranks, count, 0)
    return torch.full((numel,), float(value), dtype=torch.float32, device=device)


def run_sweep(torch, caller, args, device):
    rows = []
    for coll in args.colls:
        for size in args.sizes:
            count, size_bytes = shape(coll, size, args.nranks)
            if count == 0:
                continue
            output, source = tensors(torch, coll, caller.rank, args.nranks, count, device)
            for _ in range(args.warmup):
                caller.call(coll, output, source, count, size_bytes, "warmup")
            caller.synchronize()
            for _ in range(args.iters):
                caller.call(coll, output, source, count, size_bytes, "timed")
            timed = [gpu for phase, gpu in caller.synchronize() if phase == "timed"]
            output.zero_()
            caller.call(coll, output, source, count, size_bytes, "check")
            caller.synchronize()
            expected = expected_tensor(torch, coll, caller.rank, args.nranks, count,
                                       output.numel(), device)
            wrong = int(torch.count_nonzero(output != expected).item())
            rows.append({"coll": coll, "torch": TORCH_NAMES[coll], "size_bytes": size_bytes,
                         "count": count, "time_us": sum(timed) / len(timed), "wrong": wrong})
    return rows


def run_hang_loop(torch, caller, args, device):
    count, size_bytes = shape("allreduce", HANG_SIZE_BYTES, args.nranks)
    output, source = tensors(torch, "allreduce", caller.rank, args.nranks, count, device)
    for _ in range(args.loop_calls):
        caller.call("allreduce", output, source, count, size_bytes, "loop")
        caller.synchronize()


def destroy_with_deadline(dist, logs, seconds):
    """destroy_process_group(), but a hang there ends the process instead of the whole run."""
    import threading

    def give_up():
        logs.event(f"destroy_timeout after_s={seconds}; exit status=4")
        os._exit(4)

    watchdog = threading.Timer(seconds, give_up)
    watchdog.daemon = True
    watchdog.start()
    logs.event("destroy_called")
    dist.destroy_process_group()
    watchdog.cancel()
    logs.event("destroy_done")


def flight_recorder_env(directory, rank):
    """PyTorch's Flight Recorder settings, under the names of PyTorch 2.4-2.11 alike."""
    os.makedirs(directory, exist_ok=True)
    prefix = os.path.join(os.path.abspath(directory), "nccl_trace_rank_")
    for name, value in (("TORCH_FR_BUFFER_SIZE", "2000"), ("TORCH_NCCL_TRACE_BUFFER_SIZE", "2000"),
                        ("TORCH_NCCL_DUMP_ON_TIMEOUT", "1"), ("TORCH_FR_DUMP_TEMP_FILE", prefix),
                        ("TORCH_NCCL_DEBUG_INFO_TEMP_FILE", prefix)):
        os.environ[name] = value


def rank_main(rank, args, init_file):
    # Before torch or NCCL reads any of it: each rank a host of its own to NCCL.
    os.environ["NCCL_HOSTID"] = f"onegpu-host-{rank}"
    if args.hang_skip:
        os.environ["TORCH_NCCL_ASYNC_ERROR_HANDLING"] = "1"
    if args.flight_recorder:
        flight_recorder_env(args.flight_recorder, rank)
    logs = RankLogs(args.log_dir, rank)
    logs.event(f"start pid={os.getpid()} device=0 NCCL_HOSTID={os.environ['NCCL_HOSTID']}")
    import torch
    import torch.distributed as dist

    device = torch.device("cuda", 0)
    torch.cuda.set_device(device)
    try:
        dist.init_process_group("nccl", init_method=init_file, rank=rank,
                                world_size=args.nranks, device_id=device,
                                timeout=datetime.timedelta(seconds=args.pg_timeout_s))
        logs.event(f"pg_ready nranks={args.nranks} torch={torch.__version__} nccl="
                   + ".".join(str(part) for part in torch.cuda.nccl.version()))
        caller = Caller(torch, dist, rank, args.nranks, logs, args.hang_skip)
        if args.groups == "pairs":
            caller.make_pairs(device)
        if args.hang_skip:
            run_hang_loop(torch, caller, args, device)
            result = {"rank": rank, "loop_calls": args.loop_calls}
        elif args.profile_dir:
            from torch.profiler import ProfilerActivity, profile
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                rows = run_sweep(torch, caller, args, device)
            os.makedirs(args.profile_dir, exist_ok=True)
            prof.export_chrome_trace(os.path.join(args.profile_dir, f"kineto_rank{rank}.json"))
            result = {"rank": rank, "rows": rows}
        else:
            result = {"rank": rank, "rows": run_sweep(torch, caller, args, device)}
        result.update({"torch": torch.__version__,
                       "nccl": ".".join(str(part) for part in torch.cuda.nccl.version()),
                       "device": torch.cuda.get_device_name(device), "pid": os.getpid()})
        with open(os.path.join(args.log_dir, f"results_rank{rank}.json"), "w") as handle:
            json.dump(result, handle, indent=1)
    except Exception:
        logs.event("failed " + traceback.format_exc().strip().splitlines()[-1])
        print(f"rank {rank} failed:\n{traceback.format_exc()}", file=sys.stderr, flush=True)
        raise
    destroy_with_deadline(dist, logs, args.destroy_timeout_s)
    logs.event("exit status=0")


def merge_rows(args):
    """Mean time over ranks, wrong values summed, per (coll, size); None if a rank's file is gone."""
    per_rank = []
    for rank in range(args.nranks):
        path = os.path.join(args.log_dir, f"results_rank{rank}.json")
        if not os.path.exists(path):
            return None, None
        with open(path) as handle:
            per_rank.append(json.load(handle))
    merged = []
    for index, row in enumerate(per_rank[0]["rows"]):
        same = [ranks["rows"][index] for ranks in per_rank]
        merged.append(dict(row, time_us=sum(r["time_us"] for r in same) / len(same),
                           wrong=sum(r["wrong"] for r in same)))
    return per_rank[0], merged


def print_table(head, rows, nranks):
    print(f"# onegpu_ranks: PyTorch {head['torch']}, NCCL {head['nccl']}, {nranks} ranks on one "
          f"{head['device']}; time = mean gpu time of the timed calls, mean over ranks")
    print(f"# {'collective':>22} {'size(B)':>10} {'count':>9} {'time(us)':>10} {'#wrong':>6}")
    for row in rows:
        print(f"  {row['torch']:>22} {row['size_bytes']:>10} {row['count']:>9} "
              f"{row['time_us']:>10.1f} {row['wrong']:>6}")


def torchrun_main(args):
    """One rank of a torchrun job: rendezvous through torchrun's store, no table."""
    rank = int(os.environ["RANK"])
    args.nranks = int(os.environ["WORLD_SIZE"])
    os.makedirs(args.log_dir, exist_ok=True)
    args.log_dir = os.path.abspath(args.log_dir)
    rank_main(rank, args, "env://")
    return 0


def main(argv):
    args = parse_args(argv)
    if all(name in os.environ for name in ("RANK", "LOCAL_RANK", "WORLD_SIZE")):
        return torchrun_main(args)
    os.makedirs(args.log_dir, exist_ok=True)
    args.log_dir = os.path.abspath(args.log_dir)
    for name in os.listdir(args.log_dir):
        if name.startswith(("calls_rank", "events_", "results_rank", "rendezvous")):
            os.remove(os.path.join(args.log_dir, name))
    init_file = os.path.join(args.log_dir, "rendezvous")
    parent_log = open(os.path.join(args.log_dir, "events_parent.txt"), "w", buffering=1)

    def note(text):
        print(f"onegpu_ranks: {text}", file=sys.stderr, flush=True)
        parent_log.write(event_line("parent", text))

    if args.hang_skip:
        note(f"hang mode: rank {args.hang_skip[0]} skips call {args.hang_skip[1]} and every later "
             f"call; process-group timeout {args.pg_timeout_s} s, "
             "TORCH_NCCL_ASYNC_ERROR_HANDLING=1")
    import torch.multiprocessing as mp

    context = mp.start_processes(rank_main, args=(args, "file://" + init_file), nprocs=args.nranks,
                                 join=False, start_method="spawn")
    deadline = time.monotonic() + args.timeout_s
    first_end = None
    killed = False
    while True:
        try:
            if context.join(timeout=1):
                break
        except Exception as error:  # a rank failed; spawn has ended the others
            first_end = str(error).strip().splitlines()[0]
            break
        if time.monotonic() > deadline:
            note(f"time limit of {args.timeout_s} s (--timeout-s) reached; killing every rank")
            for process in context.processes:
                if process.is_alive():
                    os.kill(process.pid, signal.SIGKILL)
            killed = True
            break
    for process in context.processes:
        process.join(10)
    codes = [process.exitcode for process in context.processes]
    if first_end:
        note(f"first rank to end badly: {first_end}")
    for rank, code in enumerate(codes):
        if code != 0:
            note(f"rank {rank} {describe_exit(code)}")
    if os.path.exists(init_file):
        os.remove(init_file)

    if args.hang_skip:
        ended_itself = first_end is not None and not killed
        note("job ended " + ("by itself (PyTorch's watchdog) before --timeout-s" if ended_itself
                             else "without the watchdog ending it"))
        return 0 if ended_itself else EXIT_FAILURE
    head, rows = merge_rows(args)
    if rows is None:
        note("results of some ranks are missing")
        return EXIT_FAILURE
    print_table(head, rows, args.nranks)
    if any(code != 0 for code in codes):
        return EXIT_FAILURE
    wrong = sum(row["wrong"] for row in rows)
    if wrong:
        note(f"{wrong} wrong values")
        return EXIT_CHECK_FAILED
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
