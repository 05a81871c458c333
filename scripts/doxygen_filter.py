#!/usr/bin/env python3
"""Doxygen INPUT_FILTER for tendon's headers (docs/Doxyfile).

The headers document themselves in plain C comments; this turns them into Doxygen comments on
the fly without changing the files or their line numbers:
  - the first comment of a file (what the header is for) becomes the file's documentation;
  - a comment that starts a line documents the declaration after it (/* -> /**);
  - a comment after code on the same line documents that member or macro (/* -> /**<).
Usage: doxygen_filter.py HEADER (writes the filtered text to stdout)."""
import re
import sys


def main() -> None:
    text = open(sys.argv[1], encoding="utf-8").read()
    out = []
    pos = 0
    first = True
    # Comments and string literals, so that "/*" inside a string is left alone.
    for m in re.finditer(r'/\*.*?\*/|"(?:\\.|[^"\\\n])*"|//[^\n]*', text, re.S):
        token = m.group(0)
        out.append(text[pos:m.start()])
        pos = m.end()
        if not token.startswith("/*") or token.startswith("/**") or token.startswith("/*!"):
            out.append(token)
            continue
        body = token[2:-2]
        line_start = text.rfind("\n", 0, m.start()) + 1
        leading = text[line_start:m.start()].strip() == ""
        if first and leading:
            out.append("/**" + body + " @file */")
        elif leading:
            out.append("/**" + body + "*/")
        else:
            out.append("/**<" + body + "*/")
        first = False
    out.append(text[pos:])
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
