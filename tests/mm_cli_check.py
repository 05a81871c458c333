"""`tendon mm build` and `tendon mm run` against docs/cli.md.

Without data: a tiny rig written here (two BVH takes: walking forward, and walking turned 90
degrees) is built into a database (frame counts worked out from the takes' lengths, the forward
axis found, byte-identical rebuilds), run along a short path (the trace's frames, searches and
switches against the summary, the errors and the foot skate recomputed here from the trace's
per-frame numbers with the documented contact rule, the baked file's feet against the trace's),
and every documented bad input (arguments, files of another rig, feet not found, a truncated or
corrupted database, files that do not match it, malformed paths) exits 2 naming what is wrong.

Calibration poses on a rig written here: a T-pose held at the start and the end of a take,
excluded through the arms' moves (the frames worked out from the arms' angles), kept with
--keep-calibration, and not found when the actor walks in the pose or holds it for one frame.

With the shared data (TENDON_DATA, default ../shared/data; a visible skip when it is missing, a
failure under CI=true): the LAFAN1 database of `make mm-demo` (about 50,000 frames with
--mirror at 60 Hz, 27 dims, its takes' T-poses found within 1 s of the ranges once picked by eye,
none in the CMU takes, byte-identical rebuilds, a truncated copy refused), then the path of
examples/mm/lafan1_path.json: mean root position error <= 0.3 m and mean facing error <= 15
degrees, the baked .glb (the Khronos validator where it is installed) and the trace's frames.
Usage: mm_cli_check.py TENDON_EXECUTABLE SCRATCH_FOLDER SOURCE_DIR GLTF_VALIDATE_JS NODE_MODULES"""
import glob
import json
import math
import os
import re
import struct
import sys

from cli_support import SCRATCH, check, close, failures, load, run, validate_gltf, write

SOURCE, VALIDATE, MODULES = sys.argv[3], sys.argv[4], sys.argv[5]
DATA = os.environ.get("TENDON_DATA") or os.path.join(SOURCE, "..", "shared", "data")
CONTACT_HEIGHT, CONTACT_SPEED, STARTED = 0.05, 0.5, 1.0  # docs/cli.md, tendon mm run
skips = []
for old in ("tiny.glb", "tiny_trace.json", "mm.glb", "mm_trace.json"):  # outputs of an earlier run
    if os.path.exists(os.path.join(SCRATCH, old)):
        os.remove(os.path.join(SCRATCH, old))


def skip(why):
    """A visible skip, printed at the end (a failure under CI=true)."""
    check(os.environ.get("CI") != "true", f"{why} (a failure under CI=true)")
    skips.append(why)


# ---- a tiny rig: hips, two legs with feet, a spine; centimetres ----
def bvh_text(frames, fps, root_at, yaw, swing_degrees=25, head=False):
    """A take of the tiny rig: root_at(t) the hips' (x, z) in cm, yaw(t) in degrees; the legs
    swing (head: a joint more, another rig)."""
    lines = ["HIERARCHY", "ROOT Hips", "{", "  OFFSET 0 90 0",
             "  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation"]
    for side, x in (("Left", 10), ("Right", -10)):
        lines += [f"  JOINT {side}UpLeg", "  {", f"    OFFSET {x} 0 0", "    CHANNELS 3 Zrotation Yrotation Xrotation",
                  f"    JOINT {side}Leg", "    {", "      OFFSET 0 -42 0", "      CHANNELS 3 Zrotation Yrotation Xrotation",
                  f"      JOINT {side}Foot", "      {", "        OFFSET 0 -42 0",
                  "        CHANNELS 3 Zrotation Yrotation Xrotation",
                  "        End Site", "        {", "          OFFSET 0 -6 10", "        }", "      }", "    }", "  }"]
    lines += ["  JOINT Spine", "  {", "    OFFSET 0 10 0", "    CHANNELS 3 Zrotation Yrotation Xrotation"]
    if head:
        lines += ["    JOINT Head", "    {", "      OFFSET 0 40 0", "      CHANNELS 3 Zrotation Yrotation Xrotation"]
    lines += ["    End Site", "    {", "      OFFSET 0 40 0", "    }", "  }"] + (["  }"] if head else []) + ["}",
              "MOTION", f"Frames: {frames}", f"Frame Time: {1 / fps:.8f}"]
    for f in range(frames):
        t = f / fps
        x, z = root_at(t)
        swing = swing_degrees * math.sin(2 * math.pi * t)
        bend = 10 + 10 * math.sin(2 * math.pi * t)
        row = [x, 90 + 2 * math.sin(4 * math.pi * t), z, 0, yaw(t), 0,
               0, 0, swing, 0, 0, bend, 0, 0, 0,       # left hip, knee, ankle
               0, 0, -swing, 0, 0, bend, 0, 0, 0,      # right
               0, 0, 0] + ([0, 0, 0] if head else [])  # spine, head
        lines.append(" ".join(f"{v:.5f}" for v in row))
    return "\n".join(lines) + "\n"


# walk: 1 m/s along +Z; turn: 0.8 m/s on an arc from +Z towards +X, turning 45 degrees a second
# (the hips' local +Z along the velocity), shorter steps; both 2 s at 30 frames per second (61
# frames): 121 database frames each at 60 Hz
W, R = math.radians(45), 80.0 / math.radians(45)
walk = write("walk.bvh", bvh_text(61, 30, lambda t: (0.0, 100.0 * t), lambda t: 0))
turn = write("turn.bvh", bvh_text(61, 30, lambda t: (R * (1 - math.cos(W * t)), R * math.sin(W * t)),
                                  lambda t: 45 * t, swing_degrees=15))
