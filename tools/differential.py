#!/usr/bin/env python3
"""Run one multi-step scenario with Terraform 1.0.3 and with ferro, side by side, and print
where they differ: exit codes, the summary lines of plan/apply output ("will be created",
"Plan: ...", "Apply complete! ..."), the summaries of error and warning diagnostics, and the
documents of `show -json`, `output -json` and `state ... -json` (ids of 15 to 20 digits, as the
null provider makes them, and the fields that change from run to run are left out).

    eval "$(tools/fetch-oracles.sh)"      # TERRAFORM, TF_CLI_CONFIG_FILE (the null provider)
    tools/differential.py SCENARIO.py     # FERRO=path/to/ferro (default target/release/ferro)

SCENARIO.py defines STEPS, a list of (files, commands): `files` maps paths to their new text
(None removes the file), written into both working directories before the step's commands;
each command is a list of arguments (`["plan", "-input=false"]`). FULL=1 also compares the
whole text printed by plan, apply, show, output and state commands; V=1 prints both outputs
when the summaries differ. The working directories stay in /tmp/differential/NAME/{tf,fe}.
A `.terraform.lock.hcl` for hashicorp/null 2.1.2 must be in LOCK (a path; default: the one of
the first directory where `terraform init` ran, /tmp/differential/lock.hcl).
"""
import difflib
import json
import os
import re
import shutil
import subprocess
import sys

TF = os.environ["TERRAFORM"]
HERE = os.path.dirname(os.path.abspath(__file__))
FERRO = os.environ.get("FERRO", os.path.join(HERE, "..", "target", "release", "ferro"))
ROOT = "/tmp/differential"
LOCK = os.environ.get("LOCK", os.path.join(ROOT, "lock.hcl"))
VOLATILE = ("terraform_version", "format_version", "lineage", "serial", "timestamp")
SUMMARY = re.compile(
    r"Plan:|No changes|Apply complete|Destroy complete|will be|must be|has been|Changes to Outputs"
)
# Terraform colours unless told not to; these commands take -no-color.
COLOURED = ("plan", "apply", "destroy", "init", "refresh", "taint", "untaint", "import", "validate", "show")


def norm(o):
    if isinstance(o, dict):
        return {k: norm(v) for k, v in o.items() if k not in VOLATILE}
    if isinstance(o, list):
        return [norm(x) for x in o]
    if isinstance(o, str) and re.fullmatch(r"\d{15,20}", o):
        return "<ID>"
    return o


def run(tool, cwd, args):
    args = list(args)
    if tool == "tf" and args and args[0] in COLOURED and "-json" not in args:
        args.insert(1, "-no-color")
    exe = TF if tool == "tf" else FERRO
    env = dict(os.environ, TF_IN_AUTOMATION="1")
    p = subprocess.run([exe] + args, cwd=cwd, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def diagnostics(stderr):
    # ferro heads its diagnostics with their code ("[code] Error: ...").
    lines = [l.strip() for l in stderr.splitlines() if "Error:" in l or "Warning:" in l]
    return [re.sub(r"^\[[a-z0-9-]+\] ", "", l) for l in lines]


def lock_file():
    if os.path.exists(LOCK):
        return LOCK
    d = os.path.join(ROOT, "lock")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write('terraform {\n  required_providers {\n    null = { source = "hashicorp/null", version = "2.1.2" }\n  }\n}\n')
    subprocess.run([TF, "init", "-no-color"], cwd=d, capture_output=True, check=True)
    shutil.copy(os.path.join(d, ".terraform.lock.hcl"), LOCK)
    return LOCK


def compare(tag, cmd, tf, fe):
    (rt, ot, et), (rf, of, ef) = tf, fe
    same = True
    if rt != rf:
        print(f"!! {tag}: exit terraform={rt} ferro={rf}\n  terraform: {et.strip()[:1500]}\n  ferro: {ef.strip()[:1500]}")
        same = False
    if diagnostics(et) != diagnostics(ef):
        print(f"!! {tag}: diagnostics differ\n  terraform: {diagnostics(et)}\n  ferro: {diagnostics(ef)}")
        same = False
    if "-json" in cmd and cmd[0] in ("show", "output", "state"):
        try:
            jt = norm(json.loads(ot)) if ot.strip() else None
            jf = norm(json.loads(of)) if of.strip() else None
        except ValueError as e:
            print(f"!! {tag}: not JSON ({e})")
            return
        if jt != jf:
            a = json.dumps(jt, indent=1, sort_keys=True).splitlines()
            b = json.dumps(jf, indent=1, sort_keys=True).splitlines()
            print(f"!! {tag}: JSON differs")
            print("\n".join(list(difflib.unified_diff(a, b, "terraform", "ferro", lineterm="", n=2))[:80]))
            same = False
    else:
        if os.environ.get("FULL") and cmd[0] in ("plan", "apply", "destroy", "show", "output", "state"):
            nt = re.sub(r"\d{15,20}", "<ID>", ot).replace("Terraform", "ferro").replace("terraform", "ferro")
            nf = re.sub(r"\d{15,20}", "<ID>", of)
            if nt != nf:
                print(f"!! {tag}: text differs")
                print("\n".join(list(difflib.unified_diff(nt.splitlines(), nf.splitlines(), "terraform", "ferro", lineterm="", n=1))[:60]))
                same = False
        st = [l.replace("Terraform", "ferro") for l in ot.splitlines() if SUMMARY.search(l)]
        sf = [l for l in of.splitlines() if SUMMARY.search(l)]
        if st != sf:
            print(f"!! {tag}: summary differs\n  terraform: {st}\n  ferro: {sf}")
            if os.environ.get("V"):
                print("--- terraform\n" + ot + et + "\n--- ferro\n" + of + ef)
            same = False
    if same:
        print(f"ok {tag} ({rt})")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    scenario = {}
    with open(sys.argv[1]) as f:
        exec(f.read(), scenario)
    os.makedirs(ROOT, exist_ok=True)
    lock = lock_file()
    base = os.path.join(ROOT, os.path.splitext(os.path.basename(sys.argv[1]))[0])
    shutil.rmtree(base, ignore_errors=True)
    dirs = {t: os.path.join(base, t) for t in ("tf", "fe")}
    for d in dirs.values():
        os.makedirs(d)
        shutil.copy(lock, os.path.join(d, ".terraform.lock.hcl"))
    for files, commands in scenario["STEPS"]:
        for d in dirs.values():
            for path, text in files.items():
                p = os.path.join(d, path)
                if text is None:
                    if os.path.exists(p):
                        os.remove(p)
                    continue
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "w") as f:
                    f.write(text)
        for cmd in commands:
            results = {t: run(t, d, cmd) for t, d in dirs.items()}
            compare(" ".join(cmd), cmd, results["tf"], results["fe"])


if __name__ == "__main__":
    main()
