#!/bin/sh
# Regenerates the pictures of docs/pictures.md (docs/pictures/*.png) with the tendon tool's
# preview renderer (`tendon run --render`) and blend-space plots (`tendon weights --png`).
# Usage: scripts/make_pictures.sh [TENDON] (default build/bin/tendon; build it first with
# `make build` or cmake). Run from anywhere; writes only docs/pictures/*.png. The renderer is
# deterministic, so a rerun on the same build gives the same files.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
tendon="${1:-$root/build/bin/tendon}"
[ -x "$tendon" ] || { echo "make_pictures: no $tendon (build first)" >&2; exit 2; }
out="$root/docs/pictures"
graphs="$root/examples/graphs"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
# Contact sheets of 8 cells of 240x135 keep each picture small.
sheet="--sheet 8 --render-size 240x135"

# 1. Strafing (examples/graphs/strafe.json): run ahead, sidestep, sidestep the other way, turn on the spot.
cat > "$tmp/strafe.json" <<'JSON'
{"events": [
  {"time": 0.3, "set": {"moveSpeed": 1, "faceForward": true}},
  {"time": 1.2, "ramp": {"sideStrength": 1.0}, "duration": 0.4},
  {"time": 2.4, "set": {"faceRight": true}},
  {"time": 3.4, "set": {"turnLeft": true, "moveSpeed": 0, "turnSpeed": 1}}
]}
JSON
"$tendon" run "$graphs/strafe.json" --params "$tmp/strafe.json" --seconds 4.5 --render "$out/strafe.png" $sheet >/dev/null

# 2. The five-layer showcase (examples/graphs/blendmotion.json): walk off, wave while walking
#    (a masked upper-body layer, its weight set as examples/blendmotion.c sets it), then stop.
cat > "$tmp/blendmotion.json" <<'JSON'
{"events": [
  {"time": 0.3, "set": {"move": [0, 1.4], "speed": 1.4, "upperWeight": 1}},
  {"time": 0.5, "fire": "wave"},
  {"time": 2.6, "set": {"move": [0, 0], "speed": 0, "upperWeight": 0}}
]}
JSON
"$tendon" run "$graphs/blendmotion.json" --params "$tmp/blendmotion.json" --seconds 4.5 --render "$out/blendmotion.png" $sheet >/dev/null

# 3. Foot placement over uneven ground (examples/graphs/walk_uneven.json on sine bumps), seen
#    from the side: green discs are feet in contact.
"$tendon" run "$graphs/walk_uneven.json" --seconds 3 --ground bumps:0.05,2 --camera 90,10 \
    --render "$out/walk_uneven.png" $sheet >/dev/null

# 4. A 2D locomotion blend space (the samples of blendmotion.json's "moving"): each sample's weight field.
cat > "$tmp/space.json" <<'JSON'
{"blend_space": {"mode": "polar_gradient_band",
                 "samples": [{"clip": "walk_forward", "at": [0, 1.4]}, {"clip": "run_forward", "at": [0, 3.5]},
                             {"clip": "walk_backward", "at": [0, -1.4]},
                             {"clip": "strafe_left", "at": [1.4, 0]}, {"clip": "strafe_right", "at": [-1.4, 0]}]}}
JSON
"$tendon" weights "$tmp/space.json" --at 0.7,2 --png "$out/blend_space.png" >/dev/null

ls -l "$out"/*.png
