#!/usr/bin/env python3
"""Writes a Telegram Desktop "Export chat history" JSON file (the machine-readable format) of a
small team's work chat, for `kept import` tests and timing.

The team of six (Russian and English names) writes in one private supergroup on working days:
promises with deadlines ("Доделаю счёт 1041 до пятницы", "I'll send invoice 2210 by Friday"),
requests accepted in a reply, moves, dones and cancellations as replies to the promise, chatter,
service messages (joins, pins, title changes), photos and files with and without captions,
stickers, forwarded messages, edited messages and texts as entity arrays (bold, links, mentions
with user ids). Every promise names a number of its own, so each stays a promise apart.

Deterministic for a seed. Besides the export it writes EXPECT (JSON): the counts an import must
report and each promise's owner, number and final state.

usage: telegram_export.py OUT.json [--messages N] [--seed S] [--account] [--expect EXPECT.json]
  --account  wrap the chat in a whole-account export (`chats.list`) beside a personal chat and
             a channel, which an import skips
"""
import argparse
import datetime
import json
import random

TEAM = [
    (101, "Ольга Нечаева"),
    (102, "Дмитрий Орлов"),
    (103, "Елена Смирнова"),
    (104, "Павел Кузнецов"),
    (105, "John Carter"),
    (106, "Anna Becker"),
]
ENGLISH = {105, 106}
BOSS = 101
CHAT_ID = 1876543210
MSK = datetime.timezone(datetime.timedelta(hours=3))
START = datetime.datetime(2026, 6, 1, 9, 0, tzinfo=MSK)

