"""Motion matching in packs through the CLI, against docs/cli.md and docs/pack-format.md: the
generated humanoid packed, a database built from that pack (`tendon mm build`), a graph document
whose motion_match node plays it packed with `tendon pack --graph`; the pack's MMDB section read
back here from the format's tables alone (its name in the string table, its skeleton section,
its image: the database file's bytes exactly); `tendon info` listing it with the frame and
feature counts the database file's own header gives; `tendon run` on the pack against the same
document from its JSON; `tendon mm run` on the pack against the database file and the clips it
was built from (the same searches and switches: a search reads the database and the input
alone); errors and exit codes.
Usage: pack_mm_cli_check.py TENDON_EXECUTABLE SCRATCH_FOLDER"""
import json
import os
import re
import struct

from cli_support import SCRATCH, check, finish, run, write

humanoid = os.path.join(SCRATCH, "humanoid.tdn")
db = os.path.join(SCRATCH, "loco.tdnmm")
graph = os.path.join(SCRATCH, "mm.json")
packed = os.path.join(SCRATCH, "mm.tdn")

r = run("pack", "humanoid", "--out", humanoid)
check(r.returncode == 0, f"pack humanoid: {r.stderr}")
r = run("mm", "build", db, humanoid, "--mirror", "--rate", "30", "--offsets", "5,10,15")
check(r.returncode == 0, f"mm build from the pack: {r.stderr}")
clips = [c["name"] for c in json.loads(run("info", humanoid, "--json").stdout)["clips"]]
document = {"character": {"file": "humanoid.tdn"},
            "parameters": [{"name": "move", "type": "vec2"}, {"name": "turn"}],
            "root_motion": {"joint": "root"},
            "root": {"type": "motion_match", "database": "loco.tdnmm", "clips": clips, "velocity": "move",
                     "facing": "turn", "bias": 0.05}}
write("mm.json", json.dumps(document))

# ---- tendon pack --graph ----
r = run("pack", "--graph", graph, "--out", packed)
check(r.returncode == 0 and re.search(r"  database     loco\.tdnmm +\d+ bytes", r.stdout) is not None,
      f"pack --graph reports the database: {r.stdout} {r.stderr}")
check(r.stdout.count("compressed for a motion_match node") == len(clips),
      f"and every clip the node plays: {r.stdout}")
check(re.search(r"  graph        \S+ +\d+ clips, \d+ bytes of JSON\n", r.stdout) is not None,
      f"a motion-matching graph is packed as its text alone (no definition): {r.stdout}")

with open(packed, "rb") as f:
    data = f.read()
with open(db, "rb") as f:
    database = f.read()
table, count = struct.unpack_from("<Q", data, 24)[0], struct.unpack_from("<I", data, 32)[0]
sections = [struct.unpack_from("<IIQQ", data, table + 32 * s) for s in range(count)]
kinds = [struct.pack("<I", k).decode() for k, _, _, _ in sections]
strings = [o for k, _, o, _ in sections if k == struct.unpack("<I", b"STRS")[0]]
mmdb = [s for s, k in enumerate(kinds) if k == "MMDB"]
check(len(mmdb) == 1 and len(strings) == 1, f"one MMDB section and a string table: {kinds}")
if mmdb and strings:
    _, align, offset, size = sections[mmdb[0]]
    name, skeleton, image_size, image_at = struct.unpack_from("<IIII", data, offset)
    check(align >= 32 and offset % align == 0, f"the section is aligned: {align}, {offset}")
    check(data[strings[0] + name:].split(b"\0")[0] == b"loco.tdnmm", "the database is named after its file")
    check(kinds[skeleton] == "SKEL", f"its skeleton is section {skeleton}, a {kinds[skeleton]}")
    check(image_at % 16 == 0 and image_at >= 64 and image_at + image_size <= size, "its image lies in the section")
    check(data[offset + image_at:offset + image_at + image_size] == database,
          "its image is the database file's bytes")
    check(all(b == 0 for b in data[offset + 16:offset + 64]), "the header's reserved bytes are zero")
