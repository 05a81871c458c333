#!/bin/sh
# make interop: Blender (Debian's package) imports every kind of glTF file tendon exports.
#   sh scripts/interop.sh [BUILD]   (BUILD: the build folder with bin/tendon, default build)
# Installs blender and python3-numpy (its glTF importer needs NumPy) with apt-get when missing,
# as root or through sudo, like scripts/install-deps.sh; only this target needs them. Then writes
# into BUILD/interop: the demo's demo.glb (mesh and skin), tendon run of examples/graphs/strafe.json
# and blendmotion.json (mesh and skin), of a graph playing a small generated BVH take (a skin and
# no mesh) and, when the shared data is there, of Fox and CesiumMan (their own meshes), and runs tests/blender_import_check.py on them in Blender: an armature with the
# skin's joint count and an action as long as the baked clip, per file.
set -eu

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
tendon="$build/bin/tendon"
[ -x "$tendon" ] || { echo "interop: no $tendon (build first: make build)" >&2; exit 2; }

missing=""
command -v blender >/dev/null 2>&1 || missing="$missing blender"
# Debian's blender does not depend on python3-numpy, but its glTF importer imports numpy.
[ -d /usr/lib/python3/dist-packages/numpy ] || missing="$missing python3-numpy"
if [ -n "$missing" ]; then
    echo "interop: blender is about 120 MB to download, 500 MB installed"
    # shellcheck disable=SC2086
    sh "$root/scripts/apt_install.sh" interop $missing
fi

out="$build/interop"
rm -rf "$out"
mkdir -p "$out"
echo "interop: exporting into $out"
"$tendon" demo --out "$out/demo" >"$out/demo.log"
"$tendon" run "$root/examples/graphs/strafe.json" --seconds 4 --out "$out/strafe.glb" >"$out/strafe.log"
"$tendon" run "$root/examples/graphs/blendmotion.json" --seconds 3 --out "$out/blendmotion.glb" >"$out/blendmotion.log"

# A BVH take (centimetres, 30 fps, 61 frames): hips, spine, head and a left leg, swaying.
python3 - "$out/sway.bvh" <<'PY'
import math, sys
h = """HIERARCHY
ROOT hips
{
  OFFSET 0 90 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT spine
  {
    OFFSET 0 20 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT head
    {
      OFFSET 0 30 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {
        OFFSET 0 10 0
      }
    }
  }
  JOINT thigh_l
  {
    OFFSET 10 0 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT shin_l
    {
      OFFSET 0 -45 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {
        OFFSET 0 -45 0
      }
    }
  }
}
MOTION
Frames: 61
Frame Time: 0.0333333
"""
rows = []
for f in range(61):
    a = 30 * math.sin(2 * math.pi * f / 30)
    rows.append(" ".join(f"{v:.4f}" for v in (f * 2, 90, 0, 0, 0, 0, 0, a / 3, 0, 0, 0, a / 2, 0, a, 0, 0, max(0, -a), 0)))
open(sys.argv[1], "w").write(h + "\n".join(rows) + "\n")
PY
echo '{"character": {"file": "sway.bvh", "scale": 0.01}, "root": {"type": "clip", "clip": "sway"}}' >"$out/sway_graph.json"
"$tendon" run "$out/sway_graph.json" --seconds 2 --out "$out/sway.glb" >"$out/sway.log"

files="$out/demo/demo.glb $out/strafe.glb $out/blendmotion.glb $out/sway.glb"

# Third-party characters re-exported with their own skinned meshes, when the shared data is there
# (TENDON_DATA, default ../shared/data): Fox running and CesiumMan walking.
data="${TENDON_DATA:-$root/../shared/data}"
case "$data" in /*) ;; *) data="$root/$data" ;; esac
khronos="$data/gltf/khronos"
if [ -f "$khronos/Fox/glTF-Binary/Fox.glb" ] && [ -f "$khronos/CesiumMan/glTF-Binary/CesiumMan.glb" ]; then
    echo "{\"character\": {\"file\": \"$khronos/Fox/glTF-Binary/Fox.glb\"}, \"root\": {\"type\": \"clip\", \"clip\": \"Run\"}}" \
        >"$out/fox_graph.json"
    "$tendon" run "$out/fox_graph.json" --seconds 2 --out "$out/fox.glb" --allow-files "$data" >"$out/fox.log"
    echo "{\"character\": {\"file\": \"$khronos/CesiumMan/glTF-Binary/CesiumMan.glb\"}, \"root\": {\"type\": \"clip\", \"clip\": \"animation_0\"}}" \
        >"$out/cesium_graph.json"
    "$tendon" run "$out/cesium_graph.json" --seconds 2 --out "$out/cesium.glb" --allow-files "$data" >"$out/cesium.log"
    files="$files $out/fox.glb $out/cesium.glb"
else
    echo "interop: SKIP the third-party characters: no Fox.glb and CesiumMan.glb under $khronos (set TENDON_DATA)"
fi

blender --version | head -n 1
# shellcheck disable=SC2086
blender -b --factory-startup --python-exit-code 1 --python "$root/tests/blender_import_check.py" -- \
    $files >"$out/blender.log" 2>&1 || status=$?
grep -E '^(ok  |FAIL|blender_import_check:)' "$out/blender.log" || true
if [ "${status:-0}" -ne 0 ]; then
    echo "interop: Blender's import check failed (exit ${status}); its whole output is in $out/blender.log" >&2
    exit 1
fi
