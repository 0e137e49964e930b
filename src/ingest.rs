//! The single write path from a message to memory: commitments made, accepted, moved, done and
//! cancelled. The live bot, `kept replay` and tests all come through here.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use crate::domain::callback::ButtonAction;
use crate::domain::{
    Author, ChatId, CommitmentState, Confidence, Due, MemoryId, MemoryKind, MessageId, OrgId, Role,
    UserId, Visibility,
};
use crate::extract::commitments::{self, Finding, MessageInput};
use crate::extract::names;
use crate::store::{
    Batch, Commitment, CommitmentChange, NewCommitment, NewMemory, NewMessage, Org, Person, Store,
    StoreError, Stored, StoredMessage,
};

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("storage")]
    Store(#[from] StoreError),
}

/// A message of a linked group, as ingest sees it (no Telegram types).
#[derive(Debug, Clone)]
pub struct Incoming<'a> {
    pub chat: ChatId,
    pub message: MessageId,
    pub from: UserId,
    pub date: DateTime<Utc>,
    pub text: &'a str,
    pub reply_to: Option<MessageId>,
    /// Users named through Telegram mention entities.
    pub mentions: &'a [UserId],
}

/// What a message changed.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Created(Commitment),
    Moved(Commitment),
    Done(Commitment),
    Cancelled(Commitment),
}

impl Effect {
    pub fn commitment(&self) -> &Commitment {
        match self {
            Effect::Created(c) | Effect::Moved(c) | Effect::Done(c) | Effect::Cancelled(c) => c,
        }
    }
}

/// How far back an acceptance looks for the request it answers, when it is not a reply.
const ACCEPT_WINDOW_HOURS: i64 = 6;

pub fn extract_people(people: &[Person]) -> Vec<names::Person> {
    people
        .iter()
        .map(|p| names::Person {
            id: p.profile.id.0,
            first_name: p.profile.first_name.clone(),
            last_name: p.profile.last_name.clone(),
            username: p.profile.username.clone(),
        })
        .collect()
}

/// Reads a message and writes what it says about commitments.
pub struct Ingest<'a> {
    pub store: &'a Store,
    pub org: &'a Org,
    pub people: &'a [Person],
    pub names: &'a [names::Person],
    /// A model is configured: messages the rules are unsure of are queued for its second look
    /// (in the same transaction as the rules' findings).
    pub refine: bool,
}

/// Runs `read`, a pure reading of the text of message `key`. A panic in it (a rule meeting text
/// it was not written for) costs that message its findings, never the update or the batch: the
/// message is stored all the same and ingest goes on. The log line names the message, not its
/// text.
pub fn analyze_guarded<T: Default>(key: (ChatId, MessageId), read: impl FnOnce() -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)) {
        Ok(v) => v,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("non-string panic");
            // A panic message may quote a slice of the text ("not a char boundary ... of `…`").
            let what: String = what.chars().take(120).collect();
            tracing::error!(
                chat = key.0.0,
                message = key.1.0,
                panic = %what,
                "analysis of a message panicked: stored without findings"
            );
            T::default()
        }
    }
}

fn analyze(
    key: (ChatId, MessageId),
    text: &str,
    at: DateTime<Utc>,
    org: &Org,
    from: UserId,
    names: &[names::Person],
    mentions: &[UserId],
) -> Vec<Finding> {
    let mention_ids: Vec<i64> = mentions.iter().map(|u| u.0).collect();
    let mut found = analyze_guarded(key, || {
        commitments::analyze(&MessageInput {
            text,
            now: at.with_timezone(&org.timezone),
            speaker: from.0,
            people: names,
            mentions: &mention_ids,
            lang: None,
        })
    });
    // Each finding is compared with the open commitments, its predecessors among them: a text
    // of thousands of promises (an import gone wrong) would cost their square. No message
    // Telegram can send comes near this.
    if found.len() > MAX_FINDINGS {
        tracing::warn!(
            chat = key.0.0,
            message = key.1.0,
            findings = found.len(),
            kept = MAX_FINDINGS,
            "a message says too many things: only its first findings are kept"
        );
        found.truncate(MAX_FINDINGS);
    }
    // Counted here, so a first read and an edit's re-read both count.
    for f in &found {
        metrics::counter!("kept_findings_total", "family" => f.label()).increment(1);
    }
    found
}

/// The most findings one message may write.
const MAX_FINDINGS: usize = 64;

/// Open commitments in the order the org's are read: most recently made first.
fn newest_first(open: &mut [Commitment]) {
    open.sort_by_key(|c| std::cmp::Reverse((c.created_at, c.id)));
}

/// Where the text tells a thing's result ([`crate::extract::report::result_told`]); a report
/// opening the message is also read in its own sentence, away from the hedges and asks after it
/// ("график в закрепе. кто не может - пишите до понедельника").
fn result_told(text: &str) -> Option<usize> {
    crate::extract::report::result_told(text).or_else(|| {
        // A stop inside a link or a number ("vk.com", "14.2") ends no sentence; a question
        // tells nothing.
        let (end, stop) = text.char_indices().find(|&(k, c)| {
            let next = text[k + c.len_utf8()..].chars().next();
            matches!(c, '.' | '!' | '?' | '\n') && next.is_none_or(char::is_whitespace)
        })?;
        if stop == '?' {
            return None;
        }
        crate::extract::report::result_told(&text[..end])
    })
}

/// Does the promise's text begin with a verb that finishes begun work
/// (`lexicon/continue_verbs.txt`)?
fn continues(content: &str) -> bool {
    static VERBS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        crate::extract::words::lexicon_words(include_str!("../lexicon/continue_verbs.txt"))
            .collect()
    });
    let first = content
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_lowercase();
    VERBS.contains(&first.as_str())
}

/// Does the text tell of part of the work done (`lexicon/part_done.txt`)?
fn part_done(text: &str) -> bool {
    static WORDS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        crate::extract::words::lexicon_words(include_str!("../lexicon/part_done.txt")).collect()
    });
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| WORDS.contains(&w.to_lowercase().as_str()))
}

/// Shared significant stems: the measure of "the same thing".
/// The verb a promise's text opens with, in lower case ("" for none).
fn verb_of(content: &str) -> String {
    content
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_lowercase()
}

/// Does `text` tell in the past the verb `content` opens with ("поправила" for "поправить
/// лого")?
fn told_done(text: &str, content: &str) -> bool {
    let verb = verb_of(content);
    text.split(|c: char| !c.is_alphabetic())
        .map(str::to_lowercase)
        .filter(|w| crate::morph::past_verb(w))
        .any(|w| crate::morph::verb_lemma(&w).is_some_and(|l| l == verb))
}

/// Does `text` tell of a part left (a "не": "третий не берёт", "не вернул"; or
/// `lexicon/part_done.txt`), or does the promise `content` finish begun work ("доделать",
/// "закончить": `continues`)?
fn partly_told(text: &str, content: &str) -> bool {
    static NEG: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        crate::extract::words::lexicon_words(include_str!("../lexicon/ru/neg.txt")).collect()
    });
    continues(content)
        || part_done(text)
        || verb_of(content).starts_with("до")
        || text
            .split(|c: char| !c.is_alphabetic())
            .any(|w| NEG.contains(&w.to_lowercase().as_str()))
}

/// The clauses of `text` as a report lists them: "smoker's set, inventory done."
fn report_clauses(text: &str) -> impl Iterator<Item = &str> {
    text.split([',', '.', ';', '!', '\n'])
        .filter(|c| !c.trim().is_empty())
}

/// Do two promises' texts open with the same verb? "дособрать" finishes what "собрать" began.
fn same_verb(a: &str, b: &str) -> bool {
    let (a, b) = (verb_of(a), verb_of(b));
    let bare = |v: &str| v.strip_prefix("до").map(str::to_string);
    a.chars().count() >= 3
        && (a == b
            || bare(&a).as_deref() == Some(b.as_str())
            || bare(&b).as_deref() == Some(a.as_str()))
}

fn overlap(a: &[String], b: &[String]) -> usize {
    a.iter()
        .filter(|x| b.iter().any(|y| same_stem(x, y)))
        .count()
}

/// What tells two promises apart although they share their words: the numbers and the proper
/// names they mention ("invoice 1041" / "invoice 1042", "КП для Ромашки" / "КП для Лютика").
/// Dates said in the text are left out: a restated promise may carry its new date.
struct Markers {
    numbers: Vec<String>,
    names: Vec<String>,
}

fn markers(text: &str) -> Markers {
    // Only the spans of date expressions matter here, not what they resolve to.
    let now = DateTime::<Utc>::UNIX_EPOCH.with_timezone(&chrono_tz::UTC);
    let mut plain = String::with_capacity(text.len());
    let mut at = 0;
    for f in crate::extract::dates::find(text, now, crate::domain::Lang::Ru) {
        if f.span.start >= at
            && let (Some(before), true) = (
                text.get(at..f.span.start),
                text.is_char_boundary(f.span.end),
            )
        {
            plain.push_str(before);
            plain.push(' ');
            at = f.span.end;
        }
    }
    plain.push_str(text.get(at..).unwrap_or(""));
    let (mut numbers, mut names) = (Vec::new(), Vec::new());
    // The first word of a sentence has a capital whatever it is.
    let mut sentence_start = true;
    let mut token = String::new();
    for c in plain.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() {
            token.push(c);
            continue;
        }
        if !token.is_empty() {
            if token.chars().any(|c| c.is_ascii_digit()) {
                numbers.push(token.to_lowercase());
            } else if !sentence_start
                && token.chars().count() >= 2
                && token.chars().next().is_some_and(char::is_uppercase)
            {
                names.push(token.to_lowercase());
            }
            token.clear();
            sentence_start = false;
        }
        if matches!(c, '.' | '!' | '?' | '\n' | ':' | ';') {
            sentence_start = true;
        }
    }
    Markers { numbers, names }
}

impl Markers {
    /// Two texts name different things: each has a number, or each a proper name, the other
    /// lacks. One that names less is not different ("КП скину завтра" restates "КП для Ромашки").
    fn differ(&self, other: &Markers) -> bool {
        let missing = |x: &[String], y: &[String]| x.iter().any(|t| !y.iter().any(|u| u == t));
        let missing_name =
            |x: &[String], y: &[String]| x.iter().any(|t| !y.iter().any(|u| same_stem(t, u)));
        (missing(&self.numbers, &other.numbers) && missing(&other.numbers, &self.numbers))
            || (missing_name(&self.names, &other.names) && missing_name(&other.names, &self.names))
    }
}

#[cfg(test)]
fn distinct(a: &str, b: &str) -> bool {
    markers(a).differ(&markers(b))
}

/// Two stems name the same thing: equal, or one a prefix of the other, or (Russian forms the
/// stemmer leaves apart: иконк / иконок) sharing all but the last letter of the shorter.
fn same_stem(x: &str, y: &str) -> bool {
    if x == y {
        return true;
    }
    let (lx, ly) = (x.chars().count(), y.chars().count());
    let common = x.chars().zip(y.chars()).take_while(|(a, b)| a == b).count();
    let shorter = lx.min(ly);
    // "tool" is not "toolbox": a prefix counts only when the rest is an ending, or when the
    // shared part is long enough to be the word itself ("reconcil" / "reconciliation").
    // In Russian a last letter of its own in four is an ending only beside one letter more at
    // most ("точек" is "точк"): "прос" (просит) is not "прокат".
    let cyrillic = |s: &str| s.chars().any(|c| matches!(c, 'а'..='я' | 'ё'));
    (shorter >= 4
        && lx.abs_diff(ly) <= 2
        && (common == shorter
            || common + 1 >= shorter
                && (shorter >= 5 || lx.abs_diff(ly) <= 1 || !cyrillic(x) && !cyrillic(y))))
        || (common >= 7 && common == shorter)
}

