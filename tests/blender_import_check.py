# Checks that Blender imports tendon's exported glTF files (make interop, scripts/interop.sh):
#   blender -b --factory-startup --python tests/blender_import_check.py -- FILE.glb...
# For each file, in a fresh empty scene: bpy.ops.import_scene.gltf must succeed and give an
# armature with as many bones as the file's skin has joints (read from the file's own JSON), and
# the action Blender made of the file's animation must span the animation's duration (the range
# of its sampler input times) within half a frame at the scene's frame rate. tendon writes a skin
# into every file, meshes or not (tendon/io/gltf_save.h), so a file without one fails. One line per
# file; exit 1 when any file fails, 2 on bad arguments.
import json
import os
import struct
import sys

import bpy

# Debian 12's Blender 3.4.1 glTF importer uses np.bool, an alias NumPy 1.24 (Debian 12's) removed:
# without this it fails on any mesh with "module 'numpy' has no attribute 'bool'".
try:
    import numpy
    if "bool" not in numpy.__dict__:
        numpy.bool = bool
except ImportError:
    pass


def gltf_json(path):
    """The JSON document of a .glb (its first chunk) or a .gltf."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"glTF":
        return json.loads(data)
    length, kind = struct.unpack_from("<II", data, 12)
    if kind != 0x4E4F534A:  # "JSON"
        raise ValueError("the first chunk is not JSON")
    return json.loads(data[20:20 + length])


def expected(doc):
    """(joint count of the first skin or None without one, animation name, start and end in s)."""
    skins = doc.get("skins", [])
    joints = len(skins[0]["joints"]) if skins else None
    anims = doc.get("animations", [])
    if not anims:
        raise ValueError("no animation")
    anim = anims[0]
    accessors = doc["accessors"]
    start, end = None, None
    for s in anim["samplers"]:
        acc = accessors[s["input"]]
        lo, hi = acc["min"][0], acc["max"][0]  # the spec requires min and max on sampler inputs
        start = lo if start is None else min(start, lo)
        end = hi if end is None else max(end, hi)
    return joints, anim.get("name", "animation_0"), start, end


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    for coll in (bpy.data.actions, bpy.data.armatures, bpy.data.meshes, bpy.data.objects):
        for item in list(coll):
            coll.remove(item)


def check(path):
    """Returns (ok, message)."""
    doc = gltf_json(path)
    joints, anim_name, t0, t1 = expected(doc)
    reset()
    result = bpy.ops.import_scene.gltf(filepath=os.path.abspath(path))
    if "FINISHED" not in result:
        return False, f"import failed: {result}"
    scene = bpy.context.scene
    fps = scene.render.fps / scene.render.fps_base
    duration = t1 - t0
    want_frames = duration * fps
    if joints is None:
        return False, "no skin in the file (tendon writes one into every file), so no armature"
    arms = [o for o in scene.objects if o.type == "ARMATURE"]
    if len(arms) != 1:
        return False, f"{len(arms)} armatures, expected 1"
    arm = arms[0]
    bones = len(arm.data.bones)
    meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    skinned = [o for o in meshes if any(m.type == "ARMATURE" and m.object == arm for m in o.modifiers)]
    ad = arm.animation_data
    action = ad.action if ad else None
    if action is None:
        # the importer may leave the action unassigned (NLA track) when there are several
        for a in bpy.data.actions:
            if a.name.startswith(anim_name):
                action = a
                break
    if action is None:
        return False, f"no action on the armature (animation {anim_name!r})"
    f0, f1 = action.frame_range
    frames = f1 - f0
    ok = bones == joints and abs(frames - want_frames) <= 0.5
    msg = (f"armature {arm.name!r}: {bones} bones (skin: {joints} joints), "
           f"{len(meshes)} meshes ({len(skinned)} skinned to it), "
           f"action {action.name!r}: frames {f0:g}..{f1:g} at {fps:g} fps = {frames / fps:.4f} s "
           f"(animation {anim_name!r}: {t0:g}..{t1:g} s = {duration:.4f} s)")
    return ok, msg


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if not argv:
        print("usage: blender -b --factory-startup --python blender_import_check.py -- FILE.glb...", file=sys.stderr)
        sys.exit(2)
    print(f"blender_import_check: Blender {bpy.app.version_string}")
    failed = 0
    for path in argv:
        try:
            ok, msg = check(path)
        except Exception as e:  # a malformed file or an importer exception is a failure of that file
            ok, msg = False, f"{type(e).__name__}: {e}"
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {path}: {msg}", flush=True)
    print(f"blender_import_check: {len(argv) - failed} of {len(argv)} files imported as expected", flush=True)
    sys.exit(1 if failed else 0)


main()
