# kept — русские строки. Плюрали через категории Fluent: one, few, many, other.

promises-count = { $n ->
    [one] { $n } обещание
    [few] { $n } обещания
   *[many] { $n } обещаний
}
times = { $n ->
    [one] { $n } раз
    [few] { $n } раза
   *[many] { $n } раз
}

weekday-short-1 = пн
weekday-short-2 = вт
weekday-short-3 = ср
weekday-short-4 = чт
weekday-short-5 = пт
weekday-short-6 = сб
weekday-short-7 = вс
month-of-1 = января
month-of-2 = февраля
month-of-3 = марта
month-of-4 = апреля
month-of-5 = мая
month-of-6 = июня
month-of-7 = июля
month-of-8 = августа
month-of-9 = сентября
month-of-10 = октября
month-of-11 = ноября
month-of-12 = декабря

hedge = похоже,
due-on = до { $date }
due-overdue = ⚠️ просрочено, срок был { $date }
due-none = без срока
confidence = уверенность

priority-urgent = срочно
priority-high = высокий приоритет
priority-normal = обычный приоритет
priority-low = низкий приоритет

role-director = директор
role-lead = руководитель
role-member = сотрудник

kind-fact = Факты
kind-trait = Черты
kind-preference = Предпочтения
kind-context = Контекст

state-open = открыто
state-done = выполнено
state-cancelled = отменено

node-product = продукт
node-process = процесс
node-regulation = регламент
node-role = роль
node-location = площадка
node-customer = клиент
node-supplier = поставщик
node-equipment = оборудование
node-department = отдел
node-concept = понятие

not-a-member = Я вас пока не знаю в команде. Напишите что-нибудь в рабочем чате, где есть я, или попросите директора добавить вас.
priorities-empty = Открытых обещаний и задач нет — можно выдохнуть.
priorities-header = Ваши приоритеты ({ promises-count }):
overdue-count = { $n ->
    [one] Просрочено: { $n }.
   *[other] Просрочено: { $n }.
}
promises-empty = Открытых обещаний нет.
promises-header = Вы обещали ({ promises-count }):
person-unknown = Не нашёл человека «{ $name }» в команде.
person-which = «{ $name }» — кого из них вы имеете в виду?
status-header = В работе у { $name_gen } — { promises-count }:
status-tasks = Задачи:
status-done = Недавно сделано:
status-owns = Отвечает за:
status-empty = У { $name_gen } сейчас нет открытых обещаний и задач.
status-no-promises = У { $name_gen } нет открытых обещаний.
overview-refused = Обзор по команде доступен директору и руководителям. Могу рассказать о ваших делах: спросите «какие у меня приоритеты?».
idle-none = Все при деле: у каждого есть открытые обещания или задачи.
idle-recently-done = за неделю закрыто: { $n }
idle-header = Без открытых дел { $n ->
    [one] { $n } человек:
    [few] { $n } человека:
   *[many] { $n } человек:
}
overdue-none = Просрочек нет.
overdue-header = Просрочки у { $n ->
    [one] { $n } человека:
   *[other] { $n } человек:
}
owner-unknown = Не знаю, кто отвечает за «{ $topic }».
know-nothing = Про «{ $topic }» я пока ничего не знаю.
know-header = Что известно про «{ $topic }»:
evidence-dm = из личных сообщений
remembered = { $self ->
    [true] Запомнил.
   *[other] Запомнил — это { $about }.
}
remember-refused = Записывать заметки { $about } могут только директор и руководитель. О себе — пожалуйста.
button-priorities = Мои приоритеты
button-promises = Что я обещал
button-overdue = Кто просрочил
button-idle = Кто простаивает
help-questions = Я помню, кто что обещал в рабочих чатах. Спросите, например: { $examples }.
example-priorities = какие у меня приоритеты?
example-promises = что я обещал?
example-person = что у { $name_gen } в работе?
example-idle = кто простаивает?
example-quoted = «{ $q }»
me-header = { $name } — { $role }, { $org }
me-forget-hint = Забыть запись: /forget и её номер в скобках, например /forget { $id }
me-promises = Обещания ({ promises-count })
me-nothing = Пока я ничего о вас не знаю: обещания появятся, когда вы что-то пообещаете в рабочем чате, а заметку можно оставить командой /remember.
source-message = сообщение
source-private = из личной переписки
source-group = из рабочего чата
source-reflection = из итогов дня
forget-usage = Напишите номер записи: /forget 12
forget-done = Готово, запись убрана в архив.
forget-unknown = Такой записи о вас нет.
team-header = Команда:
team-empty = Пока некого показать: люди появятся здесь, когда напишут в подключённом чате, а ваши подчинённые — когда директор назначит вас их руководителем.
team-line = открыто { $open }, просрочено { $overdue }

