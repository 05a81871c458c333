"""`tendon retarget` against docs/cli.md.

Without data: two small BVH humanoids written here, one named as LAFAN1 names its joints (in
centimetres, a T-pose at rest, two spine joints) walking 1 m/s along +Z, the other named as
Unreal names them (in metres, longer legs, three spine joints). The source retargeted onto the
target: --explain lists every part with both joints and how each was found; the trace has a frame
per take frame, the source's hips where the file's channels put them, the target's where
docs/retarget.md's rule puts them without the contact fix-up (across: its rest position plus the
scale times the source's move; up and down: the scale times the source's, the walker's hips not
turning), the scale being the leg ratio worked out here from the OFFSETs, and its summary matches
stdout's; the contacts line says what the fix-up does; the
baked .glb passes the Khronos validator (a visible skip without node or the validator, a failure
under CI=true) and holds the target's joints; --scale on the source changes nothing of the
target's hips; the contact sheet has the documented size and both characters, each with its left
(blue) and right (orange) side; every bad argument is exit 2 naming it, a --map document changes
the map as --explain shows and a bad one is exit 2 naming its JSON path with the nearest part, and
a legless skeleton exit 2 naming its root.

With the shared data (TENDON_DATA, default ../shared/data; a visible skip when it is missing, a
failure under CI=true): LAFAN1 onto Soldier and onto CesiumMan through the validator with 0
errors, the glTF Fox as a target refused naming its hips joint, a --target-skin the file does not
have, a --clip it does not have
with the nearest name, a --source-reference beyond the take, and CMU (whose rest pose has its
hips at y = 0) onto CesiumMan with the target's hips about a leg above its ground.
Usage: retarget_cli_check.py TENDON_EXECUTABLE SCRATCH_FOLDER GLTF_VALIDATE_JS NODE_MODULES"""
import json
import math
import os
import sys

from cli_support import SCRATCH, check, failures, finish, load, read_png, run, validate_gltf, write

VALIDATE, MODULES = sys.argv[3], sys.argv[4]
DATA = os.environ.get("TENDON_DATA") or os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data")
for old in os.listdir(SCRATCH):  # outputs of an earlier run
    os.remove(os.path.join(SCRATCH, old))


def skip(why):
    """A visible skip (a failure under CI=true)."""
    check(os.environ.get("CI") != "true", f"{why} (a failure under CI=true)")
    print(f"retarget_cli_check: SKIP {why}")


# ---- two small humanoids ----
def joint(name, offset, children, channels=3, indent=1):
    pad = "  " * indent
    lines = [f"{pad}JOINT {name}", f"{pad}{{", f"{pad}  OFFSET {offset[0]} {offset[1]} {offset[2]}",
             f"{pad}  CHANNELS {channels} Zrotation Yrotation Xrotation"]
    for child in children:
        lines += child(indent + 1)
    if not children:
        lines += [f"{pad}  End Site", f"{pad}  {{", f"{pad}    OFFSET 0 0 5", f"{pad}  }}"]
    return lines + [f"{pad}}}"]


def chain(names_offsets):
    """JOINT nesting of (name, offset) pairs, each the child of the one before."""
    def build(i):
        return lambda indent: joint(names_offsets[i][0], names_offsets[i][1],
                                    [build(i + 1)] if i + 1 < len(names_offsets) else [], indent=indent)
    return build(0)


