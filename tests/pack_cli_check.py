"""`tendon pack`, `tendon info` and `tendon sample` on packs against docs/cli.md and
docs/pack-format.md: a small BVH packed with --scale, read back here by a reader written from the
format's tables alone (header, section table, the skeleton section's arrays: the rest
translations are the BVH's offsets times the scale, worked out by hand; the clip section's
header: its frames, joints and duration); the clip's report line (raw size 40 bytes x joints x
frames); a moving BVH's packed clip sampled in model space printing the same numbers as the BVH
sampled with --runtime --compressed at the same --scale; the generated humanoid at half size
(its pelvis 0.95 * 0.5 m up, its clips packed), read by mm build and retarget as they read
glTF and BVH files; info's text and JSON; the BlendMotion graph packed with --graph (its GRPH
section read back: its name, skeleton and the document's bytes; every clip it plays under its
name), listed by info and run from the pack as its JSON runs, and walked by examples/packed_character.c
from its definition; exit codes and errors naming the file and byte.
Usage: pack_cli_check.py TENDON_EXECUTABLE SCRATCH_FOLDER"""
import json
import os
import re
import struct
import subprocess

from cli_support import SCRATCH, TENDON, check, finish, run, write

BVH = """HIERARCHY
ROOT Hips
{
  OFFSET 0 100 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Spine
  {
    OFFSET 0 20 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 10 0
    }
  }
  JOINT Leg
  {
    OFFSET 10 -5 2
    CHANNELS 3 Zrotation Xrotation Yrotation
  }
}
MOTION
Frames: 2
Frame Time: 0.5
0 100 0 0 0 0 0 0 0 0 0 0
0 100 0 0 0 0 0 0 0 0 0 0
"""


def moving_bvh(frames):
    """A BVH like BVH above whose joints turn and whose root moves, `frames` frames at 30/s."""
    import math
    head = BVH.split("MOTION")[0]
    lines = []
    for f in range(frames):
        t = f / 30.0
        lines.append(" ".join(f"{v:.4f}" for v in (
            5 * math.sin(2 * t), 100 + 3 * math.cos(4 * t), 40 * t,
            10 * math.sin(3 * t), 5 * math.cos(2 * t), 20 * math.sin(t),
            30 * math.sin(5 * t), 0, 10 * math.cos(3 * t),
            45 * math.sin(2 * t), 15 * math.sin(6 * t), 0)))
    return head + f"MOTION\nFrames: {frames}\nFrame Time: 0.0333333\n" + "\n".join(lines) + "\n"


def read_pack(path):
    """(sections as (kind, offset, size), bytes) of a pack, checking the header as the format says."""
    data = open(path, "rb").read()
    check(data[:8] == b"TDNPACK\0", f"{path}: the magic")
    version, tag, size, table, count = struct.unpack_from("<IIQQI", data, 8)
    check(version == 1 and tag == 0x01020304, f"{path}: version {version}, tag {tag:#x}")
    check(size == len(data), f"{path}: the header's size {size} is the file's {len(data)}")
    check(data[36:64] == bytes(28), f"{path}: reserved header bytes are zero")
    sections = []
    for s in range(count):
        kind, align, offset, length, reserved = struct.unpack_from("<4sIQQQ", data, table + 32 * s)
        check(offset % align == 0 and align >= 16 and reserved == 0, f"{path}: section {s}'s entry")
        sections.append((kind.decode(), offset, length))
    return sections, data


def skeleton(data, offset):
    """(names, parents, rest transforms) of the skeleton section at offset."""
    fields = struct.unpack_from("<16I", data, offset)
    n = fields[1]
    parents = struct.unpack_from(f"<{n}h", data, offset + fields[2])
    names = [data[offset + fields[6] + 64 * j:offset + fields[6] + 64 * (j + 1)].split(b"\0")[0].decode()
             for j in range(n)]
    rest = [struct.unpack_from("<10f", data, offset + fields[7] + 40 * j) for j in range(n)]
    return names, list(parents), rest


