"""Every public function is documented in its header: each TDN_API declaration under
include/tendon/ has a comment directly above it, or a comment on its own lines, or follows
without a blank line a declaration that has one (a group comment above a run of declarations
covers the run). Prints each undocumented declaration as header:line: name and fails.
Usage: api_documented.py REPOSITORY_ROOT"""
import glob
import os
import re
import sys


def undocumented(path):
    """(line number, function name) of each undocumented TDN_API declaration in one header."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    previous_end, previous_documented = -2, False
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith("TDN_API"):
            i += 1
            continue
        start = i
        while ";" not in lines[i] and "{" not in lines[i]:
            i += 1
        end = i
        text = " ".join(lines[start:end + 1])
        above = lines[start - 1].rstrip() if start > 0 else ""
        documented = (above.endswith("*/") or "/*" in text or "//" in text or
                      (previous_end == start - 1 and previous_documented))
        if not documented:
            name = re.search(r"(tdn_\w+)\s*\(", text)
            found.append((start + 1, name.group(1) if name else text.strip()))
        previous_end, previous_documented = end, documented
        i = end + 1
    return found


def main():
    root = sys.argv[1]
    headers = sorted(glob.glob(os.path.join(root, "include", "tendon", "**", "*.h"), recursive=True))
    missing = [(os.path.relpath(h, root), line, name) for h in headers for line, name in undocumented(h)]
    for header, line, name in missing:
        print("%s:%d: %s has no comment" % (header, line, name))
    if not headers:
        print("api_documented: no headers under %s/include/tendon" % root)
        return 1
    if missing:
        print("api_documented: %d undocumented TDN_API declarations" % len(missing))
        return 1
    print("api_documented: every TDN_API declaration of %d headers has a comment" % len(headers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
