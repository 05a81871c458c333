"""`tendon demo --out SCRATCH` (docs/cli.md, tendon demo): every file written and parsed (the .glb's
header and chunks, through the Khronos validator; PNG and GIF signatures and sizes; the trace
and graph as JSON) and the summary's figures within their targets (exit 0 and the summary's
RESULT line). How long it took is printed, not checked: speed is the bench's business.
Usage: demo_check.py TENDON_EXECUTABLE SCRATCH_FOLDER GLTF_VALIDATE_JS NODE_MODULES"""
import json
import os
import shutil
import struct
import sys
import time

from cli_support import SCRATCH, check, failures, finish, run, validate_gltf

VALIDATE, MODULES = sys.argv[3], sys.argv[4]
scratch = SCRATCH

shutil.rmtree(scratch, ignore_errors=True)
started = time.monotonic()
p = run("demo", "--out", scratch)
print(p.stdout)
print("demo took %.1f s" % (time.monotonic() - started))
check(p.returncode == 0, "exit code %d (stderr: %s)" % (p.returncode, p.stderr))
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
    validate_gltf([os.path.join(scratch, "demo.glb")], VALIDATE, MODULES, "demo_check")
finish("cli_demo")
