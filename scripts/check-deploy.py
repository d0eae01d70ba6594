#!/usr/bin/python3
"""Checks the shipped batch manifests offline, as far as an offline check can go.

- deploy/kubernetes/indexed-job.yaml and indexed-job-s3.yaml against Kubernetes' own OpenAPI schema (PyPI
  kubernetes-validate, strict: an unknown field is an error), at KUBERNETES_VERSION.
- deploy/aws-batch/job-definition.json against AWS Batch's RegisterJobDefinition request
  model (botocore's service model and parameter validator: types, required fields, unknown
  keys, lengths).
- deploy/cloud-run/job.yaml against the Cloud Run Admin API v1's discovery document (from the
  PyPI google-api-python-client wheel, pinned in scripts/install-deps.sh): every field known,
  of its type. Google publishes no JSON Schema for it; this walk over the API's own
  description is the check.
- Then what no schema knows: each image is the one scripts/image.sh tags (its name on the
  cluster's registry for AWS and Cloud Run; the Containerfile's VERSION default agrees), the shard count agrees with the engine's number
  of workers, and each manifest's arguments are accepted by the real cropjob: `run --dry-run`
  with them, once per worker, in the environment that engine gives (from the repository root,
  the manifests' /data), and the workers' plans together cover the whole plan once.

    scripts/check-deploy.py [--cropjob .build/debug/cropjob]
"""

import argparse
import json
import os
import re
import subprocess
import sys

import yaml

KUBERNETES_VERSION = "1.33.0"  # backoffLimitPerIndex and podFailurePolicy are GA here
DISCOVERY = "/usr/local/share/cropjob/google-api-python-client-2.187.0/run.v1.json"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
problems = []


def problem(where, text):
    problems.append(f"{where}: {text}")


def check_kubernetes(path):
    import kubernetes_validate

    with open(path) as f:
        documents = [d for d in yaml.safe_load_all(f) if d]
    for doc in documents:
        try:
            kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as error:
            problem(path, f"{doc.get('kind')}: {error.message} at {'.'.join(map(str, error.path))}")
    return next(d for d in documents if d.get("kind") == "Job")


def check_aws(path):
    import warnings

    with warnings.catch_warnings():  # pyOpenSSL's deprecation notices, on import
        warnings.simplefilter("ignore")
        import botocore.session
        import botocore.validate

    with open(path) as f:
        definition = json.load(f)
    model = botocore.session.get_session().get_service_model("batch")
    shape = model.operation_model("RegisterJobDefinition").input_shape
    report = botocore.validate.ParamValidator().validate(definition, shape)
    if report.has_errors():
        problem(path, report.generate_report())
    return definition


def walk(schemas, schema, value, where, path):
    """Checks `value` against a discovery-document schema: types, and no unknown fields."""
    if "$ref" in schema:
        return walk(schemas, schemas[schema["$ref"]], value, where, path)
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            return problem(where, f"{path}: an object expected, got {value!r}")
        known = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            if key in known:
                walk(schemas, known[key], item, where, f"{path}.{key}")
            elif extra is not None:
                walk(schemas, extra, item, where, f"{path}.{key}")
            else:
                problem(where, f"{path}: unknown field {key!r}")
    elif kind == "array":
        if not isinstance(value, list):
            return problem(where, f"{path}: a list expected, got {value!r}")
        for i, item in enumerate(value):
            walk(schemas, schema["items"], item, where, f"{path}[{i}]")
    elif kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            problem(where, f"{path}: an integer expected, got {value!r}")
    elif kind == "boolean":
        if not isinstance(value, bool):
            problem(where, f"{path}: true or false expected, got {value!r}")
    elif kind == "string":
        if not isinstance(value, str):
            problem(where, f"{path}: a string expected (quote it), got {value!r}")
        elif schema.get("format") == "int64" and not re.fullmatch(r"-?[0-9]+", value):
            problem(where, f"{path}: an int64 as a string expected, got {value!r}")
        elif "enum" in schema and value not in schema["enum"]:
            problem(where, f"{path}: one of {schema['enum']} expected, got {value!r}")


