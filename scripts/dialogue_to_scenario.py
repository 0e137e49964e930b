#!/usr/bin/env python3
"""Turns a dialogue corpus (one dialogue a line, utterances separated by `__eou__`, as in
../shared/corpus/dialogue/) into a `kept replay` scenario (format: ../shared/CONTRACT.md).

A team of six writes in one supergroup; each dialogue is spoken by two of them (every fifth by
three) taking turns, a minute apart, with half an hour between dialogues, so dates only grow.
The corpus is for measurement only: write the scenario outside the repository (CI uses /tmp).

usage: dialogue_to_scenario.py DIALOGUES.txt OUT.jsonl [--limit N]
Prints the counts (dialogues, messages, people) on stderr.
"""
import datetime
import json
import re
import sys

TEAM = [
    ("Alex", "Moss", "alex", "director"),
    ("Sam", "Reed", "sam", "member"),
    ("Priya", "Shah", "priya", "member"),
    ("Tom", "Baker", "tom", "member"),
    ("Kate", "Hall", "kate", "member"),
    ("Ben", "Carter", "ben", "member"),
]
CHAT = {"id": -1001000000001, "type": "supergroup", "title": "Everyday talk"}
START = datetime.datetime(2026, 11, 2, 9, 0, tzinfo=datetime.timezone.utc)


def clean(utterance):
    """Undoes the corpus tokenisation a little: "I ' ll" -> "I'll", "here ," -> "here,"."""
    text = re.sub(r"\s*[’']\s*", "'", utterance.strip())
    return re.sub(r"\s+([,.!?;:])", r"\1", text)


def speakers(index):
    """Who speaks dialogue `index`, in turn order: two of the team, every fifth three."""
    n = 3 if index % 5 == 4 else 2
    first = index % len(TEAM)
    return [1 + (first + k * 2) % len(TEAM) for k in range(n)]


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    src, out_path = argv[0], argv[1]
    limit = int(argv[argv.index("--limit") + 1]) if "--limit" in argv else 1000
    lines = [{"type": "org", "name": "Dialogue", "timezone": "Europe/London", "locale": "en"}]
    for uid, (first, last, username, role) in enumerate(TEAM, start=1):
        member = {
            "type": "member",
            "user": {"id": uid, "first_name": first, "last_name": last,
                     "username": username, "language_code": "en"},
            "role": role,
            "position": "Director" if role == "director" else "Staff",
            "dm_open": True,
        }
        if role != "director":
            member["manager"] = 1
        lines.append(member)
    when = START
    message_id = 0
    dialogues = 0
    with open(src, encoding="utf-8") as f:
        for index, raw in enumerate(f):
            if dialogues >= limit:
                break
            utterances = [clean(u) for u in raw.split("__eou__")]
            utterances = [u for u in utterances if u]
            if not utterances:
                continue
            who = speakers(index)
            for turn, text in enumerate(utterances):
                message_id += 1
                when += datetime.timedelta(minutes=1)
                lines.append({
                    "type": "message",
                    "chat": CHAT,
                    "id": message_id,
                    "from": who[turn % len(who)],
                    "date": when.isoformat(),
                    "text": text,
                })
            dialogues += 1
            when += datetime.timedelta(minutes=30)
    with open(out_path, "w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"{dialogues} dialogues, {message_id} messages, {len(TEAM)} people -> {out_path}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
