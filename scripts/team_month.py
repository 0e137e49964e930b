#!/usr/bin/env python3
"""Writes a month of a 50-person team's chat as a `kept replay` scenario (format:
../shared/CONTRACT.md): the yardstick for replay speed in README.md's performance table.

Fifty people (a director, four leads, 45 members) write in four supergroups, about 900 messages
a working day for 22 working days (20,000 messages by default). The mix is what a team's chat
holds: most messages are talk, about one in six makes a promise (said, or asked and accepted in
a reply), and later messages close, move or cancel some of them; a few people ask the bot in DM.
Every scheduled job runs on the way (reminders, reflections, summaries, digests). The text is
generated from templates with a fixed seed, so two runs write the same file.

usage: team_month.py OUT.jsonl [--messages N] [--seed S]
"""
import datetime
import json
import random
import sys

FIRST = ["Анна", "Дмитрий", "Елена", "Сергей", "Ольга", "Иван", "Мария", "Павел", "Наталья",
         "Алексей", "Татьяна", "Андрей", "Ирина", "Михаил", "Светлана", "Николай", "Юлия",
         "Владимир", "Ксения", "Артём", "Галина", "Роман", "Вера", "Денис", "Людмила"]
LAST = ["Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов", "Михайлов", "Новиков",
        "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов"]
THINGS = ["отчёт по складу", "смету для Ромашки", "договор с поставщиком", "акт сверки",
          "заявку на металл", "график смен", "презентацию для клиента", "счёт для Вектора",
          "проверку насоса", "замену фильтров", "инвентаризацию", "накладные", "прайс",
          "чертежи узла", "калькуляцию", "отгрузку в Казань", "ремонт конвейера",
          "протокол испытаний", "закупку перчаток", "настройку станка", "план на квартал",
          "ответ налоговой", "макет этикетки", "заказ упаковки", "проверку партии"]
DATES = ["до пятницы", "завтра", "сегодня", "к среде", "до конца недели", "в понедельник",
         "послезавтра", "к четвергу", "на следующей неделе", "до обеда", "к вечеру", ""]
MOVES = ["на среду", "на понедельник", "на завтра", "на следующую неделю", "на пятницу"]
TALK = ["кто сегодня на складе?", "обед в час, не забудьте", "машина пришла",
        "у кого ключи от второго цеха?", "спасибо всем", "созвон в 15:00", "понял",
        "а где лежат старые накладные?", "принтер опять не печатает", "норм",
        "вчера доделал разметку", "Вася сказал, что посмотрит", "если успею, гляну",
        "надо бы обновить инструкцию", "погода жуть, пробки", "кофе закончился",
        "клиент звонил, ждёт ответа", "сломался погрузчик", "ок, принято к сведению",
        "в пятницу корпоратив!", "кто брал рулетку?", "отправил фото в общий чат"]
GROUPS = [(-1002000000001, "Производство"), (-1002000000002, "Склад и логистика"),
          (-1002000000003, "Продажи"), (-1002000000004, "Офис")]
QUESTIONS = ["какие у меня приоритеты?", "что я обещал?", "кто простаивает?",
             "кто просрочил?"]
START = datetime.date(2026, 11, 2)
TZ = datetime.timezone(datetime.timedelta(hours=3))


def people():
    out = []
    for k in range(50):
        first = FIRST[k % len(FIRST)]
        last = LAST[(k * 7) % len(LAST)]
        if first.endswith("а") or first.endswith("я"):
            last += "а"
        role = "director" if k == 0 else ("lead" if k <= 4 else "member")
        out.append((k + 1, first, last, role))
    return out