def humanoid(names, unit, legs, spine_count, hips_height):
    """A T-pose rig facing +Z (left +X): hips, `spine_count` spine joints, neck, head, clavicles,
    arms, legs (thigh, shin, foot, toes), names[part] giving each joint's name; lengths in metres
    times `unit`. Returns (the HIERARCHY text, the joints in channel order, the leg length)."""
    u = unit
    thigh, shin = legs
    spine = [(names["spine"][i], (0, 0.1 * u if i == 0 else 0.45 * u / spine_count, 0)) for i in range(spine_count)]
    neck = [(names["neck"], (0, 0.12 * u, 0)), (names["head"], (0, 0.1 * u, 0))]
    arms = {s: [(names[f"{s}clavicle"], (x * 0.05 * u, 0.1 * u, 0)), (names[f"{s}upper"], (x * 0.15 * u, 0, 0)),
                (names[f"{s}fore"], (x * 0.3 * u, 0, 0)), (names[f"{s}hand"], (x * 0.26 * u, 0, 0))]
            for s, x in (("l_", 1), ("r_", -1))}
    legs_ = {s: [(names[f"{s}thigh"], (x * 0.1 * u, -0.05 * u, 0)), (names[f"{s}shin"], (0, -thigh * u, 0)),
                 (names[f"{s}foot"], (0, -shin * u, 0)), (names[f"{s}toes"], (0, -0.05 * u, 0.12 * u))]
             for s, x in (("l_", 1), ("r_", -1))}
    # the spine's last joint carries the neck and both arms
    def top(indent):
        return joint(spine[-1][0], spine[-1][1], [chain(neck), chain(arms["l_"]), chain(arms["r_"])], indent=indent)
    spine_tree = top
    for name, offset in reversed(spine[:-1]):
        spine_tree = (lambda n, o, inner: lambda indent: joint(n, o, [inner], indent=indent))(name, offset, spine_tree)
    lines = ["HIERARCHY", f"ROOT {names['hips']}", "{", f"  OFFSET 0 {hips_height * u} 0",
             "  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation"]
    lines += spine_tree(1) + chain(legs_["l_"])(1) + chain(legs_["r_"])(1) + ["}"]
    order = [n for n, _ in spine] + [n for n, _ in neck] + [n for n, _ in arms["l_"]] + [n for n, _ in arms["r_"]] + \
            [n for n, _ in legs_["l_"]] + [n for n, _ in legs_["r_"]]
    return "\n".join(lines) + "\n", order, (thigh + shin) * u


LAFAN = {"hips": "Hips", "spine": ["Spine", "Spine1", "Spine2"], "neck": "Neck", "head": "Head",
         "l_clavicle": "LeftShoulder", "l_upper": "LeftArm", "l_fore": "LeftForeArm", "l_hand": "LeftHand",
         "r_clavicle": "RightShoulder", "r_upper": "RightArm", "r_fore": "RightForeArm", "r_hand": "RightHand",
         "l_thigh": "LeftUpLeg", "l_shin": "LeftLeg", "l_foot": "LeftFoot", "l_toes": "LeftToe",
         "r_thigh": "RightUpLeg", "r_shin": "RightLeg", "r_foot": "RightFoot", "r_toes": "RightToe"}
UNREAL = {"hips": "pelvis", "spine": ["spine_01", "spine_02", "spine_03"], "neck": "neck_01", "head": "head",
          "l_clavicle": "clavicle_l", "l_upper": "upperarm_l", "l_fore": "lowerarm_l", "l_hand": "hand_l",
          "r_clavicle": "clavicle_r", "r_upper": "upperarm_r", "r_fore": "lowerarm_r", "r_hand": "hand_r",
          "l_thigh": "thigh_l", "l_shin": "calf_l", "l_foot": "foot_l", "l_toes": "ball_l",
          "r_thigh": "thigh_r", "r_shin": "calf_r", "r_foot": "foot_r", "r_toes": "ball_r"}
FRAMES, FPS = 61, 30
SOURCE_HIPS = 0.92  # metres, the source's rest hips height (its OFFSET)

source_text, source_order, source_legs = humanoid(LAFAN, 100.0, (0.42, 0.40), 2, SOURCE_HIPS)
target_text, target_order, target_legs = humanoid(UNREAL, 1.0, (0.48, 0.47), 3, 1.02)


def hips_at(f):
    """The source's hips channels at frame f, cm: 1 m/s along +Z, bobbing 2 cm."""
    t = f / FPS
    return (0.0, 100 * SOURCE_HIPS + 2 * math.sin(4 * math.pi * t), 100.0 * t)