impl Ingest<'_> {
    fn role(&self, user: UserId) -> Option<Role> {
        self.people
            .iter()
            .find(|p| p.profile.id == user)
            .map(|p| p.member.role)
    }

    /// Whether `boss` manages `user`, directly or through others.
    fn manages(&self, boss: UserId, user: UserId) -> bool {
        let mut seen = HashSet::new();
        let mut cur = user;
        while let Some(m) = self
            .people
            .iter()
            .find(|p| p.profile.id == cur)
            .and_then(|p| p.member.manager_id)
        {
            if m == boss {
                return true;
            }
            if !seen.insert(m) {
                return false;
            }
            cur = m;
        }
        false
    }

    /// May `speaker` change `c` (move, close, cancel)?
    fn may_change(&self, speaker: UserId, c: &Commitment) -> bool {
        c.owner == speaker
            || c.requester == Some(speaker)
            || self.role(speaker) == Some(Role::Director)
            || self.manages(speaker, c.owner)
    }

    /// Stores a message of a linked group and writes what it says: [`Ingest::messages`] with one.
    #[tracing::instrument(name = "ingest", skip_all, fields(chat_id = m.chat.0, message_id = m.message.0, user_id = m.from.0))]
    pub async fn message(&self, m: &Incoming<'_>) -> Result<Outcome, IngestError> {
        let mut out = self.messages(std::slice::from_ref(m)).await?;
        Ok(out.pop().unwrap_or(Outcome {
            stored: Stored::Duplicate,
            effects: Vec::new(),
            tasks_done: Vec::new(),
        }))
    }

    /// Stores messages of the org's linked groups, in order, and writes what they say about
    /// commitments, all in one transaction: either every message and its effects are kept or
    /// none. A message already stored (a redelivered update) is skipped, effects and all.
    #[tracing::instrument(name = "ingest_batch", level = "debug", skip_all, fields(org_id = self.org.id.0, n = batch.len()))]
    pub async fn messages(&self, batch: &[Incoming<'_>]) -> Result<Vec<Outcome>, IngestError> {
        let mut l = Ledger::new(self.store.begin_batch().await?, self.org.id);
        let keys: Vec<(ChatId, MessageId)> = batch.iter().map(|m| (m.chat, m.message)).collect();
        let mut known = l.batch.known_messages(&keys).await?;
        l.latest = batch.iter().map(|m| m.date).max();
        let mut out = Vec::with_capacity(batch.len());
        for m in batch {
            if !known.insert((m.chat, m.message)) {
                out.push(Outcome {
                    stored: Stored::Duplicate,
                    effects: Vec::new(),
                    tasks_done: Vec::new(),
                });
                continue;
            }
            l.add_message(NewMessage {
                org_id: self.org.id,
                chat_id: m.chat,
                message_id: m.message,
                user_id: Some(m.from),
                date: m.date,
                text: m.text,
                reply_to: m.reply_to,
            });
            let effects = self.read(&mut l, m).await?;
            out.push(Outcome {
                stored: Stored::New,
                effects,
                tasks_done: std::mem::take(&mut l.tasks_done),
            });
        }
        l.batch.commit().await?;
        // Counted once committed: a failed batch kept nothing, so it counts nothing.
        let new = out.iter().filter(|o| o.stored == Stored::New).count();
        metrics::counter!("kept_messages_ingested_total").increment(new as u64);
        for e in out.iter().flat_map(|o| &o.effects) {
            let change = match e {
                Effect::Created(_) => "created",
                Effect::Moved(_) => "moved",
                Effect::Done(_) => "done",
                Effect::Cancelled(_) => "cancelled",
            };
            metrics::counter!("kept_commitment_changes_total", "change" => change).increment(1);
        }
        Ok(out)
    }

    /// The rules' findings in one message, as its author said it.
    fn findings(&self, m: &Incoming<'_>) -> Vec<Finding> {
        analyze(
            (m.chat, m.message),
            m.text,
            m.date,
            self.org,
            m.from,
            self.names,
            m.mentions,
        )
    }

    /// What one message says, read against (and written into) the ledger.
    async fn read(&self, l: &mut Ledger, m: &Incoming<'_>) -> Result<Vec<Effect>, IngestError> {
        let mut findings = self.findings(m);
        // "я в отпуске с 1 по 10 декабря": a record, not a promise.
        let local = m.date.with_timezone(&self.org.timezone);
        if let Some(a) = analyze_guarded((m.chat, m.message), || {
            crate::extract::absence::absence(m.text, local, crate::domain::Lang::detect(m.text))
        }) {
            l.batch.add_absence(
                self.org.id,
                m.from,
                (a.from, a.to),
                (m.chat, m.message),
                m.date,
            );
        }
        // "решили перейти на Postgres" states a decision, and "почти половину контракта
        // перевёл", "halfway through the stocktake" progress: neither reports work done.
        let key = (m.chat, m.message);
        let decided = if findings.iter().all(|f| matches!(f, Finding::Done { .. })) {
            analyze_guarded(key, || crate::extract::decisions::decision(m.text))
        } else {
            None
        };
        if decided.is_some() || analyze_guarded(key, || crate::extract::report::in_progress(m.text))
        {
            findings.retain(|f| !matches!(f, Finding::Done { .. }));
        }
        // A later message may answer this one ("ок", "могу в четверг"): keep what it said.
        if findings
            .iter()
            .any(|f| matches!(f, Finding::Request { .. } | Finding::Offer { .. }))
        {
            l.analyses.insert((m.chat, m.message), findings.clone());
        }
        if findings.is_empty()
            && let Some(decided) = decided
        {
            l.batch.upsert_memory(&NewMemory {
                org_id: self.org.id,
                subject: m.from,
                kind: MemoryKind::Context,
                content: &decided,
                confidence: Confidence::RULES,
                author: Author::Rules,
                visibility: Visibility::Team,
                evidence: &evidence(m.chat, m.message),
                source_chat: Some(m.chat),
                source_message: Some(m.message),
                at: m.date,
            });
        }
        let quiet = findings.iter().all(|f| matches!(f, Finding::Done { .. }));
        // "📸 …, Вера, забирай для поста": what a handed-in link or photo asks of others does not
        // stop it handing in.
        let nothing_own = findings
            .iter()
            .all(|f| matches!(f, Finding::Request { .. } | Finding::Offer { .. }));
        let said_done = findings.iter().any(|f| matches!(f, Finding::Done { .. }));
        // What the rules read, for their doubt below (only with a model to ask).
        let read = if self.refine {
            findings.clone()
        } else {
            Vec::new()
        };
        let mut effects = Vec::new();
        // A promise, a move or a yes of the message's own comes first; a decline or a leave
        // asked only where it has none.
        let promises = findings.iter().any(|f| {
            matches!(
                f,
                Finding::Made { .. } | Finding::Moved { .. } | Finding::Accept { .. }
            )
        });
        // "диски не повезу, клиент их себе забрал" to one's own promise, "калибровку в пт не
        // делаем" to someone's: called off, whatever else the message tells ("забрал").
        if m.reply_to.is_some()
            && !promises
            && analyze_guarded(key, || commitments::declines(m.text))
            && let Some(e) = self
                .close_replied(l, m, CommitmentState::Cancelled, |c| {
                    self.may_change(m.from, c)
                })
                .await?
        {
            findings.clear();
            effects.push(e);
        }
        // "к Зайцевым не поеду, хозяин сам карнизы заберёт", "not coming in Sat after all":
        // told to the group, the speaker's own open promise the message names is called off.
        if effects.is_empty()
            && !promises
            && let Some(said) = analyze_guarded(key, || {
                commitments::declined_clause(m.text)
                    .or_else(|| commitments::calls_off_own(m.text).then(|| m.text.to_string()))
            })
            && let Some(e) = self.decline_named(l, m, &said).await?
        {
            findings.clear();
            effects.push(e);
        }
        // "сводку можно в пт отдам?", "6 из 8 закрыла … можно в чт доделаю?": the owner asks
        // leave for a later date, which stands until someone says otherwise; what the message
        // reports done is the part before it.
        if effects.is_empty()
            && !promises
            && let Some(e) = self.asked_leave(l, m).await?
        {
            findings.clear();
            effects.push(e);
        }
        for (k, f) in findings.iter().enumerate() {
            // A report with a promise after it: read against its target here, once.
            if let Finding::Done { words } = f
                && let Some(promise) = findings[k + 1..].iter().find_map(|g| match g {
                    Finding::Made { content, .. } => Some(content.as_str()),
                    _ => None,
                })
            {
                let Some(target) = self.done_target(l, m, words).await? else {
                    continue;
                };
                if !self.partly_done(l, m, &target.0, words, promise).await?
                    && let Some(e) = self.close_done(l, m, &target).await?
                {
                    effects.push(e);
                    if !target.1 {
                        effects.extend(self.done_besides(l, m, &target.0).await?);
                    }
                }
                continue;
            }
            let Some(e) = self.apply(l, m, f.clone()).await? else {
                continue;
            };
            // "smoker's set, inventory done": a report of two things closes each of them, each
            // told in a clause of its own.
            if let (Finding::Done { .. }, Effect::Done(first)) = (f, &e) {
                let first = first.clone();
                effects.push(e);
                effects.extend(self.done_besides(l, m, &first).await?);
                continue;
            }
            effects.push(e);
        }
        // Findings that changed nothing ("двое перенеслись на пятницу" moves no promise of the
        // speaker's) leave the report in the same message to be read: "всех обзвонила, двое
        // перенеслись на пятницу" closes "обзвонить всех".
        if effects.is_empty()
            && analyze_guarded(key, || {
                crate::extract::report::may_report(m.text) || result_told(m.text).is_some()
            })
        {
            effects.extend(self.reported_done(l, m, &[]).await?);
        }
        // "Яшма оплатила ламбрекены, деньги на счёте": the promise to get that money is done,
        // whoever tells it.
        if effects.is_empty()
            && analyze_guarded(key, || crate::extract::report::money_in(m.text))
            && let Some(e) = self.paid_in(l, m).await?
        {
            effects.push(e);
        }
        // "по трубам: 20-ки метров 15 осталось" after "вечером отпишусь по остаткам труб": what
        // was promised to be told, told.
        if effects.is_empty()
            && findings.is_empty()
            && !m.text.contains('?')
            && let Some(e) = self.told_as_promised(l, m).await?
        {
            effects.push(e);
        }
        // "Vendor + DJ confirmed 🎶 … I'll send you his account details": a report beside a new
        // promise closes what it reports, besides the promise.
        if !effects.is_empty()
            && !said_done
            && effects.iter().all(|e| matches!(e, Effect::Created(_)))
            && analyze_guarded(key, || {
                crate::extract::report::may_report(m.text) || result_told(m.text).is_some()
            })
        {
            let made: Vec<MemoryId> = effects.iter().map(|e| e.commitment().origin_id).collect();
            effects.extend(self.reported_done(l, m, &made).await?);
        }
        // "https://docs…/edit" or "Here you go 👇 …" in reply to one's own promise, or to the
        // yes or the request that made it: the work handed in.
        if effects.is_empty()
            && nothing_own
            && m.reply_to.is_some()
            && analyze_guarded(key, || {
                commitments::link_alone(m.text) || commitments::handed_over(m.text)
            })
            && let Some(e) = self
                .close_replied(l, m, CommitmentState::Done, |c| c.owner == m.from)
                .await?
        {
            effects.push(e);
        }
        // Nothing of theirs closed, but they said something is done: it may be a task.
        if effects.is_empty()
            && quiet
            && (said_done || analyze_guarded(key, || crate::extract::report::may_report(m.text)))
        {
            self.task_done(l, m, said_done).await?;
        }
        // Findings that changed nothing (an agreement with no request to agree to) count as
        // none: the rules did not understand the message.
        if self.refine {
            let understood = if effects.is_empty() {
                &[][..]
            } else {
                &read[..]
            };
            if let Some(d) = analyze_guarded(key, || {
                crate::extract::commitments::doubt(m.text, understood)
            }) {
                l.batch
                    .queue_refine(self.org.id, m.chat, m.message, d.as_str(), m.date);
            }
        }
        Ok(effects)
    }

    /// "счёт Вектору выставила", "kennels deep cleaned": the owner reports one of their open
    /// promises done with its own verb (see `extract::report`). Only when exactly one fits, or
    /// the report answers the promise's message.
    async fn reported_done(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        // Promises this very message made: nothing it reports is about them.
        made: &[MemoryId],
    ) -> Result<Vec<Effect>, IngestError> {
        let mut own = l.open_of(m.from).await?;
        own.retain(|c| !made.contains(&c.origin_id));
        let said = commitments::significant_stems(m.text);
        // The verb alone is not enough: the report must also name the thing ("каталог
        // сверстан" closes "сверстать каталог", not "сверстать инструкцию").
        let report = crate::extract::report::DoneReport::new(m.text);
        let fits: Vec<(usize, &Commitment)> = own
            .iter()
            .filter(|c| report.reports(&c.content))
            .map(|c| (overlap(&said, &content_stems(&c.content)), c))
            .filter(|(n, _)| *n > 0)
            .collect();
        // "форсунку прочистил" for "разобрать форсунку": a plain report in other words closes
        // the one open promise whose thing (its words past the verb) it names.
        // "спецификация в папке", "письмо в администрацию ушло": told by where the thing now
        // is; the words before the place name it.
        // Beside a new promise only a report of a promise's own verb closes it: the new
        // promise's words would name things otherwise.
        let told = if !made.is_empty() {
            None
        } else if fits.is_empty() && crate::extract::report::plainly_reported(m.text) {
            Some((said.clone(), false))
        } else if fits.is_empty() {
            result_told(m.text).map(|at| {
                // "all 14 boxes gone to Toronto": where a thing went names it too ("ship the
                // Toronto orders"); where it lies ("in your inbox") does not.
                let rest = m.text[at..].to_lowercase();
                let to = ["went to ", "gone to "].iter().any(|p| rest.starts_with(p));
                let named = if to { m.text } else { &m.text[..at] };
                (commitments::significant_stems(named), true)
            })
        } else {
            None
        };
        // "3 and 5 pumped over, bins hosed and stacked" for "pump over tanks 3 and 5" and "hose
        // out the picking bins": each verb reported closes its own promise, when one promise of
        // that verb is named best.
        let verb = |c: &Commitment| verb_of(&c.content);
        let mut verbs: Vec<String> = fits.iter().map(|(_, c)| verb(c)).collect();
        verbs.sort();
        verbs.dedup();
        if told.is_none() && verbs.len() >= 2 {
            let mut effects = Vec::new();
            for v in &verbs {
                let of_verb: Vec<&(usize, &Commitment)> =
                    fits.iter().filter(|(_, c)| verb(c) == *v).collect();
                let best = of_verb.iter().map(|(n, _)| *n).max().unwrap_or(0);
                if let [(_, c)] = of_verb
                    .iter()
                    .filter(|(n, _)| *n == best)
                    .copied()
                    .collect::<Vec<_>>()
                    .as_slice()
                {
                    let c = (*c).clone();
                    effects.extend(self.close(l, m, &c, CommitmentState::Done).await?);
                }
            }
            return Ok(effects);
        }
        // "48 300, счёт в папке у Ани" answering "сколько мы за электричество отдали?": where a
        // thing is, told in answer to a question about another, reports no promise.
        let asked: Option<Vec<String>> = match (m.reply_to, &told) {
            (Some(r), Some((_, true))) => l
                .message(m.chat, r)
                .await?
                .filter(|q| q.user_id.is_some_and(|a| a != m.from) && q.text.contains('?'))
                .map(|q| commitments::significant_stems(&q.text)),
            _ => None,
        };
        let fits = if let Some((said, placed)) = told {
            let by_thing: Vec<(usize, &Commitment)> = own
                .iter()
                .map(|c| {
                    // Where an English result is, its thing may be the verb's own noun
                    // ("Headingley price is in your inbox" for "price it up").
                    let thing = match c.content.split_once(' ') {
                        Some(_) if placed && c.content.is_ascii() => c.content.as_str(),
                        Some((_, rest)) => rest,
                        None => "",
                    };
                    (overlap(&said, &commitments::significant_stems(thing)), c)
                })
                .filter(|(n, _)| *n > 0)
                .filter(|(_, c)| {
                    asked
                        .as_ref()
                        .is_none_or(|q| overlap(q, &content_stems(&c.content)) > 0)
                })
                .collect();
            match by_thing.len() {
                1 => by_thing,
                0 if !placed => self
                    .named_where_made(l, m, &own, &said)
                    .await?
                    .map(|c| vec![(1, c)])
                    .unwrap_or_default(),
                _ => Vec::new(),
            }
        } else {
            fits
        };
        let replied: Vec<MemoryId> = match m.reply_to {
            Some(r) => l
                .of_message(m.chat, r)
                .await?
                .into_iter()
                .map(|c| c.origin_id)
                .collect(),
            None => Vec::new(),
        };
        let best = fits.iter().map(|(n, _)| *n).max().unwrap_or(0);
        let top: Vec<&Commitment> = fits
            .iter()
            .filter(|(n, _)| *n == best)
            .map(|(_, c)| *c)
            .collect();
        let pick = match top.as_slice() {
            [one] => Some(*one),
            many => many
                .iter()
                .copied()
                .find(|c| replied.contains(&c.origin_id)),
        };
        let Some(c) = pick.cloned() else {
            return Ok(Vec::new());
        };
        Ok(self
            .close(l, m, &c, CommitmentState::Done)
            .await?
            .into_iter()
            .collect())
    }

    /// The speaker's open promise that a question asking leave for a later date answers (the
    /// reply's) or names ([`commitments::asked_own_date`]), moved to that date.
    async fn asked_leave(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
    ) -> Result<Option<Effect>, IngestError> {
        let asked = analyze_guarded((m.chat, m.message), || {
            commitments::asked_own_date(&MessageInput {
                text: m.text,
                now: m.date.with_timezone(&self.org.timezone),
                speaker: m.from.0,
                people: self.names,
                mentions: &[],
                lang: None,
            })
        });
        let Some(commitments::AskedLeave {
            due,
            words,
            asked,
            verb,
        }) = asked
        else {
            return Ok(None);
        };
        // Without a verb the question must name the promise it answers ("отчёт можно в пн?").
        let replied = match m.reply_to {
            Some(r) => l
                .of_message(m.chat, r)
                .await?
                .into_iter()
                .filter(|c| verb || overlap(&asked, &content_stems(&c.content)) > 0)
                .find(|c| c.owner == m.from && c.state == CommitmentState::Open),
            None => None,
        };
        let c = match replied {
            Some(c) => c,
            None => {
                let open = l.open_of(m.from).await?;
                match best_match(&open, &words) {
                    Some(c) => c,
                    // "Can I bring it Monday?" names nothing: the speaker's latest promise.
                    None if verb && asked.is_empty() => match open.into_iter().next() {
                        Some(c) => c,
                        None => return Ok(None),
                    },
                    None => return Ok(None),
                }
            }
        };
        if c.due == Some(due) {
            return Ok(None);
        }
        self.move_to(l, m, &c, Some(due)).await
    }

    /// The one open promise the replied message made, asked for or accepted that `fits`,
    /// closed as `state`: called off by someone who may change it ([`commitments::declines`]),
    /// or handed in by its owner with a link or a photo.
    async fn close_replied(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        state: CommitmentState,
        fits: impl Fn(&Commitment) -> bool,
    ) -> Result<Option<Effect>, IngestError> {
        let Some(r) = m.reply_to else {
            return Ok(None);
        };
        let mut open: Vec<Commitment> = l
            .of_message(m.chat, r)
            .await?
            .into_iter()
            .filter(|c| c.state == CommitmentState::Open && fits(c))
            .collect();
        match (open.pop(), open.is_empty()) {
            (Some(c), true) => self.close(l, m, &c, state).await,
            _ => Ok(None),
        }
    }

    /// "смету переделал, готово", "signed the lease": the speaker's accepted open task that the
    /// message names is done — when it says "done" outright, or reports the task's own verb
    /// without a hedge ("ещё не проверил" is no report), names the same thing (the most shared
    /// significant words, and only one such task), and no other name or number ("КП Ромашке"
    /// does not close "КП Лютику"). Tasks set after the message are never closed by it.
    async fn task_done(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        said_done: bool,
    ) -> Result<(), IngestError> {
        let tasks = l.batch.open_tasks_of(self.org.id, m.from, m.date).await?;
        if tasks.is_empty() {
            return Ok(());
        }
        let said = commitments::significant_stems(m.text);
        let marks = markers(m.text);
        let key = (m.chat, m.message);
        let report = if said_done {
            crate::extract::report::DoneReport::default()
        } else {
            analyze_guarded(key, || crate::extract::report::DoneReport::new(m.text))
        };
        let scored: Vec<(usize, &crate::store::OpenTask)> = tasks
            .iter()
            .filter(|t| !marks.differ(&markers(&t.title)))
            .filter(|t| said_done || analyze_guarded(key, || report.reports(&t.title)))
            .map(|t| (overlap(&said, &matchable(&t.title)), t))
            .filter(|(n, _)| *n > 0)
            .collect();
        let best = scored.iter().map(|(n, _)| *n).max().unwrap_or(0);
        let top: Vec<_> = scored.iter().filter(|(n, _)| *n == best).collect();
        if let [(_, t)] = top[..]
            && l.batch.finish_task(t.id, m.date).await?
        {
            l.tasks_done.push(TaskDone {
                id: t.id,
                title: t.title.clone(),
                assignee: m.from,
                assigned_by: t.assigned_by,
            });
        }
        Ok(())
    }

    /// "КП отправил, договор доделаем в пятницу", "двоих обзвонила, наберу завтра": part of
    /// promise `c` done and the rest promised again (`promise`, said after the report of
    /// `words`) is that promise still open (the promise after moves it), not closed. The report
    /// tells of a part, or names one thing of the promise and the new promise another of it
    /// ("Patels measured, I'll send you the measurements tonight" is the next work), or the new
    /// promise finishes begun work and names no other open promise ("рассадку утвердили, а
    /// график смен доделаю завтра" closes the seating).
    async fn partly_done(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        c: &Commitment,
        words: &[String],
        promise: &str,
    ) -> Result<bool, IngestError> {
        let rest = commitments::significant_stems(&without_names(promise, self.names));
        let theirs = content_stems(&c.content);
        let split = overlap(&rest, &theirs) > 0
            && overlap(words, &theirs) > 0
            && overlap(&rest, words) == 0
            // "сдал в химчистку, костюм заберу в пятницу": another verb is other work.
            && (continues(promise) || !commitments::names_other_work(promise, &c.content));
        if split || part_done(m.text) {
            return Ok(true);
        }
        Ok(continues(promise)
            && (rest.is_empty()
                || best_match_exact(&l.open_of(m.from).await?, &rest).is_none_or(|o| o.id == c.id)))
    }

    async fn apply(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        f: Finding,
    ) -> Result<Option<Effect>, IngestError> {
        match f {
            Finding::Made { content, due } => self.made(l, m, &content, due).await,
            Finding::Accept { due, own } => {
                if let Some(own) = &own
                    && let Some(part) = self.takes_condition(l, m, own).await?
                {
                    return self.own_part(l, m, &part, due).await;
                }
                if let Some(e) = self.accept(l, m, due, false, false, None).await? {
                    return Ok(Some(e));
                }
                match own {
                    Some(own) => self.answered(l, m, &own, due).await,
                    None => Ok(None),
                }
            }
            Finding::Moved {
                due,
                words,
                otherwise,
            } => {
                // "I'll put out a new release and bump the MSRV": with no date in the message
                // at all, nothing is moved and the speaker's own words are work.
                let Some(due) = due else {
                    let dated = !crate::extract::dates::find(
                        m.text,
                        m.date.with_timezone(&self.org.timezone),
                        self.org.locale,
                    )
                    .is_empty();
                    return match otherwise {
                        Some(content) if !dated => self.made(l, m, &content, None).await,
                        _ => Ok(None),
                    };
                };
                let mut found = self.target(l, m, &words, true, false).await?;
                // "McDonagh isn't answering, I'll try her again Monday": trying someone again
                // moves the speaker's latest promise to reach someone, whoever it names.
                if found.is_none() && commitments::retries(m.text) {
                    found = l
                        .open_of(m.from)
                        .await?
                        .into_iter()
                        .find(|c| commitments::reaches_someone(&c.content));
                }
                let Some(c) = found else {
                    // "к пятнице не успею, давай в понедельник" in reply to a request not yet
                    // taken: a yes by the later date.
                    if m.reply_to.is_some()
                        && let Some(e) = self.accept(l, m, Some(due), true, false, None).await?
                    {
                        return Ok(Some(e));
                    }
                    // Nothing open to move: the message's own promise is new work.
                    return match otherwise {
                        Some(content) => self.made(l, m, &content, Some(due)).await,
                        None => Ok(None),
                    };
                };
                if c.due == Some(due) {
                    return Ok(None);
                }
                self.move_to(l, m, &c, Some(due)).await
            }
            Finding::Done { words } => {
                let Some(c) = self.done_target(l, m, &words).await? else {
                    return Ok(None);
                };
                self.close_done(l, m, &c).await
            }
            Finding::Cancelled { words } => {
                let Some(c) = self.target(l, m, &words, true, false).await? else {
                    return Ok(None);
                };
                self.close(l, m, &c, CommitmentState::Cancelled).await
            }
            // Requests and offers become commitments only when accepted (see `accept`).
            Finding::Request {
                addressee,
                content,
                due,
            } => {
                // "да, сделай плиз, к пятнице норм" in reply to "могу сделать глоссарий":
                // telling the one who offered to go ahead accepts the offer.
                if m.reply_to.is_some()
                    && let Some(e) = self.accept(l, m, due, true, true, None).await?
                {
                    return Ok(Some(e));
                }
                match due {
                    Some(due) => self.restated_request(l, m, addressee, &content, due).await,
                    None => Ok(None),
                }
            }
            // "Варя, когда будешь готова сдать?" → "Могу выполнить до следующей встречи": an
            // offer with its own date, in reply to what was asked of the speaker, takes it on.
            Finding::Offer {
                content,
                due: Some(due),
            } if !commitments::opens_with_no(m.text) && self.asked_when(l, m).await? => {
                let own = (!commitments::significant_stems(&content).is_empty())
                    .then_some(content.as_str());
                self.accept(l, m, Some(due), true, false, own).await
            }
            Finding::Offer { .. } => Ok(None),
        }
    }

    /// Does `m` reply to someone else's question asking when ("когда будешь готова сдать?")?
    async fn asked_when(&self, l: &mut Ledger, m: &Incoming<'_>) -> Result<bool, IngestError> {
        let Some(r) = m.reply_to else {
            return Ok(false);
        };
        Ok(match l.message(m.chat, r).await? {
            Some(msg) if msg.user_id.is_some_and(|a| a != m.from) => {
                analyze_guarded((msg.chat_id, msg.message_id), || {
                    commitments::asks_when_in(&msg.text)
                })
            }
            _ => false,
        })
    }

    /// What an earlier message said that may be answered: kept from this batch's reading when
    /// there is one (a message first stored by this batch and not kept asked nothing), else read
    /// again.
    fn said_in(
        &self,
        l: &Ledger,
        msg: &crate::store::StoredMessage,
        author: UserId,
    ) -> Vec<Finding> {
        match l.analyses.get(&(msg.chat_id, msg.message_id)) {
            Some(f) => f.clone(),
            None if l.fresh.contains(&(msg.chat_id, msg.message_id)) => Vec::new(),
            None => self.reread_stored(msg, author),
        }
    }

    /// An earlier message as the rules read it: in its own time, said by its author.
    fn stored_input<'m>(
        &'m self,
        msg: &'m crate::store::StoredMessage,
        author: UserId,
    ) -> MessageInput<'m> {
        MessageInput {
            text: &msg.text,
            now: msg.date.with_timezone(&self.org.timezone),
            speaker: author.0,
            people: self.names,
            mentions: &[],
            lang: None,
        }
    }

    /// An earlier message read again by the rules.
    fn reread_stored(&self, msg: &crate::store::StoredMessage, author: UserId) -> Vec<Finding> {
        analyze(
            (msg.chat_id, msg.message_id),
            &msg.text,
            msg.date,
            self.org,
            author,
            self.names,
            &[],
        )
    }

    /// "All right. I'll do that." with nothing asked of the speaker to accept: a promise about
    /// what the message answers (the replied-to message, or the one just before it from
    /// someone else), in the yes's own words and that message's ("ок, починю" after "принтер
    /// опять зажевал бумагу"). Nothing when neither names any work.
    async fn answered(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        own: &str,
        due: Option<Due>,
    ) -> Result<Option<Effect>, IngestError> {
        let before = match m.reply_to {
            Some(r) => l.message(m.chat, r).await?,
            None => {
                let since = m.date - Duration::hours(ACCEPT_WINDOW_HOURS);
                l.recent(m.chat, m.date, since, 2)
                    .await?
                    .into_iter()
                    .find(|msg| msg.message_id != m.message)
            }
        };
        // A message saying more than its yes is its own context ("rota's nearly there … I'll
        // have it out tmrw").
        // By its verb: "the zip is munted, I'll fix it" named its thing from the words before,
        // which still say more than the yes ("CD register is nearly there, will finish it").
        let verb = own.split_whitespace().next().unwrap_or(own);
        let beside = commitments::beside_own(m.text, verb);
        let rest = commitments::significant_stems(&without_names(&beside, self.names));
        // "Хорошая идея, добавим", "Баг, поправлю": a remark says nothing more.
        let says_more = !rest.is_empty() && !commitments::only_remarks(&beside);
        // About a promise of the speaker's own that the message names or answers ("didn't get
        // round to the springs call, will do it tomorrow"; "сделаем в среду" in reply to it):
        // a new date moves it, none leaves it be.
        if (says_more || before.as_ref().is_some_and(|b| b.user_id == Some(m.from)))
            && let Some(c) = self.target(l, m, &rest, false, false).await?
            && c.owner == m.from
            && may_restate(&c, m, due)
        {
            return match due {
                Some(d) if c.due != Some(d) => self.move_to(l, m, &c, Some(d)).await,
                _ => Ok(None),
            };
        }
        // What it answers tells of a need ("the printer jammed again", "4 persons
        // altogether"), not of its author's own promise, request or yes (a past tense is
        // read as a report, but "принтер зажевал бумагу" is what needs doing).
        let answered = match &before {
            _ if says_more => None,
            // A reply is about the message it answers, whatever that says ("хорошо, оплачу в
            // тот же день" to "счёт от них вам перешлю").
            Some(msg) if m.reply_to.is_some() && msg.user_id.is_some_and(|a| a != m.from) => {
                Some(msg)
            }
            Some(msg)
                if let Some(author) = msg.user_id
                    && author != m.from
                    && self
                        .reread_stored(msg, author)
                        .iter()
                        .all(|f| matches!(f, Finding::Done { .. })) =>
            {
                Some(msg)
            }
            _ => None,
        };
        let context = match answered {
            _ if says_more => m.text,
            Some(msg) => msg.text.as_str(),
            None => "",
        };
        // "сдам" to "в пт к 16 все акты мне на подпись": a yes with no date of its own takes
        // the one in what it answers.
        // Not a date its author gave their own work ("не успеваю к пятнице, сдвину на
        // понедельник" answered by "ок, предупрежу их").
        let due = match answered {
            Some(msg)
                if due.is_none()
                    && msg.user_id.is_some_and(|a| {
                        self.said_in(l, msg, a)
                            .iter()
                            .all(|f| matches!(f, Finding::Request { .. } | Finding::Accept { .. }))
                    }) =>
            {
                let at = msg.date.with_timezone(&self.org.timezone);
                crate::extract::dates::deadline(&msg.text, at, self.org.locale).map(|(_, d)| d)
            }
            _ => due,
        };
        // Names addressed in what it answers are not the work ("Людмила Ивановна, счёт…").
        let content = if says_more {
            commitments::with_context(own, &without_names(context, self.names))
        } else {
            commitments::reply_context(own, &without_names(context, self.names))
        };
        let words = commitments::significant_stems(&without_names(&content, self.names));
        if words.is_empty() {
            return Ok(None);
        }
        // Nothing asked is there to accept (`apply` looked): straight to the promise itself.
        self.made_new(l, m, &content, due, &words).await
    }

    /// A request with a date that restates an open promise of its addressee ("we need the quote
    /// sooner, by Wednesday" in reply to it, or naming its owner) moves that promise instead of
    /// asking for a second one.
    async fn restated_request(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        addressee: Option<i64>,
        content: &str,
        due: Due,
    ) -> Result<Option<Effect>, IngestError> {
        let words = commitments::significant_stems(content);
        let said = markers(content);
        let mut cands: Vec<Commitment> = Vec::new();
        if let Some(r) = m.reply_to {
            cands.extend(
                l.of_message(m.chat, r)
                    .await?
                    .into_iter()
                    .filter(|c| c.state == CommitmentState::Open && c.owner != m.from)
                    .filter(|c| {
                        let theirs = content_stems(&c.content);
                        words.is_empty() || words.iter().any(|w| theirs.contains(w))
                    }),
            );
        }
        let target = match cands.len() {
            1 => cands.pop(),
            _ => match addressee
                .map(UserId)
                .or_else(|| cands.first().map(|c| c.owner))
            {
                Some(owner) if owner != m.from => {
                    // Naming the owner is not enough: the request must be mostly about that
                    // promise ("the dawson quote sooner"), not share one proper noun with it.
                    let open: Vec<Commitment> = l
                        .open_of(owner)
                        .await?
                        .into_iter()
                        .filter(|c| !said.differ(&markers(&c.content)))
                        .collect();
                    best_match_exact(&open, &words).filter(|c| {
                        let theirs = content_stems(&c.content);
                        let n = words
                            .iter()
                            .filter(|w| theirs.iter().any(|t| same_stem(w, t)))
                            .count();
                        n * 2 > words.len()
                    })
                }
                _ => None,
            },
        };
        let Some(c) = target else { return Ok(None) };
        if c.due == Some(due) || !self.may_change(m.from, &c) {
            return Ok(None);
        }
        self.move_to(l, m, &c, Some(due)).await
    }

    /// `c` at `due`: unchanged when it is already due then, else moved (by who may move it).
    async fn redate(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        c: &Commitment,
        due: Option<Due>,
    ) -> Result<Option<Effect>, IngestError> {
        if c.due == due {
            return Ok(None);
        }
        self.move_to(l, m, c, due).await
    }

    /// A new version of `c` with another due date.
    async fn move_to(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        c: &Commitment,
        due: Option<Due>,
    ) -> Result<Option<Effect>, IngestError> {
        let change = CommitmentChange {
            due: Some(due),
            ..Default::default()
        };
        self.change(l, m, c, change, Effect::Moved).await
    }

    /// A new version of `c` that is done or cancelled.
    async fn close(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        c: &Commitment,
        state: CommitmentState,
    ) -> Result<Option<Effect>, IngestError> {
        let change = CommitmentChange {
            state: Some(state),
            ..Default::default()
        };
        let effect = match state {
            CommitmentState::Cancelled => Effect::Cancelled,
            _ => Effect::Done,
        };
        self.change(l, m, c, change, effect).await
    }

    async fn change(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        c: &Commitment,
        change: CommitmentChange,
        effect: fn(Commitment) -> Effect,
    ) -> Result<Option<Effect>, IngestError> {
        if !self.may_change(m.from, c) {
            return Ok(None);
        }
        self.write_change(l, m, c, change, effect).await
    }

    /// [`Ingest::change`] without asking whether the speaker may: for work done that a witness
    /// tells of ([`Ingest::done_target`]).
    async fn write_change(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        c: &Commitment,
        mut change: CommitmentChange,
        effect: fn(Commitment) -> Effect,
    ) -> Result<Option<Effect>, IngestError> {
        if c.state != CommitmentState::Open {
            return Ok(None);
        }
        change.update = Some((m.chat, m.message));
        change.author = Some(Author::Rules);
        Ok(l.change(c, &change, m.date).await?.map(effect))
    }

    /// The promise a report is about: the speaker's (or the replied one's, [`Ingest::target`]),
    /// else that of the person the report names as its doer ("Лёха компрессор забрал",
    /// [`crate::extract::report::doer_named`]) whose words it names best. Anyone may tell of
    /// work done; DESIGN limits only cancelling.
    async fn done_target(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        words: &[String],
    ) -> Result<Option<(Commitment, bool)>, IngestError> {
        if let Some(c) = self.target(l, m, words, false, true).await? {
            return Ok(Some((c, false)));
        }
        let own = l.open_of(m.from).await?;
        if !words.is_empty()
            && let Some(c) = self.named_where_made(l, m, &own, words).await?
        {
            return Ok(Some((c.clone(), false)));
        }
        // "Tash I did the clocks when I opened up" in reply to Tash's "I'll change the clocks":
        // a colleague tells, in a reply naming the work, that it is done.
        if let Some(r) = m.reply_to {
            let found = l.of_message(m.chat, r).await?;
            if let Some(c) = found.into_iter().find(|c| {
                c.state == CommitmentState::Open
                    && c.owner != m.from
                    && overlap(words, &content_stems(&c.content)) > 0
            }) {
                return Ok(Some((c, true)));
            }
        }
        let named = names::people_in(m.text, self.names);
        let key = (m.chat, m.message);
        let Some(doer) =
            analyze_guarded(key, || crate::extract::report::doer_named(m.text, &named))
        else {
            // Nothing of the speaker's own is named (above): one of the org's may be.
            if named.is_empty()
                && own
                    .iter()
                    .all(|c| overlap(words, &content_stems(&c.content)) == 0)
                && let Some(c) = self.witnessed(l, m, words).await?
            {
                return Ok(Some((c, true)));
            }
            return Ok(None);
        };
        if doer == m.from.0 {
            return Ok(None);
        }
        // The doer's name is no word of their promise.
        let name_words: Vec<String> = named
            .iter()
            .filter_map(|(span, _)| m.text.get(span.clone()))
            .flat_map(commitments::significant_stems)
            .collect();
        let words: Vec<String> = words
            .iter()
            .filter(|w| !name_words.contains(w))
            .cloned()
            .collect();
        let theirs = l.open_of(UserId(doer)).await?;
        Ok(best_match_exact(&theirs, &words).map(|c| (c, true)))
    }

    /// The one open promise of the org to collect money ([`crate::extract::report::collects_money`])
    /// that a message telling the money came names by a word (who paid), closed as done.
    async fn paid_in(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
    ) -> Result<Option<Effect>, IngestError> {
        // Who paid names it; the money itself ("деньги", "money") names every such promise.
        let words: Vec<String> = commitments::significant_stems(&without_names(m.text, self.names))
            .into_iter()
            .filter(|w| !crate::extract::report::collects_money(w))
            .collect();
        if words.is_empty() {
            return Ok(None);
        }
        let open = l.open().await?;
        let scored = open
            .iter()
            .filter(|c| crate::extract::report::collects_money(&c.content))
            .map(|c| (named_by(&words, &matchable(&c.content)), c))
            .collect();
        let Some(c) = unique_best(scored, 1).cloned() else {
            return Ok(None);
        };
        if c.owner == m.from {
            return self.close(l, m, &c, CommitmentState::Done).await;
        }
        self.close_done(l, m, &(c, true)).await
    }

    /// The speaker's one open promise to find out or tell about something
    /// ([`crate::extract::report::informs`]) that a plain statement of theirs names by a word,
    /// closed as done: telling it is doing it.
    async fn told_as_promised(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
    ) -> Result<Option<Effect>, IngestError> {
        let own = l.open_of(m.from).await?;
        if !own
            .iter()
            .any(|c| crate::extract::report::informs(&c.content))
        {
            return Ok(None);
        }
        let words = commitments::significant_stems(&without_names(m.text, self.names));
        if words.len() < 2 {
            return Ok(None);
        }
        // Told as an answer: what someone said ("Snap-on fella says £89 a month…"), or the
        // thing itself first ("по трубам: …"); "heads up snow removal on st-denis tonight" only
        // talks of the same things.
        let retells = crate::extract::report::retells(m.text);
        let scored = own
            .iter()
            .filter(|c| crate::extract::report::informs(&c.content))
            .map(|c| {
                let theirs = content_stems(&c.content);
                let opens = words
                    .first()
                    .is_some_and(|w| named_by(std::slice::from_ref(w), &theirs) > 0);
                let n = if retells || opens {
                    named_by(&words, &theirs)
                } else {
                    0
                };
                (n, c)
            })
            .collect();
        let Some(c) = unique_best(scored, 1).cloned() else {
            return Ok(None);
        };
        self.close(l, m, &c, CommitmentState::Done).await
    }

    /// "Shoprite invoice sent to their AP email" from a colleague of the one who promised to
    /// send it: a report naming no doer and none of the speaker's own promises is about the one
    /// promise of the org it names by two words or more, named so by no other.
    async fn witnessed(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        words: &[String],
    ) -> Result<Option<Commitment>, IngestError> {
        const ENOUGH: usize = 2;
        if words.len() < ENOUGH {
            return Ok(None);
        }
        // Told by the promise's own verb ("invoice sent" for "send the invoice") or a word of
        // work finished that names none ("audit done"): "harvester's booked for Block 2" is the
        // colleague's own errand, not "slash the mid-rows on Block 2".
        let finished = crate::extract::report::finished_without_verb(m.text);
        let report = crate::extract::report::DoneReport::new(m.text);
        if !finished && !report.may_report() {
            return Ok(None);
        }
        // Named enough first: the org has hundreds of promises open, and telling whether the
        // report's verb is a promise's own reads the promise's words again.
        let open = l.open().await?;
        let scored = open
            .iter()
            .filter(|c| c.owner != m.from)
            .map(|c| (named_by(words, &matchable(&c.content)), c))
            .filter(|(n, c)| *n >= ENOUGH && (finished || report.reports(&c.content)))
            .collect();
        Ok(unique_best(scored, ENOUGH).cloned())
    }

    /// The speaker's other promises that clauses of `m` report done, besides `first`, which
    /// the message as a whole closed: each clause that names none of `first`'s words and reads
    /// as a report by itself closes the promise it names.
    async fn done_besides(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        first: &Commitment,
    ) -> Result<Vec<Effect>, IngestError> {
        let clauses: Vec<&str> = report_clauses(m.text).collect();
        if clauses.len() < 2 {
            return Ok(Vec::new());
        }
        // The words of the promise already closed, its verb too: "орхидеи покрасила" is the
        // clause that closed "покрасить кандурином", whatever else it names.
        let had: Vec<String> = first
            .content
            .split(|c: char| !c.is_alphanumeric())
            .map(str::to_lowercase)
            .filter(|w| w.chars().count() >= 4)
            .collect();
        let root = |a: &str, b: &str| {
            let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
            common >= 4 && common + 3 >= a.chars().count().min(b.chars().count())
        };
        let first_stems = commitments::significant_stems(&first.content);
        let mut mine: Vec<Commitment> = l
            .open_of(m.from)
            .await?
            .into_iter()
            .filter(|c| c.id != first.id)
            .collect();
        let mut out = Vec::new();
        let key = (m.chat, m.message);
        for clause in clauses {
            if clause
                .split(|c: char| !c.is_alphanumeric())
                .map(str::to_lowercase)
                .any(|w| had.iter().any(|h| root(&w, h)))
            {
                continue;
            }
            let stems = commitments::significant_stems(clause);
            if overlap(&stems, &first_stems) > 0 {
                continue;
            }
            let found = analyze(key, clause, m.date, self.org, m.from, self.names, &[]);
            let words = match found.as_slice() {
                [Finding::Done { words }] if !words.is_empty() => words.clone(),
                // "smoker's set": the state the work leaves the thing in.
                [] if analyze_guarded(key, || result_told(clause).is_some()) => stems,
                _ => continue,
            };
            // Every word the clause names is the promise's: "inventory done" for "inventory the
            // dry goods", "банки забрал" for "выехать за банками".
            if let Some(c) = best_match_exact(&mine, &words)
                && overlap(&words, &matchable(&c.content)) == words.len()
                && let Some(e) = self.close(l, m, &c, CommitmentState::Done).await?
            {
                mine.retain(|o| o.id != c.id);
                out.push(e);
            }
        }
        Ok(out)
    }

    /// "шкурки забрал" for "встретить в аэропорту", made by "мужики 40 шкурок привезут в чт, я
    /// встречу", or "шприц починил" for the yes to "шприцеватель подтекает, посмотришь?": the
    /// one promise of `own` whose making named what `words` name, where its own words (the
    /// verb and a place, or "чё там") do not. The message that made it, and for a request
    /// taken on, the request too.
    async fn named_where_made<'c>(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        own: &'c [Commitment],
        words: &[String],
    ) -> Result<Option<&'c Commitment>, IngestError> {
        let mut scored = Vec::new();
        for c in own {
            let (Some(chat), Some(id)) = (c.source_chat, c.source_message) else {
                continue;
            };
            // A promise that names its thing is named by it; and a message does not report
            // its own promise done.
            let thing = c.content.split_once(' ').map_or("", |(_, rest)| rest);
            if (chat, id) == (m.chat, m.message)
                || !commitments::significant_stems(thing).is_empty()
            {
                continue;
            }
            let Some(made) = l.message(chat, id).await? else {
                continue;
            };
            let Some(mut said) = sentence_of(&made.text, &c.content) else {
                continue;
            };
            if c.requester.is_some()
                && let Some(r) = made.reply_to
                && let Some(asked) = l.message(chat, r).await?
            {
                said.push('\n');
                said.push_str(&asked.text);
            }
            let named = commitments::significant_stems(&without_names(&said, self.names));
            scored.push((named_by(words, &named), c));
        }
        Ok(unique_best(scored, 1))
    }

    /// Closes a promise as done: by one who may change it, or told by a witness.
    async fn close_done(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        (c, witnessed): &(Commitment, bool),
    ) -> Result<Option<Effect>, IngestError> {
        if !*witnessed {
            return self.close(l, m, c, CommitmentState::Done).await;
        }
        let change = CommitmentChange {
            state: Some(CommitmentState::Done),
            ..Default::default()
        };
        self.write_change(l, m, c, change, Effect::Done).await
    }

    /// The speaker's own open promise a decline names by the words `said`
    /// ([`commitments::declined_clause`], [`commitments::calls_off_own`]), called off. Named
    /// by its words, not guessed: a decline that names none of them changes nothing.
    async fn decline_named(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        said: &str,
    ) -> Result<Option<Effect>, IngestError> {
        let words = commitments::significant_stems(&without_names(said, self.names));
        let own = l.open_of(m.from).await?;
        let Some(c) = best_match_exact(&own, &words) else {
            return Ok(None);
        };
        self.close(l, m, &c, CommitmentState::Cancelled).await
    }

    /// The open commitment an update refers to: the replied-to message first, then shared words,
    /// then (when the update names nothing) the speaker's most recent open one.
    async fn target(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        words: &[String],
        others_allowed: bool,
        report: bool,
    ) -> Result<Option<Commitment>, IngestError> {
        // The replied-to message, or the one it replied to in turn ("hold off on the tips" in
        // reply to the promise, then "ok scratch that" in reply to that).
        let mut r = m.reply_to;
        for _ in 0..2 {
            let Some(id) = r else { break };
            let found: Vec<Commitment> = l
                .of_message(m.chat, id)
                .await?
                .into_iter()
                .filter(|c| c.state == CommitmentState::Open && self.may_change(m.from, c))
                .collect();
            // "Mikey no need for the recap" to a message of two promises: the one it names.
            if found.len() > 1
                && let Some(c) = best_match_exact(&found, words)
            {
                return Ok(Some(c));
            }
            if let Some(c) = found.into_iter().max_by_key(|c| (c.owner == m.from, c.id)) {
                return Ok(Some(c));
            }
            r = l.message(m.chat, id).await?.and_then(|msg| msg.reply_to);
        }
        let own = l.open_of(m.from).await?;
        // The verb of the update names the promise as well as its nouns ("ремень для дорожки
        // заказал" ↔ "заказать новый").
        let with_verbs: Vec<String> = words
            .iter()
            .cloned()
            // A report is named by what was done, not by what is promised beside it ("станок
            // починили 🎉 завтра распилю всё" closes nothing about the sawing).
            .chain(if report {
                commitments::done_verb_lemmas(m.text)
            } else {
                commitments::verb_lemmas(m.text)
            })
            .collect();
        // Only an update that may be about someone else's promise looks for names.
        let named: Vec<UserId> = if others_allowed {
            names::people_in(m.text, self.names)
                .into_iter()
                .map(|(_, id)| UserId(id))
                .filter(|id| *id != m.from)
                .collect()
        } else {
            Vec::new()
        };
        if let Some(c) = best_match(&own, &with_verbs) {
            // "Tasha never mind the Senior Expo booth" from one who also promised to call the
            // surveyor: the named person's promise that the words name more fully is meant.
            if others_allowed && !words.is_empty() && !named.is_empty() {
                let mut theirs: Vec<Commitment> = Vec::new();
                for id in named.iter().collect::<HashSet<_>>() {
                    theirs.extend(l.open_of(*id).await?);
                }
                newest_first(&mut theirs);
                theirs.retain(|t| self.may_change(m.from, t));
                let named_by = |t: &Commitment| overlap(words, &content_stems(&t.content));
                if let Some(t) = best_match_exact(&theirs, words)
                    && named_by(&t) > named_by(&c)
                {
                    return Ok(Some(t));
                }
            }
            return Ok(Some(c));
        }
        if others_allowed && !words.is_empty() {
            // "Гена, отбой на субботу": when the update names people, it is about their promises.
            let mut others: Vec<Commitment> = Vec::new();
            if named.is_empty() {
                others.extend(
                    l.open()
                        .await?
                        .iter()
                        .filter(|c| c.owner != m.from)
                        .cloned(),
                );
            } else {
                for id in named.iter().collect::<HashSet<_>>() {
                    others.extend(l.open_of(*id).await?);
                }
                // In the org's order, as when read all at once: the best match takes the first
                // of equals.
                newest_first(&mut others);
            }
            others.retain(|c| self.may_change(m.from, c));
            if let Some(c) = best_match_exact(&others, words) {
                return Ok(Some(c));
            }
        }
        if words.is_empty() {
            // "ок, отбой" in reply to "Маша, розыгрыш отменяем": an update that names nothing
            // is about what the message it answers names — and when that is none of the
            // speaker's promises, it changes none of them. So with a report: "заказала уже" in
            // reply to "Вера, газель на пн закажи" closes no other promise of Вера's.
            if let Some(id) = m.reply_to
                && let Some(asked) = l.message(m.chat, id).await?
            {
                let named = commitments::significant_stems(&without_names(&asked.text, self.names));
                if !named.is_empty() {
                    return Ok(best_match(&own, &named));
                }
            }
            return Ok(own.into_iter().next());
        }
        Ok(None)
    }

    /// "I can weld the bent leg if someone drops it round" answered by "ill drop it over": the
    /// reply takes on the condition's part, its speaker's own errand, not a yes to the offer.
    async fn takes_condition(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        own: &str,
    ) -> Result<Option<String>, IngestError> {
        let Some(r) = m.reply_to else {
            return Ok(None);
        };
        Ok(l.message(m.chat, r)
            .await?
            .filter(|msg| msg.user_id != Some(m.from))
            .and_then(|msg| commitments::takes_condition(&msg.text, own)))
    }

    /// The part of an offer's condition the reply takes on, as the replier's own promise.
    async fn own_part(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        part: &str,
        due: Option<Due>,
    ) -> Result<Option<Effect>, IngestError> {
        let words = commitments::significant_stems(&without_names(part, self.names));
        self.made_new(l, m, part, due, &words).await
    }

    async fn made(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        content: &str,
        due: Option<Due>,
    ) -> Result<Option<Effect>, IngestError> {
        // A promise in reply to a request is its acceptance; so is one that names (almost)
        // nothing of its own right after a request to the speaker ("ок щас гляну").
        // "хорошо, Ольга Витальевна, сделаю": the names addressed are not what is promised.
        let words = commitments::significant_stems(&without_names(content, self.names));
        let only_reply = words.len() > 1;
        // "Марин, мой завтра занесу" to "авансовые отчёты сдайте": a verb and the one
        // addressed (a vocative known only where it opens the message) name no work of their
        // own; the ask's words are the promise.
        let names_work = || {
            let addressed: Vec<String> = names::people_in(m.text, self.names)
                .into_iter()
                .filter_map(|(span, _)| m.text.get(span).map(str::to_lowercase))
                .collect();
            let past_verb: Vec<&str> = content
                .split_whitespace()
                .skip(1)
                .filter(|w| !addressed.contains(&w.to_lowercase()))
                .collect();
            !commitments::significant_stems(&past_verb.join(" ")).is_empty()
        };
        let own = (!words.is_empty() && names_work()).then_some(content);
        if let Some(part) = self.takes_condition(l, m, content).await? {
            return self.own_part(l, m, &part, due).await;
        }
        if !commitments::opens_with_no(m.text)
            && let Some(e) = self.accept(l, m, due, only_reply, false, own).await?
        {
            return Ok(Some(e));
        }
        self.made_new(l, m, content, due, &words).await
    }

    /// A promise of the speaker's own that accepts nothing: the open one it restates confirmed
    /// or moved, else a new one. `words` are the content's significant stems, names aside.
    async fn made_new(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        content: &str,
        due: Option<Due>,
        words: &[String],
    ) -> Result<Option<Effect>, IngestError> {
        // A promise that restates an open one confirms (or moves) it instead of duplicating it.
        // One made by this very message is another promise of it ("исправлю сегодня, а скан
        // завтра отправлю" to "исправь и пришли скан"), unless this one is a bare verb ("даты
        // поменяю — сегодня скину" is one piece of work).
        let here = |c: &Commitment| {
            !words.is_empty()
                && (c.source_chat, c.source_message) == (Some(m.chat), Some(m.message))
        };
        let own: Vec<Commitment> = l
            .open_of(m.from)
            .await?
            .into_iter()
            .filter(|c| !here(c))
            .filter(|c| may_restate(c, m, due))
            .collect();
        let said = markers(content);
        let replied: Vec<Commitment> = match m.reply_to {
            Some(r) => l.of_message(m.chat, r).await?,
            None => Vec::new(),
        };
        // A bare verb ("минибары: два этажа проверила, 4-й добью в понедельник") is about what
        // the rest of the message names: when that is an open promise of the speaker's, this
        // is that promise again.
        // A long message talks of many things; only a short one is about the one it names.
        let context = if words.is_empty() && m.text.split_whitespace().count() <= 25 {
            // Not what a clause of it tells done ("венок для Кузьминых готов, завтра в 8 Лёше
            // отдам" hands over that wreath, it does not move another), unless only part is.
            let told: String = if partly_told(m.text, content) {
                m.text.to_string()
            } else {
                report_clauses(m.text)
                    .filter(|c| {
                        let found = analyze(
                            (m.chat, m.message),
                            c,
                            m.date,
                            self.org,
                            m.from,
                            self.names,
                            &[],
                        );
                        !matches!(found.as_slice(), [Finding::Done { .. }])
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            };
            self.named_besides_verb(&told, content)
        } else {
            Vec::new()
        };
        let message_stems = commitments::significant_stems(&without_names(m.text, self.names));
        let same = replied
            .into_iter()
            .find(|c| c.owner == m.from && c.state == CommitmentState::Open && !here(c))
            .or_else(|| {
                own.iter()
                    .filter(|c| !said.differ(&markers(&c.content)))
                    .find(|c| {
                        let cw = content_stems(&c.content);
                        // The same promise again: it names nothing the open one does not, or
                        // shares most of its words. One shared word of several is a new promise.
                        let n = overlap(words, &cw);
                        // The same verb about the same things, said again with a new date: "по
                        // радио: 2 предложения есть, третье завтра дособеру" for "по радио до ср
                        // соберу 3 предложения". Two things the message names must be the
                        // promise's: one ("позвоню клиенту") may be another errand.
                        // Or everything the open one names, and more: "печать Фокусу в
                        // паспорт в пн поставлю" for "печать поставлю в чт".
                        let restated = same_verb(content, &c.content)
                            && (overlap(&message_stems, &cw) >= 2
                                || !cw.is_empty() && overlap(&cw, words) == cw.len());
                        n >= 1 && (n == words.len() || (n >= 2 && n * 2 > words.len())) || restated
                    })
                    .cloned()
            })
            // Not one the message tells done: "баннер поправила и отнесла в типографию, в пт к
            // обеду заберу" is new work after "поправить лого", not that promise again.
            // A report of part of it ("двоих обзвонила, третий не берёт, наберу завтра", "до
            // конца февраля разобрал, март доделаю") is that promise again.
            .or_else(|| {
                best_match(&own, &context)
                    .filter(|c| !told_done(m.text, &c.content) || partly_told(m.text, content))
            })
            // "остатки проверил наполовину — …, шоколад и молоко досчитаю завтра": the rest of
            // a promise told half done, named by what is left of it, is that promise again.
            .or_else(|| {
                if words.is_empty()
                    || due.is_none()
                    || m.text.split_whitespace().count() > 25
                    || !part_done(m.text)
                {
                    return None;
                }
                // Named by the clauses that tell the part done, not by the rest promised.
                let told: String = report_clauses(m.text)
                    .filter(|c| {
                        let stems = commitments::significant_stems(c);
                        overlap(&stems, words) == 0
                            && part_done(c)
                            && !commitments::done_verb_lemmas(c).is_empty()
                    })
                    .collect::<Vec<_>>()
                    .join(",");
                best_match(&own, &commitments::significant_stems(&told))
            });
        // "ill bring it tues" to "did u bring the ticket paperwork?": a bare verb answering
        // someone who names an open promise of the speaker's is that promise again. Asked, not
        // told: "Mrs Henderson asked if the patio will be done" → "we'll have it finished by
        // next friday" is new work, not the quote promised before.
        let same = match (same, m.reply_to) {
            (None, Some(r)) if words.is_empty() => match l.message(m.chat, r).await? {
                Some(msg) if msg.user_id.is_some_and(|a| a != m.from) && msg.text.contains('?') => {
                    best_match(&own, &self.named_besides_verb(&msg.text, content))
                }
                _ => None,
            },
            (same, _) => same,
        };
        if let Some(c) = same {
            if due.is_some() && due != c.due {
                return self.move_to(l, m, &c, due).await;
            }
            return Ok(None);
        }
        if content.trim().is_empty() {
            return Ok(None);
        }
        let verb = content;
        let mut content = commitments::reply_context(verb, m.text);
        // "у меня, завтра привезу" in reply to "кто знает где ключ от венткамеры?": a bare
        // verb in reply to someone else is about what they wrote. So is "добьём, к утру будет"
        // in reply to "филе 1.6т сделали, остальное ночные добьют": the clause of its verb.
        if let Some(r) = m.reply_to
            && let Some(msg) = l.message(m.chat, r).await?
            && let Some(author) = msg.user_id.filter(|a| *a != m.from)
        {
            let said = self.said_in(l, &msg, author);
            // "Thanks for the report, I'll look into it this week", "у меня, завтра занесу" to
            // someone else's words: a bare verb is about what they wrote, unless its sentence
            // promises more work of its own ("видел. поправим, в среду фальцовку перенастроим").
            let theirs = without_names(&msg.text, self.names);
            let bare = commitments::significant_stems(&content).is_empty()
                || words.is_empty()
                    && said.is_empty()
                    && !commitments::more_work_beside(verb, m.text)
                    && !commitments::significant_stems(&theirs).is_empty();
            let asked = said
                .iter()
                .any(|f| matches!(f, Finding::Request { .. } | Finding::Offer { .. }));
            // Requests there were for `accept` to take; what it did not take is not this.
            if bare && said.is_empty() {
                content = commitments::reply_context(verb, &theirs);
            } else if !asked
                && words.len() <= 1
                && let Some(clause) = commitments::verb_clause(&content, &theirs)
            {
                let verb = content.split_whitespace().next().unwrap_or("");
                content = format!("{verb} — {clause}");
            }
        }
        let content = &content;
        let c = l
            .insert(&NewCommitment {
                org_id: self.org.id,
                owner: m.from,
                content,
                due,
                confidence: Confidence::RULES,
                author: Author::Rules,
                visibility: Visibility::Team,
                source_chat: Some(m.chat),
                source_message: Some(m.message),
                requester: None,
                request: None,
                evidence: &evidence(m.chat, m.message),
                at: m.date,
            })
            .await?;
        Ok(Some(Effect::Created(c)))
    }

    /// What `text` names (its significant stems and verbs), names of people aside, without the
    /// verb of the promise `content`: "I'm going to pay it today" is not "have to pay 20 RIB"
    /// again.
    fn named_besides_verb(&self, text: &str, content: &str) -> Vec<String> {
        let mut named = commitments::naming_words(&without_names(text, self.names));
        let verb = verb_of(content);
        let verb_stem = crate::extract::words::stem(&verb);
        named.retain(|w| *w != verb && !same_stem(w, &verb_stem));
        named
    }

    /// Finds the request (or offer) this message accepts and turns it into a commitment:
    /// only in the replied-to message with `only_reply`, only offers with `offers_only`.
    async fn accept(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        due: Option<Due>,
        only_reply: bool,
        offers_only: bool,
        // The reply's own promise, when it names work ("памятку гляну вечером").
        own: Option<&str>,
    ) -> Result<Option<Effect>, IngestError> {
        let mut candidates = Vec::new();
        if let Some(r) = m.reply_to
            && let Some(msg) = l.message(m.chat, r).await?
        {
            // "Olls, can you put together a quote?" → "how soon d'you need it?" → "soon as,
            // when can you?" → "Thursday": a date alone answering "when can you?" answers the
            // request the question's thread began with.
            let mut up = (msg.user_id.is_some_and(|a| a != m.from)
                && due.is_some()
                && analyze_guarded((msg.chat_id, msg.message_id), || {
                    commitments::ends_asking_when(&msg.text)
                }))
            .then_some(msg.reply_to)
            .flatten();
            candidates.push((msg, true));
            for _ in 0..2 {
                let Some(r) = up else { break };
                let Some(before) = l.message(m.chat, r).await? else {
                    break;
                };
                up = before.reply_to;
                if before.user_id != Some(m.from) {
                    candidates.push((before, true));
                }
            }
        }
        if !only_reply && m.reply_to.is_none() {
            let since = m.date - Duration::hours(ACCEPT_WINDOW_HOURS);
            for msg in l.recent(m.chat, m.date, since, 6).await? {
                if msg.message_id != m.message {
                    candidates.push((msg, false));
                }
            }
        }
        // Its own date makes a yes longer: "ok will do first thing tmrw" says three words
        // besides it ("should be fine, I'll check with them tmrw" says more). Read once.
        let mut besides: Option<bool> = None;
        let mut seen_other = false;
        // What the speaker has already answered in a reply since ("отправила ей в вотсап" to
        // "Наташ, отправь клиентке"): a later "ок, поняла" is about something else. A question
        // back ("а к какому числу?") answers nothing yet.
        let mut answered: Vec<MessageId> = Vec::new();
        let replied_count = candidates.iter().filter(|(_, r)| *r).count();
        for (n, (msg, replied)) in candidates.into_iter().enumerate() {
            // Only the last of a thread answered stops the search.
            let last_replied = replied && n + 1 >= replied_count;
            let Some(author) = msg.user_id else { continue };
            if author == m.from {
                if last_replied {
                    break;
                }
                if let Some(r) = msg.reply_to
                    && !msg.text.trim_end().ends_with('?')
                {
                    answered.push(r);
                }
                continue;
            }
            if !replied && answered.contains(&msg.message_id) {
                continue;
            }
            // "I'll set up the cupping on Friday" → "Friday I'm away. Can you do Saturday?" →
            // "ok Saturday": the owner takes the date proposed for their promise.
            if replied
                && own.is_none()
                && let Some(r) = msg.reply_to
                && let Some(proposed) = analyze_guarded((msg.chat_id, msg.message_id), || {
                    commitments::proposed_date(
                        &msg.text,
                        msg.date.with_timezone(&self.org.timezone),
                    )
                })
                && let Some(c) = l.open_of_message(m.chat, r, m.from).await?
            {
                return self.redate(l, m, &c, due.or(Some(proposed))).await;
            }
            // An offer is accepted by a reply, or by the very next message of someone else.
            let just_before = !std::mem::replace(&mut seen_other, true);
            let mut found = self.said_in(l, &msg, author);
            // "принял" in reply to "Серёга кирова 21, Сашка малоярославец к среде": a short yes
            // takes the part handed to the one who says it, when the rules found nothing else in
            // the message.
            let short_yes = replied
                && own.is_none()
                && !offers_only
                && *besides.get_or_insert_with(|| short_besides_date(m, due, self.org))
                && !commitments::opens_with_no(m.text);
            // The author's own promise beside the parts ("…, Настя — этикетки. Сделаем к
            // четвергу всё что можно") asks nothing of anyone; a move or a report beside them
            // ("castillo's pushed to thurs … @bohutch no need tmrw") hands out nothing.
            let own_only = found.iter().all(|f| matches!(f, Finding::Made { .. }));
            if short_yes
                && own_only
                && let Some((content, due)) = analyze_guarded((msg.chat_id, msg.message_id), || {
                    commitments::assigned(
                        &msg.text,
                        msg.date.with_timezone(&self.org.timezone),
                        self.names,
                        m.from.0,
                    )
                })
                // Not the author's own promise said to the one who answers ("Hannah I'll sort
                // the rota by end of week" → "👍").
                && !found.iter().any(|f| match f {
                    Finding::Made { content: made, .. } => {
                        let made = commitments::significant_stems(made);
                        let part = commitments::significant_stems(&content);
                        overlap(&made, &part) * 2 >= made.len().max(1)
                    }
                    _ => false,
                })
            {
                // "Кирилл, тестовое давай в пятницу уже" → "ок": a part naming an open promise
                // of theirs moves it.
                let words = commitments::significant_stems(&content);
                if let Some(c) = best_match(&l.open_of(m.from).await?, &words) {
                    return match due {
                        Some(due) if Some(due) != c.due => self.move_to(l, m, &c, Some(due)).await,
                        _ => Ok(None),
                    };
                }
                found.push(Finding::Request {
                    addressee: Some(m.from.0),
                    content,
                    due,
                });
            }
            // "Send them the quote" → "will do": a bare imperative asks no one on its own, but
            // a plain yes in reply takes it on.
            if short_yes
                && found.is_empty()
                && let Some((content, due)) = analyze_guarded((msg.chat_id, msg.message_id), || {
                    commitments::answered_request(&self.stored_input(&msg, author))
                })
            {
                found.push(Finding::Request {
                    addressee: None,
                    content,
                    due,
                });
            }
            for f in found {
                let (owner, content, req_due) = match f {
                    Finding::Request {
                        addressee,
                        content,
                        due,
                    } if !offers_only => {
                        // A request to no one in particular ("please send me the invoice by
                        // Friday", "can you also iron this shirt?") is taken by whoever answers it:
                        // in a reply, or as the next message of anyone else.
                        // "Ankit, Pooja - pls send me your sections": each one called takes it.
                        let called_together = || {
                            addressee.is_some_and(|a| {
                                replied && called_with(&msg.text, self.names, a, m.from.0)
                            })
                        };
                        let to_me = addressee == Some(m.from.0)
                            || (addressee.is_none() && (replied || just_before))
                            || called_together();
                        if !to_me {
                            continue;
                        }
                        (m.from, content, due)
                    }
                    // "Should I stop supply?" → "Not yet. Let me talk to Boakye myself", "Want
                    // me to put em on COD?" → "Lemme talk to Jacques first. I'll call him": a
                    // promise of the replier's own (`own` comes only from one) takes up no
                    // offer; it is the replier's.
                    // After a yes ("Yes please, I'll send you the address") the offer stands.
                    Finding::Offer { .. }
                        if own.is_some() && !commitments::opens_with_yes(m.text) =>
                    {
                        continue;
                    }
                    Finding::Offer { content, due } if replied || just_before => {
                        // "могу в четверг" offers to do what was asked: take the request's words.
                        let content = if content.trim().is_empty() {
                            self.asked_of(l, &msg, author).await?.unwrap_or_default()
                        } else {
                            content
                        };
                        (author, content, due)
                    }
                    _ => continue,
                };
                if content.trim().is_empty() {
                    continue;
                }
                let content = commitments::reply_context(&content, &msg.text);
                // The reply names the work and the request's words do not ("памятку по лимитам
                // набросала, гляньте пожалуйста" → "памятку гляну вечером"): its own words say
                // what was accepted.
                // Its verb with only a pronoun or a place after it ("I'll ask him", "will check
                // everything", "I'll order from Lola Ising's") says how: the ask's words after
                // it say what. Its verb with only its own time ("выставить — после обеда
                // выставлю") names nothing.
                let content = match own {
                    Some(own) if own.contains(" — ") => content,
                    Some(own) if names_more(own, &content) && commitments::names_no_thing(own) => {
                        format!("{own} — {content}")
                    }
                    Some(own) if names_more(own, &content) => own.to_string(),
                    _ => content,
                };
                let existing = l.of_message(m.chat, msg.message_id).await?;
                if let Some(c) = existing.into_iter().find(|c| c.owner == owner) {
                    // Accepted by this very message: a second promise with words of its own is
                    // another one ("исправлю сегодня, а скан завтра отправлю").
                    // So is one that names other things when the first was named here too
                    // ("макет завтра сделаю, в типографию в чт отнесу"); after a bare yes ("aye
                    // will do, I'll get them ordered from Stage Electrics") it says how.
                    let apart = own.is_some_and(|own| {
                        let theirs = content_stems(&c.content);
                        let mine = commitments::significant_stems(own);
                        let said = commitments::significant_stems(m.text);
                        !mine.is_empty()
                            && !theirs.is_empty()
                            && overlap(&mine, &theirs) == 0
                            && overlap(&theirs, &said) == theirs.len()
                    });
                    if own.is_some()
                        && (c.source_chat, c.source_message) == (Some(m.chat), Some(m.message))
                        && (commitments::sets_apart(m.text) || apart)
                    {
                        return Ok(None);
                    }
                    // Already accepted: a second "ок, к среде" can only move the date.
                    if due.is_some() && due != c.due && c.state == CommitmentState::Open {
                        return self.move_to(l, m, &c, due).await;
                    }
                    return Ok(None);
                }
                let c = l
                    .insert(&NewCommitment {
                        org_id: self.org.id,
                        owner,
                        content: &content,
                        due: accepted_due(
                            due,
                            req_due,
                            m.date.with_timezone(&self.org.timezone),
                            commitments::right_now(m.text),
                        ),
                        confidence: Confidence::RULES,
                        author: Author::Rules,
                        visibility: Visibility::Team,
                        source_chat: Some(m.chat),
                        source_message: Some(m.message),
                        requester: Some(if owner == m.from { author } else { m.from }),
                        request: Some((m.chat, msg.message_id)),
                        evidence: &evidence(m.chat, m.message),
                        at: m.date,
                    })
                    .await?;
                return Ok(Some(Effect::Created(c)));
            }
            // "sure, by when?" → "thurs": the date the one who asked gives is the promise's due
            // (theirs alone, so a message between does not stand in the way).
            if own.is_none()
                && due.is_some()
                && analyze_guarded((msg.chat_id, msg.message_id), || {
                    commitments::agrees_asking_when(&msg.text)
                })
            {
                let asked = l.of_message(m.chat, msg.message_id).await?;
                if let Some(c) = asked.into_iter().find(|c| {
                    c.owner == author
                        && c.requester == Some(m.from)
                        && c.state == CommitmentState::Open
                }) {
                    return self.redate(l, m, &c, due).await;
                }
            }
            // "I'll update the directory" → "when?" → "friday": a date alone answering a bare
            // question of when about the speaker's own open promise (the one the question
            // replies to, else their latest made here since) dates it.
            if own.is_none()
                && due.is_some()
                && replied
                && analyze_guarded((msg.chat_id, msg.message_id), || {
                    commitments::asks_when(&msg.text)
                })
            {
                let asked = match msg.reply_to {
                    Some(r) => l.open_of_message(m.chat, r, m.from).await?,
                    None => {
                        let since = msg.date - Duration::hours(ACCEPT_WINDOW_HOURS);
                        l.open_of(m.from)
                            .await?
                            .into_iter()
                            .find(|c| c.source_chat == Some(m.chat) && c.created_at >= since)
                    }
                };
                if let Some(c) = asked {
                    return self.redate(l, m, &c, due).await;
                }
            }
            // "инвентаризацию перенесём на пятницу?" → "давай": the one who may decide agrees
            // to the move the promise's owner asked for.
            if (replied || just_before)
                && !offers_only
                && own.is_none()
                && let Some(e) = self.agreed_move(l, m, &msg, author, due).await?
            {
                return Ok(Some(e));
            }
            if last_replied {
                break;
            }
        }
        Ok(None)
    }

    /// A move `msg` asked for, agreed by `m`: `author`'s open promise that the question names
    /// (or their latest, when it names nothing) takes the date asked, or the one the agreement
    /// names instead.
    async fn agreed_move(
        &self,
        l: &mut Ledger,
        m: &Incoming<'_>,
        msg: &crate::store::StoredMessage,
        author: UserId,
        said: Option<Due>,
    ) -> Result<Option<Effect>, IngestError> {
        let key = (msg.chat_id, msg.message_id);
        let asked = analyze_guarded(key, || {
            commitments::proposed_move(&self.stored_input(msg, author))
        });
        let Some((due, words)) = asked else {
            return Ok(None);
        };
        let own = l.open_of(author).await?;
        let c = if words.is_empty() {
            own.into_iter().next()
        } else {
            best_match(&own, &words)
        };
        let Some(c) = c else { return Ok(None) };
        let due = said.unwrap_or(due);
        if c.due == Some(due) {
            return Ok(None);
        }
        // `move_to` lets only those who may change the promise move it: a teammate's yes is none.
        self.move_to(l, m, &c, Some(due)).await
    }

    /// What the request that `msg` answers asked of `author`, if `msg` is a reply to one.
    async fn asked_of(
        &self,
        l: &mut Ledger,
        msg: &crate::store::StoredMessage,
        author: UserId,
    ) -> Result<Option<String>, IngestError> {
        let Some(r) = msg.reply_to else {
            return Ok(None);
        };
        let Some(req) = l.message(msg.chat_id, r).await? else {
            return Ok(None);
        };
        let Some(by) = req.user_id else {
            return Ok(None);
        };
        let key = (req.chat_id, req.message_id);
        Ok(
            analyze(key, &req.text, req.date, self.org, by, self.names, &[])
                .into_iter()
                .find_map(|f| match f {
                    Finding::Request {
                        addressee, content, ..
                    } if addressee.is_none_or(|a| a == author.0) => Some(content),
                    _ => None,
                }),
        )
    }

    /// An edited message: re-read it and correct what the old text produced.
    #[tracing::instrument(name = "ingest_edit", skip_all, fields(chat_id = m.chat.0, message_id = m.message.0, user_id = m.from.0))]
    pub async fn edit(&self, m: &Incoming<'_>) -> Result<Vec<Effect>, IngestError> {
        let mut l = Ledger::new(self.store.begin_batch().await?, self.org.id);
        let effects = self.reread(&mut l, m).await?;
        l.batch.commit().await?;
        Ok(effects)
    }

    async fn reread(&self, l: &mut Ledger, m: &Incoming<'_>) -> Result<Vec<Effect>, IngestError> {
        let made = l.made_in(m.chat, m.message).await?;
        if made.is_empty() {
            return self.read(l, m).await;
        }
        let findings = self.findings(m);
        let mut effects = Vec::new();
        // Each promise the new text makes, by its words and date.
        let mut promises: Vec<(Option<String>, Option<Due>)> = findings
            .iter()
            .filter_map(|f| match f {
                Finding::Made { content, due } => Some((Some(content.clone()), *due)),
                _ => None,
            })
            .collect();
        if promises.is_empty() {
            promises.extend(findings.iter().find_map(|f| match f {
                Finding::Accept { due, .. } => Some((None, *due)),
                _ => None,
            }));
        }
        // "гляну завтро, седня не успею" corrected to "гляну завтра, сегодня не успею" reads
        // alone as a move: the promise stands, at the date the edit names.
        if promises.is_empty() {
            promises.extend(findings.iter().find_map(|f| match f {
                Finding::Moved { due: Some(due), .. } => Some((None, Some(*due))),
                _ => None,
            }));
        }
        // Every commitment the old text made is paired (one closed or corrected since keeps
        // its promise from being made again); only the open ones the rules wrote change.
        let (picks, used, one) = pair_edited(&made, &promises);
        let pairs = made.into_iter().zip(picks);
        for (c, pick) in pairs {
            // A promise a person corrected (/fix, a button) keeps the human version.
            if c.state != CommitmentState::Open || matches!(c.author, Author::User(_)) {
                continue;
            }
            let change = match pick.map(|k| &promises[k]) {
                Some((content, due)) => {
                    let mut ch = CommitmentChange::default();
                    if due.is_some() && *due != c.due {
                        ch.due = Some(*due);
                    }
                    if let Some(content) = content
                        && c.requester.is_none()
                        && content != &c.content
                        && !content.trim().is_empty()
                    {
                        ch.content = Some(content.clone());
                    }
                    if ch.due.is_none() && ch.content.is_none() {
                        continue;
                    }
                    ch
                }
                // The edit took the promise back.
                None => CommitmentChange {
                    state: Some(CommitmentState::Cancelled),
                    ..Default::default()
                },
            };
            let mut ch = change;
            ch.update = Some((m.chat, m.message));
            ch.author = Some(Author::Rules);
            let moved = ch.due.is_some();
            if let Some(n) = l.change(&c, &ch, m.date).await? {
                effects.push(if ch.state == Some(CommitmentState::Cancelled) {
                    Effect::Cancelled(n)
                } else if moved {
                    Effect::Moved(n)
                } else {
                    Effect::Created(n)
                });
            }
        }
        // A promise the edit added ("…, ring the coastguard re the notice to mariners" put at
        // the end of a day's plan) is new work.
        if !one {
            for (k, (content, due)) in promises.into_iter().enumerate() {
                if used[k] {
                    continue;
                }
                let Some(content) = content else { continue };
                if let Some(e) = self.apply(l, m, Finding::Made { content, due }).await? {
                    effects.push(e);
                }
            }
        }
        Ok(effects)
    }
}

/// May a promise said in `m` (dated `due`) be the open `c` said again? Undated, only one of the
/// same chat: a team's chats hold many "I'll send the information"s to different people, and a
/// repeat there loses nothing; a new date says which one moves, wherever it is said.
fn may_restate(c: &Commitment, m: &Incoming<'_>, due: Option<Due>) -> bool {
    due.is_some() || c.source_chat == Some(m.chat)
}

/// Which promise of an edited message's new text (`promises`) each commitment its old text
/// made is: with one of each, that one; with several (a day's plan edited), the one of the same
/// words, else of the most words in common, else the one in its place. Also which promises were
/// taken, and whether the one-promise reading applied (then nothing is taken, nothing added).
fn pair_edited(
    made: &[Commitment],
    promises: &[(Option<String>, Option<Due>)],
) -> (Vec<Option<usize>>, Vec<bool>, bool) {
    let one = made.len() <= 1 && promises.len() <= 1
        || promises.iter().all(|(content, _)| content.is_none());
    let mut used = vec![false; promises.len()];
    if one {
        return (
            vec![(!promises.is_empty()).then_some(0); made.len()],
            used,
            true,
        );
    }
    let stems: Vec<Vec<String>> = promises
        .iter()
        .map(|(c, _)| {
            c.as_deref()
                .map(commitments::significant_stems)
                .unwrap_or_default()
        })
        .collect();
    let mut picks = Vec::with_capacity(made.len());
    for (n, c) in made.iter().enumerate() {
        let theirs = content_stems(&c.content);
        let free: Vec<usize> = (0..promises.len()).filter(|&k| !used[k]).collect();
        let pick = free
            .iter()
            .copied()
            .find(|&k| promises[k].0.as_deref() == Some(c.content.as_str()))
            .or_else(|| {
                free.iter()
                    .map(|&k| (overlap(&stems[k], &theirs), k))
                    .filter(|(shared, _)| *shared > 0)
                    .max_by_key(|(shared, k)| (*shared, std::cmp::Reverse(*k)))
                    .map(|(_, k)| k)
            })
            .or_else(|| free.contains(&n).then_some(n));
        if let Some(k) = pick {
            used[k] = true;
        }
        picks.push(pick);
    }
    (picks, used, false)
}

/// A yes no longer than five words besides its own date.
fn short_besides_date(m: &Incoming<'_>, due: Option<Due>, org: &Org) -> bool {
    let words = m.text.split_whitespace().count();
    if words <= 5 {
        return true;
    }
    due.is_some()
        && crate::extract::dates::deadline(m.text, m.date.with_timezone(&org.timezone), org.locale)
            .and_then(|(span, _)| m.text.get(span))
            .is_some_and(|d| words.saturating_sub(d.split_whitespace().count()) <= 5)
}

/// `own` names work `asked` does not: a significant word (verbs are not) the request's text
/// lacks.
fn names_more(own: &str, asked: &str) -> bool {
    let asked = commitments::significant_stems(asked);
    // Its verb alone names no thing: "I will ring them tomorrow" to "can you book the
    // extinguisher service?" keeps the service.
    let thing = own.split_once(' ').map_or("", |(_, rest)| rest);
    commitments::significant_stems(thing)
        .iter()
        .any(|w| !asked.contains(w))
}

/// The due date of an accepted request: the acceptance's own, else the request's. An
/// acceptance that names only an hour ("да, возьму. выеду в 7") keeps the request's later day
/// ("на завтра рейс ...") at that hour.
fn accepted_due(
    accept: Option<Due>,
    request: Option<Due>,
    now: DateTime<chrono_tz::Tz>,
    // The yes dates itself "right now" ("лады, ща позвоню"): when the work starts, not when it
    // is due, so a later date asked for stands.
    right_now: bool,
) -> Option<Due> {
    match (accept, request) {
        (Some(a), Some(r)) if right_now && r.date > a.date => Some(r),
        (Some(a), Some(r)) if a.time.is_some() && a.date == now.date_naive() && r.date > a.date => {
            Some(Due {
                date: r.date,
                time: a.time,
            })
        }
        (a, r) => a.or(r),
    }
}

/// `text` without the people it names (first names in any form, patronymics).
fn without_names(text: &str, people: &[names::Person]) -> String {
    let mut out = text.to_string();
    let mut spans: Vec<std::ops::Range<usize>> = names::people_in(text, people)
        .into_iter()
        .map(|(span, _)| span)
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.start));
    for s in spans {
        if out.is_char_boundary(s.start) && out.is_char_boundary(s.end) && s.end <= out.len() {
            out.replace_range(s, " ");
        }
    }
    out.split_whitespace()
        .filter(|w| {
            let w = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            !names::is_patronymic_word(&w)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What [`Ingest::messages`] did with one message.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub stored: Stored,
    pub effects: Vec<Effect>,
    /// Tasks the message reported done ("смету переделал, готово"), for the one who set them.
    pub tasks_done: Vec<TaskDone>,
}

/// A task closed by a message in a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskDone {
    pub id: i64,
    pub title: String,
    pub assignee: UserId,
    pub assigned_by: Option<UserId>,
}

