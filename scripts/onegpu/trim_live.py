#!/usr/bin/env python3
"""Trims the unwritten tail of npkit live files (*.live.npkt) of a job that has ended.

A live file is written ahead of its records (a lookahead of 4 MiB or more of zeros); docs/format.md
("Live files") lets a live file end anywhere inside its ProfilerRecords section, and readers skip
kind-0 (unwritten) records. This cuts each file after its last record holding a non-zero byte,
rounded up to a whole 64-byte record, never before the first record. Only for copies or for files
no process writes any more.

Usage: trim_live.py DIR...   (every *.live.npkt below each DIR; prints one line per file)
"""

import os
import struct
import sys

RECORD_BYTES = 64
PROFILER_RECORDS = 7
CHUNK = 1 << 20


def records_offset(handle):
    """File offset of the first ProfilerRecords record, or None if the file has no such section."""
    header = handle.read(64)
    if len(header) < 64 or header[:8] != b"NPKTDUMP":
        return None
    header_size, = struct.unpack_from("<I", header, 12)
    section_count, = struct.unpack_from("<I", header, 20)
    offset = header_size
    for _ in range(section_count):
        handle.seek(offset)
        section = handle.read(16)
        if len(section) < 16:
            return None
        kind, _, payload = struct.unpack("<IIQ", section)
        if kind == PROFILER_RECORDS:
            return offset + 16
        offset = (offset + 16 + payload + 7) // 8 * 8
    return None


def last_nonzero(handle, start, size):
    """Offset just past the last non-zero byte at or after `start`, or `start` if none."""
    end = size
    while end > start:
        begin = max(start, end - CHUNK)
        handle.seek(begin)
        data = handle.read(end - begin).rstrip(b"\0")
        if data:
            return begin + len(data)
        end = begin
    return start


def trim(path):
    size = os.path.getsize(path)
    with open(path, "r+b") as handle:
        start = records_offset(handle)
        if start is None:
            return f"{path}: not a live file with records, left as is"
        used = last_nonzero(handle, start, size)
        new_size = start + (used - start + RECORD_BYTES - 1) // RECORD_BYTES * RECORD_BYTES
        if new_size >= size:
            return f"{path}: {size} B, nothing to trim"
        handle.truncate(new_size)
    return f"{path}: {size} -> {new_size} B ({(new_size - start) // RECORD_BYTES} record slots)"


def main(argv):
    if not argv:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    for top in argv:
        for folder, _, names in os.walk(top):
            for name in sorted(names):
                if name.endswith(".live.npkt"):
                    print(trim(os.path.join(folder, name)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