reminder-morning = срок сегодня или уже прошёл ({ promises-count }):
reminder-day-before = скоро срок — { $date } ({ promises-count }):
reminder-morning-part = срок сегодня или уже прошёл ({ $i } из { $n }):
reminder-day-before-part = скоро срок — { $date } ({ $i } из { $n }):
button-done = ✅ Готово
button-snooze = ⏰ +1 день
button-nap = 🚫 Не обещание
button-result-done = ✅ Отмечено выполненным: { $what }
button-result-nap = 🚫 Больше не считаю обещанием: { $what }
button-result-snooze = ⏰ Перенесено на { $date }: { $what }
button-stale = Это уже закрыто: { $what }
button-not-yours = Это не ваше обещание.
button-unknown = Не нашёл это обещание.

stat-messages = сообщений: { $n }
stat-made = новых обещаний: { $n }
stat-done = выполнено: { $n }
stat-moved = перенесено: { $n }
stat-overdue = просрочено: { $n }
risk-overdue = просрочено: { $what }
risk-moved = переносилось не раз: { $what }
risk-silent = { $name } молчит { $n ->
    [one] { $n } рабочий день
    [few] { $n } рабочих дня
   *[many] { $n } рабочих дней
}

summary-header = <b>Итоги дня, { $date }</b>
summary-new = 🆕 Новое:
summary-done = ✅ Сделано:
summary-moved = ↪️ Перенесено:
summary-overdue = ⚠️ Просрочено:
summary-in-work = 🔧 В работе:
summary-silent = 🤐 Сегодня молчали:
summary-risks = Риски

weekly-header = <b>Итоги недели: { $from } — { $to }</b>
weekly-on-time = В срок выполнено { $pct }% обещаний.
weekly-on-time-none = На этой неделе выполненных обещаний со сроком не было.
weekly-people = По людям (дано / сделано / в срок / перенесено / отменено / просрочено)
weekly-person = { $made } / { $done } / { $ontime } / { $moved } / { $cancelled } / { $overdue }
weekly-overdue = ⚠️ Просрочено
weekly-open = 🔧 Открытые обещания
weekly-most-moved = ↪️ Чаще всего переносили

chart-title = Неделя { $from } — { $to }
chart-opened = дано
chart-done = выполнено
chart-on-time = в срок, %
chart-caption = Обещания по дням недели: дано и выполнено, линия — доля выполненных в срок.

cmd-start = начать
cmd-help = что умеет бот
cmd-priorities = мои приоритеты
cmd-promises = что я обещал
cmd-me = что бот знает обо мне
cmd-team = обзор команды
cmd-lang = язык: /lang ru или /lang en
cmd-link = подключить этот чат (директор)
cmd-role = роль: /role @user director|lead|member должность
cmd-forget = забыть запись обо мне
cmd-export = выгрузить всё, что бот знает обо мне
cmd-gender = род для склонения имени: /gender м|ж|авто