/// A batch's view of commitments and messages: the database as it stood when the batch began,
/// overlaid with what the batch itself has written so far (which reaches the database only
/// when the batch commits). Reads of the whole org's open promises happen once per batch.
struct Ledger {
    batch: Batch,
    org: OrgId,
    /// The org's open commitments, most recently made first (loaded on first use: only an
    /// update about someone else's promise needs them all).
    open: Option<Vec<Commitment>>,
    /// One person's open commitments, as `open` (loaded on first use when `open` is not): most
    /// updates are about the speaker's own promises, and an org has hundreds open.
    open_by: HashMap<UserId, Vec<Commitment>>,
    /// Current versions written in this batch, by origin.
    current: HashMap<MemoryId, Commitment>,
    /// Messages that made, moved, closed or asked for a commitment in this batch.
    keys: Vec<((ChatId, MessageId), MemoryId)>,
    /// This batch's messages, and the stored tail of each chat once loaded.
    messages: HashMap<ChatId, Vec<StoredMessage>>,
    tails: HashSet<ChatId>,
    /// Messages first stored by this batch: nothing in the database refers to them yet.
    fresh: HashSet<(ChatId, MessageId)>,
    latest: Option<DateTime<Utc>>,
    /// Requests and offers read in this batch, by message.
    analyses: HashMap<(ChatId, MessageId), Vec<Finding>>,
    /// Tasks the message being read closed.
    tasks_done: Vec<TaskDone>,
}