# ---- help ----
r = run("pack", "--help")
check(r.returncode == 0 and "--out" in r.stdout and "humanoid" in r.stdout, "tendon pack --help")
check("pack" in run("--help").stdout, "tendon --help lists pack")

# ---- a BVH at --scale 0.01 ----
bvh = write("three.bvh", BVH)
out = os.path.join(SCRATCH, "three.tdn")
r = run("pack", bvh, "--out", out, "--scale", "0.01")
check(r.returncode == 0, f"pack three.bvh: exit {r.returncode}: {r.stderr.strip()}")
check("skeleton 0  three" in r.stdout and "3 joints" in r.stdout, f"pack prints the skeleton: {r.stdout}")
# 3 joints, 2 frames: 240 bytes of float32 frames; a still clip's error is 0
check("clip         three" in r.stdout and "240 bytes raw" in r.stdout and "largest error 0.0000 cm" in r.stdout,
      f"pack prints the clip's line: {r.stdout}")
check("1 clip: 240 bytes raw" in r.stdout, f"pack prints the total: {r.stdout}")
sections, data = read_pack(out)
check([k for k, _, _ in sections] == ["SKEL", "CLIP", "STRS"], f"three.tdn's sections: {sections}")
clip = struct.unpack_from("<4I2f", data, sections[1][1])
check(clip[1] == 0 and clip[2] == 16 and clip[3] == 3 and clip[4] == 0.5 and clip[5] == 30.0,
      f"the clip animates section 0's 3 joints, 0.5 s at 30 frames/s (its 2 keys/s times 15): 16 frames: {clip}")
names, parents, rest = skeleton(data, sections[0][1])
check(names == ["Hips", "Spine", "Leg"] and parents == [-1, 0, 0], f"joints {names}, parents {parents}")
want = [(0, 1.0, 0), (0, 0.2, 0), (0.1, -0.05, 0.02)]
for j, t in enumerate(want):
    check(all(abs(a - b) <= 1e-6 for a, b in zip(rest[j][:3], t)), f"joint {j}'s rest translation {rest[j][:3]} is {t}")
    check(rest[j][3:7] == (0.0, 0.0, 0.0, 1.0) and rest[j][7:] == (1.0, 1.0, 1.0), f"joint {j}'s rotation and scale")
strings_kind, strings_offset, strings_size = sections[2]
check(data[strings_offset:strings_offset + strings_size].split(b"\0")[1] == b"three", "the string table holds 'three'")

# info, text and JSON, against the BVH's own
r = run("info", out, "--json")
check(r.returncode == 0, f"info three.tdn --json: {r.stderr.strip()}")
doc = json.loads(r.stdout)
source = json.loads(run("info", bvh, "--json").stdout)
check(doc["format"] == "pack" and doc["version"] == 1, f"info's format: {doc.get('format')}")
check(doc["skeletons"][0]["name"] == "three" and doc["skeletons"][0]["joints"] == source["skeleton"]["joints"],
      f"the pack's joints are the BVH's: {doc['skeletons']}")
check(doc["meshes"] == [] and [s["kind"] for s in doc["sections"]] == ["SKEL", "CLIP", "STRS"],
      f"info's sections {doc}")
check(doc["clips"] == [{"name": "three", "skeleton": 0, "duration": 0.5, "frames": 16, "bytes": sections[1][2]}],
      f"info's clips: {doc['clips']}")
r = run("info", out)
check(r.returncode == 0 and "pack (version 1), 1 skeleton, 1 clip, 0 meshes, 0 graphs, 3 sections" in r.stdout,
      f"info three.tdn: {r.stdout}")

