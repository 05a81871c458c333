"""`tendon run --render` (docs/cli.md, Render): contact sheets of the documented size whose cells
differ, GIFs decoded here (an LZW decoder of its own) to the right frame count, size, delays and
loop, MP4 frames handed to an ffmpeg found on PATH (a stand-in that counts the bytes; a real one
when installed), exit 2 for an unknown extension and bad options, exit 1 for a missing ffmpeg, IK targets
and contact discs drawn, no progress off a terminal, the run's other output unchanged, the
skinned mesh by default (differing from --render-style capsules), a bumps ground differing
from a flat one, and a bad --render-style refused.
Usage: render_check.py TENDON_EXECUTABLE SCRATCH_FOLDER EXAMPLE_GRAPH_FOLDER"""
import json
import os
import shutil
import stat
import struct
import subprocess
import sys

from cli_support import SCRATCH, TENDON, check, finish, read_png, run, write

GRAPHS = sys.argv[3]
WALK = os.path.join(GRAPHS, "walk_uneven.json")
CONTACT, TARGET = (60, 178, 92), (214, 40, 48)


def tr(*args):
    """tendon run ARGS"""
    return run("run", *args)


def lzw_decode(data, min_size):
    """GIF's variable-length LZW: codes packed least significant bit first."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    size, table, out, prev = min_size + 1, None, bytearray(), None
    reset = lambda: [bytes([i]) for i in range(clear)] + [b"", b""]
    table = reset()
    bits, nbits, at = 0, 0, 0
    while True:
        while nbits < size and at < len(data):
            bits |= data[at] << nbits
            nbits += 8
            at += 1
        if nbits < size:
            break
        code = bits & ((1 << size) - 1)
        bits >>= size
        nbits -= size
        if code == clear:
            table, size, prev = reset(), min_size + 1, None
            continue
        if code == end:
            break
        if code < len(table):
            entry = table[code]
            if prev is not None:
                table.append(prev + entry[:1])
        else:
            entry = prev + prev[:1]
            table.append(entry)
        out += entry
        prev = entry
        if len(table) == (1 << size) and size < 12:
            size += 1
    return bytes(out)


def read_gif(path):
    """{'width', 'height', 'loop', 'frames': [(delay_cs, pixels as (r, g, b) tuples row by row)]}."""
    data = open(path, "rb").read()
    assert data[:6] == b"GIF89a", "GIF89a signature"
    width, height, packed = struct.unpack("<HHB", data[6:11])
    at, palette = 13, []
    if packed & 0x80:
        n = 2 << (packed & 7)
        palette = [tuple(data[at + 3 * i:at + 3 * i + 3]) for i in range(n)]
        at += 3 * n
    gif = {"width": width, "height": height, "loop": False, "frames": []}
    delay = None

    def blocks():
        nonlocal at
        body = bytearray()
        while data[at]:
            body += data[at + 1:at + 1 + data[at]]
            at += 1 + data[at]
        at += 1
        return bytes(body)

    while at < len(data):
        kind = data[at]
        at += 1
        if kind == 0x3B:
            break
        if kind == 0x21:
            label = data[at]
            at += 1
            body = blocks()
            if label == 0xF9:
                delay = struct.unpack("<H", body[1:3])[0]
            elif label == 0xFF and body.startswith(b"NETSCAPE2.0"):
                gif["loop"] = True
        elif kind == 0x2C:
            left, top, w, h, packed = struct.unpack("<HHHHB", data[at:at + 9])
            at += 9
            assert (left, top, w, h) == (0, 0, width, height) and not packed & 0x80, "full frames, global palette"
            min_size = data[at]
            at += 1
            indices = lzw_decode(blocks(), min_size)
            assert len(indices) >= w * h, f"frame has {len(indices)} of {w * h} pixels"
            gif["frames"].append((delay, [palette[i] for i in indices[:w * h]]))
        else:
            raise AssertionError(f"unexpected block {kind:#x}")
    return gif


def cells(rows, w, h, count, columns, margin=8, label=13):
    """The contact sheet's cells as tuples of pixels, in order."""
    out = []
    for n in range(count):
        x0, y0 = margin + (n % columns) * (w + margin), margin + (n // columns) * (h + label + margin)
        out.append(tuple(p for y in range(y0, y0 + h) for p in rows[y][x0:x0 + w]))
    return out


def fresh(name):
    path = os.path.join(SCRATCH, name)
    if os.path.exists(path):
        os.remove(path)
    return path


# ---- the contact sheet: 12 cells of 320x180 in 4 columns, labels under each ----
sheet = fresh("walk.png")
plain = tr(WALK, "--seconds", "2")
r = tr(WALK, "--seconds", "2", "--render", sheet)
check(r.returncode == 0, f"--render walk.png: exit {r.returncode}: {r.stderr.strip()}")
check(r.stderr == "", f"no progress (nor anything) on stderr off a terminal: {r.stderr!r}")
check(r.stdout.startswith(plain.stdout) and r.stdout[len(plain.stdout):].startswith(f"rendered: {sheet} (12 frames drawn"),
      "the run's summary is unchanged, one line added")
if r.returncode == 0:
    w, h, rows = read_png(sheet)
    check((w, h) == (8 + 4 * (320 + 8), 8 + 3 * (180 + 13 + 8)), f"sheet size {w}x{h}")
    c = cells(rows, 320, 180, 12, 4)
    check(all(c[i] != c[j] for i in range(12) for j in range(i + 1, 12)), "every cell differs from every other")
    greens = sum(p == CONTACT or (abs(p[0] - 60) < 30 and p[1] > p[0] + 60 and p[1] > p[2] + 40) for cell in c for p in cell)
    check(greens > 100, f"contact discs are drawn ({greens} green pixels)")
    label_dark = sum(sum(v) < 200 for y in range(8 + 180 + 2, 8 + 180 + 12) for v in rows[y][8:328])
    check(label_dark > 20, "the first cell's time is written under it")

sheet5 = fresh("five.png")
r = tr(WALK, "--seconds", "1", "--render", sheet5, "--sheet", "5", "--render-size", "160x90")
check(r.returncode == 0, f"--sheet 5 --render-size 160x90: {r.stderr.strip()}")
if r.returncode == 0:
    w, h, rows = read_png(sheet5)
    check((w, h) == (8 + 4 * 168, 8 + 2 * (90 + 21)), f"5 cells of 160x90: {w}x{h}")
    c = cells(rows, 160, 90, 8, 4)
    check(len(set(c[5])) == 1 and len(set(c[:5][0])) > 10, "cells 1-5 drawn, the rest of the grid paper")

# ---- --camera: a different view ----
side = fresh("side.png")
r = tr(WALK, "--seconds", "1", "--render", side, "--sheet", "1", "--camera", "90,5")
front = fresh("front.png")
r2 = tr(WALK, "--seconds", "1", "--render", front, "--sheet", "1")
check(r.returncode == 0 and r2.returncode == 0, "--camera 90,5")
if r.returncode == 0 and r2.returncode == 0:
    check(read_png(side)[2] != read_png(front)[2], "--camera changes the picture")
again = fresh("front2.png")
tr(WALK, "--seconds", "1", "--render", again, "--sheet", "1")
check(open(again, "rb").read() == open(front, "rb").read(), "rendering is deterministic (byte-identical PNGs)")

# ---- GIF: every 2nd frame at 60 fps (delays of 3 and 4 hundredths summing to the run), looping ----
anim = fresh("walk.gif")
r = tr(WALK, "--seconds", "1", "--render", anim, "--render-size", "160x90")
check(r.returncode == 0, f"--render walk.gif: {r.stderr.strip()}")
if r.returncode == 0:
    umask = os.umask(0o022)
    os.umask(umask)
    check(stat.S_IMODE(os.stat(anim).st_mode) == 0o666 & ~umask, "the GIF is created like any file (0666 less the umask)")
    g = read_gif(anim)
    frames = g["frames"]
    check((g["width"], g["height"]) == (160, 90), f"GIF size {g['width']}x{g['height']}")
    check(len(frames) == 31, f"61 run frames at 60 fps -> every 2nd: 31 GIF frames, not {len(frames)}")
    delays = [d for d, _ in frames]
    check(set(delays) <= {3, 4} and sum(delays) == round(100 * 31 * 2 / 60), f"delays {delays}")
    check(g["loop"], "the GIF loops (NETSCAPE2.0)")
    check(len({tuple(p) for _, p in frames}) == len(frames), "every GIF frame differs")
    blue = sum(b > r_ + 60 and b > 150 for r_, _, b in frames[0][1])
    check(blue > 8, f"the character's left side (blue) is in the first frame ({blue} pixels)")
anim25 = fresh("walk25.gif")
r = tr(WALK, "--seconds", "1", "--fps", "25", "--render", anim25, "--render-size", "64x36")
if r.returncode == 0:
    g = read_gif(anim25)
    check(len(g["frames"]) == 26 and all(d == 4 for d, _ in g["frames"]), "25 fps: every frame, 4 hundredths each")
else:
    check(False, f"--fps 25 .gif: {r.stderr.strip()}")

# ---- MP4: raw RGB frames into ffmpeg from PATH (a stand-in that counts them) ----
fake_dir = os.path.join(SCRATCH, "fake-bin")
os.makedirs(fake_dir, exist_ok=True)
fake = os.path.join(fake_dir, "ffmpeg")
with open(fake, "w") as f:
    f.write(f"#!{sys.executable}\n"
            "import sys\n"
            "n = 0\n"
            "while True:\n"
            "    b = sys.stdin.buffer.read(65536)\n"
            "    if not b:\n"
            "        break\n"
            "    n += len(b)\n"
            "open(sys.argv[-1], 'w').write(' '.join(sys.argv[1:]) + '\\n' + str(n) + '\\n')\n")
os.chmod(fake, 0o755)
env = dict(os.environ, PATH=fake_dir)
movie = fresh("walk.mp4")
r = subprocess.run([TENDON, "run", WALK, "--seconds", "1", "--render", movie, "--render-size", "160x90"],
                   capture_output=True, text=True, env=env)
check(r.returncode == 0, f"--render walk.mp4 with ffmpeg on PATH: {r.stderr.strip()}")
if r.returncode == 0:
    args, count = open(movie).read().split("\n")[:2]
    check(int(count) == 61 * 160 * 90 * 3, f"61 frames of 160x90 RGB piped to ffmpeg, {count} bytes")
    check("-f rawvideo -pix_fmt rgb24 -s 160x90 -framerate 60 -i pipe:0" in args, f"ffmpeg arguments: {args}")
# an ffmpeg that fails once it has read the frames: exit 1, the MP4 already there as it was (ffmpeg
# writes a temporary beside it, removed), its permission bits too
failing_dir = os.path.join(SCRATCH, "failing-bin")
os.makedirs(failing_dir, exist_ok=True)
with open(os.path.join(failing_dir, "ffmpeg"), "w") as f:
    f.write(f"#!{sys.executable}\nimport sys\nsys.stdin.buffer.read()\nopen(sys.argv[-1], 'w').write('half')\nsys.exit(3)\n")
os.chmod(os.path.join(failing_dir, "ffmpeg"), 0o755)
kept = fresh("kept.mp4")
with open(kept, "w") as f:
    f.write("the old movie")
os.chmod(kept, 0o640)
r = subprocess.run([TENDON, "run", WALK, "--seconds", "1", "--render", kept, "--render-size", "160x90"],
                   capture_output=True, text=True, env=dict(os.environ, PATH=failing_dir))
check(r.returncode == 1 and "ffmpeg failed (exit 3)" in r.stderr and open(kept).read() == "the old movie"
      and stat.S_IMODE(os.stat(kept).st_mode) == 0o640 and not [n for n in os.listdir(SCRATCH) if n.startswith(".kept.mp4.")],
      f"a failing ffmpeg: exit 1, the old MP4 kept, no temporary left ({r.returncode}: {r.stderr.strip()})")
r = subprocess.run([TENDON, "run", WALK, "--seconds", "1", "--render", fresh("odd.mp4"), "--render-size", "161x90"],
                   capture_output=True, text=True, env=env)
check(r.returncode == 2 and "even" in r.stderr, f"an odd-sized MP4: exit 2 ({r.returncode}: {r.stderr.strip()})")
if shutil.which("ffmpeg"):
    real = fresh("real.mp4")
    r = tr(WALK, "--seconds", "1", "--render", real, "--render-size", "160x90")
    check(r.returncode == 0 and os.path.getsize(real) > 1000, f"a real ffmpeg writes the MP4: {r.stderr.strip()}")
    if r.returncode == 0 and shutil.which("ffprobe"):
        p = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=width,height,nb_read_frames,r_frame_rate", "-of", "json", real],
                           capture_output=True, text=True)
        st = json.loads(p.stdout)["streams"][0] if p.returncode == 0 else {}
        check((st.get("width"), st.get("height"), st.get("nb_read_frames"), st.get("r_frame_rate")) ==
              (160, 90, "61", "60/1"), f"ffprobe: 61 frames of 160x90 at 60 fps in the MP4: {st or p.stderr}")
