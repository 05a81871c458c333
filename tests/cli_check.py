"""The `tendon` command line against docs/cli.md: help, exit codes, and the JSON of
`info` and `sample` on small files written here, whose poses are worked out by hand below.
Usage: cli_check.py TENDON_EXECUTABLE SCRATCH_FOLDER"""
import base64
import json
import math
import os
import re
import struct

from cli_support import SCRATCH, check, close, finish, run, write


# ---- help and exit codes ----
for args in (["--help"], ["info", "--help"], ["sample", "--help"], ["bench", "--help"]):
    r = run(*args)
    check(r.returncode == 0 and "usage" in r.stdout.lower(), f"tendon {' '.join(args)} prints its usage")
check(run().returncode == 2, "no command: exit 2")
check(run("frobnicate").returncode == 2, "unknown command: exit 2")
check(run("info").returncode == 2, "info without a file: exit 2")
check(run("info", os.path.join(SCRATCH, "missing.bvh")).returncode == 2, "a missing file: exit 2")
check(run("sample", write("x.txt", "hello"), "--time", "0").returncode == 2, "not an animation file: exit 2")

# ---- BVH: a root with 6 channels and a child with 3; hand-worked poses ----
# Frame 0: root at (0, 10, 0), no rotation. Frame 1: root at (2, 10, 0), turned 90 degrees
# about z; the child (OFFSET 0 5 0) turned 90 degrees about x. Frame Time 0.5: frame 1 at t = 0.5.
BVH = ("HIERARCHY\r\nROOT hips\n{\n  OFFSET 0 10 0\n"
       "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
       "  JOINT spine\n  {\n    OFFSET 0 5 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
       "    End Site\n    {\n      OFFSET 0 3 0\n    }\n  }\n}\n"
       "MOTION\nFrames: 2\nFrame Time: 0.5\n0 10 0 0 0 0 0 0 0\n2 10 0 90 0 0 0 90 0\n")
bvh = write("two_joints.bvh", BVH)
r = run("info", bvh, "--json")
check(r.returncode == 0, f"info on a small BVH: {r.stderr}")
if r.returncode == 0:
    info = json.loads(r.stdout)
    check(info["format"] == "bvh", "format bvh")
    check([(j["name"], j["parent"]) for j in info["skeleton"]["joints"]] == [("hips", -1), ("spine", 0)],
          "BVH joints (End Site is not a joint)")
    check(len(info["clips"]) == 1 and info["clips"][0]["name"] == "two_joints", "the clip is named after the file")
    check(abs(info["clips"][0]["duration"] - 0.5) < 1e-6, "a take lasts (frames - 1) x Frame Time")
    check(info["clips"][0]["channels"] == 9, "9 channel columns")

r = run("sample", bvh, "--time", "0.5", "--space", "model", "--json")
check(r.returncode == 0, f"sample a small BVH: {r.stderr}")
if r.returncode == 0:
    pose = json.loads(r.stdout)
    hips, spine = pose["joints"]
    # position channels replace the OFFSET: the root is at (2, 10, 0), not (2, 20, 0)
    check(close(hips["t"], [2, 10, 0]), f"root position replaces its OFFSET: {hips['t']}")
    # Rz(90) takes the child's offset (0, 5, 0) to (-5, 0, 0)
    check(close(spine["t"], [-3, 10, 0]), f"child in model space: {spine['t']}")
    h = math.sqrt(0.5)
    check(close(hips["r"], [0, 0, h, h]) or close(hips["r"], [0, 0, -h, -h]), f"root rotation: {hips['r']}")
    check(len(spine["matrix"]) == 16 and close(spine["matrix"][12:15], [-3, 10, 0]), "matrix translation")

r = run("sample", bvh, "--time", "0.25", "--json")  # halfway: lerp translation, slerp rotation
check(r.returncode == 0, "sample between BVH frames")
if r.returncode == 0:
    hips = json.loads(r.stdout)["joints"][0]
    s, c = math.sin(math.radians(22.5)), math.cos(math.radians(22.5))
    check(close(hips["t"], [1, 10, 0]), f"translations lerp: {hips['t']}")
    check(close(hips["r"], [0, 0, s, c]), f"rotations slerp: {hips['r']}")

r = run("sample", bvh, "--time", "0.25", "--compressed", "--json")  # within 0.01 cm of the keyed clip
check(r.returncode == 0 and "compressed clip" in r.stderr and ":1 against float32" in r.stderr,
      f"sample --compressed reports its size and error: {r.stderr.strip()}")