impl Ledger {
    fn new(batch: Batch, org: OrgId) -> Ledger {
        Ledger {
            batch,
            org,
            open: None,
            open_by: HashMap::new(),
            current: HashMap::new(),
            keys: Vec::new(),
            messages: HashMap::new(),
            tails: HashSet::new(),
            fresh: HashSet::new(),
            latest: None,
            analyses: HashMap::new(),
            tasks_done: Vec::new(),
        }
    }

    fn add_message(&mut self, m: NewMessage<'_>) {
        self.batch.store_message(&m);
        self.fresh.insert((m.chat_id, m.message_id));
        self.messages
            .entry(m.chat_id)
            .or_default()
            .push(StoredMessage {
                chat_id: m.chat_id,
                message_id: m.message_id,
                user_id: m.user_id,
                date: m.date,
                text: m.text.to_string(),
                reply_to: m.reply_to,
                edit_date: None,
            });
    }

    async fn open(&mut self) -> Result<&[Commitment], IngestError> {
        if self.open.is_none() {
            let stored = self.batch.open_commitments_in_org(self.org).await?;
            self.open = Some(self.with_written(stored, None));
        }
        Ok(self.open.as_deref().unwrap_or_default())
    }

    /// A person's open commitments, most recently made first.
    async fn open_of(&mut self, owner: UserId) -> Result<Vec<Commitment>, IngestError> {
        if let Some(open) = &self.open {
            return Ok(open.iter().filter(|c| c.owner == owner).cloned().collect());
        }
        if !self.open_by.contains_key(&owner) {
            let stored = self.batch.open_commitments_of(self.org, owner).await?;
            let open = self.with_written(stored, Some(owner));
            self.open_by.insert(owner, open);
        }
        Ok(self.open_by.get(&owner).cloned().unwrap_or_default())
    }