else:
    print("render_check: no ffmpeg installed; the MP4 was checked with a stand-in only")

# ---- missing ffmpeg, unknown extensions and bad options: exit 2, nothing written ----
empty_dir = os.path.join(SCRATCH, "empty-bin")
os.makedirs(empty_dir, exist_ok=True)
missing = fresh("none.mp4")
r = subprocess.run([TENDON, "run", WALK, "--seconds", "1", "--render", missing], capture_output=True, text=True,
                   env=dict(os.environ, PATH=empty_dir))
# a missing tool is not bad input: exit 1, saying what to install and how, before the run starts
check(r.returncode == 1 and f"tendon run: {missing}: writing an MP4 needs the ffmpeg program, which is not on PATH: "
      "install it (Debian and Ubuntu: apt-get install ffmpeg;" in r.stderr and "render a .gif or .png" in r.stderr
      and r.stdout == "" and not os.path.exists(missing),
      f"no ffmpeg on PATH: exit 1 naming it and how to get it ({r.returncode}: {r.stderr.strip()})")
for bad in (["--render", os.path.join(SCRATCH, "x.jpg")], ["--render", os.path.join(SCRATCH, "noext")],
            ["--render", sheet, "--render-size", "12x12"], ["--render", sheet, "--render-size", "640"],
            ["--render", sheet, "--camera", "40"], ["--render", sheet, "--camera", "40,95"],
            ["--render", sheet, "--camera", "40,10,-1"], ["--render", sheet, "--sheet", "0"],
            ["--render"]):
    r = tr(WALK, "--seconds", "1", *bad)
    check(r.returncode == 2 and r.stderr.strip() != "", f"{' '.join(bad)}: exit 2 ({r.returncode}: {r.stderr.strip()})")
