#!/usr/bin/env bash
# Run `ferro validate` (without `init`) in every module directory below a tree of real-world
# Terraform modules (a directory holding *.tf or *.tf.json files, `.terraform` left out), and
# sort the results: "clean" (valid), "providers" (the only errors are providers, or modules from
# registry or remote sources, that are not installed: expected without `init`, and Terraform
# reports them the same way), "FAIL" (any other error: a false error to fix in ferro, or a
# genuine one in the module). Prints one line per directory, then the other errors of each
# failing directory, then the counts; exits 1 when a directory fails.
#
# Usage: tools/check-real-modules.sh DIR        (FERRO=path/to/ferro to choose the binary;
#                                                the default is target/debug/ferro, built first)
set -uo pipefail

root=${1:?usage: tools/check-real-modules.sh DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
ferro=${FERRO:-}
if [[ -z $ferro ]]; then
  (cd "$here" && cargo build --quiet -p ferro-cli) || exit 2
  ferro="$here/target/debug/ferro"
fi

# Diagnostic codes that only say a provider or a non-local module is not installed.
provider_codes='provider-unavailable|provider-not-installed|missing-provider|module-not-installed'

clean=0 providers=0 failed=0
report=""
while IFS= read -r dir; do
  out=$("$ferro" -chdir="$dir" validate -no-color 2>&1)
  code=$?
  others=$(printf '%s\n' "$out" | grep -E '^\[[a-z0-9-]+\] Error:' | grep -Ev "^\[($provider_codes)\]")
  rel=${dir#"$root"/}
  if [[ $code -eq 0 ]]; then
    echo "clean      $rel"; clean=$((clean + 1))
  elif [[ -z $others ]]; then
    echo "providers  $rel"; providers=$((providers + 1))
  else
    echo "FAIL       $rel"; failed=$((failed + 1))
    # Each diagnostic starts with its "[code] Error:" line; keep the summary, place and note
    # of those that are not about providers.
    report+=$'\n'"== $rel"$'\n'"$(printf '%s\n' "$out" | awk -v skip="^\\[($provider_codes)\\]" '
      /^\[[a-z0-9-]+\] (Error|Warning):/ { keep = ($0 !~ skip) }
      keep && (/^\[[a-z0-9-]+\] (Error|Warning):/ || /Note:/ || /^ *,-\[/) { print }')"
  fi
done < <(find "$root" -name .terraform -prune -o \( -name '*.tf' -o -name '*.tf.json' \) -print |
  xargs -r -n1 dirname | sort -u)

if [[ -n $report ]]; then
  printf '%s\n' "$report"
fi
echo
echo "$clean clean, $providers with missing providers only, $failed failing"
[[ $failed -eq 0 ]]