    /// Open commitments read from the database (of `owner`, or of everyone), with what this
    /// batch has written and not yet committed put in: the database still has the versions
    /// from before.
    fn with_written(&self, mut open: Vec<Commitment>, owner: Option<UserId>) -> Vec<Commitment> {
        open.retain(|c| !self.current.contains_key(&c.origin_id));
        open.extend(
            self.current
                .values()
                .filter(|c| c.state == CommitmentState::Open)
                .filter(|c| owner.is_none_or(|o| c.owner == o))
                .cloned(),
        );
        newest_first(&mut open);
        open
    }

    /// The version of `c` this batch wrote last, if any.
    fn overlay(&self, c: Commitment) -> Commitment {
        match self.current.get(&c.origin_id) {
            Some(n) => n.clone(),
            None => c,
        }
    }

    /// `owner`'s open commitment that a message made, moved or was asked in, if any.
    async fn open_of_message(
        &mut self,
        chat: ChatId,
        msg: MessageId,
        owner: UserId,
    ) -> Result<Option<Commitment>, IngestError> {
        Ok(self
            .of_message(chat, msg)
            .await?
            .into_iter()
            .find(|c| c.owner == owner && c.state == CommitmentState::Open))
    }

    /// Current commitments a message made, moved, closed or was asked in.
    async fn of_message(
        &mut self,
        chat: ChatId,
        msg: MessageId,
    ) -> Result<Vec<Commitment>, IngestError> {
        let stored = if self.fresh.contains(&(chat, msg)) {
            Vec::new()
        } else {
            self.batch.commitments_of_message(chat, msg).await?
        };
        let ours: Vec<MemoryId> = self
            .keys
            .iter()
            .filter(|(key, _)| *key == (chat, msg))
            .map(|(_, origin)| *origin)
            .collect();
        Ok(self.overlaid(stored, &ours))
    }

