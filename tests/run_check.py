"""`tendon run` against DESIGN section 5 and docs/cli.md: the trace's shape, the timeline's effects
at the frames they are due, events and root motion, timeline errors naming their JSON path with a
did-you-mean, exit codes, a baked .glb that the Khronos validator accepts and `tendon info` reads
back, and the pop metric of section 7 on a cut and a fade between two humanoid clips (recomputed
here from the trace's recorded rotations, as a second implementation of its observed part), and
the traces and timelines against docs/trace.schema.json and docs/timeline.schema.json.
Usage: run_check.py TENDON_EXECUTABLE SCRATCH_FOLDER STRAFE_JSON GLTF_VALIDATE_JS NODE_MODULES"""
import json
import math
import os
import shutil
import subprocess
import sys

from cli_support import SCRATCH, check, finish, run, write

STRAFE, VALIDATE, MODULES = sys.argv[3], sys.argv[4], sys.argv[5]
FPS, SECONDS = 60, 4


def load(path):
    with open(path) as f:
        return json.load(f)


# ---- help, arguments, exit codes ----
r = run("run", "--help")
check(r.returncode == 0 and "usage: tendon run" in r.stdout and "--params" in r.stdout, "run --help")
check(run("run").returncode == 2, "run without a graph: exit 2")
check(run("run", STRAFE, "--fps", "0").returncode == 2, "--fps 0: exit 2")
check(run("run", STRAFE, "--seconds", "-1").returncode == 2, "--seconds -1: exit 2")
check(run("run", STRAFE, "--seconds", "x").returncode == 2, "--seconds x: exit 2")
check(run("run", STRAFE, "--frobnicate").returncode == 2, "an unknown option: exit 2")
check(run("run", STRAFE, "--out", os.path.join(SCRATCH, "x.fbx")).returncode == 2, "--out that is not .glb/.gltf: exit 2")
r = run("run", STRAFE, "--render", os.path.join(SCRATCH, "x.png"))
check(r.returncode == 2 and "not built yet" in r.stderr, f"--render: not built yet, exit 2 ({r.stderr.strip()})")
check(run("run", os.path.join(SCRATCH, "missing.json")).returncode == 2, "a missing graph: exit 2")
check(run("run", write("broken_graph.json", "{\"character\": ")).returncode == 2, "a malformed graph: exit 2")
check(run("run", STRAFE, "--params", os.path.join(SCRATCH, "missing_timeline.json")).returncode == 2,
      "a missing timeline: exit 2")
check(run("run", STRAFE, "--trace", os.path.join(SCRATCH, "no", "such", "dir", "t.json")).returncode == 2,
      "a trace that cannot be created: exit 2")

# ---- the strafing example, moved by a timeline ----
timeline = {"events": [
    {"time": 0.5, "set": {"moveSpeed": 1, "faceForward": True}},
    {"time": 1.0, "ramp": {"sideStrength": 1.0}, "duration": 0.5},
    {"time": 2.0, "set": {"faceRight": True}},
    {"time": 2.5, "set": {"turnLeft": True, "moveSpeed": 0, "turnSpeed": 1}},
]}
trace_path, glb = os.path.join(SCRATCH, "strafe.trace.json"), os.path.join(SCRATCH, "strafe.glb")
r = run("run", STRAFE, "--params", write("strafe.timeline.json", json.dumps(timeline)), "--seconds", str(SECONDS),
        "--fps", str(FPS), "--trace", trace_path, "--out", glb)
check(r.returncode == 0, f"run the strafing example: {r.stderr}")
check(f"{SECONDS * FPS + 1} frames" in r.stdout and "worst pop" in r.stdout, f"the summary: {r.stdout}")
trace = load(trace_path) if r.returncode == 0 else {"frames": []}
frames = trace["frames"]
# frame 0 is t = 0 (a zero-length update), then one update of 1/fps per frame
check(trace.get("frame_count") == SECONDS * FPS + 1 and len(frames) == SECONDS * FPS + 1,
      f"frames = seconds x fps + 1: {len(frames)}")
