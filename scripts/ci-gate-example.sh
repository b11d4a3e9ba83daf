#!/usr/bin/env bash
# ci-gate-example.sh — the steps of docs/examples/github-actions-nccl-gate.yml, run locally on the
# committed 2×H200 capture (samples/nccl-h200/agree), without a GPU:
#   1. summarize the capture into a stored baseline (CI: committed perf/nccl-baseline.json);
#   2. summarize the "new" capture (here the same one) and diff it: PASS, exit 0;
#   3. inject a regression (4 MiB AllReduce 15 % slower on rank 1) and diff again: FAIL, exit 1,
#      with the Markdown PR comment and the JUnit report the workflow would publish;
#   4. drop the 256 MiB size from the candidate (a benchmark that crashed before its last size)
#      and diff again: FAIL, exit 1 (missing data fails unless --allow-missing).
# Exits 0 when the gate behaved (0, then 1, then 1), 1 otherwise; 2 when a step could not run.
# Usage: scripts/ci-gate-example.sh [PATH-TO-npkit-analyze]   (default: build/bin/npkit-analyze)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
analyze=${1:-$root/build/bin/npkit-analyze}
capture=$root/samples/nccl-h200/agree/dump
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {
  echo "+ $*"
  "$@"
}

run "$analyze" summarize "$capture" -o "$work/baseline.json" -q || exit 2
run "$analyze" summarize "$capture" -o "$work/candidate.json" -q || exit 2

run "$analyze" diff "$work/baseline.json" "$work/candidate.json"
clean=$?
echo "exit code of the unchanged candidate: $clean (expected 0)"

# The injected regression: every launch of the 4 MiB AllReduce on rank 1, 15 % longer.
python3 - "$work/candidate.json" "$work/slower.json" <<'PY' || exit 2
import json, sys
summary = json.load(open(sys.argv[1]))
for row in summary["collectives"]:
    if row["collective"] == "AllReduce" and row["size_bytes"] == 4194304:
        for rank in row["ranks"]:
            if rank["rank"] == 1:
                t = rank["time_ns"]
                t["values"] = [round(v * 1.15) for v in t["values"]]
                t["min"], t["max"], t["sum"] = min(t["values"]), max(t["values"]), sum(t["values"])
json.dump(summary, open(sys.argv[2], "w"), indent=1)
PY

run "$analyze" diff "$work/baseline.json" "$work/slower.json" --format md -o "$work/comment.md"
slower=$?
run "$analyze" diff "$work/baseline.json" "$work/slower.json" --format junit -o "$work/junit.xml"
cat "$work/comment.md"
grep -c '<failure' "$work/junit.xml" | sed 's/^/JUnit failures: /'
echo "exit code of the candidate with the injected regression: $slower (expected 1)"

# A candidate that lost its last size.
python3 - "$work/candidate.json" "$work/short.json" <<'PY' || exit 2
import json, sys
summary = json.load(open(sys.argv[1]))
summary["collectives"] = [r for r in summary["collectives"] if r["size_bytes"] != 268435456]
json.dump(summary, open(sys.argv[2], "w"), indent=1)
PY
run "$analyze" diff "$work/baseline.json" "$work/short.json" > "$work/short.txt"
short=$?
grep -E '^(missing|Result)' "$work/short.txt"
echo "exit code of the candidate without 256 MiB: $short (expected 1)"

[ "$clean" -eq 0 ] && [ "$slower" -eq 1 ] && [ "$short" -eq 1 ] && echo "gate OK" && exit 0
echo "gate did not behave as expected" >&2
exit 1
