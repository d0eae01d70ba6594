#!/usr/bin/python3
"""Validates YAML job files against cropjob's JSON Schema with an independent validator.

Usage: jsonschema-check.py SCHEMA.json FILE.yaml...

Prints one JSON object per file: {"file", "valid", "errors": [{"path", "message"}]}.
Exit status: 0 when every file is valid, 1 when some file is not (or cannot be read as
YAML), so that it can gate CI; 2 when the schema itself is not valid, 3 when
python3-jsonschema or python3-yaml is missing.

YAML is read the way cropjob reads it (YAML 1.2 core schema, strictly): only true and
false are booleans, numbers are decimal (integers may group digits with _; no leading zero
before more digits, as in JSON), and ~, null or nothing is null; yes, no, on, off, 0x10, 010
and 1:30 are strings.
"""
import json
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as error:  # pragma: no cover
    print(f"missing module: {error.name} (Debian: python3-jsonschema, python3-yaml)", file=sys.stderr)
    sys.exit(3)


class CoreLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core-schema scalars, as cropjob's NodeReader reads them."""


CoreLoader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
    ("tag:yaml.org,2002:bool", r"^(?:true|false)$", "tf"),
    ("tag:yaml.org,2002:int", r"^[-+]?(?:0|[1-9][0-9_]*)$", "-+0123456789"),
    ("tag:yaml.org,2002:float", r"^[-+]?(?:\.[0-9]+|(?:0|[1-9][0-9]*)(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$", "-+.0123456789"),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", "<"),
]:
    CoreLoader.add_implicit_resolver(tag, re.compile(pattern), list(first))

CoreLoader.add_constructor("tag:yaml.org,2002:int", lambda loader, node: int(loader.construct_scalar(node).replace("_", "")))
CoreLoader.add_constructor("tag:yaml.org,2002:float", lambda loader, node: float(loader.construct_scalar(node)))
CoreLoader.add_constructor("tag:yaml.org,2002:bool", lambda loader, node: loader.construct_scalar(node) == "true")


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    with open(argv[1], encoding="utf-8") as handle:
        schema = json.load(handle)
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        print(f"invalid schema: {error.message}", file=sys.stderr)
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    status = 0
    for path in argv[2:]:
        try:
            with open(path, encoding="utf-8") as handle:
                document = yaml.load(handle, Loader=CoreLoader)
            errors = [
                {"path": "/" + "/".join(str(p) for p in error.absolute_path), "message": error.message}
                for error in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
            ]
        except (yaml.YAMLError, OSError, UnicodeDecodeError) as error:
            errors = [{"path": "", "message": f"cannot read: {error}"}]
        if errors:
            status = 1
        print(json.dumps({"file": path, "valid": not errors, "errors": errors}))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