def motion(order):
    rows = []
    for f in range(FRAMES):
        t = f / FPS
        swing = 25 * math.sin(2 * math.pi * t)
        row = list(hips_at(f)) + [0, 0, 0]
        for name in order:
            x = 0.0
            if name in ("LeftUpLeg", "RightArm"):
                x = swing
            elif name in ("RightUpLeg", "LeftArm"):
                x = -swing
            elif name in ("LeftLeg", "RightLeg"):
                x = 10 + 10 * math.sin(2 * math.pi * t)
            row += [0.0, 0.0, x]
        rows.append(" ".join(f"{v:.5f}" for v in row))
    return f"MOTION\nFrames: {FRAMES}\nFrame Time: {1 / FPS:.8f}\n" + "\n".join(rows) + "\n"


source = write("walker.bvh", source_text + motion(source_order))
# the target: one frame at rest
target = write("unreal.bvh", target_text + "MOTION\nFrames: 1\nFrame Time: 0.0333333\n" +
               " ".join(["0", "102", "0"] + ["0"] * (3 + 3 * len(target_order))) + "\n")
out = os.path.join(SCRATCH, "walker_unreal.glb")
trace_path = os.path.join(SCRATCH, "trace.json")
sheet = os.path.join(SCRATCH, "sheet.png")

# ---- help ----
r = run("retarget", "--help")
check(r.returncode == 0 and r.stdout.startswith("usage: tendon retarget SOURCE --to TARGET"), "retarget --help")
check("retarget " in run("--help").stdout, "tendon --help lists retarget")

# ---- the retarget, explained, traced, rendered ----
r = run("retarget", source, "--to", target, "--explain", "--out", out, "--trace", trace_path, "--render", sheet,
        "--no-contacts")
check(r.returncode == 0, f"walker onto unreal: {r.stderr}")
explained = r.stdout
for part, s, t in (("hips", "Hips", "pelvis"), ("spine", "Spine, Spine1", "spine_01, spine_02, spine_03"),
                   ("neck", "Neck", "neck_01"), ("head", "Head", "head"), ("left_clavicle", "LeftShoulder", "clavicle_l"),
                   ("left_upper_arm", "LeftArm", "upperarm_l"), ("left_forearm", "LeftForeArm", "lowerarm_l"),
                   ("left_hand", "LeftHand", "hand_l"), ("right_upper_arm", "RightArm", "upperarm_r"),
                   ("left_thigh", "LeftUpLeg", "thigh_l"), ("left_shin", "LeftLeg", "calf_l"),
                   ("left_foot", "LeftFoot", "foot_l"), ("left_toes", "LeftToe", "ball_l"),
                   ("right_thigh", "RightUpLeg", "thigh_r"), ("right_toes", "RightToe", "ball_r")):
    line = f"  {part:<15} {s} (name)  ->  {t} (name)"
    check(line in explained, f"--explain lists {part}: {line!r}")
check("not found (optional): left_thumb" in explained, "--explain: the fingers not found")
check("reference poses" in explained and "source: from its rest pose" in explained, "--explain: the references")
scale = target_legs / source_legs
check(f"scale: {scale:.6g} target lengths per source length" in explained, f"--explain: the scale {scale:.6g}")

trace = load(trace_path)
check(trace["takes"] == [{"clip": "walker", "index": 0, "fps": trace["takes"][0]["fps"], "frame_count": FRAMES}]
      and abs(trace["takes"][0]["fps"] - FPS) < 1e-3, f"trace takes: {trace['takes']}")