TINY = [walk, turn]
db = os.path.join(SCRATCH, "tiny.tdnmm")

# ---- help and arguments ----
for args in (["mm", "--help"], ["mm", "build", "--help"], ["mm", "run", "--help"]):
    r = run(*args)
    check(r.returncode == 0 and "usage: tendon mm" in r.stdout, f"tendon {' '.join(args)} prints its usage")
check("mm " in run("--help").stdout, "tendon --help lists mm")
for args, what in ((["mm"], "mm without a subcommand"), (["mm", "frobnicate"], "an unknown subcommand"),
                   (["mm", "build"], "build without files"), (["mm", "build", db], "build without clips"),
                   (["mm", "build", db, walk, "--rate", "0"], "--rate 0"),
                   (["mm", "build", db, walk, "--offsets", "20,10"], "offsets not increasing"),
                   (["mm", "build", db, walk, "--weights", "1,1,1"], "3 weights"),
                   (["mm", "build", db, walk, "--weights", "2,2,0,1,1"], "a weight of 0"),
                   (["mm", "build", db, walk, "--forward", "up"], "--forward up"),
                   (["mm", "build", db, walk, "--frobnicate"], "an unknown option"),
                   (["mm", "run", db, walk], "run without --path")):
    check(run(*args).returncode == 2, f"{what}: exit 2")
r = run("mm", "build", walk, turn)
check(r.returncode == 2 and "would be overwritten" in r.stderr and os.path.getsize(walk) > 1000,
      f"an input file first is not overwritten: {r.stderr.strip()}")

# ---- build ----
r = run("mm", "build", db, *TINY, "--scale", "0.01", "--mirror", "--json")
check(r.returncode == 0, f"build the tiny database: {r.stderr}")
summary = json.loads(r.stdout) if r.returncode == 0 else {}
check(summary.get("files") == 2 and summary.get("clips") == 2, f"2 files, 2 clips: {summary}")
# 2 s at 60 Hz: 121 frames a take, twice with --mirror; searchable: not within 60 frames of an end
check(summary.get("frames") == 4 * 121 and summary.get("searchable") == 4 * (121 - 60),
      f"484 frames, 244 searchable: {summary.get('frames')}, {summary.get('searchable')}")
check(summary.get("dims") == 27 and summary.get("offsets") == [20, 40, 60], "27 dims, offsets 20, 40, 60")
check(summary.get("bytes") == os.path.getsize(db), "bytes: the file's size")
check(summary.get("root") == "Hips" and summary.get("feet") == ["LeftFoot", "RightFoot"], "root and feet by name")
check(summary.get("forward") == "+z" and summary.get("forward_agreement", {}).get("+z", 0) > 0.99,
      f"forward auto: +z (local +Z along the velocity in both takes): {summary.get('forward_agreement')}")
check([s["frames"] for s in summary.get("sources", [])] == [121, 121], "121 frames per take")
r2 = run("mm", "build", os.path.join(SCRATCH, "tiny2.tdnmm"), *TINY, "--scale", "0.01", "--mirror")
check(r2.returncode == 0 and "forward +z" in r2.stdout and "484 frames (244 searchable), 27 dims" in r2.stdout,
      f"the text summary: {r2.stdout}")
check(r2.returncode == 0 and open(db, "rb").read() == open(os.path.join(SCRATCH, "tiny2.tdnmm"), "rb").read(),
      "building twice gives the same bytes")
r = run("mm", "build", os.path.join(SCRATCH, "x.tdnmm"), *TINY, "--scale", "0.01", "--exclude", "walk:0-0.5",
        "--exclude", "1:0.25-0.5", "--json")
x = json.loads(r.stdout) if r.returncode == 0 else {}
# walk's frames at 0..0.5 s (31) and turn's at 0.25..0.5 s (16) are not searchable
check(x.get("searchable") == 2 * 61 - 31 - 16, f"--exclude: 75 searchable: {x.get('searchable')} ({r.stderr})")
r = run("mm", "build", os.path.join(SCRATCH, "x.tdnmm"), *TINY, "--exclude", "wakl:0-1")
check(r.returncode == 2 and 'did you mean "walk"' in r.stderr, f"--exclude with a misspelt clip: {r.stderr.strip()}")

# bad inputs
other = write("other.bvh", bvh_text(61, 30, lambda t: (0.0, 100.0 * t), lambda t: 0, head=True))
r = run("mm", "build", os.path.join(SCRATCH, "x.tdnmm"), walk, other)
check(r.returncode == 2 and "other.bvh" in r.stderr and "another skeleton" in r.stderr,
      f"a file of another rig: exit 2 naming it: {r.stderr.strip()}")