    /// Current commitments first made in this message.
    async fn made_in(
        &mut self,
        chat: ChatId,
        msg: MessageId,
    ) -> Result<Vec<Commitment>, IngestError> {
        let stored = if self.fresh.contains(&(chat, msg)) {
            Vec::new()
        } else {
            self.batch.commitments_made_in(chat, msg).await?
        };
        let ours: Vec<MemoryId> = self
            .current
            .values()
            .filter(|c| c.source_chat == Some(chat) && c.source_message == Some(msg))
            .map(|c| c.origin_id)
            .collect();
        Ok(self.overlaid(stored, &ours))
    }

    /// `stored` as this batch left it, plus the batch's own commitments with origins `ours`.
    fn overlaid(&self, stored: Vec<Commitment>, ours: &[MemoryId]) -> Vec<Commitment> {
        let mut out: Vec<Commitment> = stored.into_iter().map(|c| self.overlay(c)).collect();
        for origin in ours {
            if !out.iter().any(|c| c.origin_id == *origin)
                && let Some(c) = self.current.get(origin)
            {
                out.push(c.clone());
            }
        }
        out.sort_by_key(|c| c.id);
        out
    }

    async fn message(
        &mut self,
        chat: ChatId,
        id: MessageId,
    ) -> Result<Option<StoredMessage>, IngestError> {
        if let Some(m) = self
            .messages
            .get(&chat)
            .and_then(|ms| ms.iter().find(|m| m.message_id == id))
        {
            return Ok(Some(m.clone()));
        }
        Ok(self.batch.message(chat, id).await?)
    }

