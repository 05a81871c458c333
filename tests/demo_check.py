"""`tendon demo --out SCRATCH` (DESIGN section 5): every file written and parsed (the .glb's
header and chunks, through the Khronos validator when node and its module are given; PNG and
GIF signatures and sizes; the trace and graph as JSON), the summary's figures within their
targets (exit 0 and the summary's RESULT line), and the whole run in seconds.
Usage: demo_check.py TENDON_EXECUTABLE SCRATCH_FOLDER [GLTF_VALIDATE_JS NODE_MODULES]"""
import json
import os
import shutil
import struct
import subprocess
import sys
import time

tendon, scratch = sys.argv[1], sys.argv[2]
validate_js = sys.argv[3] if len(sys.argv) > 4 else None
modules = sys.argv[4] if len(sys.argv) > 4 else None
node = shutil.which("node") or shutil.which("nodejs")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


shutil.rmtree(scratch, ignore_errors=True)
started = time.monotonic()
p = subprocess.run([tendon, "demo", "--out", scratch], capture_output=True, text=True)
elapsed = time.monotonic() - started
print(p.stdout)
check(p.returncode == 0, "exit code %d (stderr: %s)" % (p.returncode, p.stderr))
check(elapsed < 60.0, "took %.1f s (seconds expected; generous for sanitizer builds and a loaded machine)" % elapsed)
print("demo took %.1f s" % elapsed)
for name in ("demo.glb", "demo_sheet.png", "demo.gif", "demo_plot.png", "demo_trace.json", "demo_graph.json",
             "demo_timeline.json", "summary.txt"):
    check(os.path.isfile(os.path.join(scratch, name)), name + " written")
if not failures:
    glb = open(os.path.join(scratch, "demo.glb"), "rb").read()
    magic, version, length = struct.unpack("<4sII", glb[:12])
    check(magic == b"glTF" and version == 2 and length == len(glb), "glb header")
    jlen, jtype = struct.unpack("<I4s", glb[12:20])
    doc = json.loads(glb[20:20 + jlen])
    check(jtype == b"JSON", "glb JSON chunk")
    check(len(doc.get("meshes", [])) >= 1 and len(doc.get("skins", [])) >= 1, "glb has a mesh and a skin")
    check(len(doc.get("animations", [])) == 1, "glb has the baked animation")
    for name, size in (("demo_sheet.png", None), ("demo_plot.png", (1000, 760))):
        data = open(os.path.join(scratch, name), "rb").read()
        check(data[:8] == b"\x89PNG\r\n\x1a\n", name + " PNG signature")
        w, h = struct.unpack(">II", data[16:24])
        check(w >= 320 and h >= 180 and (size is None or (w, h) == size), "%s size %dx%d" % (name, w, h))
    gif = open(os.path.join(scratch, "demo.gif"), "rb").read()
    check(gif[:6] in (b"GIF89a", b"GIF87a"), "GIF signature")
    check(struct.unpack("<HH", gif[6:10]) == (480, 270), "GIF size")
    json.load(open(os.path.join(scratch, "demo_trace.json")))
    json.load(open(os.path.join(scratch, "demo_graph.json")))
    summary = open(os.path.join(scratch, "summary.txt")).read()
    check(summary in p.stdout, "summary.txt is what was printed")
    check("RESULT: every figure within its target" in summary and "OUTSIDE" not in summary, "figures within targets")
    for needle in ("ms per frame", "pop per transition", "foot skate", "IK error"):
        check(needle in summary, "summary has " + needle)
    if node and validate_js and os.path.exists(os.path.join(modules, "gltf-validator", "package.json")):
        v = subprocess.run([node, validate_js, "--modules", modules, os.path.join(scratch, "demo.glb")],
                           capture_output=True, text=True)
        check(v.returncode == 0, "Khronos validator: " + v.stdout + v.stderr)
    else:
        print("skip: the Khronos validator: no node or no gltf-validator module")
print("demo_check: %d failures" % len(failures))
sys.exit(1 if failures else 0)
