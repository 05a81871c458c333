"""What the command-line tests share: running `tendon`, recording checks, comparing numbers,
writing scratch files, reading PNG pictures. The scripts are run as SCRIPT TENDON_EXECUTABLE SCRATCH_FOLDER."""
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

TENDON, SCRATCH = sys.argv[1], sys.argv[2]
os.makedirs(SCRATCH, exist_ok=True)
failures = []


def run(*args):
    return subprocess.run([TENDON, *args], capture_output=True, text=True)


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAILED:", what, file=sys.stderr)


def close(a, b, tol=1e-5):
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b))


def load(path):
    """A JSON file's document."""
    with open(path) as f:
        return json.load(f)


def validate_gltf(files, validate_js, modules, name):
    """The Khronos glTF validator (tests/gltf_validate.js) on files: a check that it accepts them,
    or, without node or the validator's module, a visible skip (a failure under CI=true).
    Returns the validator's output ("" when skipped)."""
    node = shutil.which("node") or shutil.which("nodejs")
    if not node or not modules or not os.path.exists(os.path.join(modules, "gltf-validator", "package.json")):
        why = f"node ({node}) or the validator ({modules}/gltf-validator) is missing; run scripts/install-deps.sh"
        check(os.environ.get("CI") != "true", f"the glTF validator: {why} (a failure under CI=true)")
        print(f"{name}: SKIP the glTF validator: {why}")
        return ""
    v = subprocess.run([node, validate_js, "--modules", modules, *files], capture_output=True, text=True)
    print(v.stdout.strip())
    check(v.returncode == 0, f"the Khronos validator accepts {', '.join(files)}: {v.stdout} {v.stderr}")
    return v.stdout


def write(name, content):
    path = os.path.join(SCRATCH, name)
    binary = isinstance(content, bytes)
    with open(path, "wb" if binary else "w", newline=None if binary else "") as f:
        f.write(content)
    return path


def finish(name):
    """Prints the outcome and exits 1 when a check failed."""
    if failures:
        print(f"{name}: {len(failures)} failed", file=sys.stderr)
        sys.exit(1)
    print(f"{name}: all checks passed")


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB PNG, checking its chunks' CRCs."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "PNG signature"
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0], "CRC"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour = header[:4]
    assert depth == 8 and colour == 2, "8-bit RGB"
    raw, stride, rows, previous = zlib.decompress(idat), width * 3, [], bytearray(width * 3)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b, c = previous[i], previous[i - 3] if i >= 3 else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * 3:x * 3 + 3]) for x in range(width)])
        previous = line
    return width, height, rows