check(all(f["frame"] == i and abs(f["time"] - i / FPS) < 1e-9 for i, f in enumerate(frames)), "frame i at i / fps")
names = [p["name"] for p in trace.get("parameters", [])]
check(names == ["moveSpeed", "turnSpeed", "turnLeft", "faceForward", "faceRight", "sideStrength"],
      f"the parameters listed: {names}")
check(len(trace.get("joints", [])) == 67 and trace["joints"][0] == {"name": "root", "parent": -1}, "joints listed")
for f in frames:
    if len(f["layers"]) != 1 or f["layers"][0]["weight"] != 1:
        check(False, f"frame {f['frame']}: one layer at weight 1")
        break
    base = [e for e in f["layers"][0]["entries"] if not e["additive"]]
    if abs(sum(e["weight"] for e in base) - 1) > 1e-5 or not all(e["clip"] for e in base):
        check(False, f"frame {f['frame']}: base entries' weights sum to 1: {base}")
        break
    if set(f["parameters"]) != set(names) or set(f["targets"]) != set(names):
        check(False, f"frame {f['frame']}: every parameter's value and target")
        break
    rm = f["root_motion"]
    if not (len(rm["translation"]) == 3 and len(rm["rotation"]) == 4 and len(rm["linear_velocity"]) == 3
            and len(rm["angular_velocity"]) == 3 and len(f["root"]["translation"]) == 3):
        check(False, f"frame {f['frame']}: root motion and the root transform")
        break
# a set shows in the frame at its time, not before (faceForward is unsmoothed, moveSpeed's target)
t05, t2 = round(0.5 * FPS), round(2.0 * FPS)
check(frames[t05 - 1]["targets"]["moveSpeed"] == 0 and frames[t05]["targets"]["moveSpeed"] == 1,
      "set at 0.5 s: moveSpeed's target in frame 30, not 29")
check(frames[t05 - 1]["parameters"]["moveSpeed"] == 0 and 0 < frames[t05]["parameters"]["moveSpeed"] < 1,
      "moveSpeed (half_life 0.1) starts gliding in frame 30")
check(frames[t2 - 1]["parameters"]["faceRight"] is False and frames[t2]["parameters"]["faceRight"] is True,
      "set faceRight at 2 s: the bool reads true from frame 120")
# the ramp: linear from 0 at 1.0 s to 1 at 1.5 s: its start, a fifth, midpoint, end and after
for i in (59, 60, 66, 75, 90, 105):
    want = min(1.0, max(0.0, (i / FPS - 1.0) / 0.5))
    got = frames[i]["targets"]["sideStrength"]
    check(abs(got - want) < 1e-6, f"ramp of sideStrength at frame {i}: {got}, want {want}")
# the effect on the flat list: running forward at 1 s, strafing right at the end of the sidestep
names_at = lambda i: {e["clip"]: e["weight"] for e in frames[i]["layers"][0]["entries"]}
check(names_at(round(1.0 * FPS)).get("run_forward", 0) > 0.99, f"run_forward at 1 s: {names_at(60)}")
check(names_at(round(2.45 * FPS)).get("strafe_right", 0) > 0.95, f"strafe_right at 2.45 s: {names_at(147)}")
check(names_at(len(frames) - 1).get("turn_left", 0) > 0.95, f"turn_left at the end: {names_at(len(frames) - 1)}")
# events: the footfalls of the synced clips, named
footfalls = [e for f in frames for e in f["events"] if e["type"] == "clip"]
check(len(footfalls) >= 4 and all(e["event"] in ("foot_down_l", "foot_down_r") and e["clip"] and e["node"]
                                  for e in footfalls), f"clip events: {footfalls[:3]}")
check(trace.get("transitions") == [] and trace.get("summary", {}).get("worst_pop") is None,
      "no state machine: no transitions, worst pop null")