# ---- sampling a pack: the BVH's compressed clip, the same numbers ----
moving = write("moving.bvh", moving_bvh(40))  # 2 segments of frames
moving_pack = os.path.join(SCRATCH, "moving.tdn")
r = run("pack", moving, "--out", moving_pack, "--scale", "0.01", "--error", "0.05", "--shell", "5")
check(r.returncode == 0, f"pack moving.bvh: {r.stdout} {r.stderr}")
for time in ("0", "0.2", "0.61", "1.3", "5"):
    packed = run("sample", moving_pack, "--time", time, "--space", "model", "--json")
    source = run("sample", moving, "--scale", "0.01", "--time", time, "--space", "model", "--runtime", "--compressed",
                 "--error", "0.05", "--shell", "5", "--json")
    check(packed.returncode == 0 and source.returncode == 0, f"sample at {time}: {packed.stderr} {source.stderr}")
    check(json.loads(packed.stdout) == json.loads(source.stdout),
          f"at {time} s the pack samples as the BVH compressed: {packed.stdout[:300]} / {source.stdout[:300]}")
moved = json.loads(run("sample", moving_pack, "--time", "0.61", "--space", "model", "--json").stdout)
check(abs(moved["joints"][0]["t"][2] - 0.4 * 0.61) < 1e-3, f"the root 40 cm/s forward at 0.61 s: {moved['joints'][0]}")
r = run("sample", moving_pack, "--time", "0.2", "--clip", "0")
check(r.returncode == 0 and "moving at 0.2 s, local space" in r.stdout, f"sample --clip 0 on a pack: {r.stdout}")
r = run("sample", moving_pack, "--time", "0.2", "--clip", "walk")
check(r.returncode == 2 and 'no clip named "walk"' in r.stderr, f"sample of a missing clip: {r.stderr}")
r = run("sample", moving_pack, "--time", "0.2", "--runtime")
check(r.returncode == 2 and "do not apply" in r.stderr, f"sample --runtime on a pack: {r.stderr}")

# ---- the humanoid at half size ----
half = os.path.join(SCRATCH, "half.tdn")
r = run("pack", "humanoid", "--out", half, "--scale", "0.5")
check(r.returncode == 0 and "67 joints" in r.stdout and "mesh" in r.stdout, f"pack humanoid: {r.stdout} {r.stderr}")
sections, data = read_pack(half)
kinds = [k for k, _, _ in sections]
check(kinds[0] == "SKEL" and kinds[-2:] == ["MESH", "STRS"] and kinds.count("CLIP") == len(kinds) - 3 > 0,
      f"half.tdn's sections: {kinds}")
names, parents, rest = skeleton(data, sections[0][1])
check(names[1] == "pelvis" and abs(rest[1][1] - 0.475) <= 1e-6, f"the pelvis 0.475 m up: {names[1]} {rest[1][:3]}")
doc = json.loads(run("info", half, "--json").stdout)
check(len(doc["meshes"]) == 1 and doc["meshes"][0]["skeleton"] == 0 and doc["meshes"][0]["normals"],
      f"the humanoid's mesh: {doc['meshes']}")

# ---- packs wherever files are read: mm build, and retarget from and onto a pack ----
db = os.path.join(SCRATCH, "half.tdnmm")
r = run("mm", "build", db, half)
check(r.returncode == 0 and f"1 file, {kinds.count('CLIP')} clips at 60 Hz" in r.stdout, f"mm build of a pack: {r.stdout} {r.stderr}")
baked = os.path.join(SCRATCH, "half_walk.glb")
r = run("retarget", half, "--clip", "walk_forward", "--to", half, "--out", baked)
check(r.returncode == 0 and "half.tdn's skeleton and skin and meshes, 1 clip" in r.stdout,
      f"retarget from and onto a pack: {r.stdout} {r.stderr}")
r = run("mm", "build", db, half, "--scale", "2")
check(r.returncode == 2 and "does not apply" in r.stderr, f"a scale on a pack: {r.stderr}")