nofeet = write("nofeet.bvh", open(walk).read().replace("Foot", "Paw"))
r = run("mm", "build", os.path.join(SCRATCH, "x.tdnmm"), nofeet)
check(r.returncode == 2 and "--feet" in r.stderr, f"no feet by name: exit 2 pointing to --feet: {r.stderr.strip()}")
r = run("mm", "build", os.path.join(SCRATCH, "x.tdnmm"), nofeet, "--feet", "LeftPaw,RightPaw", "--scale", "0.01")
check(r.returncode == 0, f"--feet LeftPaw,RightPaw: {r.stderr.strip()}")
r = run("mm", "build", os.path.join(SCRATCH, "x.tdnmm"), write("short.bvh", bvh_text(20, 30, lambda t: (0, t), lambda t: 0)))
check(r.returncode == 2 and "searchable" in r.stderr, f"takes shorter than the offsets: exit 2: {r.stderr.strip()}")
check(run("mm", "build", os.path.join(SCRATCH, "x.tdnmm"), os.path.join(SCRATCH, "missing.bvh")).returncode == 2,
      "a missing file: exit 2")
check(run("mm", "build", os.path.join(SCRATCH, "no", "such", "dir", "x.tdnmm"), walk).returncode == 2,
      "an output that cannot be written: exit 2")

# ---- calibration poses: a T-pose held at a take's start and end is excluded by default ----
def arms_bvh(angle, walk=0):
    """Hips, legs and feet, a chest and two straight arms reaching out along +x and -x at shoulder
    height (shoulders 15 cm either side, arms of 25 + 25 cm): a T-pose, lowered by angle(t)
    degrees at the shoulders; 3 s at 30 frames per second, standing still or walking (cm/s) along +z."""
    lines = ["HIERARCHY", "ROOT Hips", "{", "  OFFSET 0 95 0",
             "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"]
    for side, x in (("Left", 10), ("Right", -10)):
        lines += [f"  JOINT {side}UpLeg", "  {", f"    OFFSET {x} 0 0", "    CHANNELS 3 Zrotation Xrotation Yrotation",
                  f"    JOINT {side}Foot", "    {", "      OFFSET 0 -88 0", "      CHANNELS 3 Zrotation Xrotation Yrotation",
                  "      End Site", "      {", "        OFFSET 0 -6 10", "      }", "    }", "  }"]
    lines += ["  JOINT Chest", "  {", "    OFFSET 0 40 0", "    CHANNELS 3 Zrotation Xrotation Yrotation"]
    for side, x in (("Left", 1), ("Right", -1)):
        lines += [f"    JOINT {side}Arm", "    {", f"      OFFSET {15 * x} 0 0", "      CHANNELS 3 Zrotation Xrotation Yrotation",
                  f"      JOINT {side}ForeArm", "      {", f"        OFFSET {25 * x} 0 0",
                  "        CHANNELS 3 Zrotation Xrotation Yrotation",
                  f"        JOINT {side}Hand", "        {", f"          OFFSET {25 * x} 0 0",
                  "          CHANNELS 3 Zrotation Xrotation Yrotation",
                  "          End Site", "          {", f"            OFFSET {10 * x} 0 0", "          }", "        }",
                  "      }", "    }"]
    lines += ["  }", "}", "MOTION", "Frames: 91", "Frame Time: 0.03333333"]
    for f in range(91):
        a = angle(f / 30)  # the left arm turns about -z (down), the right about +z
        lines.append(" ".join(str(v) for v in [0, 95, walk * f / 30, 0, 0, 0] + [0] * 12 + [0, 0, 0, -a, 0, 0] + [0] * 6
                              + [a, 0, 0] + [0] * 6))
    return "\n".join(lines) + "\n"


# The arms lower over 1-1.5 s (160 degrees a second, to 80 below level), stay down, and rise over
# 2-2.5 s. In the T-pose while within 20 degrees of level: t <= 1.125 and t >= 2.375; down (60
# degrees below) for t >= 1.375 and t <= 2.125. At 60 Hz the first frame down is 83 (1.3833 s),
# the last 127 (2.1167 s): the poses are excluded through the arms' moves, 0-83/60 and 127/60-3.
def lowering(t):
    return 0 if t <= 1 else 160 * (t - 1) if t <= 1.5 else 80 if t <= 2 else 80 - 160 * (t - 2) if t <= 2.5 else 0


tpose = write("tpose.bvh", arms_bvh(lowering))
r = run("mm", "build", os.path.join(SCRATCH, "tpose.tdnmm"), tpose, "--scale", "0.01", "--offsets", "5,10,15",
        "--forward", "+z", "--json")
check(r.returncode == 0, f"build a take with calibration poses: {r.stderr}")
if r.returncode == 0:
    b = json.loads(r.stdout)
    got = [(x["start"], x["end"]) for x in b["calibration"]["excluded"]]
    check(b["calibration"]["poses"] == "excluded" and b["excluded"] == [] and len(got) == 2
          and close(got[0], (0, 83 / 60)) and close(got[1], (127 / 60, 3)),
          f"the T-poses at the start and the end, through the arms' moves: {b['calibration']}")
    # 181 frames, the last 15 never searchable; the two ranges hold frames 0-83 and 127-180
    check(b["searchable"] == 181 - 15 - 84 - (166 - 127), f"searchable: {b['searchable']}")
r = run("mm", "build", os.path.join(SCRATCH, "tpose.tdnmm"), tpose, "--scale", "0.01", "--offsets", "5,10,15",
        "--forward", "+z")
check(r.returncode == 0 and "calibration poses: excluded (--keep-calibration keeps them): tpose 0-1.383 s, 2.117-3 s"
      in r.stdout, f"the summary says what it excluded: {r.stdout}")
r = run("mm", "build", os.path.join(SCRATCH, "tpose.tdnmm"), tpose, "--scale", "0.01", "--offsets", "5,10,15",
        "--forward", "+z", "--keep-calibration", "--json")