r = tr(WALK, "--seconds", "1", "--render", os.path.join(SCRATCH, "no-such-dir", "x.png"))
check(r.returncode == 2, f"a PNG that cannot be created: exit 2 ({r.returncode})")
r = tr(WALK, "--seconds", "1", "--render", os.path.join(SCRATCH, "no-such-dir", "x.gif"))
check(r.returncode == 2, f"a GIF that cannot be created: exit 2 ({r.returncode})")

# ---- IK targets: a red cross where the two-bone job's target is, none when its weight is 0 ----
def reach_graph(weight):
    return write(f"reach_{weight}.json", (
        '{"character": {"generated": "humanoid"},'
        ' "parameters": [{"name": "reach", "type": "vec3", "value": [-0.45, 1.25, 0.35]},'
        f'                {{"name": "w", "type": "float", "value": {weight}}}],'
        ' "root": {"type": "clip", "clip": "idle"},'
        ' "ik": [{"kind": "two_bone", "joints": ["upperarm_r", "lowerarm_r", "hand_r"], "target": "reach",'
        '         "weight": "w"}]}'))


for weight, want in ((1, True), (0, False)):
    out = fresh(f"reach_{weight}.png")
    r = tr(reach_graph(weight), "--seconds", "0.5", "--render", out, "--sheet", "1")
    check(r.returncode == 0, f"IK graph (weight {weight}): {r.stderr.strip()}")
    if r.returncode == 0:
        red = sum(p == TARGET for row in read_png(out)[2] for p in row)
        check((red >= 10) == want, f"IK target cross drawn with weight {weight}: {red} pixels")