# ---- a graph document: --graph ----
blendmotion = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "graphs", "blendmotion.json")
graph_pack = os.path.join(SCRATCH, "blendmotion.tdn")
r = run("pack", "--graph", blendmotion, "--out", graph_pack)
check(r.returncode == 0 and "  graph        blendmotion" in r.stdout and "aim_up_add" in r.stdout and
      "bytes of JSON and its definition" in r.stdout,
      f"pack --graph: {r.returncode} {r.stdout} {r.stderr}")
sections, data = read_pack(graph_pack)
graphs = [(offset, length) for kind, offset, length in sections if kind == "GRPH"]
check(len(graphs) == 1, f"one GRPH section: {[k for k, _, _ in sections]}")
strings = [(offset, length) for kind, offset, length in sections if kind == "STRS"][0]
offset, length = graphs[0]
name, skel, size, at = struct.unpack_from("<4I", data, offset)
text = open(blendmotion, "rb").read()
check(struct.unpack_from("<12I", data, offset + 16) == (0,) * 12, "the GRPH header's reserved fields are zero")
check(sections[skel][0] == "SKEL", f"the graph's skeleton is section {skel}, a {sections[skel][0]}")
check(at % 16 == 0 and at >= 64 and at + size + 1 <= length, f"its text at {at}, {size} bytes")
check(data[offset + at:offset + at + size] == text and data[offset + at + size] == 0,
      "the text is the document's bytes, then a zero")
check(data[strings[0] + name:].split(b"\0")[0] == b"blendmotion", "the graph is named after the file")
clip_names = [data[strings[0] + struct.unpack_from("<I", data, o)[0]:].split(b"\0")[0].decode()
              for kind, o, _ in sections if kind == "CLIP"]
check("aim_up_add" in clip_names and "idle" in clip_names and len(clip_names) == 23,
      f"the document's clips under its names: {clip_names}")
r = run("info", graph_pack)
check(r.returncode == 0 and "1 graph," in r.stdout and "blendmotion              skeleton 0, " in r.stdout,
      f"info lists the graph: {r.stdout}")
doc = json.loads(run("info", graph_pack, "--json").stdout)
check(doc["graphs"] == [{"name": "blendmotion", "skeleton": 0, "json_bytes": len(text), "definition": True}],
      f"info --json: {doc['graphs']}")
check("and its definition (loads without parsing the JSON)" in r.stdout, f"info says the graph has its definition: {r.stdout}")
rooted = [c["name"] for c in doc["clips"] if c.get("root_track_joint") == 0]
check("walk_forward" in rooted and "aim_up_add" not in rooted and "root track of joint 0" in r.stdout,
      f"info lists the stored root tracks (plain clips only): {rooted}")
# the definition: a GDEF section for the GRPH section, naming the 23 clips, its image 'GDEF', version 1
definitions = [(offset, length) for kind, offset, length in sections if kind == "GDEF"]
check(len(definitions) == 1, f"one GDEF section: {[k for k, _, _ in sections]}")
d_offset, d_length = definitions[0]
graph_section, clip_count, clips_at, image_size, image_at = struct.unpack_from("<5I", data, d_offset)
check(sections[graph_section][0] == "GRPH" and clip_count == 23, f"GDEF names section {graph_section}, {clip_count} clips")
check(all(sections[c][0] == "CLIP" for c in struct.unpack_from(f"<{clip_count}I", data, d_offset + clips_at)),
      "the definition's clips are clip sections")
check(data[d_offset + image_at:d_offset + image_at + 4] == b"GDEF" and
      struct.unpack_from("<I", data, d_offset + image_at + 4)[0] == 1, "its image starts 'GDEF', version 1")
