"""`tendon` and the files it reads: an error names the file once, first (a broken BVH and a GLB cut
short, through info, sample, run's character.file and the second file of mm build); a BVH missing
a '}' says so; the files a file names stay below its folder or a folder the command allows (the
given file's folder, the current folder, TENDON_DATA, --allow-files DIR), symbolic links
followed to where they lead. Usage: files_cli_check.py TENDON_EXECUTABLE SCRATCH_FOLDER"""
import json
import os
import shutil
import struct
import subprocess

from cli_support import SCRATCH as SCRATCH_GIVEN, TENDON, check, finish, write as write_in_scratch

SCRATCH = os.path.abspath(SCRATCH_GIVEN)  # the commands run in other folders


def write(name, content):
    return os.path.abspath(write_in_scratch(name, content))

GOOD_BVH = ("HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\nJOINT B\n{\n"
            "OFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\n}\n"
            "MOTION\nFrames: 3\nFrame Time: 0.5\n0 0 0 0 0 0\n1 0 0 0 0 10\n2 0 0 0 0 20\n")
BROKEN_BVH = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nBOGUS 1\n}\nMOTION\n"  # line 5
NO_BRACE_BVH = GOOD_BVH.replace("}\n}\nMOTION", "}\nMOTION")  # the root's '}' (line 15) gone: MOTION on 15


def glb(document, binary=b""):
    """A GLB of a JSON document and an optional BIN chunk."""
    text = json.dumps(document).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text
    if binary:
        chunks += struct.pack("<II", len(binary), 0x004E4942) + binary
    return struct.pack("<III", 0x46546C67, 2, 12 + len(chunks)) + chunks


def run_in(cwd, *args, data=None):
    """tendon run in folder cwd, with TENDON_DATA set to data (or unset)."""
    env = {k: v for k, v in os.environ.items() if k != "TENDON_DATA"}
    if data:
        env["TENDON_DATA"] = data
    return subprocess.run([os.path.abspath(TENDON), *args], capture_output=True, text=True, cwd=cwd, env=env)


shutil.rmtree(SCRATCH, ignore_errors=True)
for folder in ("docs", "chars", "elsewhere", "bins"):
    os.makedirs(os.path.join(SCRATCH, folder))
elsewhere = os.path.join(SCRATCH, "elsewhere")

# ---- an error names its file, once, first ----
good = write("good.bvh", GOOD_BVH)
broken = write("broken.bvh", BROKEN_BVH)
full = glb({"asset": {"version": "2.0"}, "nodes": [{"name": "a"}]}, b"\1" * 64)
cut = write("cut.glb", full[:60])
bvh_says = "line 5: unknown keyword 'BOGUS' in joint 'A'"
glb_says = f"byte 60: the header's length is {len(full)} bytes but the data has 60"
for name, path, says in (("broken.bvh", broken, bvh_says), ("cut.glb", cut, glb_says)):
    doc = write(f"uses_{name.split('.')[0]}.json", json.dumps({"character": {"file": name}, "root": {"type": "rest"}}))
    for command, args, expected in (
            ("info", [path], f"tendon info: {path}: {says}"),
            ("sample", [path, "--time", "0"], f"tendon sample: {path}: {says}"),
            ("run", [doc], f"tendon run: {doc}: character.file ({name}): {says}"),
            ("mm build", [os.path.join(SCRATCH, "x.tdnmm"), good, path], f"tendon mm build: {path}: {says}")):
        r = run_in(elsewhere, *command.split(), *args)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and lines == [expected] and lines[0].count(name) == 1,
              f"tendon {command} on {name}: exit 2, the file named once: {r.stderr.strip()!r}, expected {expected!r}")

# ---- a BVH missing a '}' ----
no_brace = write("no_brace.bvh", NO_BRACE_BVH)
r = run_in(elsewhere, "info", no_brace)
check(r.returncode == 2 and r.stderr.strip() == f"tendon info: {no_brace}: line 15: MOTION inside joint 'A' (opened at "
      "line 3): a '}' is missing", f"a missing '}}' is told as one: {r.stderr.strip()}")

# ---- the files a file names ----
docs, chars = os.path.join(SCRATCH, "docs"), os.path.join(SCRATCH, "chars")
write("chars/hero.bvh", GOOD_BVH)
write("docs/near.bvh", GOOD_BVH)
climbing = write("docs/climbing.json", json.dumps({"character": {"file": "../chars/hero.bvh"}, "root": {"type": "rest"}}))
absolute = write("docs/absolute.json", json.dumps({"character": {"file": os.path.join(chars, "hero.bvh")},
                                                   "root": {"type": "rest"}}))