if r.returncode == 0:
    hips = json.loads(r.stdout)["joints"][0]
    s, c = math.sin(math.radians(22.5)), math.cos(math.radians(22.5))
    check(close(hips["t"], [1, 10, 0], 2e-4) and close(hips["r"], [0, 0, s, c], 2e-4),
          f"the compressed clip between frames: {hips['t']} {hips['r']}")
check(run("sample", bvh, "--time", "0.25", "--error", "0.1").returncode == 2, "--error without --compressed: exit 2")
check(run("sample", bvh, "--time", "0.25", "--compressed", "--shell", "0").returncode == 2, "--shell 0: exit 2")

r = run("sample", bvh, "--time", "7", "--scale", "0.01", "--json")  # clamped to the end, in metres
if r.returncode == 0:
    check(close(json.loads(r.stdout)["joints"][0]["t"], [0.02, 0.1, 0]), "--scale and clamping past the end")
else:
    check(False, f"sample with --scale: {r.stderr}")

bad = write("bad.bvh", BVH.replace("  }\n}\nMOTION", "  }\nMOTION"))
r = run("info", bad)
check(r.returncode == 2 and "line" in r.stderr, f"a BVH missing a brace: exit 2 naming the line ({r.stderr.strip()})")

# ---- glTF: a parent node (not a joint) above a two-joint skin; a clip turning the first
# joint about z from 0 to 90 degrees over 1 s. At t = 0.5 the second joint is at
# parent (0, 1, 0) + Rz(45) (0, 0.5, 0). Buffer: times, rotations, inverse binds. ----
times = struct.pack("<2f", 0, 1)
h = math.sqrt(0.5)
rotations = struct.pack("<8f", 0, 0, 0, 1, 0, 0, h, h)
ibm = struct.pack("<16f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1) + \
    struct.pack("<16f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1.5, 0, 1)