    /// The latest `limit` messages of a chat dated within `[since, before]`, newest first.
    async fn recent(
        &mut self,
        chat: ChatId,
        before: DateTime<Utc>,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<StoredMessage>, IngestError> {
        if self.tails.insert(chat) {
            // Once per chat and batch: the stored tail that any later message's window can see.
            let upto = self.latest.unwrap_or(before).max(before);
            let tail = self
                .batch
                .recent_messages(chat, upto, since, limit as i64)
                .await?;
            let ms = self.messages.entry(chat).or_default();
            for t in tail {
                if !ms.iter().any(|m| m.message_id == t.message_id) {
                    ms.push(t);
                }
            }
        }
        // The newest `limit` in the window, kept in order as we go: no copy of the whole chat.
        let mut best: Vec<&StoredMessage> = Vec::with_capacity(limit + 1);
        for m in self.messages.get(&chat).into_iter().flatten() {
            if m.date > before || m.date < since {
                continue;
            }
            let key = (m.date, m.message_id);
            let at = best
                .iter()
                .position(|b| (b.date, b.message_id) < key)
                .unwrap_or(best.len());
            if at < limit {
                best.insert(at, m);
                best.truncate(limit);
            }
        }
        Ok(best.into_iter().cloned().collect())
    }

    fn keep_open(&mut self, c: &Commitment) {
        let lists = self
            .open
            .iter_mut()
            .map(|l| (None, l))
            .chain(self.open_by.iter_mut().map(|(owner, l)| (Some(*owner), l)));
        for (owner, open) in lists {
            // The version may have changed hands: it leaves every list and joins its owner's.
            open.retain(|o| o.origin_id != c.origin_id);
            if c.state == CommitmentState::Open && owner.is_none_or(|o| o == c.owner) {
                open.push(c.clone());
                newest_first(open);
            }
        }
    }

    async fn insert(&mut self, n: &NewCommitment<'_>) -> Result<Commitment, IngestError> {
        let c = self.batch.insert_commitment(n).await?;
        if let (Some(chat), Some(msg)) = (n.source_chat, n.source_message) {
            self.keys.push(((chat, msg), c.origin_id));
        }
        if let Some(req) = n.request {
            self.keys.push((req, c.origin_id));
        }
        self.current.insert(c.origin_id, c.clone());
        self.keep_open(&c);
        Ok(c)
    }

    /// A new version of `c`; `None` when `c` is no longer the current version.
    async fn change(
        &mut self,
        c: &Commitment,
        change: &CommitmentChange,
        at: DateTime<Utc>,
    ) -> Result<Option<Commitment>, IngestError> {
        let current = match self.current.get(&c.origin_id) {
            Some(n) => n.id == c.id,
            None => !c.archived,
        };
        if !current {
            return Ok(None);
        }
        let n = self.batch.change_commitment(c, change, at).await?;
        if let Some(key) = change.update {
            self.keys.push((key, n.origin_id));
        }
        self.current.insert(n.origin_id, n.clone());
        self.keep_open(&n);
        Ok(Some(n))
    }
}

/// Like [`best_match`], counting only identical stems.
fn best_match_exact(cands: &[Commitment], words: &[String]) -> Option<Commitment> {
    cands
        .iter()
        .map(|c| {
            let theirs = content_stems(&c.content);
            (named_by(words, &theirs), c)
        })
        .filter(|(n, _)| *n > 0)
        .max_by_key(|(n, c)| (*n, c.created_at))
        .map(|(_, c)| c.clone())
}

/// A promise's significant words ([`commitments::significant_stems`]), read once per thread
/// for each wording: every update is held against the speaker's open promises, some against
/// the whole org's, and the same few hundred contents come round again and again.
fn content_stems(content: &str) -> Arc<[String]> {
    crate::morph::remembered_within(&CONTENT_STEMS, content, WORDINGS, || {
        commitments::significant_stems(content).into()
    })
}

thread_local! {
    static CONTENT_STEMS: crate::morph::WordMemo<Arc<[String]>> = RefCell::default();
    static MATCHABLE: crate::morph::WordMemo<Arc<[String]>> = RefCell::default();
}

/// The wordings a thread remembers: a promise's text, not a pasted page.
const WORDINGS: crate::morph::MemoBounds = crate::morph::MemoBounds {
    longest: 1024,
    most: 8192,
};

/// What an update may name a promise by: its significant words, and its verb, which updates
/// often turn into a noun ("reconcile the invoices" → "the reconciliation is a mess").
fn matchable(content: &str) -> Arc<[String]> {
    crate::morph::remembered_within(&MATCHABLE, content, WORDINGS, || {
        matchable_now(content).into()
    })
}

fn matchable_now(content: &str) -> Vec<String> {
    let mut stems = content_stems(content).to_vec();
    if let Some(verb) = content.split_whitespace().next() {
        let verb = verb.to_lowercase();
        // A Russian infinitive is the verb's lemma, whatever its length ("сдать", "снять").
        let infinitive = ["ть", "ти", "чь"].iter().any(|e| verb.ends_with(e))
            && verb.chars().count() >= 4
            && verb.chars().all(|c| matches!(c, 'а'..='я' | 'ё'));
        if (verb.chars().count() >= 6 || infinitive) && verb.chars().all(char::is_alphabetic) {
            stems.push(verb);
        } else if verb.len() >= 4
            && verb.chars().all(|c| c.is_ascii_lowercase())
            && !commitments::light_en_verb(&verb)
        {
            // "book the venue" ↔ "christmas do booked": the stem, as updates' words are.
            stems.push(crate::extract::words::stem(&verb));
        }
    }
    stems
}

fn best_match(cands: &[Commitment], words: &[String]) -> Option<Commitment> {
    if words.is_empty() {
        return None;
    }
    // Among promises named by as many words, the one those words name more fully: "афиша
    // готова" is "нарисовать афишу", not "сделать пост-анонс к афише в вк…"; then the newest.
    cands
        .iter()
        .map(|c| {
            let theirs = matchable(&c.content);
            // Of two named by as many words, the one whose own verb is said: "буклеты заказала,
            // забираю перед ДОД" is "заказать в типографии", not "на ДОД на ресепшене".
            let stems = content_stems(&c.content);
            let verb = theirs
                .iter()
                .any(|t| !stems.contains(t) && overlap(words, std::slice::from_ref(t)) > 0);
            (overlap(words, &theirs), verb, theirs.len(), c)
        })
        .filter(|(n, _, _, _)| *n > 0)
        .max_by_key(|(n, _verb, len, c)| (*n, std::cmp::Reverse(*len), c.created_at))
        .map(|(_, _, _, c)| c.clone())
}

/// How many of `words` name one of `stems` (the same stem or one of its forms).
fn named_by(words: &[String], stems: &[String]) -> usize {
    words
        .iter()
        .filter(|w| stems.iter().any(|t| t == *w || same_stem(w, t)))
        .count()
}

/// The one commitment named by the most words, at least `min`; none when two tie for it.
fn unique_best(scored: Vec<(usize, &Commitment)>, min: usize) -> Option<&Commitment> {
    let best = scored.iter().map(|(n, _)| *n).max().filter(|n| *n >= min)?;
    match scored
        .iter()
        .filter(|(n, _)| *n == best)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [(_, c)] => Some(*c),
        _ => None,
    }
}