def check_cloud_run(path):
    with open(DISCOVERY) as f:
        schemas = json.load(f)["schemas"]
    with open(path) as f:
        job = yaml.safe_load(f)
    walk(schemas, {"$ref": "Job"}, job, path, "Job")
    if job.get("apiVersion") != "run.googleapis.com/v1" or job.get("kind") != "Job":
        problem(path, "apiVersion run.googleapis.com/v1 and kind Job expected")
    return job


def dry_runs(cropjob, where, arguments, environments):
    """`cropjob run --dry-run` with the manifest's arguments in each worker's environment;
    returns the outputs each worker plans."""
    if arguments[:1] != ["run"]:
        return problem(where, f"the arguments start with {arguments[:1]}, not run")
    keep = {k: v for k, v in os.environ.items() if not re.match(r"(SLURM_ARRAY|JOB_COMPLETION|AWS_BATCH|CLOUD_RUN_TASK|BATCH_TASK)", k)}
    planned = []
    for environment in environments:
        result = subprocess.run(
            [cropjob] + arguments[:2] + ["--dry-run"] + arguments[2:],
            cwd=REPO,
            env={**keep, **environment},
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            problem(where, f"cropjob {' '.join(arguments)} with {environment}: exit {result.returncode}: {result.stderr.strip()[:300]}")
            continue
        total = re.search(r"^Total: ([0-9]+) outputs?", result.stdout, re.MULTILINE)
        planned.append(int(total.group(1)) if total else None)
    return planned


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cropjob", default=os.path.join(REPO, ".build/debug/cropjob"))
    options = parser.parse_args()
    tag = subprocess.run([os.path.join(REPO, "scripts/image.sh"), "--tag"], capture_output=True, text=True, check=True).stdout.strip()
    name_version = tag.split("/", 1)[1]  # cropjob:VERSION
    # The Containerfile's own default (what `podman build .` labels) is the code's version too.
    with open(os.path.join(REPO, "Containerfile")) as f:
        default = re.search(r"^ARG VERSION=(\S+)$", f.read(), re.MULTILINE)
    if not default or default.group(1) != tag.rsplit(":", 1)[1]:
        problem("Containerfile", f"ARG VERSION={default and default.group(1)}, but the code's version is {tag.rsplit(':', 1)[1]}")

    where = "deploy/kubernetes/indexed-job.yaml"
    job = check_kubernetes(os.path.join(REPO, where))
    spec = job["spec"]
    pod = spec["template"]["spec"]
    container = pod["containers"][0]
    arguments = container["args"]
    count = int(arguments[arguments.index("--shard-count") + 1]) if "--shard-count" in arguments else None
    if container["image"] != tag:
        problem(where, f"image {container['image']}, but scripts/image.sh tags {tag}")
    if spec.get("completionMode") != "Indexed" or count != spec.get("completions"):
        problem(where, f"an Indexed Job whose completions ({spec.get('completions')}) is --shard-count ({count}) expected")
    for key in ["backoffLimitPerIndex", "podFailurePolicy"]:
        if key not in spec:
            problem(where, f"no {key}")
    if "terminationGracePeriodSeconds" not in pod or "limits" not in container.get("resources", {}):
        problem(where, "terminationGracePeriodSeconds and resource limits expected")
    k8s = dry_runs(options.cropjob, where, arguments, [{"JOB_COMPLETION_INDEX": str(i)} for i in range(count or 1)])

    # The S3 variant: no volume but the ConfigMap's job file and a tmp; the job file valid
    # without the network (`cropjob validate`), the pods' arguments naming it.
    where = "deploy/kubernetes/indexed-job-s3.yaml"
    path = os.path.join(REPO, where)
    check_kubernetes(path)
    with open(path) as f:
        documents = {(d["kind"], d["metadata"]["name"]): d for d in yaml.safe_load_all(f) if d}
    config = documents[("ConfigMap", "cropjob-thumbnails-s3")]
    indexed = documents[("Job", "cropjob-thumbnails-s3")]
    s3_container = indexed["spec"]["template"]["spec"]["containers"][0]
    s3_args = s3_container["args"]
    s3_count = int(s3_args[s3_args.index("--shard-count") + 1]) if "--shard-count" in s3_args else None
    if indexed["spec"].get("completionMode") != "Indexed" or s3_count != indexed["spec"].get("completions"):
        problem(where, "an Indexed Job whose completions is --shard-count expected")
    if any("persistentVolumeClaim" in v for v in indexed["spec"]["template"]["spec"].get("volumes", [])):
        problem(where, "a volume claim: the S3 variant needs none")
    for name, document in documents.items():
        if name[0] == "Job" and document["spec"]["template"]["spec"]["containers"][0]["image"] != tag:
            problem(where, f"{name[1]}: image is not scripts/image.sh's {tag}")
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        for file_name, text in config["data"].items():
            if f"/jobs/{file_name}" not in s3_args:
                problem(where, f"the pods do not run the ConfigMap's {file_name}")
            with open(os.path.join(folder, file_name), "w") as f:
                f.write(text)
            result = subprocess.run([options.cropjob, "validate", os.path.join(folder, file_name)], capture_output=True, text=True)
            if result.returncode != 0:
                problem(where, f"{file_name}: cropjob validate exits {result.returncode}: {result.stdout.strip()[:300]}")

    where = "deploy/aws-batch/job-definition.json"
    definition = check_aws(os.path.join(REPO, where))
    properties = definition["containerProperties"]
    if not properties["image"].endswith("/" + name_version):
        problem(where, f"image {properties['image']} is not scripts/image.sh's {name_version} on a registry")
    # The array size is the submit-job's (--array-properties size=4), AWS_BATCH_JOB_ARRAY_SIZE.
    aws = dry_runs(
        options.cropjob, where, properties["command"],
        [{"AWS_BATCH_JOB_ARRAY_INDEX": str(i), "AWS_BATCH_JOB_ARRAY_SIZE": "4"} for i in range(4)],
    )

    where = "deploy/cloud-run/job.yaml"
    run_job = check_cloud_run(os.path.join(REPO, where))
    execution = run_job["spec"]["template"]["spec"]
    task = execution["template"]["spec"]
    run_container = task["containers"][0]
    if not run_container["image"].endswith("/" + name_version):
        problem(where, f"image {run_container['image']} is not scripts/image.sh's {name_version} on a registry")
    tasks = execution.get("taskCount", 1)
    tasks = tasks if isinstance(tasks, int) else 1  # a wrong type is reported above
    cloud_run = dry_runs(
        options.cropjob, where, run_container["args"],
        [{"CLOUD_RUN_TASK_INDEX": str(i), "CLOUD_RUN_TASK_COUNT": str(tasks)} for i in range(tasks)],
    )

    # The workers' plans add up to the whole job's, for each engine.
    whole = dry_runs(options.cropjob, "unsharded", ["run", arguments[1]], [{}])
    for name, planned in [("kubernetes", k8s), ("aws-batch", aws), ("cloud-run", cloud_run)]:
        if not planned or not whole or None in planned + whole or sum(planned) != whole[0]:
            problem(name, f"the workers plan {planned} outputs, {sum(planned)} in all; the whole job {whole[0]}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    print(
        f"check-deploy: Kubernetes {KUBERNETES_VERSION} schema (strict), AWS Batch RegisterJobDefinition model,"
        f" Cloud Run v1 discovery schema: valid; arguments accepted by cropjob, workers' plans {k8s}, {aws},"
        f" {cloud_run} of {whole[0] if whole else '?'}"
    )


if __name__ == "__main__":
    main()
