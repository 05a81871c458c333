"""docs/graph.schema.json, the JSON Schema editors use for graph documents, accepts every graph
document tendon ships (examples and fuzz seeds, all of which tendon loads) and refuses documents
tendon refuses for their shape. Usage: schema_check.py SOURCE_DIR"""
import glob
import json
import os
import sys

import jsonschema

SOURCE = sys.argv[1]
schema = json.load(open(os.path.join(SOURCE, "docs", "graph.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failures = []

documents = sorted(glob.glob(os.path.join(SOURCE, "examples", "graphs", "*.json")) +
                   glob.glob(os.path.join(SOURCE, "fuzz", "seeds", "graph", "*.json")))
for path in documents:
    errors = list(validator.iter_errors(json.load(open(path))))
    if errors:
        failures.append(f"{path}: {errors[0].json_path}: {errors[0].message}")

base = {"character": {"generated": "humanoid"}, "root": {"type": "clip", "clip": "idle"}}
bad = {
    "an unknown top-level key": dict(base, rooot={}),
    "root and layers both": dict(base, layers=[{"root": {"type": "rest"}}]),
    "an unknown node type": dict(base, root={"type": "jump"}),
    "a node field misspelt": dict(base, root={"type": "clip", "clip": "idle", "rat": 2}),
    "a transition mode misspelt": dict(base, root={"type": "state_machine", "states": [{"name": "a", "node": {"type": "rest"}}],
                                                  "transitions": [{"from": "a", "to": "a", "mode": "inertialise"}]}),
    "duration and normalized_duration": dict(base, root={"type": "state_machine", "states": [{"name": "a", "node": {"type": "rest"}}],
                                                         "transitions": [{"from": "a", "to": "a", "duration": 1,
                                                                          "normalized_duration": 1}]}),
    "a parameter type misspelt": dict(base, parameters=[{"name": "x", "type": "flaot"}]),
    "a mask weight above 1": dict(base, masks={"m": {"joints": {"head": 2}}}),
    "a retarget to no character": dict(base, retarget={"scale": 1}),
}
for what, document in bad.items():
    if validator.is_valid(document):
        failures.append(f"the schema accepts {what}")

for f in failures:
    print("FAILED:", f, file=sys.stderr)
if failures:
    sys.exit(1)
print(f"schema: {len(documents)} documents valid, {len(bad)} bad ones refused")