near = write("docs/near.json", json.dumps({"character": {"file": "near.bvh"}, "root": {"type": "rest"}}))
hint = "tendon run: --allow-files DIR allows the files below DIR"
r = run_in(elsewhere, "run", near, "--seconds", "0")
check(r.returncode == 0, f"a file beside the document: {r.stderr.strip()}")
r = run_in(elsewhere, "run", climbing, "--seconds", "0")
check(r.returncode == 2 and r.stderr.strip().splitlines() == [
      f"tendon run: {climbing}: character.file (../chars/hero.bvh): its '..' leads outside the document's folder and "
      "the allowed roots", hint], f"a '..' out of the folder: exit 2 with the reason and the hint: {r.stderr.strip()}")
r = run_in(elsewhere, "run", absolute, "--seconds", "0")
check(r.returncode == 2 and "character.file (" + os.path.join(chars, "hero.bvh") + "): an absolute path" in r.stderr,
      f"an absolute path: exit 2 with the reason: {r.stderr.strip()}")
for doc in (climbing, absolute):
    for how, args, cwd, data in (("--allow-files", ["--allow-files", chars], elsewhere, None),
                                 ("--allow-files (relative)", ["--allow-files", "../chars"], elsewhere, None),
                                 ("TENDON_DATA", [], elsewhere, chars),
                                 ("the current folder", [], SCRATCH, None)):
        r = run_in(cwd, "run", doc, "--seconds", "0", *args, data=data)
        check(r.returncode == 0, f"{os.path.basename(doc)} allowed by {how}: {r.stderr.strip()}")
r = run_in(elsewhere, "run", climbing, "--seconds", "0", "--allow-files", docs)
check(r.returncode == 2, "--allow-files of another folder allows nothing more")

# symbolic links: one in the document's folder to a file outside it
link = os.path.join(docs, "linked.bvh")
os.symlink(os.path.join(chars, "hero.bvh"), link)
linked = write("docs/linked.json", json.dumps({"character": {"file": "linked.bvh"}, "root": {"type": "rest"}}))
r = run_in(elsewhere, "run", linked, "--seconds", "0")
check(r.returncode == 2 and "character.file (linked.bvh): a symbolic link on the way leads to '" in r.stderr and
      hint in r.stderr, f"a link to a file outside: refused, naming where it leads: {r.stderr.strip()}")
r = run_in(elsewhere, "run", linked, "--seconds", "0", "--allow-files", chars)
check(r.returncode == 0, f"... allowed where it leads: {r.stderr.strip()}")

# a glTF's buffer in another folder: info, sample and mm build take --allow-files too
times, moves = struct.pack("<2f", 0, 1), struct.pack("<6f", 0, 0, 0, 1, 0, 0)
with open(os.path.join(SCRATCH, "bins", "moves.bin"), "wb") as f:
    f.write(times + moves)
gltf = write("docs/moves.gltf", json.dumps({
    "asset": {"version": "2.0"}, "nodes": [{"name": "a"}],
    "buffers": [{"uri": "../bins/moves.bin", "byteLength": 32}],
    "bufferViews": [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 24}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR"},
                  {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}],
    "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
                    "samplers": [{"input": 0, "output": 1}]}]}))
for command in (["info", gltf], ["sample", gltf, "--time", "1"]):
    r = run_in(elsewhere, *command)
    check(r.returncode == 2 and f"{gltf}: buffers[0] (../bins/moves.bin): its '..' leads outside the asset's folder"
          in r.stderr and "--allow-files DIR" in r.stderr, f"tendon {command[0]}: a buffer out of the folder: {r.stderr.strip()}")
    r = run_in(elsewhere, *command, "--allow-files", os.path.join(SCRATCH, "bins"))
    check(r.returncode == 0, f"tendon {command[0]} --allow-files: {r.stderr.strip()}")
r = run_in(elsewhere, "sample", gltf, "--time", "1", "--json", "--allow-files", os.path.join(SCRATCH, "bins"))
check(r.returncode == 0 and json.loads(r.stdout)["joints"][0]["t"] == [1, 0, 0],
      f"the translation read from the allowed buffer at t = 1 is (1, 0, 0): {r.stdout[:200]}")

# the option itself
r = run_in(elsewhere, "run", near, "--allow-files")
check(r.returncode == 2 and "--allow-files needs a folder" in r.stderr, f"--allow-files without a folder: {r.stderr}")
r = run_in(elsewhere, "info", gltf, *sum((["--allow-files", "x"] for _ in range(17)), []))
check(r.returncode == 2 and "at most 16" in r.stderr, f"17 --allow-files: {r.stderr}")
for command in ("info", "sample", "run", "mm build", "mm run"):
    r = run_in(elsewhere, *command.split(), "--help")
    check(r.returncode == 0 and "--allow-files DIR" in r.stdout, f"tendon {command} --help lists --allow-files")

finish("files_cli_check")
