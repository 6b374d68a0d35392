#!/usr/bin/env bash
# Runs every fuzz target of the module, one after another, each until it
# stops finding new coverage: until no new interesting input has turned up
# for PLATEAU seconds (default 60), or MAX seconds have passed (default
# 600). Prints, per target, how long it ran, how many inputs it executed,
# and the size of its corpus. Crashers are written by go test under the
# package's testdata/fuzz/ directory: commit them as regression tests.
#
#   scripts/fuzz.sh                 every target
#   scripts/fuzz.sh ./formats/xml   the targets of some packages
#   PLATEAU=30 MAX=120 scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PLATEAU=${PLATEAU:-60}
MAX=${MAX:-600}
pkgs=("$@")
[ ${#pkgs[@]} -eq 0 ] && mapfile -t pkgs < <(go list ./...)
status=0
for pkg in "${pkgs[@]}"; do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    log=$(mktemp)
    start=$(date +%s)
    # In the package's directory, with no package named: go test then
    # streams its output (in package list mode it holds it back to the
    # end, and the plateau could not be seen).
    (cd "$dir" && exec go test -run '^$' -fuzz "^${target}\$" -fuzztime "${MAX}s" -parallel "${PARALLEL:-1}") >"$log" 2>&1 &
    pid=$!
    last_new=-1 last_change=$start
    while kill -0 "$pid" 2>/dev/null; do
      sleep 3
      new=$(grep -o 'new interesting: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$' || echo 0)
      now=$(date +%s)
      if [ "$new" != "$last_new" ]; then last_new=$new last_change=$now; fi
      if [ $((now - last_change)) -ge "$PLATEAU" ]; then kill -INT "$pid" 2>/dev/null || true; break; fi
    done
    wait "$pid" || true
    secs=$(( $(date +%s) - start ))
    execs=$(grep -o 'execs: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$' || echo 0)
    total=$(grep -o '(total: [0-9]*)' "$log" | tail -n 1 | grep -o '[0-9]*' || echo 0)
    if grep -q -- '--- FAIL\|^FAIL' "$log"; then
      echo "$pkg $target: FAILED after ${secs}s (see below)"; sed -n '/--- FAIL/,$p' "$log" | head -n 40; status=1
    else
      echo "$pkg $target: ${secs}s, ${execs} execs, corpus ${total} inputs (${last_new} new this run)"
    fi
    rm -f "$log"
  done
done
exit $status