check(r.returncode == 0 and json.loads(r.stdout)["calibration"] == {"poses": "kept", "excluded": []}
      and json.loads(r.stdout)["searchable"] == 181 - 15, f"--keep-calibration: {r.stdout}")
# not a calibration pose: walking with the arms out (not still: 1 m/s is 10 cm in 0.1 s, and the
# hands are 1.3 m apart), or a T-pose in the first frame only (not held: cgspeed's CMU conversions
# begin so)
for name, text in (("arms_out_walking.bvh", arms_bvh(lambda t: 0, walk=100)),
                   ("one_frame.bvh", arms_bvh(lambda t: 0 if t == 0 else 80))):
    r = run("mm", "build", os.path.join(SCRATCH, "tpose.tdnmm"), write(name, text), "--scale", "0.01",
            "--offsets", "5,10,15", "--forward", "+z", "--json")
    check(r.returncode == 0 and json.loads(r.stdout)["calibration"] == {"poses": "excluded", "excluded": []},
          f"{name}: no calibration pose: {r.stdout} {r.stderr}")

# ---- run ----
path = write("tiny_path.json", json.dumps({"segments": [
    {"duration": 1.5, "speed": 1.0, "heading": 0},
    {"duration": 1.5, "speed": 0.8, "heading": 90, "description": "a sharp turn"},
    {"duration": 1.0, "speed": 0.0, "heading": 90}]}))
trace_path, glb = os.path.join(SCRATCH, "tiny_trace.json"), os.path.join(SCRATCH, "tiny.glb")
r = run("mm", "run", db, *TINY, "--scale", "0.01", "--path", path, "--trace", trace_path, "--out", glb, "--json")
check(r.returncode == 0, f"run the tiny database along a path: {r.stderr}")
if r.returncode == 0:
    s = json.loads(r.stdout)
    trace = load(trace_path)
    frames = trace["frames"]
    check(s["frames"] == 4 * 60 + 1 and len(frames) == 241 and trace["frame_count"] == 241,
          f"4 s at 60 fps: 241 frames ({len(frames)})")
    check(all(f["frame"] == i and abs(f["time"] - i / 60) < 1e-9 for i, f in enumerate(frames)), "frame i at i / 60")
    check(frames[0]["searched"], "the first update searches")
    check(s["searches"] == sum(f["searched"] for f in frames) and s["switches"] == sum(f["switched"] for f in frames),
          "searches and switches: the trace's count")
    runs = lambda f: (f["clip_index"], f["mirrored"])
    rewinds = sum(1 for a, b in zip(frames, frames[1:]) if b["switched"] and runs(a) == runs(b)
                  and a["database_frame"] - 20 <= b["database_frame"] <= a["database_frame"])
    check(s["rewinds"] == rewinds, f"rewinds: switches back at most 20 frames in the same run: {s['rewinds']}, {rewinds}")
    check(all(f["clip"] in ("walk", "turn") and f["clip_index"] in (0, 1) for f in frames), "clips named")
    # the path's input: instant changes at 1.5 s and 3 s, standing after the last segment
    want = lambda t: ([0, 0, 1.0], 0) if t < 1.5 else ([0.8, 0, 0], 90) if t < 3 else ([0, 0, 0], 90)
    bad = [f["frame"] for f in frames if not (all(abs(a - b) < 1e-6 for a, b in zip(f["desired"]["velocity"], want(f["time"])[0]))
                                              and abs(f["desired"]["facing"] - want(f["time"])[1]) < 1e-4)]
    check(not bad, f"the desired velocity and facing of the path in every frame (wrong in {bad[:5]})")
    check([f["segment"] for f in frames[::30]] == [0, 0, 0, 1, 1, 1, 2, 2, None],
          "segments: 0 from 0 s, 1 from 1.5 s, 2 from 3 s, none after 4 s")
    # errors, recomputed: horizontal distance and wrapped facing difference, from 1 s on
    later = [f for f in frames if f["time"] >= STARTED - 1e-9]
    pos = [math.hypot(f["position"][0] - f["simulated"][0], f["position"][2] - f["simulated"][2]) for f in later]
    fac = [abs((f["facing"] - f["simulated_facing"] + 180) % 360 - 180) for f in later]
    check(s["error_frames"] == len(later) == 181, f"errors over the 181 frames from 1 s on: {s['error_frames']}")
    check(abs(s["position_error"]["mean"] - sum(pos) / len(pos)) < 1e-5 and abs(s["position_error"]["max"] - max(pos)) < 1e-5,
          f"position error {s['position_error']} against {sum(pos) / len(pos)}, {max(pos)}")
    check(abs(s["facing_error"]["mean"] - sum(fac) / len(fac)) < 1e-3 and abs(s["facing_error"]["max"] - max(fac)) < 1e-3,
          f"facing error {s['facing_error']} against {sum(fac) / len(fac)}, {max(fac)}")
    check(s["position_error"]["mean"] < 0.3 and s["facing_error"]["mean"] < 15, "the tiny character follows its simulation")
    # the character moved along the path: 1.5 m forward, then 1.2 m towards +X
    end = frames[-1]["simulated"]
    check(1.0 < end[2] < 1.6 and 0.8 < end[0] < 1.3, f"the simulation ends near (1.2, 0, 1.5): {end}")
    # foot skate, recomputed from the feet's positions with the documented rule
    feet = trace["feet"]
    check([f["name"] for f in feet] == ["LeftFoot", "RightFoot"], "the database's feet")
    slide, pairs, contacts_ok = 0.0, 0, True
    for k, foot in enumerate(feet):
        prev = None
        for f in frames:
            p = f["feet"][k]["position"]
            speed = math.hypot(p[0] - prev[0], p[2] - prev[2]) * 60 if prev else 0
            contact = p[1] - foot["ground"] <= CONTACT_HEIGHT + 1e-6 and speed <= CONTACT_SPEED + 1e-6
            if abs(p[1] - foot["ground"] - CONTACT_HEIGHT) > 1e-5 and abs(speed - CONTACT_SPEED) > 1e-4:
                contacts_ok &= contact == f["feet"][k]["contact"]
            if prev and contact and prev_contact:
                slide += math.hypot(p[0] - prev[0], p[2] - prev[2])
                pairs += 1
            prev, prev_contact = p, contact
    check(contacts_ok, "contact: within 5 cm of the foot's ground and at most 0.5 m/s")
    mean = 100 * slide * 60 / pairs if pairs else None
    got = s["foot_skate"]["mean_cm_per_s"]
    check(mean is not None and got is not None and abs(got - mean) < 1e-3 * max(1, mean),
          f"foot skate {got} cm/s, recomputed {mean}")
    check(s["foot_skate"]["source_mean_cm_per_s"] is not None, "the clips' own foot skate")
    check(trace["summary"] == s, "the trace's summary is the --json summary")
    # the baked file: one clip named after the path, its feet where the trace has them
    r = run("info", glb, "--json")
    check(r.returncode == 0, f"tendon info reads the baked file: {r.stderr}")
    if r.returncode == 0:
        clips = json.loads(r.stdout)["clips"]
        check(len(clips) == 1 and clips[0]["name"] == "tiny_path" and abs(clips[0]["duration"] - 4) < 1e-5,
              f"one 4 s clip named after the path: {clips}")
    for i in (0, 100, 240):
        r = run("sample", glb, "--time", str(i / 60), "--space", "model", "--json")
        if r.returncode == 0:
            joints = {j["name"]: j["t"] for j in json.loads(r.stdout)["joints"]}
            for k, name in enumerate(("LeftFoot", "RightFoot")):
                check(all(abs(a - b) < 1e-4 for a, b in zip(joints[name], frames[i]["feet"][k]["position"])),
                      f"frame {i}: the baked {name} at {joints[name]}, the trace's {frames[i]['feet'][k]['position']}")