check(abs(trace["scale"] - scale) <= 1e-6 * scale, f"trace scale {trace['scale']} is the leg ratio {scale}")
frames = trace["frames"]
check(len(frames) == FRAMES and [x["frame"] for x in frames] == list(range(FRAMES)), "a trace frame per take frame")
worst_source = worst_target = 0.0
for f, x in enumerate(frames):
    hips = hips_at(f)
    worst_source = max(worst_source, max(abs(a - b) for a, b in zip(x["source_hips"], hips)))
    # docs/retarget.md: across, hips_t = hips_t,ref + scale (hips_s - hips_s,ref), the references'
    # hips at rest; up, the thighs' height scaled, so (the hips not turning) the hips' moves scaled
    expected = [t0 + scale * (s - s0) for t0, s, s0 in zip((0, 1.02, 0), hips, (0, 100 * SOURCE_HIPS, 0))]
    expected[1] = frames[0]["target_hips"][1] + scale * (hips[1] - hips_at(0)[1])
    worst_target = max(worst_target, max(abs(a - b) for a, b in zip(x["target_hips"], expected)))
check(worst_source <= 1e-3, f"the source's hips are the file's channels (worst {worst_source:.3g} cm)")
check(worst_target <= 1e-5, f"the target's hips follow the documented rule (worst {worst_target:.3g} m)")
angles = [a for x in frames for a in x["directions"]]
check(len(angles) == 9 * FRAMES and max(angles) <= 0.5, f"every limb within 0.5 degrees (worst {max(angles):.3g})")
summary = trace["summary"]
check(summary["frames"] == FRAMES and abs(summary["travel"]["source"] - 200.0) < 0.01 and
      abs(summary["travel"]["target"] - 2.0 * scale * 100) < 1e-3,
      f"the hips' travel: 200 cm, and the scale times it: {summary['travel']}")
for limb in ("left_thigh", "spine"):
    stat = summary["directions"][limb]
    check(f"  {limb:<16} median {stat['median']:.3g}, p99 {stat['p99']:.3g}, max {stat['max']:.3g}" in r.stdout,
          f"stdout's {limb} is the trace's")
check("contacts: not fixed up (--no-contacts)" in r.stdout, "the contacts line, --no-contacts")
r = run("retarget", source, "--to", target, "--trace", os.path.join(SCRATCH, "planted.json"))
check(r.returncode == 0 and "contacts: fixed up: a source foot is planted within" in r.stdout,
      f"the contacts line: {r.stdout}")

validate_gltf([out], VALIDATE, MODULES, "retarget_cli_check")
r = run("info", out, "--json")
info = json.loads(r.stdout) if r.returncode == 0 else {}
check([j["name"] for j in info.get("skeleton", {}).get("joints", [])] == ["pelvis"] + target_order and
      [c["name"] for c in info.get("clips", [])] == ["walker"], "the baked file: the target's joints, one clip")

# --scale 0.01 on the source: its units in the trace, the same target
r = run("retarget", source, "--to", target, "--scale", "0.01", "--trace", os.path.join(SCRATCH, "scaled.json"),
        "--no-contacts")
scaled = load(os.path.join(SCRATCH, "scaled.json")) if r.returncode == 0 else {"frames": []}
check(len(scaled["frames"]) == FRAMES and
      max(abs(a - b) for x, y in zip(frames, scaled["frames"]) for a, b in zip(x["target_hips"], y["target_hips"])) <= 1e-5
      and abs(scaled["frames"][30]["source_hips"][2] - 0.01 * frames[30]["source_hips"][2]) <= 1e-6,
      "--scale: the source in metres, the target's hips as they were")

# the contact sheet: 12 cells of 320x180 in 4 columns, the source left and the target right, each
# with a blue (left) and an orange (right) side
width, height, rows = read_png(sheet)
check((width, height) == (8 + 4 * 328, 8 + 3 * 201), f"the sheet's size: {width}x{height}")


def sides(x0, x1):
    """(blue, orange) pixels in columns x0..x1 of the first cell."""
    blue = orange = 0
    for y in range(8, 188):
        for px in rows[y][x0:x1]:
            blue += px[2] > px[0] + 60
            orange += px[0] > px[2] + 60
    return blue, orange