# ---- the baked clip: the Khronos validator and tendon info ----
if os.path.exists(glb):
    r = run("info", glb, "--json")
    check(r.returncode == 0, f"tendon info reads the baked file: {r.stderr}")
    if r.returncode == 0:
        info = json.loads(r.stdout)
        clips = info["clips"]
        check(len(clips) == 1 and clips[0]["name"] == "strafe", f"one clip named after the graph: {clips}")
        want = (len(frames) - 1) / FPS
        check(abs(clips[0]["duration"] - want) < 1e-5, f"duration (frames - 1) / fps = {want}: {clips[0]['duration']}")
        check(len(info["skeleton"]["joints"]) == 67, "the humanoid's 67 joints")
node = shutil.which("node") or shutil.which("nodejs")
if not node or not os.path.exists(os.path.join(MODULES, "gltf-validator", "package.json")):
    why = f"node ({node}) or the validator ({MODULES}/gltf-validator) is missing; run scripts/install-deps.sh"
    check(os.environ.get("CI") != "true", f"the glTF validator: {why} (a failure under CI=true)")
    print(f"run_check: SKIP the glTF validator: {why}")
else:
    gltf = os.path.join(SCRATCH, "strafe.gltf")
    r = run("run", STRAFE, "--params", os.path.join(SCRATCH, "strafe.timeline.json"), "--seconds", "1", "--out", gltf)
    check(r.returncode == 0, f"bake a .gltf: {r.stderr}")
    v = subprocess.run([node, VALIDATE, "--modules", MODULES, glb, gltf], capture_output=True, text=True)
    print(v.stdout.strip())
    check(v.returncode == 0, f"the Khronos validator accepts the baked .glb and .gltf: {v.stdout} {v.stderr}")

# ---- timeline errors: the JSON path, the nearest name, exit 2 ----
def timeline_error(name, doc, *expected):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    r = run("run", STRAFE, "--seconds", "0.1", "--params", write(name, text))
    check(r.returncode == 2 and all(x in r.stderr for x in expected),
          f"{name}: exit 2 and {expected} in: {r.stderr.strip()} (exit {r.returncode})")


timeline_error("bad_name.json", {"events": [{"time": 0, "set": {"moveSpeed": 1}}, {"time": 1, "set": {"movespeed": 2}},
                                            {"time": 2, "set": {"sideStrenght": 1}}]},
               'events[1].set.movespeed: no parameter named "movespeed"; did you mean "moveSpeed"?')
timeline_error("bad_name2.json", {"events": [{"time": 0, "ramp": {"turnSped": 1}, "duration": 1}]},
               'events[0].ramp.turnSped', 'did you mean "turnSpeed"?')
timeline_error("bad_far.json", {"events": [{"time": 0, "set": {"xyzzy": 1}}]},
               'events[0].set.xyzzy: no parameter named "xyzzy"', '"moveSpeed"')
timeline_error("bad_type.json", {"events": [{"time": 0, "set": {"turnLeft": 1}}]}, "events[0].set.turnLeft", "true or false")
timeline_error("bad_ramp_bool.json", {"events": [{"time": 0, "ramp": {"turnLeft": True}, "duration": 1}]},
               "events[0].ramp.turnLeft", "cannot ramp")
timeline_error("bad_fire.json", {"events": [{"time": 0, "fire": "turnLeft"}]}, "events[0].fire", "not a trigger")
timeline_error("bad_key.json", {"events": [{"time": 0, "set": {"moveSpeed": 1}, "durration": 1}]},
               'events[0]: unknown key "durration"; did you mean "duration"?')
timeline_error("bad_duration.json", {"events": [{"time": 0, "ramp": {"moveSpeed": 1}}]}, "events[0].duration", "required")
timeline_error("bad_time.json", {"events": [{"time": -1, "set": {"moveSpeed": 1}}]}, "events[0].time")
timeline_error("bad_two.json", {"events": [{"time": 0, "set": {"moveSpeed": 1}, "fire": "x"}]}, "events[0]", "one action")
timeline_error("bad_travel.json", {"events": [{"time": 0, "travel": {"state_machine": "m", "state": "s"}}]},
               "events[0].travel.state_machine", "no state machine")
timeline_error("bad_top.json", {"evnts": []}, 'unknown key "evnts"; did you mean "events"?')
timeline_error("bad_json.json", '{"events": [}', "line 1, column")

