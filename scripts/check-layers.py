#!/usr/bin/env python3
"""Checks that the package's target graph keeps to the stages (docs/architecture.md).

Reads `swift package describe --type json` and fails when a target depends on one that is not
in its row of ALLOWED below (a back-edge, e.g. CropSpec -> CropImaging, or a new target nobody
placed), or when a C module is imported outside the targets that own it, or without
`internal import` (so that no C type reaches a target's public API).

  scripts/check-layers.py              # checks this package (run by .ci/run)
  scripts/check-layers.py --self-test  # shows that a back-edge and a stray C import fail
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# What each target may depend on: the stages in order, each using only those before it.
ALLOWED = {
    "CVips": set(),
    "CYAML": set(),
    "CSQLite": set(),
    "CTurboJPEG": set(),
    "CVipsShim": {"CVips"},
    "CPixels": {"CVipsShim", "CVips"},
    "CSystem": set(),
    "CCurl": set(),
    "CZstd": set(),
    "CFaceDetect": set(),
    "CropGeometry": set(),
    "CropSupport": {"CSystem"},
    "CropStorage": {"CropSupport", "CCurl"},
    # CropStorage: `s3://` locations parsed where a job file names a path (no network).
    "CropSpec": {"CropGeometry", "CropSupport", "CropStorage", "CYAML"},
    # CropStorage: sources listed through the storage seam (docs/storage.md).
    "CropPlan": {"CropSpec", "CropGeometry", "CropSupport", "CropStorage"},
    "CropImaging": {"CropPlan", "CropSpec", "CropGeometry", "CropSupport", "CVipsShim", "CPixels", "CTurboJPEG", "CFaceDetect"},
    "CropStore": {"CropPlan", "CropSpec", "CropGeometry", "CropSupport", "CropStorage", "CSystem", "CSQLite", "CZstd"},
    "CropExecute": {"CropImaging", "CropStore", "CropStorage", "CropPlan", "CropSpec", "CropGeometry", "CropSupport"},
    "CropPreview": {"CropImaging", "CropStore", "CropPlan", "CropSpec", "CropGeometry", "CropSupport"},
    "CropKit": {
        "CropGeometry", "CropSupport", "CropSpec", "CropPlan", "CropImaging", "CropStore", "CropStorage",
        "CropExecute", "CropPreview",
    },
    "cropjob": {"CropKit"},
    # Test targets: each stage's beside its stage (TestSupport holds no stage); whole jobs
    # in-process (ExecuteTests, CLITests) through CropKit's composition (RunSupport).
    "TestSupport": set(),
    "RunSupport": {"CropKit", "TestSupport"},
    "GeometryTests": {"CropGeometry", "TestSupport"},
    "SpecTests": {"CropSpec", "CropStorage", "TestSupport"},
    "PlanTests": {"CropPlan", "CropImaging", "CropStorage", "TestSupport"},
    "ImagingTests": {"CropImaging", "CVipsShim", "CPixels", "TestSupport"},
    "StoreTests": {"CropStore", "TestSupport"},
    "ExecuteTests": {"CropExecute", "CropKit", "RunSupport", "TestSupport"},
    "PreviewTests": {"CropPreview", "TestSupport"},
    "CLITests": {"CropKit", "cropjob", "RunSupport", "TestSupport"},
    "StorageTests": {"CropStorage", "CropSupport", "TestSupport"},
}

# C modules and the only source folders that may import them.
C_OWNERS = {
    "CVipsShim": ["Sources/CropImaging"],
    "CPixels": ["Sources/CropImaging"],
    "CFaceDetect": ["Sources/CropImaging"],
    "CVips": [],
    "CTurboJPEG": ["Sources/CropImaging"],
    "CYAML": ["Sources/CropSpec/YAML"],
    "CSQLite": ["Sources/CropStore"],
    "CZstd": ["Sources/CropStore"],
    "CSystem": ["Sources/CropSupport", "Sources/CropStore"],
    "CCurl": ["Sources/CropStorage/S3"],
}


def edge_problems(targets):
    problems = []
    for target in targets:
        name = target["name"]
        deps = set(target.get("target_dependencies") or []) | set(target.get("product_dependencies") or [])
        if name not in ALLOWED:
            problems.append(f"{name}: a target that scripts/check-layers.py does not place (add its row)")
            continue
        for dep in sorted(deps - ALLOWED[name]):
            problems.append(f"{name} -> {dep}: not an allowed edge (the diagram puts {dep} downstream or apart)")
    return problems


def import_problems(files):
    problems = []
    for path, text in files:
        for number, line in enumerate(text.splitlines(), 1):
            match = re.match(r"^\s*(?:@\w+\s+)?((?:internal |public |package |private |fileprivate )?)import (\w+)", line)
            if not match or match.group(2) not in C_OWNERS:
                continue
            module = match.group(2)
            if not any(path.startswith(owner + "/") for owner in C_OWNERS[module]):
                problems.append(f"{path}:{number}: imports {module}, which only {C_OWNERS[module] or 'no Swift target'} may")
            elif match.group(1).strip() != "internal":
                problems.append(f"{path}:{number}: `import {module}` must be `internal import {module}`")
    return problems


def sources():
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def self_test():
    good = [{"name": "CropPlan", "target_dependencies": ["CropSpec"]}]
    back = [{"name": "CropSpec", "target_dependencies": ["CropImaging"]}]
    unknown = [{"name": "CropFaces", "target_dependencies": []}]
    assert not edge_problems(good), "an allowed edge was refused"
    assert edge_problems(back), "a back-edge CropSpec -> CropImaging passed"
    assert edge_problems(unknown), "an unplaced target passed"
    assert import_problems([("Sources/CropStore/X.swift", "import CVipsShim\n")]), "a stray C import passed"
    assert import_problems([("Sources/CropImaging/X.swift", "import CVipsShim\n")]), "a public C import passed"
    assert not import_problems([("Sources/CropImaging/X.swift", "internal import CVipsShim\n")])
    print("check-layers self-test: 6 cases behave")


def main():
    if "--self-test" in sys.argv:
        return self_test()
    described = subprocess.run(
        ["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    targets = json.loads(described[described.index("{"):])["targets"]
    problems = edge_problems(targets) + import_problems(sources())
    for problem in problems:
        print(f"check-layers: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check-layers: {len(targets)} targets, every edge allowed, C modules imported only by their owners")


if __name__ == "__main__":
    main()
