#!/usr/bin/env python3
"""Run `kept when` over a date corpus whose cases may each carry their own `now`/`tz`.

usage: run_when.py KEPT_BINARY CASES.jsonl > predictions.jsonl

Cases are grouped by (now, tz, lang); each group is one `kept when --now --tz --lang` process
reading its texts on stdin. Predictions come out in the order of the cases, ready for
`score_dates.py CASES.jsonl predictions.jsonl`.
"""
import json, subprocess, sys

def main():
    kept, path = sys.argv[1], sys.argv[2]
    cases = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    groups = {}
    for i, c in enumerate(cases):
        groups.setdefault((c["now"], c["tz"], c["lang"]), []).append(i)
    out = [None] * len(cases)
    for (now, tz, lang), idx in groups.items():
        # one expression a line: a newline inside a text would split it
        texts = "".join(" ".join(cases[i]["text"].split()) + "\n" for i in idx)
        r = subprocess.run([kept, "when", "--now", now, "--tz", tz, "--lang", lang],
                           input=texts, capture_output=True, text=True, check=True)
        lines = [l for l in r.stdout.splitlines() if l.strip()]
        assert len(lines) == len(idx), (now, tz, len(lines), len(idx))
        for i, l in zip(idx, lines):
            out[i] = l
    sys.stdout.write("".join(l + "\n" for l in out))

main()