RU_THINGS = ["счёт", "заказ", "тикет", "договор", "акт по заказу", "отчёт по заказу", "макет"]
EN_THINGS = ["invoice", "ticket", "order", "contract", "report for order"]
RU_PROMISE = [
    "Доделаю {x} до пятницы",
    "Подготовлю {x} к среде",
    "Завтра пришлю {x}",
    "Сделаю {x} до конца недели",
    "Беру на себя {x}, будет к четвергу",
]
EN_PROMISE = [
    "I'll send {x} by Friday",
    "Tomorrow I'll finish {x}",
    "I will prepare {x} by Wednesday",
]
RU_REQUEST = ["{name}, подготовь {x} до четверга", "{name}, сделаешь {x} к среде?"]
RU_ACCEPT = ["ок, сделаю", "да, сделаю", "принято"]
RU_MOVE = ["не успеваю, переношу на понедельник", "сдвигаю на следующую неделю"]
EN_MOVE = ["pushing this to Monday", "can't make it, moving it to next week"]
RU_DONE = ["готово", "сделал, готово"]
EN_DONE = ["done", "shipped"]
RU_CANCEL = ["отбой, это уже не нужно"]
EN_CANCEL = ["cancel that, not needed anymore"]
RU_CHATTER = [
    "Коллеги, доброе утро",
    "Всем привет",
    "Кто сегодня в офисе?",
    "Какие новости по поставке?",
    "Спасибо!",
    "Отлично",
    "Интересно",
    "Созвон в 11 в переговорке",
    "Ссылка на таблицу в закрепе",
    "Кофе кто-нибудь?",
    "Понял, спасибо",
    "Хорошего вечера",
    "А где лежит шаблон договора?",
    "Клиент звонил, спрашивал про сроки",
    "Напоминаю про планёрку в понедельник",
]
EN_CHATTER = [
    "Good morning team",
    "Thanks!",
    "Nice",
    "Who is in the office today?",
    "Any news on the delivery?",
    "Lunch at 1?",
    "The spreadsheet link is pinned",
    "Have a good evening",
]
CAPTIONS = ["Схема склада", "Фото с объекта", "Скрин ошибки", "Whiteboard from the meeting"]
FILES = ["files/Прайс 2026.xlsx", "files/contract_draft.pdf", "files/schema.png"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--messages", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--account", action="store_true")
    ap.add_argument("--expect")
    a = ap.parse_args()
    rnd = random.Random(a.seed)

    msgs = []
    promises = []  # {"owner", "number", "text", "state", "message", "moved"}
    open_by = {}  # owner -> [promise index]
    counts = {"service": 0, "no_text": 0, "forwarded": 0, "imported": 0}
    state = {"t": START, "id": 0, "number": 1000}

    def tick():
        t = state["t"] + datetime.timedelta(minutes=rnd.randint(2, 25))
        if t.hour >= 19:
            t = (t + datetime.timedelta(days=1)).replace(hour=9, minute=rnd.randint(0, 30))
        while t.weekday() >= 5:
            t += datetime.timedelta(days=1)
        state["t"] = t
        state["id"] += 1
        return t, state["id"]

    def base(kind, t, mid):
        return {
            "id": mid,
            "type": kind,
            "date": t.strftime("%Y-%m-%dT%H:%M:%S"),
            "date_unixtime": str(int(t.timestamp())),
        }

    def message(user, text, reply_to=None, **extra):
        t, mid = tick()
        m = base("message", t, mid)
        m["from"] = dict(TEAM)[user]
        m["from_id"] = f"user{user}"
        if reply_to is not None:
            m["reply_to_message_id"] = reply_to
        m.update(extra)
        m["text"] = text
        m["text_entities"] = entities(text)
        msgs.append(m)
        return mid

    def entities(text):
        if isinstance(text, str):
            return [{"type": "plain", "text": text}] if text else []
        return [p if isinstance(p, dict) else {"type": "plain", "text": p} for p in text]

    def thing(owner):
        state["number"] += rnd.randint(1, 9)
        n = str(state["number"])
        pool = EN_THINGS if owner in ENGLISH else RU_THINGS
        return f"{rnd.choice(pool)} {n}", n

    def promise(owner):
        x, n = thing(owner)
        en = owner in ENGLISH
        text = rnd.choice(EN_PROMISE if en else RU_PROMISE).format(x=x)
        style = rnd.random()
        if style < 0.2:
            # Entity array: the verb in bold.
            verb, rest = text.split(" ", 1)
            body = [{"type": "bold", "text": verb}, " " + rest]
            mid = message(owner, body)
        elif style < 0.3:
            mid = message(owner, text, photo="photos/photo_%d@01-06-2026_10-00-00.jpg" % n_photo(),
                          width=1280, height=960)
        else:
            mid = message(owner, text)
        counts["imported"] += 1
        add(owner, n, text, mid)

    def request(owner):
        x, n = thing(owner)
        name = dict(TEAM)[owner].split()[0]
        ask = rnd.choice(RU_REQUEST).format(name=name, x=x)
        body = [{"type": "mention_name", "text": name, "user_id": owner}, ask[len(name):]]
        req = message(BOSS, body)
        acc = message(owner, rnd.choice(RU_ACCEPT), reply_to=req)
        counts["imported"] += 2
        add(owner, n, ask, acc)

    photos = [0]

    def n_photo():
        photos[0] += 1
        return photos[0]

    def add(owner, n, text, mid):
        promises.append({"owner": owner, "number": n, "text": text, "state": "open",
                         "message": mid, "moved": 0})
        open_by.setdefault(owner, []).append(len(promises) - 1)

    def follow_up():
        owners = [o for o, ps in open_by.items() if ps]
        if not owners:
            return False
        owner = rnd.choice(owners)
        i = rnd.choice(open_by[owner])
        p = promises[i]
        en = owner in ENGLISH
        r = rnd.random()
        if r < 0.3 and p["moved"] < 2:
            message(owner, rnd.choice(EN_MOVE if en else RU_MOVE), reply_to=p["message"])
            p["moved"] += 1
        elif r < 0.9:
            message(owner, rnd.choice(EN_DONE if en else RU_DONE), reply_to=p["message"])
            p["state"] = "done"
            open_by[owner].remove(i)
        else:
            message(owner, rnd.choice(EN_CANCEL if en else RU_CANCEL), reply_to=p["message"])
            p["state"] = "cancelled"
            open_by[owner].remove(i)
        counts["imported"] += 1
        return True

    def chatter():
        user = rnd.choice(TEAM)[0]
        line = rnd.choice(EN_CHATTER if user in ENGLISH else RU_CHATTER)
        if rnd.random() < 0.1:
            line = [line + " ", {"type": "link", "text": "https://example.com/doc"}]
        extra = {}
        if rnd.random() < 0.05:
            extra = {"edited": "", "edited_unixtime": ""}
        mid = message(user, line, **extra)
        if extra:
            t = state["t"] + datetime.timedelta(minutes=1)
            msgs[-1]["edited"] = t.strftime("%Y-%m-%dT%H:%M:%S")
            msgs[-1]["edited_unixtime"] = str(int(t.timestamp()))
        counts["imported"] += 1
        return mid

    def service():
        t, mid = tick()
        m = base("service", t, mid)
        action = rnd.choice(["pin_message", "invite_members", "edit_group_title"])
        m.update({"actor": dict(TEAM)[BOSS], "actor_id": f"user{BOSS}", "action": action})
        if action == "pin_message":
            m["message_id"] = max(1, mid - 3)
        elif action == "invite_members":
            m["members"] = [rnd.choice(TEAM)[1]]
        else:
            m["title"] = "Команда «Север»"
        m["text"] = ""
        m["text_entities"] = []
        msgs.append(m)
        counts["service"] += 1

    def media():
        user = rnd.choice(TEAM)[0]
        r = rnd.random()
        if r < 0.4:
            message(user, "", photo="photos/photo_%d@01-06-2026_10-00-00.jpg" % n_photo(),
                    width=1280, height=960)
            counts["no_text"] += 1
        elif r < 0.6:
            message(user, "", file="stickers/sticker.webp", media_type="sticker",
                    sticker_emoji="👍", width=512, height=512)
            counts["no_text"] += 1
        elif r < 0.8:
            message(user, rnd.choice(CAPTIONS),
                    photo="photos/photo_%d@01-06-2026_10-00-00.jpg" % n_photo(),
                    width=1280, height=960)
            counts["imported"] += 1
        else:
            message(user, rnd.choice(FILES).split("/")[1].split(".")[0],
                    file=rnd.choice(FILES), mime_type="application/octet-stream")
            counts["imported"] += 1

    def forwarded():
        user = rnd.choice(TEAM)[0]
        # A promise in someone else's words: an import must not make it the forwarder's.
        message(user, "Сделаю всё до пятницы, обещаю", forwarded_from="Иван Внешний")
        counts["forwarded"] += 1

    def joined():
        t, mid = tick()
        m = base("service", t, mid)
        m.update({"actor": TEAM[0][1], "actor_id": f"user{BOSS}", "action": "create_group",
                  "title": "Команда «Север»", "members": [n for _, n in TEAM], "text": "",
                  "text_entities": []})
        msgs.append(m)
        counts["service"] += 1

    joined()
    while len(msgs) < a.messages:
        r = rnd.random()
        if r < 0.07:
            promise(rnd.choice(TEAM)[0])
        elif r < 0.09:
            request(rnd.choice([u for u, _ in TEAM if u != BOSS and u not in ENGLISH]))
        elif r < 0.22:
            if not follow_up():
                chatter()
        elif r < 0.26:
            service()
        elif r < 0.31:
            media()
        elif r < 0.32:
            forwarded()
        else:
            chatter()

    chat = {"name": "Команда «Север»", "type": "private_supergroup", "id": CHAT_ID,
            "messages": msgs}
    if a.account:
        doc = {
            "about": "Here is the data you requested from Telegram.",
            "personal_information": {"user_id": BOSS, "first_name": "Ольга",
                                     "last_name": "Нечаева", "phone_number": "+7 000 000 0000"},
            "chats": {"about": "This page lists all chats from this export.", "list": [
                {"name": "Дмитрий Орлов", "type": "personal_chat", "id": 102, "messages": [
                    {"id": 1, "type": "message", "date": "2026-06-01T08:00:00",
                     "date_unixtime": str(int(START.timestamp()) - 3600),
                     "from": "Дмитрий Орлов", "from_id": "user102",
                     "text": "Доделаю личное до пятницы", "text_entities": []}]},
                chat,
                {"name": "Новости компании", "type": "private_channel", "id": 1555000111,
                 "messages": []},
            ]},
        }
    else:
        doc = chat
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")

    if a.expect:
        expect = {
            "messages": len(msgs),
            "imported": counts["imported"],
            "skipped": {"service": counts["service"], "no_text": counts["no_text"],
                        "forwarded": counts["forwarded"]},
            "people": len({m["from_id"] for m in msgs if m["type"] == "message"
                           and "forwarded_from" not in m and (m["text"] != "")}),
            "promises": [{k: p[k] for k in ("owner", "number", "state", "moved", "message")}
                         for p in promises],
        }
        with open(a.expect, "w", encoding="utf-8") as f:
            json.dump(expect, f, ensure_ascii=False, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
