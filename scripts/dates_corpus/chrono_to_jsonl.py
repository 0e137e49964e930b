#!/usr/bin/env python3
"""Turn the test expectations of chrono (wanasit/chrono, MIT) into date-corpus JSONL.

usage: chrono_to_jsonl.py CHRONO_GIT_DIR LANG > out.jsonl   (LANG: en | ru)

Reads `test/LANG/*.test.ts` at HEAD of a chrono git directory (no work tree needed) and keeps
only the *data* of each call: the text, the reference date, and the expected start/end.
Conversion rules (see tests/data/dates/README.md):
- `testSingleCase(parser, TEXT, new Date(y, m0, d[, h, mi, s]), cb)`: the expression is the
  matched `result.text` when the test states it, else TEXT. JS months are 0-based. Reference
  dates are wall clock; written here in UTC ("tz": "UTC").
- expected start: `expect(result.start).toBeDate(new Date(...))`, else built from
  `result.start.get("year"|"month"|"day"|"hour"|"minute")`.
- grain: the finest component the test states as certain (`isCertain`) or reads with `get`
  (minus those asserted uncertain); with only `toBeDate`, minute when the expected time of
  day is neither chrono's implied noon nor the reference's own time, else day.
- with `result.end`: kind `interval`, end made exclusive by one unit of the grain (chrono's
  end is the last moment named: "Aug 10 - 12" ends Aug 12, here Aug 13 00:00).
- `testUnexpectedResult(parser, TEXT)`: kind `none`.
- skipped: no reference date (unless TEXT carries a 4-digit year and the result is absolute),
  reference dates given other than as numeric `new Date(...)`, several results, results
  checked only for index/text, time-zone tests (`timezone` in the file name or options).
"""
import json, os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules
from datetime import datetime, timedelta

def git(d, *a):
    return subprocess.run(["git", "-C", d, *a], capture_output=True, text=True, check=True).stdout

def calls(src, name):
    """(start, args_text) of each `name(` call, with balanced parentheses, strings honoured."""
    out = []
    for m in re.finditer(r"\b" + name + r"\(", src):
        i = m.end(); depth = 1; q = None
        while i < len(src) and depth:
            c = src[i]
            if q:
                if c == "\\": i += 1
                elif c == q: q = None
            elif c in "\"'`": q = c
            elif c == "(": depth += 1
            elif c == ")": depth -= 1
            i += 1
        out.append(src[m.end():i - 1])
    return out

def split_args(s):
    args, depth, q, cur, i = [], 0, None, "", 0
    while i < len(s):
        c = s[i]
        if q:
            cur += c
            if c == "\\": cur += s[i + 1]; i += 1
            elif c == q: q = None
        elif c in "\"'`": q = c; cur += c
        elif c in "([{": depth += 1; cur += c
        elif c in ")]}": depth -= 1; cur += c
        elif c == "," and depth == 0: args.append(cur.strip()); cur = ""
        else: cur += c
        i += 1
    if cur.strip(): args.append(cur.strip())
    return args

def strlit(s):
    s = s.strip()
    if len(s) >= 2 and s[0] in "\"'" and s[-1] == s[0]:
        try:
            return json.loads('"' + s[1:-1].replace('\\"', '"').replace('"', '\\"').replace("\\'", "'") + '"', strict=False)
        except json.JSONDecodeError:
            return None
    return None

def num(e):
    e = e.strip()
    if not re.fullmatch(r"[\d\s+\-*]+", e): raise ValueError(e)
    return int(eval(e, {"__builtins__": {}}))