check(image_at % 16 == 0 and image_at + image_size <= d_length, f"its image at {image_at}, {image_size} bytes")
# a node's type out of range: running the pack fails naming the byte, as opening fails on a bad section
nodes_at = struct.unpack_from("<I", data, d_offset + image_at + 8 + 16)[0]
bad_node = bytearray(data)
struct.pack_into("<I", bad_node, d_offset + image_at + nodes_at + 4, 40)
bad_path = os.path.join(SCRATCH, "bad_node.tdn")
open(bad_path, "wb").write(bad_node)
r = run("run", bad_path, "--seconds", "1")
check(r.returncode == 2 and f"byte {d_offset + image_at + nodes_at + 4}" in r.stderr and "40 is not one of" in r.stderr,
      f"run of a pack whose definition has a bad node type: {r.returncode} {r.stderr}")
from_pack = run("run", graph_pack, "--seconds", "1")
named = run("run", graph_pack, "--graph", "blendmotion", "--seconds", "1")
from_json = run("run", blendmotion, "--seconds", "1")
check(from_pack.returncode == 0 and from_pack.stdout == named.stdout, f"run PACK: {from_pack.stderr}")
# the same summary but for the path and the foot skate (compressed against 16-bit clips)
same = [line for line in from_pack.stdout.splitlines()[1:] if "cm/s" not in line]
check(same == [line for line in from_json.stdout.splitlines()[1:] if "cm/s" not in line],
      f"run PACK prints what run GRAPH.json prints: {from_pack.stdout} / {from_json.stdout}")
# examples/packed_character.c: the core alone builds the graph from its definition and walks it
example = subprocess.run([os.path.join(os.path.dirname(TENDON), "packed_character"), graph_pack], capture_output=True,
                         text=True)
walked = re.search(r"root motion ([0-9.]+) m", example.stdout)
check(example.returncode == 0 and "graph 'blendmotion': " in example.stdout and "23 clips, 67 joints" in example.stdout
      and walked is not None and 2.0 < float(walked.group(1)) < 2.8,
      f"packed_character on the pack walks about 1.4 m/s for 2 s: {example.returncode} {example.stdout} {example.stderr}")
r = run("run", graph_pack, "--graph", "walk")
check(r.returncode == 2 and "has no graph named 'walk'" in r.stderr, f"run --graph of a missing name: {r.stderr}")
r = run("run", blendmotion, "--graph", "walk")
check(r.returncode == 2 and "is not a pack" in r.stderr, f"run GRAPH.json --graph: {r.stderr}")
r = run("run", out)
check(r.returncode == 2 and "has no graph" in r.stderr, f"run of a pack without a graph: {r.stderr}")

# ---- bad input: exit 2, naming the file (and the byte) ----
r = run("pack", bvh)
check(r.returncode == 2 and "--out" in r.stderr, f"pack without --out: {r.returncode} {r.stderr}")
r = run("pack", "--out", out)
check(r.returncode == 2, f"pack without input: {r.returncode}")
missing = os.path.join(SCRATCH, "missing.bvh")
r = run("pack", missing, "--out", out)
check(r.returncode == 2 and "missing.bvh" in r.stderr, f"pack of a missing file: {r.returncode} {r.stderr}")
bad = bytearray(open(out, "rb").read())
bad[40] = 1  # a reserved header byte
corrupt = write("corrupt.tdn", bytes(bad))
r = run("info", corrupt)
check(r.returncode == 2 and "corrupt.tdn: byte 40" in r.stderr, f"info of a corrupt pack: {r.returncode} {r.stderr}")
sections, _ = read_pack(out)
bad = bytearray(open(out, "rb").read())
struct.pack_into("<h", bad, sections[0][1] + struct.unpack_from("<I", bad, sections[0][1] + 8)[0] + 4, 7)
corrupt = write("parent.tdn", bytes(bad))
r = run("info", corrupt)
check(r.returncode == 2 and "parents[2] = 7 is not before joint 2" in r.stderr, f"info of a bad parent: {r.stderr}")
truncated = write("truncated.tdn", open(out, "rb").read()[:100])
r = run("info", truncated)
check(r.returncode == 2 and "truncated.tdn: byte 16" in r.stderr, f"info of a truncated pack: {r.stderr}")

finish("pack_cli_check")