# ---- --render-style and --ground: the humanoid's skinned mesh by default, capsules on request;
# the ground drawn is the --ground's ----
style = {}
for name, extra in (("default", []), ("mesh", ["--render-style", "mesh"]), ("capsules", ["--render-style", "capsules"]),
                    ("flat", ["--ground", "flat"]), ("bumps", ["--ground", "bumps:0.08,1.5"])):
    path = fresh(f"style_{name}.png")
    r = tr(WALK, "--seconds", "1", "--sheet", "2", "--render", path, *extra)
    check(r.returncode == 0, f"--render with {extra}: exit {r.returncode}: {r.stderr.strip()}")
    style[name] = read_png(path)[2] if r.returncode == 0 else None
check(style["default"] is not None and style["default"] == style["mesh"], "the default style is the mesh for the humanoid")
check(style["mesh"] is not None and style["mesh"] != style["capsules"], "a mesh render differs from a capsules render")
check(style["flat"] is not None and style["flat"] != style["bumps"], "a bumps ground render differs from a flat one")
r = tr(WALK, "--seconds", "1", "--render", fresh("bad_style.png"), "--render-style", "wire")
check(r.returncode == 2 and "--render-style" in r.stderr, f"an unknown --render-style: exit 2 naming it ({r.returncode})")

