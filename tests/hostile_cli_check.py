"""`tendon` on files made to harm it, each written here: bad input exits 2 with a message that
names the place, never hangs, never prints a file's control characters to the terminal.
Usage: hostile_cli_check.py TENDON_EXECUTABLE SCRATCH_FOLDER"""
import base64
import json
import os
import struct
import subprocess

from cli_support import SCRATCH, TENDON, check, finish, run, write


def run_briefly(*args):
    """run(), but a run that outlives 20 s is killed and reported as hung (returncode None)."""
    try:
        return subprocess.run([TENDON, *args], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return None


# ---- paths that are not regular files ----
folder = os.path.join(SCRATCH, "folder.bvh")
os.makedirs(folder, exist_ok=True)
r = run("info", folder)
check(r.returncode == 2 and "folder.bvh: is a directory" in r.stderr and "bytes" not in r.stderr,
      f"a directory: exit 2, said to be one ({r.stderr.strip()})")
fifo = os.path.join(SCRATCH, "pipe.json")
if not os.path.exists(fifo):
    os.mkfifo(fifo)
for args in (["info", fifo], ["run", fifo], ["weights", fifo, "--at", "0"]):
    r = run_briefly(*args)
    check(r is not None and r.returncode == 2 and "FIFO" in r.stderr,
          f"tendon {args[0]} on a FIFO returns at once, exit 2: {r.stderr.strip() if r else 'hung'}")

# ---- names with control characters: escaped in text output (JSON output is escaped by cJSON) ----
blob = struct.pack("<4f", 0, 1, 2, 3)
evil = "evil\u001b[31mRED\u001b[0m\u009b2J\u007f"
gltf = {"asset": {"version": "2.0"}, "nodes": [{"name": evil}],
        "animations": [{"name": "clip\u001b]0;title\u0007",
                        "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
                        "samplers": [{"input": 0, "output": 1}]}],
        "buffers": [{"byteLength": 16, "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
        "bufferViews": [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 12}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 1, "type": "SCALAR"},
                      {"bufferView": 1, "componentType": 5126, "count": 1, "type": "VEC3"}]}
names = write("names.gltf", json.dumps(gltf))
for args in (["info", names], ["sample", names, "--time", "0"]):
    r = run(*args)
    raw = [c for c in r.stdout if (ord(c) < 32 and c != "\n") or 0x7f <= ord(c) < 0xa0]
    check(r.returncode == 0 and not raw and "evil\\x1B[31mRED\\x1B[0m\\xC2\\x9B2J\\x7F" in r.stdout,
          f"tendon {args[0]}: the names' control characters escaped ({raw[:3]}): {r.stdout[:300]}")
r = run("info", names, "--json")
check(r.returncode == 0 and json.loads(r.stdout)["skeleton"]["joints"][0]["name"] == evil,
      "--json keeps the name exactly (JSON escapes it)")
gltf_bad = dict(gltf, nodes=[{"name": evil, "children": [7]}])
r = run("info", write("names_bad.gltf", json.dumps(gltf_bad)))
check(r.returncode == 2 and "\x1b" not in r.stderr and "nodes[0].children[0]" in r.stderr,
      f"an error message carries no raw control character: {r.stderr!r}")

# ---- JSON rules on the CLI's own files (a timeline; stick paths are in mm_cli_check.py) ----
graph = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "graphs", "strafe.json")
deep = '{"events": ' + "[" * 5000 + "]" * 5000 + "}"
nul = '{"events": [{"time": 0, "fire": "ju\\u0000mp"}]}'
level_1001 = deep.index("[") + 999  # the object is level 1, the first array level 2
for name, text, expect in (
        ("t_twice.json", '{"events": [{"time": 0.5, "set": {"speed": 1.5}, "time": 1}]}',
         'events[0].time: the key "time" appears twice'),
        ("t_deep.json", deep, f"byte {level_1001} (line 1, column {level_1001 + 1}): nesting deeper than 1000 levels"),
        ("t_nul.json", nul, f"byte {nul.index(chr(92))} (line 1, column {nul.index(chr(92)) + 1}): \\u0000")):
    r = run("run", graph, "--params", write(name, text), "--seconds", "0.1")
    check(r.returncode == 2 and f"{name}: {expect}" in r.stderr, f"{name}: exit 2 and '{expect}' in: {r.stderr.strip()}")

# ---- a glTF node scale of 1e38 made sample --json print "s": [null, null, null] ----
huge = dict(gltf, nodes=[{"name": "a", "scale": [1e38, 1, 1]}])
r = run("sample", write("huge_scale.gltf", json.dumps(huge)), "--time", "0", "--json")
check(r.returncode == 2 and "nodes[0].scale" in r.stderr and "1e+06" in r.stderr,
      f"a scale of 1e38: exit 2 naming nodes[0].scale and the limit: {r.stderr.strip()}")

# ---- a 5,000-joint BVH as a graph's character: no clip fits the runtime tolerance at 240/s ----
joints = 5000
lines = ["HIERARCHY", "ROOT j0", "{", "OFFSET 0 0 0", "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"]
for i in range(1, joints):
    lines += [f"JOINT j{i}", "{", "OFFSET 0 1 0", "CHANNELS 3 Zrotation Xrotation Yrotation"]
lines += ["}"] * joints + ["MOTION", "Frames: 3", "Frame Time: 0.0333333"]
for f in range(3):
    lines.append(" ".join(["0"] * 3 + [f"{(7 * k + 13 * f) % 61 - 30}" for k in range(3 * joints)]))
write("chain.bvh", "\n".join(lines) + "\n")
r = run("run", write("chain_graph.json", json.dumps({"character": {"file": "chain.bvh"},
                                                    "root": {"type": "clip", "clip": "chain"}})), "--seconds", "0.1")
check(r.returncode == 2 and 'root.clip: clip "chain" cannot be resampled within' in r.stderr,
      f"a clip no rate fits: exit 2 naming the node's clip: {r.stderr.strip()}")

finish("hostile_cli")