def jsdate(e):
    """datetime of `new Date(y, m0, d, h, mi, s[, ms])`, or None."""
    m = re.fullmatch(r"new Date\((.*)\)", e.strip(), re.S)
    if not m: return None
    a = split_args(m.group(1))
    if len(a) < 2: return None
    try: v = [num(x) for x in a]
    except ValueError: return None
    y, mo, d, h, mi, s = (v + [1, 0, 0, 0, 0, 0][len(v):])[:6] if len(v) < 6 else v[:6]
    if not 1 <= y <= 9998: return None
    # JS Date normalises overflowing months/days
    yy = y + (mo // 12); mo = mo % 12
    return datetime(yy, mo + 1, 1) + timedelta(days=d - 1, hours=h, minutes=mi, seconds=s)

ORDER = ["year", "month", "day", "hour", "minute", "second"]

def add_grain(t, grain):
    if grain == "second": return t + timedelta(seconds=1)
    if grain in ("day", "week"): return t + timedelta(days=1)
    if grain == "hour": return t + timedelta(hours=1)
    if grain == "minute": return t + timedelta(minutes=1)
    if grain == "month": return datetime(t.year + (t.month == 12), t.month % 12 + 1, 1)
    if grain == "year": return datetime(t.year + 1, 1, 1)
    return t

NOON = re.compile(r"noon|midday|полд|полуд|\b12(:00|\s*[ap]\.?m|\s*час)", re.I)

def side(body, which, ref, expr=""):
    date = None
    m = re.search(r"expect\(result\." + which + r"\)\.toBeDate\((new Date\([^;]*?\))\)\s*;", body)
    if m: date = jsdate(m.group(1))
    elif re.search(r"expect\(result\." + which + r"\)\.toBeDate\(result\.refDate\)", body): date = ref
    gets = {k: int(v) for k, v in re.findall(r"expect\(result\." + which + r"\.get\(\"(\w+)\"\)\)\.toBe\((-?\d+)\)", body)}
    cert = {k: v == "true" for k, v in re.findall(r"expect\(result\." + which + r"\.isCertain\(\"(\w+)\"\)\)\.toBe\((true|false)\)", body)}
    if date is None and {"year", "month", "day"} <= gets.keys() and 1 <= gets["year"] <= 9998:
        date = datetime(gets["year"], gets["month"], gets["day"], gets.get("hour", 12 if "hour" not in gets else 0), gets.get("minute", 0))
    if date is None: return None
    implied = set()
    if not cert.get("hour"):
        if (date.hour, date.minute) == (12, 0) and not NOON.search(expr): implied |= {"hour", "minute"}
        if (date.hour, date.minute) == (ref.hour, ref.minute) and not re.search(r"\d:\d\d|\d\s*[ap]\.?m|hour|minute|min|час|мин", expr, re.I): implied |= {"hour", "minute"}
    stated = [k for k in ORDER if ((k in gets and cert.get(k, True)) or cert.get(k)) and k not in implied]
    if "weekday" in gets or cert.get("weekday"): stated.append("day")
    if stated:
        grain = max(stated, key=ORDER.index)
    elif (date.hour, date.minute) == (12, 0) and NOON.search(expr):
        grain = "hour"
    elif (date.hour, date.minute) in ((12, 0), (ref.hour, ref.minute)):
        grain = "day"
    else:
        grain = "minute"
    if grain in ("hour", "minute", "second"):
        if date.second: grain = "second"
        elif date.minute == 0 and not re.search(r"\d[:.]\d\d|minute|min|мин", expr, re.I): grain = "hour"
        else: grain = "minute"
    if grain == "day" and re.search(r"\b(this|next|last|past|previous|этой|этом|следующей|следующем|прошлой|прошлом)\s+(week|month|quarter|qtr|year|недел\w*|месяц\w*|квартал\w*|год\w*)", expr, re.I) and not re.search(r"\d", expr):
        u = re.search(r"(week|month|quarter|qtr|year|недел|месяц|квартал|год)", expr, re.I).group(1).lower()
        grain = {"week": "week", "недел": "week", "month": "month", "месяц": "month", "quarter": "quarter", "qtr": "quarter", "квартал": "quarter"}.get(u, "year")
    return date, grain

def main():
    d, lang = sys.argv[1], sys.argv[2]
    files = [f for f in git(d, "ls-tree", "-r", "--name-only", "HEAD").split() if f.startswith(f"test/{lang}/") and f.endswith(".test.ts")]
    seen = set()
    for f in sorted(files):
        if "timezone" in f or "performance" in f: continue
        src = git(d, "show", f"HEAD:{f}")
        for a in calls(src, "testSingleCase"):
            args = split_args(a)
            if len(args) < 3: continue
            text = strlit(args[1])
            if text is None: continue
            rest = args[2:]
            ref = jsdate(rest[0]) if rest[0].startswith("new Date") else None
            body = rest[-1]
            if not body.startswith("(") and "=>" not in body and not body.startswith("function"): continue
            if "strict" in args[0]: continue
            if any("timezone" in r or "Timezone" in r for r in rest[:-1]): continue
            if rest[0].startswith("{") or (not rest[0].startswith("new Date") and not ("=>" in rest[0] or rest[0].startswith("function"))): continue
            if "results[1]" in body or "timezoneOffset" in body or "Timezone" in body: continue
            m = re.search(r"expect\(result\.text\)\.toBe\((\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|text)\)", body)
            expr = text.strip() if not m or m.group(1) == "text" else strlit(m.group(1))
            year_only = ref is None
            if ref is None:
                if not re.search(r"\b(1[89]|20)\d\d\b", expr): continue
                ref = datetime(2012, 8, 10, 12, 0)
            s = side(body, "start", ref, expr)
            if s is None: continue
            start, grain = s
            if start.year < 1000: continue
            case = {"text": expr, "lang": lang, "now": ref.strftime("%Y-%m-%dT%H:%M:%S") + "+00:00", "tz": "UTC"}
            e = side(body, "end", ref, expr)
            if e is not None:
                end, eg = e
                g = max([grain, eg], key=ORDER.index) if grain != eg else grain
                case.update(kind="interval", grain=g, start=start.strftime("%Y-%m-%dT%H:%M:%S"),
                            end=add_grain(end, g).strftime("%Y-%m-%dT%H:%M:%S"))
            elif "within" in f or re.match(r"(within|в течение)\b", expr, re.I):
                # "within 2 hours": chrono gives the far end; here an open interval up to it
                case.update(kind="before", grain=grain, end=start.strftime("%Y-%m-%dT%H:%M:%S"))
            else:
                case.update(kind="point", grain=grain, start=start.strftime("%Y-%m-%dT%H:%M:%S"))
            if year_only and str(start.year) not in expr: continue
            if rules.skip(expr): continue
            case["source"] = f"chrono:{f}"
            r = rules.contested(case)
            if r: case["contested"] = r
            k = (case["text"].lower(), case["now"])
            if k in seen: continue
            seen.add(k); print(json.dumps(case, ensure_ascii=False))
        for a in calls(src, "testUnexpectedResult"):
            args = split_args(a)
            text = strlit(args[1]) if len(args) > 1 else None
            if "strict" in args[0]: continue
            if text is None: continue
            if len(args) > 3 and "forwardDate" not in args[3]: continue
            ref = jsdate(args[2]) if len(args) > 2 and args[2].startswith("new Date") else datetime(2012, 8, 10, 12, 0)
            case = {"text": text.strip(), "lang": lang, "now": ref.strftime("%Y-%m-%dT%H:%M:%S") + "+00:00", "tz": "UTC",
                    "kind": "none", "grain": None, "source": f"chrono:{f}"}
            k = (case["text"].lower(), case["now"])
            if k in seen: continue
            seen.add(k); print(json.dumps(case, ensure_ascii=False))

main()