start-welcome = Здравствуйте, { $name }! Я kept — память команды: слежу, кто что пообещал в рабочих чатах, напоминаю о сроках и отвечаю на вопросы.
start-unknown = Здравствуйте! Я kept — память команды. Вас пока нет в команде: напишите в рабочем чате, где я подключён, или попросите директора добавить вас.
start-privacy-mode = ⚠️ У @{ $bot } включён режим приватности: в групповых чатах я вижу только команды и ответы мне, а обещаний, которые там дают, не вижу. Чтобы его выключить, откройте @BotFather, отправьте /setprivacy, выберите @{ $bot } и нажмите Disable, а потом удалите меня из каждой группы и добавьте снова (Telegram применяет изменение только после этого). Или сделайте меня администратором каждой группы: администраторы видят все сообщения.
dm-unknown = Я вас пока не знаю. Чтобы я вас запомнил, напишите в рабочем чате, где я подключён (директор подключает чат командой /link), или попросите директора добавить вас.
empty-message = Пришлите вопрос текстом.
help = Я слушаю рабочие чаты и запоминаю обещания: «доделаю отчёт до пятницы». Спрашивайте в личке, например: { $examples }. Команды: /priorities, /promises, /me, /team, /lang, /forget.
lang-set = Буду отвечать по-русски.
lang-usage = Напишите /lang ru или /lang en.
unknown-command = Не знаю такой команды. /help — что я умею.
link-in-group = Команду /link нужно отправить в групповом чате, который подключаете. В личке /link связывает узлы: /link CRM depends_on Биллинг.
link-refused = Подключать чаты может только директор.
link-done = Чат подключён. Я буду тихо запоминать обещания.
role-refused = Назначать роли может только директор.
role-usage = Формат: /role @user director|lead|member [должность]
role-set = { $name } теперь { $role }.
gender-usage = Формат: /gender м, /gender ж или /gender авто (по имени); директор может указать и для другого: /gender @user ж
gender-refused = Указывать род для других может только директор. Для себя — пожалуйста: /gender м или /gender ж.
gender-set = { $gender ->
    [m] Готово: «{ $name }» склоняю как мужское имя.
    [f] Готово: «{ $name }» склоняю как женское имя.
   *[other] Готово: как склонять «{ $name }», снова решаю по самому имени.
}
command-in-dm = Эта команда работает в личных сообщениях со мной.
export-title = Что kept знает { $about }
export-open = Открытые обещания
export-closed = Закрытые обещания
export-reflections = Итоги дней
export-caption = Всё, что я о вас знаю: файл можно прочитать и поправить, а записи убрать командой /forget номер.
about-person = { $vowel ->
    [yes] об
   *[other] о
} { $name }

## The optional model
llm-budget-spent = Дневной лимит токенов модели на сегодня исчерпан. До полуночи я отвечаю и подвожу итоги по правилам, без модели.

## Absences
cmd-away = отсутствие: /away 1.12–10.12, /away до понедельника, /away off
away-set = Отметил: вас нет с { $from } по { $to } включительно. В эти дни не будет напоминаний, и в сводке вы не окажетесь среди молчавших.
away-off = Снял отметку об отсутствии. С возвращением!
away-none = Отметок об отсутствии и так нет.
away-usage = Напишите, когда вас не будет: /away 1.12–10.12, /away до понедельника; /away off — снять отметку.
summary-away = 🏖 { $name } отсутствует по { $date } включительно.
summary-away-due = Сроки на это время:

## The business graph
cmd-node = добавить узел: /node тип название @владелец
cmd-nodes = узлы бизнеса: /nodes [тип]
node-usage = Формат: /node тип название [@владелец], например /node продукт Топливные баки K1 @dima. Типы: продукт, процесс, регламент, роль, площадка, клиент, поставщик, оборудование, отдел, понятие.
node-refused = Добавлять узлы могут директор и руководители.
node-unknown-owner = Не нашёл в команде { $who }.
node-added = Добавил «{ $title }» ({ $type }), адрес { $slug }.
node-added-owned = Добавил «{ $title }» ({ $type }), адрес { $slug }, отвечает { $owner }.
nodes-none = Узлов пока нет. Добавьте: /node тип название [@владелец].
nodes-header = { $n ->
    [one] { $n } узел:
    [few] { $n } узла:
   *[many] { $n } узлов:
}

