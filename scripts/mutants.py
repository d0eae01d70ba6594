#!/usr/bin/env python3
"""The mutation check (issue 41, docs/testing.md "The mutation check"): bugs a careless change
would make, planted one at a time in a scratch copy of the repository; each must make the tests
named beside it fail ("killed"). A mutation the tests let through ("survived") is a test missing.

    scripts/mutants.py                 # every mutation: prints killed / survived, the rate
    scripts/mutants.py --list          # the list, and checks each text is still found once
    scripts/mutants.py --only NAME ... # some of them (names or stage names, comma-separated)

The scratch copy is a `git worktree` of HEAD (committed work only) in $TMPDIR/cropjob-mutants
(or --scratch), built once with `swift build --build-tests` and kept between runs (the next run
resets it to HEAD and builds incrementally). Per mutation: the text is replaced (it must occur
exactly once in its file, or the check stops: the list cannot rot silently), the tests are
rebuilt incrementally, `swift test --skip-build --filter …` runs the mutation's tests, and the
file is restored. Exit status: 0 when every mutation was killed, 1 when one survived, 2 when
the list or the build is broken. Not in CI (about 1–2 minutes a mutation on 2 shared cores).
"""
import argparse, os, re, shutil, signal, subprocess, sys, tempfile, time

from mutants_list import MUTATIONS

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def check_list(root):
    """Each mutation's text occurs exactly once in its file under `root`; names are unique."""
    problems = []
    names = set()
    for m in MUTATIONS:
        if m["name"] in names:
            problems.append(f"{m['name']}: duplicate name")
        names.add(m["name"])
        path = os.path.join(root, m["file"])
        if not os.path.exists(path):
            problems.append(f"{m['name']}: {m['file']} does not exist")
            continue
        text = open(path, encoding="utf-8").read()
        n = text.count(m["find"])
        if n != 1:
            problems.append(f"{m['name']}: its text occurs {n} times in {m['file']} (must be once): {m['find']!r}")
        if m["find"] == m["replace"]:
            problems.append(f"{m['name']}: the replacement is the text itself")
        if not m.get("tests"):
            problems.append(f"{m['name']}: no tests named")
    return problems


def run(cmd, cwd, log, timeout=None):
    started = time.time()
    with open(log, "w") as out:
        # Its own process group, so that a timeout ends the test processes swift test started
        # too (a mutation that makes a test loop would otherwise leave it running).
        process = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            status = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            status = "timeout"
    return status, time.time() - started


def failed_tests(log):
    """Test names XCTest reported as failed (`Test Case 'Class.test' failed`)."""
    text = open(log, errors="replace").read()
    names = re.findall(r"Test Case '([^']+)' failed", text)  # swift test
    names += re.findall(r"error: (\w+\.test\w+) :", text)  # swift test --parallel, XCTest's failure lines
    return sorted(set(names))