def working_days(n):
    d, out = START, []
    while len(out) < n:
        if d.weekday() < 5:
            out.append(d)
        d += datetime.timedelta(days=1)
    return out


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    out_path = argv[0]
    total = int(argv[argv.index("--messages") + 1]) if "--messages" in argv else 20000
    rng = random.Random(int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 7)
    team = people()
    lines = [{"type": "org", "name": "Завод", "timezone": "Europe/Moscow", "locale": "ru"}]
    for uid, first, last, role in team:
        m = {"type": "member",
             "user": {"id": uid, "first_name": first, "last_name": last,
                      "username": f"u{uid}", "language_code": "ru"},
             "role": role, "position": "Сотрудник", "dm_open": uid % 5 != 0}
        if uid > 1:
            m["manager"] = 1 if uid <= 5 else 2 + uid % 4
        lines.append(m)
    days = working_days(22)
    per_day = total // len(days)
    next_id = {g: 1 for g, _ in GROUPS}
    dm_id = 1
    promises = []  # (group, message id, owner, thing)
    written = 0
    for day in days:
        n = per_day if day != days[-1] else total - written
        # Spread the day's messages between 08:30 and 19:00, in order.
        secs = sorted(rng.randrange(8 * 3600 + 1800, 19 * 3600) for _ in range(n))
        for s in secs:
            at = datetime.datetime.combine(day, datetime.time(), TZ) + datetime.timedelta(seconds=s)
            who = team[rng.randrange(len(team))]
            uid = who[0]
            roll = rng.random()
            if roll < 0.01:
                lines.append({"type": "message", "chat": "dm", "id": dm_id, "from": uid,
                              "date": at.isoformat(), "text": rng.choice(QUESTIONS)})
                dm_id += 1
                written += 1
                continue
            g, title = GROUPS[uid % len(GROUPS)] if rng.random() < 0.8 else rng.choice(GROUPS)
            mid = next_id[g]
            next_id[g] += 1
            msg = {"type": "message", "chat": {"id": g, "type": "supergroup", "title": title},
                   "id": mid, "from": uid, "date": at.isoformat()}
            mine = [p for p in promises if p[2] == uid and p[0] == g]
            if roll < 0.12:
                thing = rng.choice(THINGS)
                msg["text"] = f"сделаю {thing} {rng.choice(DATES)}".strip()
                promises.append((g, mid, uid, thing))
            elif roll < 0.17:
                other = team[rng.randrange(len(team))]
                thing = rng.choice(THINGS)
                msg["text"] = f"{other[1]}, подготовишь {thing} {rng.choice(DATES)}?".strip()
                promises.append((g, mid, other[0], thing))
            elif roll < 0.22 and mine:
                p = mine[rng.randrange(len(mine))]
                promises.remove(p)
                msg["text"] = rng.choice([f"{p[3]} готово", "готово", "сделал"])
                msg["reply_to"] = p[1]
            elif roll < 0.25 and mine:
                p = mine[rng.randrange(len(mine))]
                msg["text"] = f"не успеваю, {p[3]} переношу {rng.choice(MOVES)}"
            elif roll < 0.26 and mine:
                p = mine[rng.randrange(len(mine))]
                promises.remove(p)
                msg["text"] = "отбой, уже не нужно"
                msg["reply_to"] = p[1]
            else:
                msg["text"] = rng.choice(TALK)
            # A request is accepted in a reply by the one asked (in the same second: dates only grow).
            lines.append(msg)
            written += 1
            if msg["text"].endswith("?") and promises and promises[-1][1] == mid \
                    and rng.random() < 0.7:
                p = promises[-1]
                aid = next_id[g]
                next_id[g] += 1
                lines.append({"type": "message",
                              "chat": {"id": g, "type": "supergroup", "title": title},
                              "id": aid, "from": p[2],
                              "date": at.isoformat(),
                              "text": rng.choice(["ок", "да, сделаю", "беру", "👍"]),
                              "reply_to": mid})
                promises[-1] = (g, aid, p[2], p[3])
                written += 1
        # The evening's jobs run before the next day starts.
        end = datetime.datetime.combine(day, datetime.time(23, 0), TZ)
        lines.append({"type": "clock", "at": end.isoformat()})
    with open(out_path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"{written} messages, {len(team)} people, {len(days)} working days -> {out_path}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