# ---- the pop metric on a state machine: a cut and a 0.3 s fade between idle and walk_forward ----
machine = {
    "character": {"generated": "humanoid"},
    "parameters": [{"name": "go", "type": "bool"}, {"name": "stop", "type": "trigger"}],
    "root_motion": {"joint": "root", "rotation": "yaw", "extract": True},
    "nodes": {"loco": {"type": "state_machine", "initial": "idle",
                       "states": [{"name": "idle", "node": {"type": "clip", "clip": "idle"}},
                                  {"name": "walk", "node": {"type": "clip", "clip": "walk_forward"}}],
                       "transitions": [
                           {"from": "idle", "to": "walk", "duration": 0.3, "conditions": [{"param": "go"}]},
                           {"from": "walk", "to": "idle", "duration": 0.3, "mode": "cut",
                            "conditions": [{"param": "stop"}]}]}},
    "root": "loco"}
graph = write("machine.json", json.dumps(machine))
events = {"events": [{"time": 1.0, "set": {"go": True}}, {"time": 2.7, "set": {"go": False}},
                     {"time": 2.7, "fire": "stop"}]}
pop_trace = os.path.join(SCRATCH, "machine.trace.json")
r = run("run", graph, "--params", write("machine.timeline.json", json.dumps(events)), "--seconds", "3.5",
        "--trace", pop_trace, "--trace-rotations", "--out", os.path.join(SCRATCH, "machine.glb"))
check(r.returncode == 0, f"run a state machine: {r.stderr}")
if r.returncode == 0:
    print(r.stdout.strip())
    t = load(pop_trace)
    tr = t["transitions"]
    check([(x["from"], x["to"], x["mode"]) for x in tr] == [("idle", "walk", "smooth"), ("walk", "idle", "cut")],
          f"two transitions, modes from the document: {[(x['from'], x['to'], x['mode']) for x in tr]}")
    if len(tr) == 2:
        fade, cut = tr
        check(fade["start_frame"] == 60 and fade["end_frame"] == 77 and fade["pop"]["frames"] == 18,
              f"the fade: frames 60..77 (18 updates): {fade['start_frame']}..{fade['end_frame']}")
        check(cut["start_frame"] == cut["end_frame"] == round(2.7 * FPS) and cut["completed_at_once"],
              "the cut: one frame at 2.7 s")
        check(cut["pop"]["frames"] == 18, "a cut is measured against the fade of its declared 0.3 s")
        check((fade["pop"]["from_clip"], fade["pop"]["to_clip"]) == ("idle", "walk_forward")
              and (cut["pop"]["from_clip"], cut["pop"]["to_clip"]) == ("walk_forward", "idle"), "the states' clips")
        check(fade["pop"]["pop"] <= 2.0, f"the 0.3 s fade: pop {fade['pop']['pop']:.3f} <= 2")
        check(cut["pop"]["pop"] > 2.5, f"the cut: pop {cut['pop']['pop']:.3f} far above 2")
        # the bound as defined: clips + switch / frames; pop = observed / bound
        for x in (fade, cut):
            p = x["pop"]
            check(abs(p["bound"] - (p["clip_change"] + p["switch_difference"] / p["frames"])) < 1e-9
                  and abs(p["pop"] - p["observed"] / p["bound"]) < 1e-9, "bound and pop as defined")
        # the observed peak, recomputed here from the recorded rotations over the window
        def angle(a, b):
            d = abs(sum(x * y for x, y in zip(a, b))) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
            return math.degrees(2 * math.acos(min(1.0, d)))
        rots = [f["rotations"] for f in t["frames"]]
        for x in (fade, cut):
            first, last = max(0, x["start_frame"] - 6), min(len(rots) - 1, x["end_frame"] + 6)
            peak = max(angle(a, b) for f in range(first + 1, last + 1) for a, b in zip(rots[f - 1], rots[f]))
            check(abs(peak - x["pop"]["observed"]) < 0.02, f"observed {x['pop']['observed']:.4f} = the trace's {peak:.4f}")
        # the cut's whole difference in one frame; the fade spreads it
        check(cut["pop"]["observed"] > 0.8 * cut["pop"]["switch_difference"],
              f"the cut's peak {cut['pop']['observed']:.2f} is its switch difference {cut['pop']['switch_difference']:.2f}")
        check(fade["pop"]["observed"] < cut["pop"]["observed"] / 2, "the fade's peak is far below the cut's")
        # state machine status and events in the frames
        f61 = t["frames"][61]["state_machines"][0]
        check(f61["node"] == "loco" and f61["state"] == "walk" and f61["transition"] == 0 and 0 < f61["weight"] < 1
              and f61["previous"] == "idle", f"status mid-fade: {f61}")
        kinds = [e["type"] for e in t["frames"][60]["events"] if e["type"] != "clip"]
        check(kinds == ["transition_started", "state_entered"], f"events of the start frame: {kinds}")
        check(t["frames"][-1]["state_machines"][0]["state"] == "idle", "idle after the cut")
        # extracted root motion: walking 1.4 m/s moves the integrated root forward (+z) during walk
        z = [f["root"]["translation"][2] for f in t["frames"]]
        check(z[60] < 0.01 and 1.5 < z[-1] < 2.6, f"the integrated root transform walks forward: {z[60]:.3f} -> {z[-1]:.3f}")
        check(any(f["root_motion"]["linear_velocity"][2] > 1.0 for f in t["frames"]), "root motion velocities")