left, right = sides(8, 168), sides(168, 328)
check(min(left) > 20 and min(right) > 20, f"both characters with both sides coloured: {left}, {right}")
check(os.path.getsize(sheet) > 0 and run("retarget", source, "--to", target, "--render",
                                         os.path.join(SCRATCH, "anim.gif")).returncode == 0 and
      open(os.path.join(SCRATCH, "anim.gif"), "rb").read(6) == b"GIF89a", "--render .gif")

# ---- refusals ----
legless = write("legless.bvh", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 100 0\n"
                "  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
                "  JOINT Spine\n  {\n    OFFSET 0 10 0\n    CHANNELS 3 Zrotation Yrotation Xrotation\n"
                "    JOINT Head\n    {\n      OFFSET 0 50 0\n      CHANNELS 3 Zrotation Yrotation Xrotation\n"
                "      End Site\n      {\n        OFFSET 0 10 0\n      }\n    }\n  }\n}\n"
                "MOTION\nFrames: 1\nFrame Time: 0.0333333\n0 100 0 0 0 0 0 0 0 0 0 0\n")
r = run("retarget", source, "--to", legless, "--out", os.path.join(SCRATCH, "x.glb"))
check(r.returncode == 2 and "legless.bvh: the target's body map: Hips: " in r.stderr and
      not os.path.exists(os.path.join(SCRATCH, "x.glb")), f"a legless target: exit 2 naming its root: {r.stderr.strip()}")
r = run("retarget", legless, "--to", target, "--explain")
check(r.returncode == 2 and "the source's body map: Hips: " in r.stderr, f"a legless source: {r.stderr.strip()}")
missing = os.path.join(SCRATCH, "missing.bvh")
for args, what, says in (
        ([], "no arguments", "a SOURCE file is required"),
        ([source], "no --to", "--to TARGET is required"),
        ([source, "--to", target], "nothing to do", "--out OUT.glb is required"),
        ([source, "--to", target, "--out", "x.fbx"], "--out x.fbx", "--out wants a .glb or .gltf file"),
        ([source, "--to", target, "--render", "x.bmp"], "--render x.bmp", "--render wants a .png"),
        ([source, "--to", target, "--explain", "--scale", "0"], "--scale 0", "--scale wants a positive number"),
        ([source, "--to", target, "--explain", "--scale", "abc"], "--scale abc", "--scale wants a number"),
        ([source, "--to", target, "--explain", "--source-reference", "-1"], "--source-reference -1", "a frame number"),
        ([source, "--to", target, "--explain", "--target-reference", "x"], "--target-reference x", "a frame number"),
        ([source, "--to", target, "--explain", "--source-reference", "61"], "--source-reference 61",
         "has 61 frames (0 to 60"),
        ([source, "--to", target, "--explain", "--clip", "walkr"], "--clip walkr", 'did you mean "walker"?'),
        ([source, "--to", target, "--explain", "--skin", "0"], "--skin", "--source-skin or --target-skin"),
        ([source, "--to", target, "--explain", "--frobnicate"], "an unknown option", "unexpected argument"),
        ([source, "--to"], "--to without a value", "--to needs a value"),
        ([missing, "--to", target, "--explain"], "a missing source", "missing.bvh"),
        ([source, "--to", missing, "--explain"], "a missing target", "missing.bvh"),
        ([source, "--to", target, "--out", os.path.join(SCRATCH, "no", "such", "dir", "x.glb")],
         "an output that cannot be created", "x.glb")):
    r = run("retarget", *args)
    check(r.returncode == 2 and says in r.stderr, f"{what}: exit 2 saying {says!r}: {r.returncode} {r.stderr.strip()}")
# --map: the target's neck left out, its spine's last joint taken for the neck
good = write("map.json", '{"tendon_body_map": 1, "target": {"spine": ["spine_01", "spine_02"], "neck": ["spine_03"]}}')
r = run("retarget", source, "--to", target, "--map", good, "--explain")
check(r.returncode == 0 and "  spine           Spine, Spine1 (name)  ->  spine_01, spine_02 (caller)" in r.stdout and
      "  neck            Neck (name)  ->  spine_03 (caller)" in r.stdout, f"--map: the target's parts as given: {r.stdout}")