r = run("mm", "run", db, *TINY, "--scale", "0.01", "--path", path, "--seconds", "0.5", "--fps", "30")
check(r.returncode == 0 and "16 frames" in r.stdout and "none (the run is shorter than 1 s)" in r.stdout,
      f"--seconds 0.5 --fps 30: 16 frames, no errors counted: {r.stdout}")
biased = os.path.join(SCRATCH, "tiny_biased.json")
r = run("mm", "run", db, *TINY, "--scale", "0.01", "--path", path, "--bias", "1000", "--trace", biased)
check(r.returncode == 0, f"--bias 1000: {r.stderr}")
if r.returncode == 0:
    frames = load(biased)["frames"]
    # continuing costs 1000 less: a switch only when the playing frame stops being searchable
    # (within 60 frames of its take's end: the frame before the switch at 60/60 s or later)
    early = [f["frame"] for i, f in enumerate(frames) if f["switched"] and i > 0 and frames[i - 1]["clip_time"] < 1 - 1e-6]
    check(not early and any(f["switched"] for f in frames), f"--bias 1000: switches only at a take's end ({early})")

# the database and the files must match
for args, expect, what in (
        ([db, walk, "--scale", "0.01"], "has 2 clips, the FILEs give 1", "one file of two"),
        ([db, turn, walk, "--scale", "0.01"], "not the clips the database was built from", "the files swapped"),
        ([db, *TINY], "another --scale", "another --scale"),
        ([db, *TINY, "--scale", "0.01", "--fps", "0"], "--fps", "--fps 0"),
        ([db, walk, other, "--scale", "0.01"], "another skeleton", "a file of another rig"),
        ([os.path.join(SCRATCH, "missing.tdnmm"), *TINY], "missing.tdnmm", "a missing database")):
    r = run("mm", "run", *args, "--path", path)
    check(r.returncode == 2 and expect in r.stderr, f"{what}: exit 2 and '{expect}' in: {r.stderr.strip()}")
