#!/usr/bin/env python3
"""Summarizes launch-cost runs of npkit-nccl-driver --launch-cost across plugin settings.

Usage: cost_summary.py DIR...   each DIR holds <setting>_r<round>.csv files of one NCCL version
(DIR's name, e.g. .../nccl-2.30.7/cost, names the version). Settings: off, coll, sampled, coll-kernel, all.
Prints per version and size: for each setting the median over rounds of each run's median
call-to-return time (us), the spread of those medians (min..max), and the difference to `off`.
"""

import collections
import csv
import glob
import os
import re
import statistics
import sys

SETTINGS = ("off", "coll", "sampled", "coll-kernel", "all")


def load(folder):
    medians = collections.defaultdict(list)  # (size, setting) -> [median_us per round]
    for path in sorted(glob.glob(os.path.join(folder, "*_r*.csv"))):
        match = re.match(r"(.+)_r(\d+)\.csv$", os.path.basename(path))
        if not match or match.group(1) not in SETTINGS:
            continue
        with open(path) as handle:
            for row in csv.DictReader(handle):
                medians[(int(row["size_bytes"]), match.group(1))].append(float(row["median_us"]))
    return medians


def version_of(folder):
    match = re.search(r"nccl-([0-9.]+)", os.path.abspath(folder))
    return match.group(1) if match else os.path.basename(os.path.dirname(folder))


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    print("# launch cost: median call-to-return time (us) of ncclAllReduce, 2 ranks on one GPU;")
    print("# per setting the median over rounds of each run's median [min..max of the rounds],")
    print("# and the difference to off")
    print(f"{'nccl':<8} {'size(B)':>8} " + " ".join(f"{s:>22}" for s in SETTINGS))
    for folder in argv:
        medians = load(folder)
        for size in sorted({size for size, _ in medians}):
            off = medians.get((size, "off"))
            base = statistics.median(off) if off else None
            cells = []
            for setting in SETTINGS:
                values = medians.get((size, setting))
                if not values:
                    cells.append(f"{'-':>22}")
                    continue
                middle = statistics.median(values)
                delta = f" {middle - base:+.1f}" if base is not None and setting != "off" else ""
                cells.append(f"{middle:.1f} [{min(values):.1f}..{max(values):.1f}]{delta}".rjust(22))
            print(f"{version_of(folder):<8} {size:>8} " + " ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
