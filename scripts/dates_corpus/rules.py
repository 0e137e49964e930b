"""Readings of kept's date contract (src/extract/dates/mod.rs) that another parser's test suite
may not share. `contested(case)` names the rule a converted case falls under, or None; such a
case is kept in the corpus with `"contested": RULE` and never scored. `skip(text)` names cases
outside the contract altogether (not written at all)."""
import re
from datetime import datetime, timedelta

WEEKDAY = r"(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?|понедельн\w*|вторн\w*|сред[ауые]|четверг\w*|пятниц\w*|суббот\w*|воскресень\w*"
PART = r"morning|afternoon|evening|night|tonight|утр\w*|вечер\w*|ноч\w*|днём|днем"
MONTH = (r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|январ|феврал|фев|март|мар|апрел|"
         r"ма[йя]|июн|июл|август|авг|сентябр|сен|октябр|окт|ноябр|ноя|декабр|дек")
UNIT = r"week|month|quarter|qtr|year|недел\w*|месяц\w*|квартал\w*|год\w*|году"
CLOCK = r"\d:\d\d|\d\s*(am|pm|a\.m\.|p\.m\.)|\bat \d|\bв \d|o'?\s?clock|час|noon|midnight|полдень|полночь"
DAYWORD = r"today|tomorrow|yesterday|tonight|сегодня|завтра|вчера|послезавтра|позавчера"
PAST = r"\b(last|past|previous|ago)\b|прошл\w*|назад|прошедш\w*"

def wall(s):
    return datetime.fromisoformat(s[:19]) if s else None

def skip(text):
    if re.search(r"\bBE\b|\bB\.E\.", text): return "buddhist era"
    return None

def contested(c):
    t = c["text"].lower()
    now = wall(c["now"]); s = wall(c.get("start"))
    if c["kind"] == "none" or s is None: return None
    today = now.date()
    has_clock = re.search(CLOCK, t)
    has_day = re.search(r"\d", t) or re.search(DAYWORD, t) or re.search(WEEKDAY, t)
    if re.search(r"\b(" + PART + r")\b", t) and not re.search(r"\d", t) and "midnight" not in t and "noon" not in t and c["kind"] == "point":
        return "part of day: an interval here, one representative hour there"
    if re.search(r"\b(next|last|past|следующие|прошлые|ближайшие)\s+(\d+|two|three|few|два|две|три|\w+)\s+(" + UNIT + r"|days?|дн\w*|hours?|час\w*)", t):
        return "'next/last N units': a span here, its far end there"
    m = re.search(r"\b(this|next|last|past|previous|этой|этом|следующей|следующем|прошлой|прошлом)\s+(" + UNIT + r")\b", t)
    if m and c["kind"] == "point" and not re.search(r"\d", t):
        u = m.group(2)
        start_of = (s.weekday() == 0 if u.startswith(("week", "недел")) else
                    s.day == 1 and (s.month == 1 or not u.startswith(("year", "год"))) and
                    (s.month % 3 == 1 or not u.startswith(("quarter", "qtr", "квартал"))))
        if not start_of:
            return "'this/next/last <unit>': the calendar unit here, the reference moved by a unit there"
    if re.fullmatch(r"(a|an|one|\d+|two|three|\d+\s*\w+)?\s*(" + UNIT + r"|days?|hours?|minutes?|seconds?|мин\w*|час\w*|дн\w*)", t.strip()):
        return "a bare duration is a length of time, not a date"
    if re.search(WEEKDAY, t) and not re.search(r"\d", t) and not re.search(PAST, t) and not re.search(r"\b(next|следующ\w*)\b", t):
        if s.date() <= today:
            return "a bare weekday is its next occurrence (today's means next week's)"
    if re.search(MONTH, t) and not re.search(r"\b(1[6-9]|20)\d\d\b|'\d\d|\b\d\d$", t) and c["kind"] == "point" and s.year in (now.year - 1, now.year, now.year + 1):
        ours = s.replace(year=now.year) if not (s.month == 2 and s.day == 29) else s
        if ours.date() < today - timedelta(days=21): ours = ours.replace(year=now.year + 1)
        if ours.year != s.year and not re.search(r"\b(ago|later|before|after|назад|через|спустя)\b", t):
            return "a day and month without a year: this year's unless past by more than three weeks"
    if re.search(r"^\d+/\d+$", t.strip()) and s.year != now.year:
        ours = s.replace(year=now.year)
        if ours.date() < today - timedelta(days=21): ours = ours.replace(year=now.year + 1)
        if ours.year != s.year:
            return "a day and month without a year: this year's unless past by more than three weeks"
    if has_clock and not has_day and not re.search(r"\b(in|within|ago|later|через|назад)\b", t) and s < now - timedelta(hours=1) and c["kind"] == "point":
        return "a clock time without a day is its next occurrence, the current hour counting"
    if has_clock and not has_day and not re.search(r"\b(in|within|ago|later|через|назад)\b", t) and c["kind"] == "point" \
            and s.date() > today and s.hour == now.hour:
        return "a clock time without a day is its next occurrence, the current hour counting"
    return None
