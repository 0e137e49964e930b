#!/usr/bin/env python3
"""Turn test expectations of dateparser (scrapinghub/dateparser, BSD-3-Clause) into
date-corpus JSONL.

usage: dateparser_to_jsonl.py DATEPARSER_GIT_DIR LANG > out.jsonl   (LANG: en | ru)

Reads, at HEAD, the `param(...)` data of two parameterised tests (no code is run or copied):
- tests/test_date_parser.py `test_dates_parsing`: TEXT and the expected `datetime(...)`,
  reference `RELATIVE_BASE` 2012-11-13 00:00;
- tests/test_freshness_date_parser.py `test_relative_past_dates` (`ago={...}`) and
  `test_relative_future_dates` (`in_future={...}`): reference 2014-09-01 10:30, the expected
  moment is the reference minus/plus the offset (calendar units keep the day, as dateutil's
  relativedelta does).
A param belongs to the language of the section comment above it ("# English dates",
"# Russian dates", "# en", "# ru"...). Grain: minute when the offset or the expected datetime
has a time of day, else day. Skipped: bare durations without a direction word ("1 год 2
месяца", "2 hours": dateparser reads them as "ago", this project as no date), fractional
offsets, sub-day offsets of the `ago={"days": 0}` kind for "today" (kept, at day grain).
"""
import ast, json, os, re, subprocess, sys
from datetime import datetime, timedelta
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules

def git(d, *a):
    return subprocess.run(["git", "-C", d, *a], capture_output=True, text=True, check=True).stdout

LANGS = {"english": "en", "russian": "ru", "en": "en", "ru": "ru"}

def sections(src):
    """line number -> language of the section comment in force."""
    cur, out = None, {}
    for i, line in enumerate(src.splitlines(), 1):
        m = re.match(r"\s*#\s*([A-Za-z][\w-]*)(\s+dates?)?\s*:?\s*$", line)
        if m:
            w = m.group(1).lower()
            if m.group(2) or re.fullmatch(r"[a-z]{2,3}(-\w+)?", w):
                cur = LANGS.get(w, "other")
        out[i] = cur
    return out

def add(now, d, sign):
    y = d.get("years", 0); mo = d.get("months", 0)
    if any(isinstance(v, float) for v in d.values()): return None
    total = now.year * 12 + now.month - 1 + sign * (y * 12 + mo)
    yy, mm = divmod(total, 12)
    if not 1 <= yy <= 9998: return None
    import calendar
    day = min(now.day, calendar.monthrange(yy, mm + 1)[1])
    t = now.replace(year=yy, month=mm + 1, day=day)
    return t + sign * timedelta(weeks=d.get("weeks", 0), days=d.get("days", 0), hours=d.get("hours", 0),
                                minutes=d.get("minutes", 0), seconds=d.get("seconds", 0))

DIRECTION = (r"\b(ago|in|later|from now|before|after|next|last|hence|back|earlier|within)\b|назад|через|спустя|тому|"
             r"^[+-]|\s[+-]\s?\d|yesterday|tomorrow|today|now|вчера|завтра|сегодня|сейчас|только что|позавчера|послезавтра|till date")

def params(tree, names):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in names:
            for dec in node.decorator_list:
                if isinstance(dec, ast.Call) and dec.args and isinstance(dec.args[0], (ast.List, ast.Tuple)):
                    for p in dec.args[0].elts:
                        if isinstance(p, ast.Call) and getattr(p.func, "id", "") == "param":
                            yield node.name, p

def main():
    d, lang = sys.argv[1], sys.argv[2]
    seen = set()
    def emit(case):
        if rules.skip(case["text"]): return
        k = (case["text"].lower(), case["now"])
        if k in seen: return
        seen.add(k)
        r = rules.contested(case)
        if r: case["contested"] = r
        print(json.dumps(case, ensure_ascii=False))
    f = "tests/test_date_parser.py"
    src = git(d, "show", f"HEAD:{f}"); sec = sections(src)
    now = datetime(2012, 11, 13)
    for name, p in params(ast.parse(src), {"test_dates_parsing"}):
        if sec.get(p.lineno) != lang or len(p.args) < 2: continue
        try:
            text = ast.literal_eval(p.args[0])
            e = p.args[1]
            if not (isinstance(e, ast.Call) and getattr(e.func, "id", "") == "datetime"): continue
            v = [ast.literal_eval(a) for a in e.args]
        except ValueError:
            continue
        exp = datetime(*v)
        timed = len(v) > 3 and (len(v) > 5 or any(v[3:]) or re.search(r"\d[:.]\d\d|midnight|полноч", text))
        emit({"text": " ".join(text.split()), "lang": lang, "now": now.isoformat() + "+00:00", "tz": "UTC",
              "kind": "point", "grain": "minute" if timed else "day", "start": exp.isoformat(),
              "source": f"dateparser:{f}:test_dates_parsing"})
    f = "tests/test_freshness_date_parser.py"
    src = git(d, "show", f"HEAD:{f}"); sec = sections(src)
    now = datetime(2014, 9, 1, 10, 30)
    for name, p in params(ast.parse(src), {"test_relative_past_dates", "test_normalized_relative_dates", "test_relative_future_dates"}):
        if sec.get(p.lineno) != lang or not p.args: continue
        try:
            text = ast.literal_eval(p.args[0])
            kw = {k.arg: ast.literal_eval(k.value) for k in p.keywords}
        except ValueError:
            continue
        off = kw.get("ago") if "ago" in kw else kw.get("in_future")
        if not isinstance(off, dict) or not isinstance(text, str): continue
        if not re.search(DIRECTION, text.lower()): continue  # a bare duration
        exp = add(now, off, -1 if "ago" in kw else 1)
        if exp is None: continue
        timed = any(k in off for k in ("hours", "minutes", "seconds"))
        if off.get("days") == 0 and len(off) == 1: timed = False
        emit({"text": " ".join(text.split()), "lang": lang, "now": now.isoformat() + "+00:00", "tz": "UTC",
              "kind": "point", "grain": "minute" if timed else "day", "start": exp.replace(microsecond=0).isoformat(),
              "source": f"dateparser:{f}:{name}"})

main()
