#!/usr/bin/env bash
# Reproduce every baseline: build, prepare the database, run the four floors (3 runs each).
# One JSON line per bench is appended to results/all.jsonl (and a timestamped copy is written by each bench).
set -euo pipefail
cd "$(dirname "$0")"
npm run -s build
mkdir -p results
node dist/setup-db.js | tee -a results/all.jsonl
for b in http-floor db-floor queue-floor e2e-floor; do
  node "dist/$b.js" "$@" | tee -a results/all.jsonl
done
