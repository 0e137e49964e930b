#!/bin/sh
# usage: bench.sh  — scores kept when on the six date sets
cd "$(dirname "$0")/../.."
K=${KEPT:-${CARGO_TARGET_DIR:-target}/release/kept}
for f in duckling-ru duckling-en tune-ru tune-en heldout-ru heldout-en; do
  python3 scripts/dates_corpus/run_when.py $K tests/data/dates/$f.jsonl > /tmp/pred-$f.jsonl
  printf '%-12s ' $f; python3 /work/shared/tools/score_dates.py tests/data/dates/$f.jsonl /tmp/pred-$f.jsonl | tail -1
done
