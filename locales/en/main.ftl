# kept — English strings.

promises-count = { $n ->
    [one] { $n } promise
   *[other] { $n } promises
}
times = { $n ->
    [one] once
   *[other] { $n } times
}

weekday-short-1 = Mon
weekday-short-2 = Tue
weekday-short-3 = Wed
weekday-short-4 = Thu
weekday-short-5 = Fri
weekday-short-6 = Sat
weekday-short-7 = Sun
month-of-1 = Jan
month-of-2 = Feb
month-of-3 = Mar
month-of-4 = Apr
month-of-5 = May
month-of-6 = Jun
month-of-7 = Jul
month-of-8 = Aug
month-of-9 = Sep
month-of-10 = Oct
month-of-11 = Nov
month-of-12 = Dec

hedge = seems
due-on = by { $date }
due-overdue = ⚠️ overdue, was due { $date }
due-none = no date
confidence = confidence

priority-urgent = urgent
priority-high = high priority
priority-normal = normal priority
priority-low = low priority

role-director = director
role-lead = lead
role-member = member

kind-fact = Facts
kind-trait = Traits
kind-preference = Preferences
kind-context = Context

state-open = open
state-done = done
state-cancelled = cancelled

node-product = product
node-process = process
node-regulation = regulation
node-role = role
node-location = location
node-customer = customer
node-supplier = supplier
node-equipment = equipment
node-department = department
node-concept = concept

not-a-member = I don't know you as part of the team yet. Write something in a work chat I'm in, or ask your director to add you.
priorities-empty = No open promises and no tasks: nothing is waiting on you.
priorities-header = Your priorities ({ promises-count }):
overdue-count = Overdue: { $n }.
promises-empty = You have no open promises.
promises-header = You promised ({ promises-count }):
person-unknown = I couldn't find “{ $name }” in the team.
person-which = “{ $name }” — which one do you mean?
status-header = { $name } is working on { promises-count }:
status-tasks = Tasks:
status-done = Recently done:
status-owns = Owns:
status-empty = { $name } has no open promises or tasks right now.
status-no-promises = { $name } has no open promises.
overview-refused = Team overviews are for the director and leads. I can tell you about your own work: ask “what are my priorities?”.
idle-none = Everyone has something open.
idle-recently-done = closed this week: { $n }
idle-header = { $n ->
    [one] { $n } person has nothing open:
   *[other] { $n } people have nothing open:
}
overdue-none = Nothing is overdue.
overdue-header = { $n ->
    [one] { $n } person has overdue items:
   *[other] { $n } people have overdue items:
}
owner-unknown = I don't know who owns “{ $topic }”.
know-nothing = I don't know anything about “{ $topic }” yet.
know-header = What we know about “{ $topic }”:
evidence-dm = from a private message
remembered = { $self ->
    [true] Noted.
   *[other] Noted — about { $name }.
}
remember-refused = Only the director or their lead can keep notes about { $name }. Notes about yourself are welcome.
button-priorities = My priorities
button-promises = My promises
button-overdue = Who is overdue
button-idle = Who is idle
help-questions = I remember who promised what in the work chats. Ask, for example: { $examples }.
example-priorities = what are my priorities?
example-promises = what did I promise?
example-person = what is { $name } working on?
example-idle = who is idle?
example-quoted = “{ $q }”
me-header = { $name } — { $role }, { $org }
me-forget-hint = To forget an item: /forget and its number in brackets, for example /forget { $id }
me-promises = Promises ({ promises-count })
me-nothing = I don't know anything about you yet: promises appear once you promise something in a work chat, and /remember keeps a note.
source-message = message
source-private = from a private chat
source-group = from a work chat
source-reflection = from a daily summary
forget-usage = Give the item's number: /forget 12
forget-done = Done, the item is archived.
forget-unknown = There is no such item about you.
team-header = Team:
team-empty = Nobody to show yet: people appear here once they write in a connected chat, and your reports once the director makes you their manager.
team-line = open { $open }, overdue { $overdue }

