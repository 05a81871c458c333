"""docs/body-map.schema.json, the JSON Schema of body map documents, accepts the documents tendon
ships (the example of docs/retarget.md and the fuzz seeds that load; tests/test_body_map_file.c
loads them all with tendon) and refuses documents tendon refuses for their shape.
Usage: body_map_schema_check.py SOURCE_DIR"""
import glob
import json
import os
import re
import sys

import jsonschema

SOURCE = sys.argv[1]
schema = json.load(open(os.path.join(SOURCE, "docs", "body-map.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failures = []

docs = open(os.path.join(SOURCE, "docs", "retarget.md")).read()
section = docs[docs.index("### Overriding the map"):]
documents = {"docs/retarget.md's example": json.loads(re.search(r"```json\n(.*?)```", section, re.S).group(1))}
for path in sorted(glob.glob(os.path.join(SOURCE, "fuzz", "seeds", "body_map", "*.json"))):
    if not os.path.basename(path).startswith("bad_"):  # bad_*: seeds tendon refuses
        documents[path] = json.load(open(path))
for what, document in documents.items():
    errors = list(validator.iter_errors(document))
    if errors:
        failures.append(f"{what}: {errors[0].json_path}: {errors[0].message}")

base = {"tendon_body_map": 1, "target": {"hips": "pelvis", "spine": ["spine_01"], "left_toes": None}}
bad = {
    "no version": {"target": {}},
    "version 2": dict(base, tendon_body_map=2),
    "an unknown top-level key": dict(base, sorce={}),
    "neither side": {"tendon_body_map": 1},
    "a side that is no object": dict(base, source=["Hips"]),
    "an unknown part": dict(base, target={"thigh_left": "thigh_l"}),
    "a single joint as an array": dict(base, target={"left_thigh": ["thigh_l"]}),
    "a chain as a string": dict(base, target={"spine": "spine_01"}),
    "an empty chain": dict(base, target={"neck": []}),
    "a chain of 9": dict(base, target={"spine": [f"s{i}" for i in range(9)]}),
    "a number for a joint": dict(base, target={"spine": ["spine_01", 2]}),
    "an empty joint name": dict(base, target={"left_hand": ""}),
    "null for the hips": dict(base, target={"hips": None}),
    "null for a foot": dict(base, target={"right_foot": None}),
}
for what, document in bad.items():
    if validator.is_valid(document):
        failures.append(f"the schema accepts {what}")

for f in failures:
    print("FAILED:", f, file=sys.stderr)
if failures:
    sys.exit(1)
print(f"body map schema: {len(documents)} documents valid, {len(bad)} bad ones refused")