good = open(db, "rb").read()
truncated = write("truncated.tdnmm", good[: len(good) // 2])
magic = write("magic.tdnmm", b"XDNMMDB\0" + good[8:])
at = len(good) - 4  # the last feature of the last frame
nan = write("nan.tdnmm", good[:at] + struct.pack("<f", float("nan")))
for bad, expect, what in ((truncated, "size", "a truncated database"), (magic, "byte 0:", "a wrong magic"),
                          (nan, "frame 483, feature 26", "a NaN feature")):
    r = run("mm", "run", bad, *TINY, "--scale", "0.01", "--path", path)
    check(r.returncode == 2 and expect in r.stderr and os.path.basename(bad) in r.stderr,
          f"{what}: exit 2 naming the file and '{expect}': {r.stderr.strip()}")
    if bad == nan:  # the byte of the value (the reader names it, or the byte just after it)
        named = re.search(r"byte (\d+)", r.stderr)
        check(named and at <= int(named.group(1)) <= at + 4, f"the NaN's byte {at} named: {r.stderr.strip()}")
# numbers beyond the ranges a database keeps (docs/motion-matching.md), each at its byte (the
# layout of src/core/mm_database_memory.c: a 148-byte header, then means and scales, the clips' runs, and
# 28-byte frames of clip, flags, time, root x, y, z, facing)
dims, clip_count = struct.unpack("<ii", good[16:24])
frames_at = 148 + 8 * dims + 16 * clip_count
for name, at, value, expect in (("rate_3e38.tdnmm", 28, 3e38, "byte 28: rate must be above 0 and at most 1000"),
                                ("time_3e38.tdnmm", frames_at + 8, 3e38, f"byte {frames_at}: frame 0:"),
                                ("root_3e38.tdnmm", frames_at + 12, 3e38, f"byte {frames_at}: frame 0:"),
                                ("feature_3e38.tdnmm", len(good) - 4, 3e38, f"byte {len(good) - 4}: value of frame 483")):
    bad = write(name, good[:at] + struct.pack("<f", value) + good[at + 4:])
    r = run("mm", "run", bad, *TINY, "--scale", "0.01", "--path", path)
    check(r.returncode == 2 and f"{name}: {expect}" in r.stderr, f"{name}: exit 2 and '{expect}': {r.stderr.strip()}")
# a take of 2,000,000,000 frames without channels (once 'no memory for -2147483647 frames', exit 1), and a
# Frame Time of 1e38: refused as they load
walk_text = open(walk).read()
endless = re.sub(r"CHANNELS \d[^\n]*", "CHANNELS 0", walk_text.split("MOTION")[0]) + \
    "MOTION\nFrames: 2000000000\nFrame Time: 0.0333333\n"
for name, text, expect in (("endless.bvh", endless,
                            "2000000000 frames of 0.0333333 s last 6.66666e+07 s, longer than tendon reads (1e+06 s)"),
                           ("slow.bvh", re.sub(r"Frame Time: \S+", "Frame Time: 1e38", walk_text),
                            "Frame Time 1e38 is not a time in [0.0001, 1e+06] s")):
    line = 1 + [k for k, l in enumerate(text.split("\n")) if l.startswith("Frame Time")][0]
    r = run("mm", "build", os.path.join(SCRATCH, "x.tdnmm"), write(name, text))
    check(r.returncode == 2 and f"line {line}: {expect}" in r.stderr, f"{name}: exit 2 and line {line}: '{expect}': {r.stderr.strip()}")
# malformed paths: the JSON path or byte, exit 2
for name, text, expect in (
        ("p_json.json", '{"segments": [', "byte"),
        ("p_empty.json", '{"segments": []}', "segments"),
        ("p_key.json", '{"segments": [{"duration": 1, "speed": 1, "heading": 0, "facnig": 3}]}',
         'segments[0]: unknown key "facnig"; did you mean "facing"?'),
        ("p_speed.json", '{"segments": [{"duration": 1, "speed": -1, "heading": 0}]}', "segments[0].speed"),
        ("p_duration.json", '{"segments": [{"duration": 0, "speed": 1, "heading": 0}]}', "segments[0].duration"),
        ("p_heading.json", '{"segments": [{"duration": 1, "speed": 1}]}', "segments[0].heading: required"),
        ("p_twice.json", '{"segments": [{"duration": 1, "speed": 1, "heading": 0, "speed": 2}]}',
         'segments[0].speed: the key "speed" appears twice'),
        ("p_deep.json", '{"segments": ' + "[" * 3000 + "]" * 3000 + "}",
         "byte 1012 (line 1, column 1013): nesting deeper than 1000 levels")):
    r = run("mm", "run", db, *TINY, "--scale", "0.01", "--path", write(name, text))
    check(r.returncode == 2 and expect in r.stderr and name in r.stderr, f"{name}: exit 2 and '{expect}' in: {r.stderr.strip()}")
r = run("mm", "run", db, *TINY, "--scale", "0.01", "--path", path, "--trace", os.path.join(SCRATCH, "no", "dir", "t.json"))
check(r.returncode == 2, "a trace that cannot be created: exit 2")
check(run("mm", "run", db, *TINY, "--scale", "0.01", "--path", path, "--out", os.path.join(SCRATCH, "x.fbx")).returncode == 2,
      "--out that is not .glb/.gltf: exit 2")

# ---- the path schema (docs/mm_path.schema.json) against the example and the shapes tendon refuses ----
try:
    import jsonschema
except ImportError:
    jsonschema = None
    skip("python3-jsonschema is missing: the path schema is not checked")
if jsonschema:
    schema = load(os.path.join(SOURCE, "docs", "mm_path.schema.json"))
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    example = os.path.join(SOURCE, "examples", "mm", "lafan1_path.json")
    errors = list(v.iter_errors(load(example)))
    check(not errors, f"the example path is valid: {errors[:1]}")
    check(v.is_valid(load(path)), "the tiny path is valid")
    for name in ("p_empty.json", "p_key.json", "p_speed.json", "p_duration.json", "p_heading.json"):
        check(not v.is_valid(load(os.path.join(SCRATCH, name))), f"the schema refuses {name} as tendon does")
    segments = load(example)["segments"]
    seconds = sum(s["duration"] for s in segments)
    check(35 <= seconds <= 45, f"the example path lasts about 40 s: {seconds}")

# ---- the example paths say what they do: a turn called left or right turns that way (headings are
# degrees about +Y from +Z towards +X; facing +Z, a character's left is +X = up x forward), and a
# stated length is the segments' ----
for example in ("lafan1_path.json", "cmu_path.json"):
    doc = load(os.path.join(SOURCE, "examples", "mm", example))
    seconds = sum(x["duration"] for x in doc["segments"])
    stated = re.search(r"\): (\d+) s of", doc["description"])  # "...database): 41 s of walking"
    check(not stated or int(stated.group(1)) == seconds, f"{example}: the description's {stated and stated.group(1)} s "
          f"are the segments' {seconds} s")
    for before, x in zip(doc["segments"], doc["segments"][1:]):
        said = re.findall(r"\b(left|right)\b", x.get("description", ""))
        if "turn" not in x.get("description", "") or not said:
            continue
        h0, h1 = math.radians(before["heading"]), math.radians(x["heading"])
        left_of_before = (math.cos(h0), -math.sin(h0))          # up x (sin h0, cos h0) in (x, z)
        way = "left" if math.sin(h1) * left_of_before[0] + math.cos(h1) * left_of_before[1] > 0 else "right"
        check(said == [way], f"{example}: '{x['description']}' from heading {before['heading']} to {x['heading']} "
              f"turns {way}")

# ---- LAFAN1 (shared data) ----
lafan1 = sorted(glob.glob(os.path.join(DATA, "bvh", "lafan1", "*.bvh")))
# The T-poses each take starts and ends with, as they were picked by eye for the Makefile's mm-demo
# before tendon found them (rounded outwards to about half a second, ends past the takes' ends,
# 152.9, 102.2 and 163.9 s, and after the start's pose up to the first step: push1_subject2's
# actor lowers the arms by 3.8 s and walks off at 4.5). The ranges found must be these within
# 1 s: the pose with the arms going up to it or down from it, no standing or walking around it.
HAND_PICKED = {"multipleActions1_subject1": [(0, 3), (148.5, 153)], "push1_subject2": [(0, 4.5), (99.8, 103)],
               "walk4_subject1": [(0, 3.5), (162.3, 164)]}
if len(lafan1) != 3:
    skip(f"the LAFAN1 takes are missing ({DATA}/bvh/lafan1; set TENDON_DATA)")
else:
    big = os.path.join(SCRATCH, "lafan1.tdnmm")
    r = run("mm", "build", big, *lafan1, "--scale", "0.01", "--mirror", "--json")
    check(r.returncode == 0, f"build the LAFAN1 database: {r.stderr}")
    b = json.loads(r.stdout) if r.returncode == 0 else {}
    print(f"mm_cli_check: LAFAN1 database: {b.get('frames')} frames ({b.get('searchable')} searchable), {b.get('dims')} dims, "
          f"{b.get('bytes')} bytes, built in {b.get('build_ms')} ms, forward {b.get('forward')}")
    check(49000 <= b.get("frames", 0) <= 51000 and b.get("dims") == 27 and b.get("clips") == 3,
          f"about 50,000 frames, 27 dims, 3 clips: {b.get('frames')}, {b.get('dims')}, {b.get('clips')}")
    check(b.get("forward") == "+y" and b.get("root") == "Hips" and b.get("feet") == ["LeftFoot", "RightFoot"],
          f"LAFAN1's hips face local +y; feet by name: {b.get('forward')}, {b.get('feet')}")
    check(b.get("searchable", 0) < b.get("frames", 0) - 6 * 60, "the ends and the excluded T-poses are not searchable")
    found = {}
    for x in b.get("calibration", {}).get("excluded", []):
        found.setdefault(x["name"], []).append((x["start"], x["end"]))
    print(f"mm_cli_check: LAFAN1 calibration poses found: {found}")
    check(set(found) == set(HAND_PICKED) and all(
        len(found[k]) == 2 and all(abs(a - c) <= 1 and abs(b2 - d) <= 1 for (a, b2), (c, d) in zip(found[k], HAND_PICKED[k]))
        for k in HAND_PICKED), f"the takes' T-poses, within 1 s of the hand-picked ranges {HAND_PICKED}: {found}")
    again = os.path.join(SCRATCH, "lafan1_again.tdnmm")
    r = run("mm", "build", again, *lafan1, "--scale", "0.01", "--mirror")
    check(r.returncode == 0 and os.path.exists(big) and os.path.exists(again) and
          open(big, "rb").read() == open(again, "rb").read(), "building LAFAN1 twice gives the same bytes")
    lafan_path = os.path.join(SOURCE, "examples", "mm", "lafan1_path.json")
    data = open(big, "rb").read() if os.path.exists(big) else b""
    r = run("mm", "run", write("lafan1_truncated.tdnmm", data[: len(data) - 1000]), *lafan1, "--scale", "0.01",
            "--path", lafan_path)
    check(r.returncode == 2 and "lafan1_truncated.tdnmm" in r.stderr and "size" in r.stderr,
          f"a truncated LAFAN1 database: exit 2 naming the size: {r.stderr.strip()}")
    trace_path, glb = os.path.join(SCRATCH, "mm_trace.json"), os.path.join(SCRATCH, "mm.glb")
    r = run("mm", "run", big, *lafan1, "--scale", "0.01", "--path", lafan_path, "--out", glb, "--trace", trace_path,
            "--json")
    check(r.returncode == 0, f"run the LAFAN1 path: {r.stderr}")
    if r.returncode == 0:
        s = json.loads(r.stdout)
        seconds = sum(x["duration"] for x in load(lafan_path)["segments"])
        print(f"mm_cli_check: LAFAN1 path: {s['frames']} frames, {s['searches']} searches, {s['switches']} switches "
              f"({s['rewinds']} rewinds), "
              f"position error mean {s['position_error']['mean']:.3f} m max {s['position_error']['max']:.3f} m, "
              f"facing error mean {s['facing_error']['mean']:.2f} max {s['facing_error']['max']:.1f} degrees, "
              f"foot skate {s['foot_skate']['mean_cm_per_s']:.2f} cm/s "
              f"(the clips: {s['foot_skate']['source_mean_cm_per_s']:.2f})")
        check(s["position_error"]["mean"] <= 0.3, f"mean root position error <= 0.3 m: {s['position_error']}")
        check(s["facing_error"]["mean"] <= 15, f"mean facing error <= 15 degrees: {s['facing_error']}")
        check(s["frames"] == round(seconds * 60) + 1, f"frames: the path's {seconds} s at 60 fps + 1: {s['frames']}")
        trace = load(trace_path)
        check(len(trace["frames"]) == s["frames"] == trace["frame_count"], "the trace has every frame")
        check(s["searches"] >= seconds / 0.1 * 0.9 and 0 < s["switches"] <= s["searches"],
              f"a search every 0.1 s at least, some switches: {s['searches']}, {s['switches']}")
        check(os.path.getsize(glb) > 100000, "the baked .glb is written")

# ---- the CMU takes (shared data): the second database ----
# cgspeed's CMU BVH conversions are in units of 0.056444 m (hips 17 units up), not centimetres.
cmu = [os.path.join(DATA, "bvh", "cmu", "cgspeed-mb", name) for name in ("walk.bvh", "01_01.bvh")]
CMU_SCALE = "0.056444"
if not all(os.path.exists(p) for p in cmu):
    skip(f"the CMU takes are missing ({DATA}/bvh/cmu; set TENDON_DATA)")
else:
    second = os.path.join(SCRATCH, "cmu.tdnmm")
    r = run("mm", "build", second, *cmu, "--scale", CMU_SCALE, "--mirror", "--json")
    check(r.returncode == 0, f"build the CMU database: {r.stderr}")
    b = json.loads(r.stdout) if r.returncode == 0 else {}
    # their actors hold no calibration pose (the first frame of each is a T-pose, not held)
    check(b.get("calibration") == {"poses": "excluded", "excluded": []}, f"no calibration pose in the CMU takes: "
          f"{b.get('calibration')}")
    check(b.get("clips") == 2 and b.get("forward") == "+z" and b.get("dims") == 27,
          f"the CMU database: 2 clips, hips facing +z, 27 dims: {b.get('clips')}, {b.get('forward')}, {b.get('dims')}")
    cmu_path = os.path.join(SOURCE, "examples", "mm", "cmu_path.json")
    r = run("mm", "run", second, *cmu, "--scale", CMU_SCALE, "--path", cmu_path, "--lock-feet", "--json")
    check(r.returncode == 0, f"run the CMU path: {r.stderr}")
    if r.returncode == 0:
        s = json.loads(r.stdout)
        print(f"mm_cli_check: CMU database {b.get('frames')} frames; path: {s['switches']} switches, position error mean "
              f"{s['position_error']['mean']:.3f} m, facing error mean {s['facing_error']['mean']:.2f} degrees, foot skate "
              f"{s['foot_skate']['mean_cm_per_s']:.2f} cm/s locked (the clips: {s['foot_skate']['source_mean_cm_per_s']:.2f})")
        check(s["position_error"]["mean"] <= 0.3, f"CMU: mean root position error <= 0.3 m: {s['position_error']}")
        check(s["facing_error"]["mean"] <= 15, f"CMU: mean facing error <= 15 degrees: {s['facing_error']}")
        check(s["foot_skate"]["mean_cm_per_s"] < s["foot_skate"]["source_mean_cm_per_s"],
              "with foot locking the feet skate less than in the clips themselves")

# ---- rigs that name their ankles (shared data): the feet found by name without --feet ----
for name, scale, feet in (("games105/walk_forward.bvh", "0.01", ["lAnkle", "rAnkle"]),
                          ("cmu/cgspeed-3dsmax/131_01.bvh", CMU_SCALE, ["LeftAnkle", "RightAnkle"])):
    take = os.path.join(DATA, "bvh", *name.split("/"))
    if not os.path.exists(take):
        skip(f"{take} is missing (set TENDON_DATA)")
        continue
    r = run("mm", "build", os.path.join(SCRATCH, "ankles.tdnmm"), take, "--scale", scale, "--offsets", "5,10,15", "--json")
    check(r.returncode == 0 and json.loads(r.stdout)["feet"] == feet, f"{name}: the feet are its ankles {feet}: {r.stderr}")

# ---- the baked files through the Khronos glTF validator ----
baked = [p for p in (os.path.join(SCRATCH, "tiny.glb"), os.path.join(SCRATCH, "mm.glb")) if os.path.exists(p)]
if baked:
    validate_gltf(baked, VALIDATE, MODULES, "mm_cli_check")

if failures:
    print(f"mm_cli_check: {len(failures)} failed", file=sys.stderr)
    sys.exit(1)
for why in skips:
    print(f"mm_cli_check: SKIP {why}")
print("mm_cli_check: all checks passed" + (" (with skips)" if skips else ""))