## Tasks
cmd-task = поручить: /task @user что сделать [срок] [!срочно]
task-usage = Формат: /task @user что сделать [срок] [!срочно|!важно], например /task @pavel переделать смету до завтра. Можно и просто написать мне: «Павел, переделай смету до завтра».
task-refused = Поручать задачи могут директор и руководители — своим сотрудникам.
task-urgent = (срочно)
task-high = (важно)
task-assigned-to-you = { $by } поручает вам: { $what }
button-task-accept = ✅ Принять
button-task-decline = ❌ Отказаться
button-task-later = 📅 На день позже
button-task-done = ✅ Готово
task-assigned = Поручил { $name_dat }: { $what }. Сообщу, когда ответит.
task-assigned-no-dm = Записал задачу для { $name_gen }: { $what }. В личку мне { $name } ещё не писал(а) — передайте сами, задача уже в списке.
task-assigned-group = Поручил { $name_dat }: { $what }. В личку мне { $name } ещё не писал(а) — написал в рабочий чат с упоминанием, кнопки там.
task-closed = Эта задача уже закрыта.
task-accepted = Принято: { $what }.
task-declined = Отказ записан: { $what }.
task-accepted-later = Принято со сдвигом: { $what }.
task-done = Готово: { $what }.
task-they-accepted = { $name } принял(а) задачу: { $what }.
task-they-declined = { $name } отказался(-ась) от задачи: { $what }.
task-they-accepted-later = { $name } принял(а) задачу, но на день позже: { $what }.
task-they-finished = { $name } выполнил(а) задачу: { $what }.
reminder-tasks = Задачи на сегодня:

## Corrections
cmd-fix = исправить обещание: /fix номер срок|текст|готово|отмена
fix-usage = Формат: /fix номер срок пятница, /fix номер текст новый текст, /fix номер владелец @user, /fix номер готово, /fix номер отмена (номер — после # в списке обещаний).
fix-unknown = Не нашёл обещание с таким номером.
fix-refused = Исправить обещание могут его владелец, тот, кто просил, руководитель или директор.
fix-bad-date = Не понял дату. Например: /fix 12 срок пятница или /fix 12 срок 15.12.
fix-done = Исправил: { $what } — { $due }, { $state }.

# Goals (/goal, /goals)
cmd-goal = поставить цель: /goal что сделать [до даты] [— описание] [@владелец]
cmd-goals = цели и их продвижение
cmd-digest = сводки: /digest on|off|неделя|18
goal-usage = Формат: /goal Запустить продажи в Казани до 1 марта — два дилера и склад @pavel. Без @ цель ваша.
goal-unknown-owner = Не нашёл в команде { $who }.
goal-refused = Ставить цели другим могут директор и руководитель этого человека. Свою цель — пожалуйста: /goal без @.
goal-created = Цель поставлена.
goal-one-step = Пока цель — один шаг: разбить её на шаги может подключённая модель.
goal-due = до { $date }
goal-steps = Шаги:
goal-step-proposed = предложен
goal-step-kept = задача: { $name }
goal-step-waiting = ждёт ответа: { $name }
goal-step-done = ✅ сделано ({ $name })
goal-step-dropped = убран
goal-plan-hint = «Оставить» — шаг станет задачей владельца цели, «Поручить» — выбрать исполнителя, «Убрать» — шаг не нужен.
button-goal-keep = Оставить { $n }
button-goal-assign = Поручить { $n }
button-goal-drop = Убрать { $n }
button-goal-back = Назад
goal-who = Кому поручить шаг { $n } «{ $step }»?
goal-note-kept = Шаг { $n } поручен { $name_dat }.
goal-note-kept-unreached = Шаг { $n } поручен { $name_dat }, но сообщить я не могу: в личку мне не писали и в рабочих чатах не появлялись — передайте сами, задача уже в списке.
goal-note-dropped = Шаг { $n } убран.
goal-step-decided = По этому шагу уже есть решение.
goal-not-yours = Решать по шагам цели могут её владелец, автор цели и руководитель владельца.
goals-none = Целей пока нет. Поставить: /goal что сделать до даты.
goals-header = Цели:
goal-progress = { $done } из { $total } { $total ->
    [one] шага
   *[other] шагов
} сделано{ $week ->
    [0] {""}
   *[other] , за неделю +{ $week }
}
goal-done = ✅ цель достигнута
goal-moves = двигают: { $names }
goal-stalls = стоят: { $names }
summary-steps = Сделанные шаги целей:
weekly-goals = Цели

# Digest preferences (/digest)
digest-usage = /digest on — ежедневная сводка и недельный дайджест, /digest неделя — только дайджест по пятницам, /digest 18 — сводка в 18:00, /digest off — ничего. В группе директор включает недельный дайджест для чата: /digest on.
digest-members = Сводки получают директор и руководители; ваши обещания всегда в /priorities.
digest-no-reports = У вас пока нет подчинённых, поэтому сводок не будет.
digest-daily-off = Ежедневная сводка: выключена.
digest-daily-at = Ежедневная сводка: в { $hour } по будням.
digest-daily-at-morning = Ежедневная сводка: в { $hour } по будням, об итогах предыдущего рабочего дня.
digest-daily-default = Ежедневная сводка: включена, в обычное время.
digest-weekly-on = Недельный дайджест: включён.
digest-weekly-off = Недельный дайджест: выключен.
digest-group-refused = Включать дайджест для чата может только директор.
digest-group-usage = В группе: /digest on — недельный дайджест для этого чата (только то, что сказано в рабочих чатах), /digest off — выключить.
digest-group-on = Недельный дайджест для этого чата включён: по пятницам, только то, что сказано в рабочих чатах.
digest-group-off = Недельный дайджест для этого чата выключен.

# Graph links and owners
link-nodes-usage = Формат: /link узел depends_on узел, например /link CRM depends_on Биллинг или /link CRM зависит от Биллинга. Связи: depends_on, part_of, related_to, supplies, regulates, located_at, responsible_for.
link-nodes-done = Записал связь: «{ $from }» { $relation } «{ $to }».
node-not-found = Не нашёл узел «{ $name }». Список: /nodes
node-ambiguous = «{ $name }» подходит к нескольким узлам: { $list }. Укажите точнее (можно по slug).
relation-responsible_for = отвечает за
relation-depends_on = зависит от
relation-part_of = часть
relation-related_to = связано с
relation-supplies = поставляет
relation-regulates = регулирует
relation-located_at = находится в
relation-owns = владеет
depends-on-header = От «{ $node }» зависят:
depends-header = «{ $node }» зависит от:
depends-on-none = От «{ $node }» ничего не зависит — по крайней мере, связей я не знаю.
depends-none = Не знаю, от чего зависит «{ $node }».
owner-proposal = { $by } пишет в чате, что за «{ $what }» отвечает { $owner }. Записать?
owner-proposal-new = { $by } пишет в чате, что за «{ $what }» отвечает { $owner }. Такого узла ещё нет — добавить и записать владельца?
button-owner-yes = ✅ Записать
button-owner-no = ✖️ Не надо
owner-proposal-refused = Владельцев подтверждает директор.
owner-proposal-settled = Это уже решено.
owner-proposal-ignored = Хорошо, «{ $what }» не трогаю.
owner-proposal-confirmed = Записал: за «{ $what }» отвечает { $owner }.

# Corrections by button
fix-menu = Что исправить? Текст или срок — командой: /fix { $n } текст …, /fix { $n } срок пятница.
button-not-mine = 👤 Не моё
fix-who = Чьё это обещание?
fix-owner-done = Исправил: «{ $what }», владелец теперь — { $owner }.
fix-owner-refused = Передать обещание другому может его руководитель или директор. Если это вовсе не обещание — «🚫 Не обещание».
fix-owner-private = Это запись из личной переписки: другому человеку её не передать.