/// Are `a` and `b` called side by side in `text` ("Ankit, Pooja - pls…", "Лёша и Тимур,
/// …"): their names apart only by a comma, "&", "/", "and" or "и"?
fn called_with(text: &str, people: &[names::Person], a: i64, b: i64) -> bool {
    let named = names::people_in(text, people);
    named.iter().any(|(x, p)| {
        *p == a
            && named.iter().any(|(y, q)| {
                let (first, second) = if x.start < y.start { (x, y) } else { (y, x) };
                *q == b
                    && text.get(first.end..second.start).is_some_and(|gap| {
                        gap.split(|c: char| c.is_whitespace() || matches!(c, ',' | '&' | '/'))
                            .all(|w| w.is_empty() || matches!(w, "and" | "и"))
                    })
            })
    })
}

/// The sentence of `text` that made the promise `content` (the one that names its words or
/// its verb; the whole text when it is one sentence): what it said beside the promise in other
/// sentences is about other things.
fn sentence_of(text: &str, content: &str) -> Option<String> {
    // "Сегодня: 1) отход выбрать 2) малька пересадить": each item of a list is a sentence.
    let mut sentences: Vec<&str> = Vec::new();
    let mut from = 0;
    for (at, c) in text.char_indices() {
        let item = c == ')'
            && text[..at]
                .chars()
                .next_back()
                .is_some_and(|d| d.is_ascii_digit());
        if matches!(c, '.' | '!' | '?' | '\n' | ';') || item {
            sentences.push(&text[from..at]);
            from = at + c.len_utf8();
        }
    }
    sentences.push(&text[from..]);
    sentences.retain(|s| s.chars().any(char::is_alphabetic));
    if let [one] = sentences.as_slice() {
        return Some((*one).to_string());
    }
    let words = matchable(content);
    let verb: String = content
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_lowercase()
        .chars()
        .take(4)
        .collect();
    sentences
        .iter()
        .map(|s| {
            let stems = commitments::significant_stems(s);
            let said_verb = verb.chars().count() == 4
                && s.split(|c: char| !c.is_alphanumeric())
                    .any(|w| w.to_lowercase().starts_with(&verb));
            (overlap(&stems, &words) + usize::from(said_verb), s)
        })
        .filter(|(n, _)| *n > 0)
        .max_by_key(|(n, _)| *n)
        .map(|(_, s)| (*s).to_string())
}

/// A human-readable pointer to the message a memory came from.
pub fn evidence(chat: ChatId, msg: MessageId) -> String {
    match crate::render::format::message_link(chat, msg) {
        Some(link) => link,
        None => format!("chat {chat}, message {msg}"),
    }
}

/// Applies a reminder button: done, +1 working day, or "not a promise" (cancelled).
pub async fn button(
    store: &Store,
    user: UserId,
    origin: crate::domain::MemoryId,
    action: ButtonAction,
    next_working_day: impl Fn(chrono::NaiveDate) -> chrono::NaiveDate,
    at: DateTime<Utc>,
) -> Result<ButtonOutcome, IngestError> {
    let Some(c) = store.current_commitment(origin).await? else {
        return Ok(ButtonOutcome::Unknown);
    };
    if c.owner != user {
        return Ok(ButtonOutcome::NotYours);
    }
    if c.state != CommitmentState::Open {
        return Ok(ButtonOutcome::AlreadyClosed(c));
    }
    let mut change = CommitmentChange {
        author: Some(Author::User(user)),
        confidence: Some(Confidence::CONFIRMED),
        ..Default::default()
    };
    match action {
        ButtonAction::Done => change.state = Some(CommitmentState::Done),
        ButtonAction::NotAPromise => change.state = Some(CommitmentState::Cancelled),
        ButtonAction::Snooze => {
            let base = c.due.map(|d| d.date).unwrap_or_else(|| at.date_naive());
            change.due = Some(Some(Due {
                date: next_working_day(base),
                time: c.due.and_then(|d| d.time),
            }));
        }
    }
    Ok(match store.change_commitment(&c, &change, at).await? {
        Some(n) => ButtonOutcome::Changed(action, n),
        None => ButtonOutcome::Unknown,
    })
}

#[derive(Debug, Clone, PartialEq)]
pub enum ButtonOutcome {
    Changed(ButtonAction, Commitment),
    AlreadyClosed(Commitment),
    NotYours,
    Unknown,
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_called_side_by_side_are_called_together() {
        use super::called_with;
        use crate::extract::names::Person;
        let people: Vec<Person> = [(1, "Ankit"), (2, "Pooja"), (3, "Deepak")]
            .iter()
            .map(|(id, n)| Person {
                id: *id,
                first_name: (*n).to_string(),
                last_name: None,
                username: None,
            })
            .collect();
        assert!(called_with(
            "Ankit, Pooja - pls send me your sections",
            &people,
            1,
            2
        ));
        assert!(called_with("Pooja and Ankit pls send", &people, 1, 2));
        assert!(!called_with("Ankit, send Pooja the file", &people, 1, 2));
        assert!(!called_with("Ankit, pls send it", &people, 1, 3));
    }

    #[test]
    fn the_sentence_that_made_a_promise_is_found_by_its_words_or_its_verb() {
        use super::sentence_of;
        assert_eq!(
            sentence_of("на ризографе полосит, гляну чё там", "глянуть чё там").as_deref(),
            Some("на ризографе полосит, гляну чё там")
        );
        assert_eq!(
            sentence_of(
                "Сегодня: 1) отход выбрать 2) малька пересадить",
                "пересадить малька"
            )
            .as_deref(),
            Some(" малька пересадить")
        );
        assert_eq!(
            sentence_of("Бассейн запустили. Лампы поменяю завтра", "поменять лампы").as_deref(),
            Some(" Лампы поменяю завтра")
        );
        assert_eq!(sentence_of("Привет. Как дела?", "поменять лампы"), None);
    }

    proptest::proptest! {
        #[test]
        fn finding_the_sentence_of_a_promise_never_panics(text in "\\PC{0,200}", c in "\\PC{0,40}") {
            let _ = super::sentence_of(&text, &c);
        }
    }

    #[test]
    fn stems_match_by_their_endings_not_by_a_last_letter() {
        use super::same_stem;
        assert!(same_stem("точк", "точек"));
        assert!(same_stem("reconcil", "reconciliation"));
        assert!(!same_stem("прос", "прокат"));
        assert!(!same_stem("tool", "toolbox"));
    }

    #[test]
    fn promises_that_differ_in_a_number_or_a_name_are_distinct() {
        use super::distinct;
        assert!(distinct(
            "КП для Ромашки по складу",
            "КП для Лютика по складу"
        ));
        assert!(distinct("send invoice 1041", "send invoice 1042"));
        assert!(distinct("позвонить Ивану", "позвонить Петру"));
        // Naming less, or the same thing in another case, is the same promise.
        assert!(!distinct("КП скину завтра", "подготовить КП для Ромашки"));
        assert!(!distinct("КП для Ромашке", "КП для Ромашки по складу"));
        assert!(!distinct(
            "Send the deck to Acme",
            "send the deck to Acme by Friday"
        ));
        // A date said in the text is not a number that tells promises apart.
        assert!(!distinct("отчёт до 15.12", "отчёт до 20.12"));
        assert!(!distinct("", ""));
    }

    use super::same_stem;

    #[test]
    fn stems_of_one_word_in_other_forms_are_the_same_thing() {
        assert!(same_stem("иконк", "иконок"));
        assert!(same_stem("reconcil", "reconciliat"));
        assert!(same_stem("смет", "сметы"));
        assert!(!same_stem("tool", "toolbox"));
        assert!(!same_stem("отчёт", "отпуск"));
    }
}