check("GDEF" not in kinds, f"no definition of a motion-matching graph: {kinds}")

# ---- tendon info ----
frames, features, db_clips = struct.unpack_from("<iii", database, 12)
r = run("info", packed)
check(r.returncode == 0 and "1 graph, 1 database," in r.stdout, f"info counts the database: {r.stdout}")
check(re.search(rf"0  loco\.tdnmm +skeleton 0, +{frames} frames, +{features} features, +{db_clips} clips, +"
                rf"{len(database)} bytes", r.stdout) is not None, f"info lists the database: {r.stdout}")
listed = json.loads(run("info", packed, "--json").stdout)["databases"]
check(listed == [{"name": "loco.tdnmm", "skeleton": 0, "frames": frames, "features": features, "clips": db_clips,
                  "bytes": len(database)}], f"info --json lists the database: {listed}")
r = run("info", humanoid)
check(r.returncode == 0 and "database" not in r.stdout, "a pack without databases does not mention them")

# ---- tendon run: the pack's graph and its JSON ----
write("params.json", json.dumps({"events": [{"time": 0, "set": {"move": [0, 1.4]}},
                                            {"time": 1.5, "set": {"move": [1.4, 0]}}]}))
ended = []
for source in (packed, graph):
    r = run("run", source, "--params", os.path.join(SCRATCH, "params.json"), "--seconds", "3")
    m = re.search(r"root motion: ended at \(([-\d.e]+), ([-\d.e]+), ([-\d.e]+)\)", r.stdout)
    check(r.returncode == 0 and m is not None, f"run {source}: {r.stdout} {r.stderr}")
    ended.append([float(v) for v in m.groups()] if m else [0, 0, 0])
# the pack's clips are compressed once more than the JSON's (its character is the pack):
# within a centimetre after 3 s, where another frame would be decimetres away
check(all(abs(a - b) < 0.01 for a, b in zip(*ended)) and abs(ended[0][2]) > 1.0,
      f"the pack's graph walks where its JSON walks: {ended}")

# ---- tendon mm run on the pack ----
write("path.json", json.dumps({"segments": [{"duration": 2, "speed": 1.4, "heading": 0},
                                            {"duration": 2, "speed": 1.4, "heading": 90}]}))
path = os.path.join(SCRATCH, "path.json")
from_pack = run("mm", "run", packed, "--path", path, "--json")
from_file = run("mm", "run", db, humanoid, "--path", path, "--json")
check(from_pack.returncode == 0 and from_file.returncode == 0, f"mm run: {from_pack.stderr} {from_file.stderr}")
if from_pack.returncode == 0 and from_file.returncode == 0:
    a, b = json.loads(from_pack.stdout), json.loads(from_file.stdout)
    check(a["searches"] == b["searches"] and a["switches"] == b["switches"] and a["frames"] == b["frames"] and
          a["searches"] > 0, f"the same searches and switches from the pack as from the file: {a} {b}")
    check(abs(a["travelled"] - b["travelled"]) < 0.01, f"and the same way travelled: {a} {b}")
r = run("mm", "run", packed, "--database", "nope", "--path", path)
check(r.returncode == 2 and "no database named 'nope'" in r.stderr, f"--database of a missing name: {r.stderr}")
r = run("mm", "run", packed, "--database", "loco.tdnmm", "--path", path)
check(r.returncode == 0, f"--database of its name: {r.stderr}")
r = run("mm", "run", humanoid, "--path", path)
check(r.returncode == 2 and "holds 0 databases" in r.stderr, f"a pack without a database: {r.stderr}")
r = run("mm", "run", db, humanoid, "--database", "loco.tdnmm", "--path", path)
check(r.returncode == 2 and "not a pack" in r.stderr, f"--database with a database file: {r.stderr}")

finish("pack_mm_cli_check")