def prepare(scratch):
    """A worktree of HEAD at `scratch` (made once, then reset to HEAD)."""
    head = subprocess.check_output(["git", "rev-parse", "HEAD"], cwd=REPO, text=True).strip()
    if os.path.isdir(os.path.join(scratch, ".git")) or os.path.isfile(os.path.join(scratch, ".git")):
        subprocess.run(["git", "checkout", "-q", "--detach", "--force", head], cwd=scratch, check=True)
        subprocess.run(["git", "clean", "-qfdx", "-e", ".build"], cwd=scratch, check=True)
    else:
        if os.path.exists(scratch):
            shutil.rmtree(scratch)
        subprocess.run(["git", "worktree", "prune"], cwd=REPO, check=True)
        subprocess.run(["git", "worktree", "add", "-q", "--detach", scratch, head], cwd=REPO, check=True)
    return head


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="list the mutations and check their texts")
    parser.add_argument("--only", action="append", default=[],
                        help="mutation or stage names (comma-separated), run in the order given")
    parser.add_argument("--skip", action="append", default=[], help="mutation names not to run (comma-separated)")
    parser.add_argument("--scratch", default=os.path.join(tempfile.gettempdir(), "cropjob-mutants"))
    parser.add_argument("--timeout", type=int, default=300, help="seconds for one mutation's tests (a hang is a kill)")
    parser.add_argument("--no-baseline", action="store_true", help="skip running the tests on the unmutated copy")
    args = parser.parse_args()

    chosen = MUTATIONS
    if args.only:
        # In the order given (a stage's mutations in the list's order), each once.
        order = [w for o in args.only for w in o.split(",") if w]
        wanted = set(order)
        chosen = []
        for w in order:
            for m in MUTATIONS:
                if (m["name"] == w or m["stage"] == w) and m not in chosen:
                    chosen.append(m)
        unknown = wanted - {m["name"] for m in MUTATIONS} - {m["stage"] for m in MUTATIONS}
        if unknown:
            print(f"unknown mutation or stage: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2

    skipped = {w for o in args.skip for w in o.split(",") if w}
    chosen = [m for m in chosen if m["name"] not in skipped]

    problems = check_list(REPO)
    if args.list:
        stages = {}
        for m in MUTATIONS:
            stages[m["stage"]] = stages.get(m["stage"], 0) + 1
        for m in chosen:
            print(f"{m['name']:<36} {m['stage']:<12} {m['file']}")
            print(f"    {m['why']}")
            print(f"    killed by: {', '.join(m['tests'])}" + (f"  (test added: {m['added']})" if m.get("added") else ""))
        print(f"{len(MUTATIONS)} mutations: " + ", ".join(f"{s} {n}" for s, n in stages.items()))
        for p in problems:
            print("BROKEN: " + p, file=sys.stderr)
        return 2 if problems else 0
    if problems:
        for p in problems:
            print("BROKEN: " + p, file=sys.stderr)
        return 2

    scratch = os.path.abspath(args.scratch)
    head = prepare(scratch)
    logs = os.path.join(scratch, ".build", "mutants")
    os.makedirs(logs, exist_ok=True)
    print(f"scratch copy of {head[:12]} in {scratch}; logs in {logs}", flush=True)
    status, seconds = run(["swift", "build", "--build-tests"], scratch, os.path.join(logs, "build.log"))
    if status != 0:
        print(f"the unmutated copy does not build ({seconds:.0f} s): {logs}/build.log", file=sys.stderr)
        return 2
    print(f"built in {seconds:.0f} s", flush=True)
    if not args.no_baseline:
        pattern = "|".join(sorted({t for m in chosen for t in m["tests"]}))
        status, seconds = run(["swift", "test", "--skip-build", "--parallel", "--filter", pattern], scratch,
                              os.path.join(logs, "baseline.log"), timeout=args.timeout * 4)
        if status != 0:
            print(f"the tests fail without a mutation ({seconds:.0f} s): {logs}/baseline.log: "
                  f"{failed_tests(os.path.join(logs, 'baseline.log'))}", file=sys.stderr)
            return 2
        print(f"baseline: the tests pass unmutated ({seconds:.0f} s)", flush=True)

    results = []
    for i, m in enumerate(chosen, 1):
        path = os.path.join(scratch, m["file"])
        original = open(path, encoding="utf-8").read()
        if original.count(m["find"]) != 1:
            print(f"BROKEN: {m['name']}: text not found once in the scratch copy", file=sys.stderr)
            return 2
        open(path, "w", encoding="utf-8").write(original.replace(m["find"], m["replace"]))
        try:
            log = os.path.join(logs, m["name"] + ".log")
            status, build_s = run(["swift", "build", "--build-tests"], scratch, log.replace(".log", ".build.log"))
            if status != 0:
                verdict, detail, test_s = "BROKEN", "the mutation does not compile", 0
            else:
                pattern = "|".join(m["tests"])
                status, test_s = run(["swift", "test", "--skip-build", "--filter", pattern], scratch, log,
                                     timeout=args.timeout)
                failing = failed_tests(log)
                if status == 0:
                    verdict, detail = "SURVIVED", "the tests passed"
                elif status == "timeout":
                    verdict, detail = "killed", "the tests timed out"
                else:
                    verdict, detail = "killed", ", ".join(failing) or f"exit {status}"
        finally:
            open(path, "w", encoding="utf-8").write(original)
        results.append((m, verdict))
        print(f"[{i}/{len(chosen)}] {verdict:<8} {m['name']:<36} build {build_s:.0f} s, tests {test_s:.0f} s: {detail}",
              flush=True)

    killed = [m for m, v in results if v == "killed"]
    survived = [m for m, v in results if v == "SURVIVED"]
    broken = [m for m, v in results if v == "BROKEN"]
    print(f"\n{len(killed)} of {len(results)} killed ({100 * len(killed) / max(1, len(results)):.1f} %)")
    for m in survived:
        print(f"  survived: {m['name']} ({m['file']}): {m['why']}")
    for m in broken:
        print(f"  broken: {m['name']} ({m['file']}): does not compile, fix the list")
    return 2 if broken else 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