reminder-morning = due today or overdue ({ promises-count }):
reminder-day-before = due next working day, { $date } ({ promises-count }):
reminder-morning-part = due today or overdue ({ $i } of { $n }):
reminder-day-before-part = due next working day, { $date } ({ $i } of { $n }):
button-done = ✅ Done
button-snooze = ⏰ +1 day
button-nap = 🚫 Not a promise
button-result-done = ✅ Marked done: { $what }
button-result-nap = 🚫 No longer tracked as a promise: { $what }
button-result-snooze = ⏰ Moved to { $date }: { $what }
button-stale = Already closed: { $what }
button-not-yours = This is not your promise.
button-unknown = I couldn't find this promise.

stat-messages = messages: { $n }
stat-made = new promises: { $n }
stat-done = done: { $n }
stat-moved = moved: { $n }
stat-overdue = overdue: { $n }
risk-overdue = overdue: { $what }
risk-moved = moved more than once: { $what }
risk-silent = { $name } has been silent for { $n ->
    [one] { $n } working day
   *[other] { $n } working days
}

summary-header = <b>Daily summary, { $date }</b>
summary-new = 🆕 New:
summary-done = ✅ Done:
summary-moved = ↪️ Moved:
summary-overdue = ⚠️ Overdue:
summary-in-work = 🔧 In progress:
summary-silent = 🤐 Silent today:
summary-risks = Risks

weekly-header = <b>Week in review: { $from } — { $to }</b>
weekly-on-time = { $pct }% of promises were done on time.
weekly-on-time-none = No dated promises were completed this week.
weekly-people = By person (made / done / on time / moved / cancelled / overdue)
weekly-person = { $made } / { $done } / { $ontime } / { $moved } / { $cancelled } / { $overdue }
weekly-overdue = ⚠️ Overdue
weekly-open = 🔧 Open promises
weekly-most-moved = ↪️ Moved most often

chart-title = Week { $from } — { $to }
chart-opened = made
chart-done = done
chart-on-time = on time, %
chart-caption = Promises per weekday: made and done; the line is the share done on time.

cmd-start = start
cmd-help = what the bot can do
cmd-priorities = my priorities
cmd-promises = what I promised
cmd-me = what the bot knows about me
cmd-team = team overview
cmd-lang = language: /lang ru or /lang en
cmd-link = connect this chat (director)
cmd-role = role: /role @user director|lead|member position
cmd-forget = forget an item about me
cmd-export = export everything the bot knows about me
cmd-gender = gender for inflecting a Russian name: /gender m|f|auto

start-welcome = Hello, { $name }! I'm kept, the team's memory: I keep track of who promised what in the work chats, remind about deadlines and answer questions.
start-unknown = Hello! I'm kept, the team's memory. You are not in the team yet: write in a work chat I'm connected to, or ask your director to add you.
start-privacy-mode = ⚠️ Privacy mode is on for @{ $bot }, so in group chats I see only commands and replies to me, not the promises people make there. To turn it off, open @BotFather, send /setprivacy, choose @{ $bot } and press Disable, then remove me from each group and add me back (Telegram applies the change only then). Or make me an admin of each group: admins see every message.
dm-unknown = I don't know you yet. Write in a work chat I'm connected to (the director connects a chat with /link), or ask your director to add you.
empty-message = Send your question as text.
help = I listen to the work chats and remember promises like “I'll send the deck by Thursday”. Ask me in private, for example: { $examples }. Commands: /priorities, /promises, /me, /team, /lang, /forget.
lang-set = I'll answer in English.
lang-usage = Send /lang ru or /lang en.
unknown-command = I don't know that command. /help shows what I can do.
link-in-group = Send /link in the group chat you want to connect. In a DM /link relates nodes: /link CRM depends_on Billing.
link-refused = Only the director can connect chats.
link-done = Chat connected. I'll quietly keep track of promises.
role-refused = Only the director can assign roles.
role-usage = Usage: /role @user director|lead|member [position]
role-set = { $name } is now { $role }.
gender-usage = Usage: /gender m, /gender f or /gender auto (from the name); the director may set it for someone else: /gender @user f
gender-refused = Only the director can set this for others. For yourself: /gender m or /gender f.
gender-set = { $gender ->
    [m] Done: “{ $name }” is inflected as a man's name.
    [f] Done: “{ $name }” is inflected as a woman's name.
   *[other] Done: how to inflect “{ $name }” comes from the name itself again.
}
command-in-dm = This command works in a private chat with me.
export-title = What kept knows about { $name }
export-open = Open promises
export-closed = Closed promises
export-reflections = Daily summaries
export-caption = Everything I know about you: read it, correct it, and remove items with /forget and the number.
about-person = about { $name }