# ---- a camera that follows the character frames its height too: a walk, then a jump with the
# arms thrown up (the humanoid's jump clip) stays inside every cell of the sheet ----
jump_graph = {"character": {"generated": "humanoid"},
              "parameters": [{"name": "jump", "type": "trigger"}],
              "root_motion": {"joint": "root", "rotation": "yaw", "extract": True},
              "root": {"type": "state_machine", "initial": "walk",
                       "states": [{"name": "walk", "node": {"type": "clip", "clip": "walk_forward"}},
                                  {"name": "jump", "node": {"type": "clip", "clip": "jump", "wrap": "clamp"}}],
                       "transitions": [{"from": "walk", "to": "jump", "duration": 0.2,
                                        "conditions": [{"param": "jump"}]}]}}
jump_sheet = fresh("jump.png")
r = tr(write("jump.json", json.dumps(jump_graph)), "--seconds", "4.5", "--render", jump_sheet, "--sheet", "12",
       "--render-style", "capsules", "--params", write("jump_timeline.json", json.dumps({"events": [{"time": 3, "fire": "jump"}]})))
check(r.returncode == 0, f"render a walk and a jump: {r.stderr}")
if r.returncode == 0:
    w, h, rows = read_png(jump_sheet)
    # per cell, the first row from its top with anything but sky (one colour per row): the horizon,
    # or the character where it rises above it
    tops = []
    for cell in range(12):
        x0, y0 = 8 + (cell % 4) * (320 + 8), 8 + (cell // 4) * (180 + 13 + 8)
        top = next((y for y in range(180) if len(set(rows[y0 + y][x0:x0 + 320])) > 1), 180)
        tops.append(top)
    # cell 9 is frame round(9 x 270 / 11) = 221, 3.68 s: in the air, hands above the head
    check(min(tops) >= 2 and tops[9] < min(tops[:8]),
          f"nothing reaches a cell's top edge, the jump reaching highest: the first drawn rows {tops}")
    print(f"render_check: the jump sheet's first drawn rows per cell: {tops}")

finish("render_check")
