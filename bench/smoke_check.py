"""Runs `tendon_bench --quick --json` and checks that every line is a JSON row with the
fields of docs/benchmarks.md and that every workload reported. Timings are not checked."""
import json
import subprocess
import sys

REQUIRED = ("workload", "joints", "variant", "threads", "median_ns", "min_ns", "ns_per_joint",
            "ns_per_vertex", "chars_per_s", "bytes_per_clip")
WORKLOADS = {"sample", "blend", "ltm", "frame", "crowd", "skin", "blend_space", "inertialize", "graph", "crowd_graph", "ik", "mm",
             "retarget", "compression", "pack_load"}

out = subprocess.run([sys.argv[1], "--quick", "--json"], check=True, capture_output=True, text=True).stdout
rows = [json.loads(line) for line in out.splitlines()]
for row in rows:
    missing = [key for key in REQUIRED if key not in row]
    assert not missing, f"row {row} lacks {missing}"
    assert row["median_ns"] is not None and row["median_ns"] > 0, row
seen = {row["workload"] for row in rows}
assert seen == WORKLOADS, f"workloads reported: {sorted(seen)}"
print(f"{len(rows)} rows OK")