blob = times + rotations + ibm
gltf = {
    "asset": {"version": "2.0"},
    "scene": 0, "scenes": [{"nodes": [0]}],
    "nodes": [{"name": "rig", "translation": [0, 1, 0], "children": [1]},
              {"name": "upper", "children": [2]},
              {"translation": [0, 0.5, 0]}],
    "skins": [{"joints": [2, 1], "inverseBindMatrices": 2}],
    "animations": [{"channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}],
                    "samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"}]}],
    "buffers": [{"byteLength": len(blob),
                 "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 8},
                    {"buffer": 0, "byteOffset": 8, "byteLength": 32},
                    {"buffer": 0, "byteOffset": 40, "byteLength": 128}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
                  {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"},
                  {"bufferView": 2, "componentType": 5126, "count": 2, "type": "MAT4"}],
}
small = write("small.gltf", json.dumps(gltf))
r = run("info", small, "--json")
check(r.returncode == 0, f"info on a small glTF: {r.stderr}")
if r.returncode == 0:
    info = json.loads(r.stdout)
    check(info["format"] == "gltf", "format gltf")
    check([(j["name"], j["parent"]) for j in info["skeleton"]["joints"]] == [("upper", -1), ("node_2", 0)],
          f"skin joints parent-first, unnamed node named node_<i>: {info['skeleton']['joints']}")
    check([c["name"] for c in info["clips"]] == ["animation_0"], "unnamed clip named animation_<i>")
    check(abs(info["clips"][0]["duration"] - 1) < 1e-6 and info["clips"][0]["channels"] == 1, "clip duration, channels")
    check(len(info["skins"]) == 1 and info["skins"][0]["name"] == "skin_0", "unnamed skin named skin_<i>")
r = run("sample", small, "--time", "0.5", "--space", "model", "--json")
check(r.returncode == 0, f"sample a small glTF: {r.stderr}")
if r.returncode == 0:
    joints = json.loads(r.stdout)["joints"]
    s = math.sin(math.radians(45))
    check(close(joints[0]["t"], [0, 1, 0]), f"the ancestor node's transform is part of model space: {joints[0]['t']}")
    check(close(joints[1]["t"], [-0.5 * s, 1 + 0.5 * s, 0]), f"the second joint at t = 0.5: {joints[1]['t']}")
r = run("sample", small, "--time", "0.5", "--clip", "nope")
check(r.returncode == 2 and r.stderr == f'tendon sample: {small}: --clip: no clip named "nope" (tendon info lists the 1 clip)\n',
      f"an unknown clip: exit 2, no near name ({r.stderr.strip()})")
# one letter dropped from the file's only clip, animation_0: the nearest name, as other commands hint
r = run("sample", small, "--time", "0.5", "--clip", "animaton_0")
check(r.returncode == 2 and 'no clip named "animaton_0"; did you mean "animation_0"?' in r.stderr,
      f"a misspelt clip gets a did-you-mean ({r.stderr.strip()})")
r = run("info", small, "--skin", "7")
check(r.returncode == 2, "an unknown skin: exit 2")
broken = dict(gltf, animations=[{"channels": [{"sampler": 3, "target": {"node": 1, "path": "rotation"}}],
                                 "samplers": gltf["animations"][0]["samplers"]}])
r = run("info", write("broken.gltf", json.dumps(broken)))
check(r.returncode == 2 and "animations[0]" in r.stderr, f"a sampler index out of range names its path ({r.stderr.strip()})")

# ---- glTF with several skins: a clip's channels and keys both count the chosen skin's skeleton
# (its joints and their ancestor nodes), not the whole file. Three two-joint characters, the third
# under an animated group node, and an animated prop in no skin; samplers of 2, 3 and 4 keys. ----
key_times = [[0, 1], [0, 0.5, 1], [0, 0.25, 0.5, 1]]
q = [0, 0, math.sin(0.2), math.cos(0.2)]
outputs = [q * 2, q * 3, [0, 0.1, 0] * 4]  # two rotations, three rotations, four translations
parts = [struct.pack(f"<{len(v)}f", *v) for v in key_times + outputs]
offsets = [sum(len(b) for b in parts[:i]) for i in range(len(parts))]
blob = b"".join(parts)
skins_gltf = {
    "asset": {"version": "2.0"},
    "scene": 0, "scenes": [{"nodes": [0, 2, 4, 7]}],
    "nodes": [{"name": "root_a", "children": [1]}, {"name": "arm_a", "translation": [0, 1, 0]},
              {"name": "root_b", "children": [3]}, {"name": "arm_b", "translation": [0, 1, 0]},
              {"name": "group", "children": [5]}, {"name": "root_c", "children": [6]},
              {"name": "arm_c", "translation": [0, 1, 0]}, {"name": "prop"}],
    "skins": [{"name": "a", "joints": [0, 1]}, {"name": "b", "joints": [2, 3]}, {"name": "c", "joints": [5, 6]}],
    "animations": [{"name": "all", "channels": [
        {"sampler": 0, "target": {"node": 1, "path": "rotation"}},
        {"sampler": 1, "target": {"node": 3, "path": "rotation"}},
        {"sampler": 2, "target": {"node": 2, "path": "translation"}},
        {"sampler": 0, "target": {"node": 6, "path": "rotation"}},
        {"sampler": 2, "target": {"node": 4, "path": "translation"}},
        {"sampler": 1, "target": {"node": 7, "path": "rotation"}}],
        "samplers": [{"input": 0, "output": 3}, {"input": 1, "output": 4}, {"input": 2, "output": 5}]}],
    "buffers": [{"byteLength": len(blob),
                 "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
    "bufferViews": [{"buffer": 0, "byteOffset": o, "byteLength": len(b)} for o, b in zip(offsets, parts)],
    "accessors": [{"bufferView": i, "componentType": 5126, "count": len(t), "type": "SCALAR", "min": [0], "max": [1]}
                  for i, t in enumerate(key_times)]
                 + [{"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC4"},
                    {"bufferView": 4, "componentType": 5126, "count": 3, "type": "VEC4"},
                    {"bufferView": 5, "componentType": 5126, "count": 4, "type": "VEC3"}],
}
skins_file = write("skins.gltf", json.dumps(skins_gltf))
parent = {c: n for n, node in enumerate(skins_gltf["nodes"]) for c in node.get("children", [])}
anim = skins_gltf["animations"][0]
for k, skin in enumerate(skins_gltf["skins"]):
    nodes = set()  # the skin's skeleton: its joints and their ancestors
    for j in skin["joints"]:
        while j is not None:
            nodes.add(j)
            j = parent.get(j)
    kept = [c for c in anim["channels"] if c["target"]["node"] in nodes]
    keys = sum(skins_gltf["accessors"][anim["samplers"][c["sampler"]]["input"]]["count"] for c in kept)
    r = run("info", skins_file, "--skin", skin["name"], "--json")
    text = run("info", skins_file, "--skin", str(k))
    check(r.returncode == 0 and text.returncode == 0, f"info --skin {skin['name']}: {r.stderr}")
    if r.returncode == 0:
        clip = json.loads(r.stdout)["clips"][0]
        check(len(kept) < len(anim["channels"]) and (clip["channels"], clip["keys"]) == (len(kept), keys),
              f"skin {skin['name']}: {len(kept)} of the file's {len(anim['channels'])} channels and their {keys} keys: "
              f"{clip['channels']} channels, {clip['keys']} keys")
        check(re.search(rf"\ball +1\.0000 s +{len(kept)} channels +{keys} keys", text.stdout) is not None,
              f"the text says the same for skin {skin['name']}: {text.stdout}")

finish("cli")