bad = write("bad_map.json", '{"tendon_body_map": 1, "target": {"thigh_left": "thigh_l"}}')
r = run("retarget", source, "--to", target, "--map", bad, "--explain")
check(r.returncode == 2 and "target.thigh_left" in r.stderr and "left_thigh" in r.stderr,
      f"--map with an unknown part: exit 2 naming its path and the nearest part: {r.stderr.strip()}")

# ---- the shared data ----
if not os.path.isdir(os.path.join(DATA, "bvh", "lafan1")):
    skip(f"shared data not found ({DATA}); the real-asset checks")
else:
    lafan = os.path.join(DATA, "bvh", "lafan1", "walk4_subject1.bvh")
    soldier = os.path.join(DATA, "gltf", "threejs", "Soldier.glb")
    cesium = os.path.join(DATA, "gltf", "khronos", "CesiumMan", "glTF-Binary", "CesiumMan.glb")
    baked = []
    for name, target_file in (("lafan_soldier.glb", soldier), ("lafan_cesium.glb", cesium)):
        path = os.path.join(SCRATCH, name)
        r = run("retarget", lafan, "--to", target_file, "--out", path)
        check(r.returncode == 0 and "walk4_subject1: 4918 frames at 30.0003 fps" in r.stdout, f"{name}: {r.stderr}")
        baked.append(path)
    validate_gltf(baked, VALIDATE, MODULES, "retarget_cli_check")
    r = run("retarget", lafan, "--to", soldier, "--explain")
    check(r.returncode == 0 and "  left_thigh      LeftUpLeg (name)  ->  mixamorig:LeftUpLeg (name)" in r.stdout and
          "Character and the 49 joints below it: a root or root-motion joint above the hips" in r.stdout,
          "--explain on LAFAN1 onto Soldier")
    r = run("retarget", lafan, "--to", soldier, "--target-skin", "7", "--explain")
    check(r.returncode == 2 and "Soldier.glb: skin: no skin named or numbered '7'" in r.stderr,
          f"--target-skin 7: exit 2: {r.stderr.strip()}")
    fox = os.path.join(DATA, "gltf", "khronos", "Fox", "glTF-Binary", "Fox.glb")
    r = run("retarget", lafan, "--to", fox, "--out", os.path.join(SCRATCH, "fox.glb"))
    check(r.returncode == 2 and "Fox.glb: the target's body map: b_Hip_01: not a humanoid" in r.stderr,
          f"Fox as the target: exit 2 naming its hips: {r.stderr.strip()}")
    r = run("retarget", soldier, "--clip", "Wlak", "--to", cesium, "--explain")
    check(r.returncode == 2 and 'no clip named "Wlak"; did you mean "Walk"?' in r.stderr, f"--clip Wlak: {r.stderr}")
    cmu = os.path.join(DATA, "bvh", "cmu", "cgspeed-mb", "walk.bvh")
    # two walks onto CesiumMan, one from a rest pose standing on its ground (LAFAN1), one from a rest
    # pose with its hips at y = 0 (CMU, whose first frame is a T-pose): the hips about as high (the
    # LAFAN1 actor walks hunched: 9% lower measured; a rule taking CMU's rest height would put its
    # hips a leg, 100%, higher)
    mean_hips = []
    for name, walk in (("lafan.json", lafan), ("cmu.json", cmu)):
        r = run("retarget", walk, "--to", cesium, "--trace", os.path.join(SCRATCH, name))
        heights = [x["target_hips"][1] for x in load(os.path.join(SCRATCH, name))["frames"][1:]] if r.returncode == 0 else [0]
        mean_hips.append(sum(heights) / len(heights))
    check(abs(mean_hips[1] - mean_hips[0]) <= 0.15 * mean_hips[0],
          f"CMU and LAFAN1 onto CesiumMan: the hips as high (mean {mean_hips[1]:.4g} and {mean_hips[0]:.4g} m)")

finish("retarget_cli_check")