## The optional model
llm-budget-spent = Today's token budget for the model is spent. Until midnight I answer and summarise by rules, without the model.

## Absences
cmd-away = away: /away 1.12–10.12, /away until Monday, /away off
away-set = Noted: you are away from { $from } through { $to }. No reminders on those days, and the summary will not list you as silent.
away-off = Your absence is cleared. Welcome back!
away-none = There was no absence to clear.
away-usage = Say when you will be away: /away 1.12–10.12, /away until Monday; /away off clears it.
summary-away = 🏖 { $name } is away through { $date }.
summary-away-due = Due meanwhile:

## The business graph
cmd-node = add a node: /node type title @owner
cmd-nodes = the business graph: /nodes [type]
node-usage = Format: /node type title [@owner], for example /node product Fuel tanks K1 @dima. Types: product, process, regulation, role, location, customer, supplier, equipment, department, concept.
node-refused = Only the director and leads add nodes.
node-unknown-owner = I found no { $who } in the team.
node-added = Added “{ $title }” ({ $type }), slug { $slug }.
node-added-owned = Added “{ $title }” ({ $type }), slug { $slug }, owned by { $owner }.
nodes-none = No nodes yet. Add one: /node type title [@owner].
nodes-header = { $n ->
    [one] { $n } node:
   *[other] { $n } nodes:
}

## Tasks
cmd-task = assign: /task @user what to do [due] [!urgent]
task-usage = Format: /task @user what to do [due] [!urgent|!high], for example /task @ben send the deck by Friday. You can also just write to me: “ask Ben to send the deck by Friday”.
task-refused = The director and leads assign tasks, to the people they manage.
task-urgent = (urgent)
task-high = (high priority)
task-assigned-to-you = { $by } asks you to: { $what }
button-task-accept = ✅ Accept
button-task-decline = ❌ Decline
button-task-later = 📅 A day later
button-task-done = ✅ Done
task-assigned = Assigned to { $name }: { $what }. I will tell you when they answer.
task-assigned-no-dm = Noted the task for { $name }: { $what }. { $name } has not written to me in private yet, so please pass it on; it is on their list already.
task-assigned-group = Assigned to { $name }: { $what }. { $name } has not written to me in private yet, so I mentioned them in the team chat, with the buttons.
task-closed = This task is already closed.
task-accepted = Accepted: { $what }.
task-declined = Declined: { $what }.
task-accepted-later = Accepted, a day later: { $what }.
task-done = Done: { $what }.
task-they-accepted = { $name } accepted the task: { $what }.
task-they-declined = { $name } declined the task: { $what }.
task-they-accepted-later = { $name } accepted the task, a day later: { $what }.
task-they-finished = { $name } finished the task: { $what }.
reminder-tasks = Tasks for today:

## Corrections
cmd-fix = correct a promise: /fix number due|text|done|cancel
fix-usage = Format: /fix number due Friday, /fix number text new text, /fix number owner @user, /fix number done, /fix number cancel (the number follows # in the promise list).
fix-unknown = I found no promise with that number.
fix-refused = A promise can be corrected by its owner, whoever asked for it, their manager or the director.
fix-bad-date = I did not understand the date. For example: /fix 12 due Friday or /fix 12 due 15.12.
fix-done = Corrected: { $what } — { $due }, { $state }.

# Goals (/goal, /goals)
cmd-goal = set a goal: /goal what [by date] [— description] [@owner]
cmd-goals = goals and their progress
cmd-digest = summaries: /digest on|off|weekly|18
goal-usage = Format: /goal Open sales in Leeds by March 1 — two dealers and a warehouse @ben. Without @ the goal is yours.
goal-unknown-owner = I found no { $who } in the team.
goal-refused = Goals for others are set by the director and the person's manager. Your own goal, gladly: /goal without @.
goal-created = Goal set.
goal-one-step = The goal is one step for now: a connected model can break it into steps.
goal-due = by { $date }
goal-steps = Steps:
goal-step-proposed = proposed
goal-step-kept = task: { $name }
goal-step-waiting = waiting for { $name }
goal-step-done = ✅ done ({ $name })
goal-step-dropped = dropped
goal-plan-hint = "Keep" makes the step a task of the goal's owner, "Assign" picks who does it, "Drop" removes it.
button-goal-keep = Keep { $n }
button-goal-assign = Assign { $n }
button-goal-drop = Drop { $n }
button-goal-back = Back
goal-who = Who should do step { $n } "{ $step }"?
goal-note-kept = Step { $n } is given to { $name_dat }.
goal-note-kept-unreached = Step { $n } is given to { $name_dat }, but I cannot tell them: they have not written to me in private or in a team chat — please pass it on; it is on their list already.
goal-note-dropped = Step { $n } dropped.
goal-step-decided = This step is already decided.
goal-not-yours = A goal's steps are decided by its owner, whoever set it, and their manager.
goals-none = No goals yet. Set one: /goal what by when.
goals-header = Goals:
goal-progress = { $done } of { $total } { $total ->
    [one] step
   *[other] steps
} done{ $week ->
    [0] {""}
   *[other] , +{ $week } this week
}
goal-done = ✅ goal reached
goal-moves = moving it: { $names }
goal-stalls = stalled: { $names }
summary-steps = Goal steps done:
weekly-goals = Goals

# Digest preferences (/digest)
digest-usage = /digest on — the daily summary and the weekly digest, /digest weekly — only the Friday digest, /digest 18 — the summary at 18:00, /digest off — nothing. In a group the director turns on the weekly digest for that chat: /digest on.
digest-members = Summaries go to the director and leads; your own promises are always in /priorities.
digest-no-reports = You have no reports yet: until you do, there are no summaries.
digest-daily-off = Daily summary: off.
digest-daily-at = Daily summary: at { $hour } on working days.
digest-daily-at-morning = Daily summary: at { $hour } on working days, about the previous working day.
digest-daily-default = Daily summary: on, at the usual time.
digest-weekly-on = Weekly digest: on.
digest-weekly-off = Weekly digest: off.
digest-group-refused = Only the director can turn on the digest for a chat.
digest-group-usage = In a group: /digest on — the weekly digest for this chat (only what was said in team chats), /digest off — turn it off.
digest-group-on = The weekly digest for this chat is on: on Fridays, only what was said in team chats.
digest-group-off = The weekly digest for this chat is off.

# Graph links and owners
link-nodes-usage = Format: /link node depends_on node, for example /link CRM depends_on Billing. Relations: depends_on, part_of, related_to, supplies, regulates, located_at, responsible_for.
link-nodes-done = Noted the link: "{ $from }" { $relation } "{ $to }".
node-not-found = I found no node "{ $name }". The list: /nodes
node-ambiguous = "{ $name }" fits several nodes: { $list }. Be more specific (a slug works).
relation-responsible_for = is responsible for
relation-depends_on = depends on
relation-part_of = is part of
relation-related_to = is related to
relation-supplies = supplies
relation-regulates = regulates
relation-located_at = is located at
relation-owns = owns
depends-on-header = Depending on "{ $node }":
depends-header = "{ $node }" depends on:
depends-on-none = Nothing depends on "{ $node }" — at least, I know of no such links.
depends-none = I do not know what "{ $node }" depends on.
owner-proposal = { $by } says in the chat that { $owner } owns "{ $what }". Shall I note it?
owner-proposal-new = { $by } says in the chat that { $owner } owns "{ $what }". There is no such node yet — add it with that owner?
button-owner-yes = ✅ Note it
button-owner-no = ✖️ No
owner-proposal-refused = Owners are confirmed by the director.
owner-proposal-settled = This is already decided.
owner-proposal-ignored = All right, I leave "{ $what }" as it is.
owner-proposal-confirmed = Noted: { $owner } owns "{ $what }".

# Corrections by button
fix-menu = What should change? Text or date by command: /fix { $n } text …, /fix { $n } due Friday.
button-not-mine = 👤 Not mine
fix-who = Whose promise is it?
fix-owner-done = Corrected: "{ $what }" is now { $owner }'s.
fix-owner-refused = Only their manager or the director can hand a promise to someone else. If it is no promise at all, press "🚫 Not a promise".
fix-owner-private = This item comes from a private chat: it cannot be handed to someone else.
