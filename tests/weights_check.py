"""`tendon weights` against docs/cli.md: weights of small blend spaces worked out by hand
(linear, grid, gradient band in closed form, barycentric), the JSON shape, the --png picture
(a valid PNG of the documented size whose panels show each sample's field), exit codes and
errors naming the JSON path. Usage: weights_check.py TENDON_EXECUTABLE SCRATCH_FOLDER"""
import json
import math
import os
import struct
import zlib

from cli_support import SCRATCH, check, close, finish, read_png, run, write


def space(name, mode, samples):
    """Writes {"blend_space": ...} with samples [(clip, [x, ...]), ...]; returns its path."""
    path = os.path.join(SCRATCH, name)
    with open(path, "w") as f:
        json.dump({"blend_space": {"mode": mode, "samples": [{"clip": c, "at": at} for c, at in samples]}}, f)
    return path


def weights(path, at):
    """The weights --json gives at `at` (a list), or None after recording a failure."""
    r = run("weights", path, "--at", ",".join(repr(float(x)) for x in at), "--json")
    check(r.returncode == 0, f"weights {os.path.basename(path)} at {at}: exit {r.returncode}: {r.stderr.strip()}")
    if r.returncode != 0:
        return None
    doc = json.loads(r.stdout)
    return [w["weight"] for w in doc["weights"]]


# ---- help ----
r = run("weights", "--help")
check(r.returncode == 0 and "usage" in r.stdout.lower() and "--png" in r.stdout, "tendon weights --help")
check("weights" in run("--help").stdout, "tendon --help lists weights")

# ---- linear: samples at 0, 1, 3 (given out of order); at 2 the walk and run share ----
linear = space("linear.json", "linear", [("walk", [1]), ("idle", [0]), ("run", [3])])
r = run("weights", linear, "--at", "2", "--json")
check(r.returncode == 0, f"weights on a linear space: {r.stderr.strip()}")
if r.returncode == 0:
    doc = json.loads(r.stdout)
    check(sorted(doc) == ["at", "weights"], f"JSON keys: {sorted(doc)}")
    check(doc["at"] == [2], f"at echoed: {doc['at']}")
    check([sorted(w) for w in doc["weights"]] == [["clip", "weight"]] * 3, "each weight is {clip, weight}")
    check([w["clip"] for w in doc["weights"]] == ["walk", "idle", "run"], "weights in sample order")
    check(close([w["weight"] for w in doc["weights"]], [0.5, 0, 0.5]), f"linear at 2: {doc['weights']}")
for at, expected in ((0.25, [0.25, 0.75, 0]), (-4, [0, 1, 0]), (3, [0, 0, 1]), (9, [0, 0, 1])):
    w = weights(linear, [at])
    check(w is None or close(w, expected), f"linear at {at}: {w} (expected {expected})")

r = run("weights", linear, "--at", "2")
check(r.returncode == 0 and "walk" in r.stdout and "0.500000" in r.stdout and "linear" in r.stdout,
      f"text output is a table of clip, at, weight: {r.stdout}")

# ---- grid: four corners of [0, 2]^2; bilinear weights ----
grid = space("grid.json", "grid", [("a", [0, 0]), ("b", [2, 0]), ("c", [0, 2]), ("d", [2, 2])])
w = weights(grid, [1, 1])
check(w is None or close(w, [0.25] * 4), f"grid centre: {w}")
w = weights(grid, [0.5, 0.5])  # u = v = 0.25
check(w is None or close(w, [0.5625, 0.1875, 0.1875, 0.0625]), f"grid at (0.5, 0.5): {w}")
w = weights(grid, [-3, 5])  # clamped to the corner (0, 2)
check(w is None or close(w, [0, 0, 1, 0]), f"grid outside clamps: {w}")

# ---- gradient band of two samples: h0 = 1 - (p-p0).(p1-p0)/|p1-p0|^2, h1 likewise, clamped
# at 0 and normalized; for p0 = (0, 0), p1 = (2, 0): w1 = clamp(x / 2, 0, 1) whatever y ----
band = space("band.json", "gradient_band", [("idle", [0, 0]), ("walk", [2, 0])])
for x, y in ((0.5, 0), (0.5, 3), (1.5, -2), (-1, 0.5), (2.5, 0), (1, 0)):
    w1 = min(max(x / 2, 0), 1)
    w = weights(band, [x, y])
    check(w is None or close(w, [1 - w1, w1]), f"gradient band at ({x}, {y}): {w} (expected {[1 - w1, w1]})")
band3 = space("band3.json", "gradient_band", [("low", [0, 0, 0]), ("high", [0, 0, 4])])
w = weights(band3, [1, 2, 1])
check(w is None or close(w, [0.75, 0.25]), f"3D gradient band: {w}")

# ---- barycentric: inside a triangle the weights are the barycentric coordinates ----
tri = space("tri.json", "barycentric", [("a", [0, 0]), ("b", [2, 0]), ("c", [0, 2])])
w = weights(tri, [0.5, 0.5])
check(w is None or close(w, [0.5, 0.25, 0.25]), f"barycentric at (0.5, 0.5): {w}")

# ---- polar gradient band: a sample's own point gives it weight 1; weights sum to 1 ----
polar_samples = [("idle", [0, 0])] + [
    (f"{gait}_{name}", [round(speed * math.sin(a), 6), round(speed * math.cos(a), 6)])
    for gait, speed in (("walk", 1.5), ("run", 4)) for name, a in (("n", 0), ("e", math.pi / 2), ("s", math.pi),
                                                                  ("w", -math.pi / 2))]