# travel: by the state machine's name; a misspelt state gets the nearest (a swap is one edit)
r = run("run", graph, "--seconds", "1", "--trace", os.path.join(SCRATCH, "travel.trace.json"), "--params",
        write("travel.json", json.dumps({"events": [{"time": 0.5, "travel": {"state_machine": "loco", "state": "walk"}}]})))
check(r.returncode == 0, f"travel: {r.stderr}")
if r.returncode == 0:
    tt = load(os.path.join(SCRATCH, "travel.trace.json"))
    check([(x["from"], x["to"], x["start_frame"]) for x in tt["transitions"]][:1] == [("idle", "walk", 30)],
          f"travel to walk at 0.5 s: {[(x['from'], x['to'], x['start_frame']) for x in tt['transitions']]}")
r = run("run", graph, "--seconds", "1", "--params",
        write("travel_bad.json", json.dumps({"events": [{"time": 0.5, "travel": {"state_machine": "loco", "state": "idel"}}]})))
check(r.returncode == 2 and 'events[0].travel.state: "loco" has no state named "idel"; did you mean "idle"?' in r.stderr,
      f"a misspelt state: {r.stderr.strip()}")
r = run("run", graph, "--seconds", "1", "--params",
        write("travel_bad2.json", json.dumps({"events": [{"time": 0.5, "travel": {"state_machine": "lcoo", "state": "idle"}}]})))
check(r.returncode == 2 and 'did you mean "loco"?' in r.stderr, f"a misspelt machine: {r.stderr.strip()}")

# ---- the traces and timelines written here against docs/trace.schema.json and timeline.schema.json ----
try:
    import jsonschema
except ImportError:
    jsonschema = None
    check(os.environ.get("CI") != "true", "python3-jsonschema is missing (a failure under CI=true)")
    print("run_check: note: python3-jsonschema missing; the schemas are not checked")
if jsonschema:
    docs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")
    for schema_name, files in (("trace.schema.json", ["strafe.trace.json", "machine.trace.json"]),
                               ("timeline.schema.json", ["strafe.timeline.json", "machine.timeline.json"])):
        schema = load(os.path.join(docs, schema_name))
        jsonschema.Draft202012Validator.check_schema(schema)
        for name in files:
            path = os.path.join(SCRATCH, name)
            if os.path.exists(path):
                errors = list(jsonschema.Draft202012Validator(schema).iter_errors(load(path)))
                check(not errors, f"{name} against {schema_name}: {[e.message for e in errors[:3]]}")
    bad = {"events": [{"time": 1, "set": {"x": 1}, "fire": "y"}]}
    check(not jsonschema.Draft202012Validator(load(os.path.join(docs, "timeline.schema.json"))).is_valid(bad),
          "the timeline schema refuses two actions in one event")

finish("cli_run")
