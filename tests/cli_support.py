"""What the command-line tests share: running `tendon`, recording checks, comparing numbers,
writing scratch files. The scripts are run as SCRIPT TENDON_EXECUTABLE SCRATCH_FOLDER."""
import os
import subprocess
import sys

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


def write(name, content):
    path = os.path.join(SCRATCH, name)
    with open(path, "wb" if isinstance(content, bytes) else "w", newline="") as f:
        f.write(content)
    return path


def finish(name):
    """Prints the outcome and exits 1 when a check failed."""
    if failures:
        print(f"{name}: {len(failures)} failed", file=sys.stderr)
        sys.exit(1)
    print(f"{name}: all checks passed")