polar = space("polar.json", "polar_gradient_band", polar_samples)
w = weights(polar, [4, 0])
check(w is None or close(w, [1 if c == "run_e" else 0 for c, _ in polar_samples]), f"polar at run_e: {w}")
w = weights(polar, [1.1, 2.3])
check(w is None or (abs(sum(w) - 1) < 1e-5 and min(w) >= 0), f"polar weights sum to 1: {w}")


# ---- --png ----
def expected_size(n):
    """The documented layout: ceil(sqrt(n)) columns of 172 pixels, rows of 184, 10 + 32 more."""
    columns = math.ceil(math.sqrt(n))
    rows = math.ceil(n / columns)
    return 10 + 172 * columns, 10 + 184 * rows + 32


def near(c, want, tol=6):
    return all(abs(x - y) <= tol for x, y in zip(c, want))


for name, path, at, n in (("grid", grid, "1,1", 4), ("polar", polar, "1.1,2.3", 9), ("linear", linear, "2", 3),
                          ("band3", band3, "1,2,1", 2)):
    png = os.path.join(SCRATCH, name + ".png")
    if os.path.exists(png):
        os.remove(png)
    r = run("weights", path, "--at", at, "--png", png)
    check(r.returncode == 0 and os.path.exists(png), f"--png on {name}: {r.stderr.strip()}")
    if r.returncode != 0 or not os.path.exists(png):
        continue
    try:
        width, height, pixels = read_png(png)
    except (AssertionError, zlib.error, struct.error, TypeError) as e:
        check(False, f"{name}.png is not a valid 8-bit RGB PNG: {e}")
        continue
    check((width, height) == expected_size(n), f"{name}.png is {width}x{height}, expected {expected_size(n)}")
    colours = {c for row in pixels for c in row}
    check(len(colours) > 50, f"{name}.png has {len(colours)} colours: a picture, not a blank")
    if name == "grid":
        # The view is [-0.3, 2.3]^2 (the corners padded by 15%); panel s's inside starts at
        # (11 + 172 * column, 23 + 184 * row). Near the corner (0, 0) sample a has weight 1
        # (the ramp's yellow end) and sample b weight 0 (its dark violet end).
        check(near(pixels[180][13], (253, 231, 37)), f"grid panel a is yellow at its sample: {pixels[180][13]}")
        check(near(pixels[180][13 + 172], (68, 1, 84)), f"grid panel b is violet at a's corner: {pixels[180][185]}")
        # The square is symmetric about its centre (x, y -> 2 - x, 2 - y swaps a with d and b
        # with c): so are the panels, pixel (i, j) of one being (159 - i, 159 - j) of the other.
        def at_pixel(s, i, j):
            return pixels[23 + 184 * (s // 2) + j][11 + 172 * (s % 2) + i]
        for s, t in ((0, 3), (1, 2)):
            for i, j in ((70, 80), (40, 100), (120, 30)):
                check(at_pixel(s, i, j) == at_pixel(t, 159 - i, 159 - j),
                      f"grid panels {s} and {t} mirror each other at ({i}, {j})")

# ---- bad input: exit 2, the error naming the place ----
def bad(args, needle, what):
    r = run("weights", *args)
    check(r.returncode == 2 and needle in r.stderr, f"{what}: exit {r.returncode}, stderr {r.stderr.strip()!r}")


missing = os.path.join(SCRATCH, "missing.json")
bad([missing, "--at", "0"], "missing.json", "a missing file")
bad([], "required", "no file")
bad([linear], "--at", "no --at")
bad([linear, "--at"], "--at", "--at without a value")
bad([linear, "--at", "1,2"], "2 coordinates", "--at with too many coordinates")
bad([grid, "--at", "1"], "1 coordinate", "--at with too few coordinates")
bad([grid, "--at", "1,x"], "'x'", "--at with a non-number")
bad([grid, "--at", "1,,2"], "comma-separated", "--at with an empty coordinate")
bad([grid, "--at", "1,nan"], "'nan'", "--at with NaN")
bad([grid, "--at", "1,1", "--frobnicate"], "--frobnicate", "an unknown option")
bad([grid, "--at", "1,1", "--png", os.path.join(SCRATCH, "no", "such", "dir.png")], "dir.png",
    "--png into a folder that does not exist")

text = os.path.join(SCRATCH, "broken.json")
with open(text, "w") as f:
    f.write('{"blend_space": {\n  "mode": "linear",\n  "samples": [{"clip": "a", "at": [0]},]\n}}\n')
bad([text, "--at", "0"], "line 3", "malformed JSON names the line")
bad([space("mode.json", "bicubic", [("a", [0])]), "--at", "0"], "blend_space.mode", "an unknown mode")
r = run("weights", os.path.join(SCRATCH, "mode.json"), "--at", "0")
check("gradient_band" in r.stderr, f"an unknown mode lists the valid ones: {r.stderr.strip()}")
bad([space("len.json", "gradient_band", [("a", [0, 0]), ("b", [1, 0, 0])]), "--at", "0,0"],
    "blend_space.samples[1].at", "at lengths that differ")
bad([space("wrong.json", "grid", [("a", [0, 0]), ("b", [1, "x"])]), "--at", "0,0"],
    "blend_space.samples[1].at[1]", "a coordinate that is not a number")
bad([space("dup.json", "gradient_band", [("a", [0, 0]), ("b", [1, 0]), ("c", [1, 0])]), "--at", "0,0"],
    "blend_space.samples[", "two samples at one point")
bad([space("huge.json", "rbf", [("a", [0]), ("b", [1e39])]), "--at", "0"], "blend_space.samples[1].at[0]",
    "a coordinate beyond float range")

finish("weights")
