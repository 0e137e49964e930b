//! The one analysis of a message every rule reads: tokens with their word classes and verb
//! readings, clause and sentence numbers, question marks; and the rule context around it.

use super::*;

pub(super) struct Tk {
    pub(super) norm: String,
    pub(super) span: Range<usize>,
    pub(super) f: u32,
    pub(super) verb: Option<Verb>,
    pub(super) clause: usize,
    pub(super) sent: usize,
}

pub(super) struct Msg<'a> {
    pub(super) text: &'a str,
    pub(super) toks: Vec<Tk>,
    /// Per sentence: does it end with a question mark?
    pub(super) question: Vec<bool>,
    /// Which words the message may hold (a bit per word's hash): the rules look for hundreds of
    /// phrases in every message, nearly all absent, and a scan per phrase was a tenth of their
    /// time.
    words: [u64; 4],
}

/// The byte ranges of the links in `text` ("https://…", "www.…"), each to the next space: one
/// pass over the text, however long.
fn link_spans(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    let close = |from: usize, to: usize, out: &mut Vec<Range<usize>>| {
        let chunk = &text.as_bytes()[from..to];
        let www = chunk.len() >= 4 && chunk[..4].eq_ignore_ascii_case(b"www.");
        if www || chunk.windows(3).any(|w| w == b"://") {
            out.push(from..to);
        }
    };
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(from)) => {
                close(from, i, &mut out);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(from) = start {
        close(from, text.len(), &mut out);
    }
    out
}

/// The bit of `word` in [`Msg::words`].
fn word_bit(word: &str) -> (usize, u64) {
    use std::hash::Hasher;
    let mut h = crate::extract::names::WordHasher::default();
    h.write(word.as_bytes());
    let x = h.finish();
    ((x >> 8) as usize & 3, 1 << (x & 63))
}

pub(super) fn is_hard_break(gap: &str) -> bool {
    gap.contains(['!', '?', ';', '\n', '…'])
        || (gap.contains('.') && (gap.chars().any(char::is_whitespace) || gap.len() > 1))
        // "афиша готова 🎉 печатать 20 шт?": in a chat a picture ends a sentence as a stop does.
        || (gap.chars().any(is_pictograph) && gap.ends_with(char::is_whitespace))
}

/// An emoji picture (faces, hands, objects, symbols), not an arrow or a dash.
fn is_pictograph(c: char) -> bool {
    matches!(c as u32, 0x1F300..=0x1FAFF | 0x2600..=0x27BF)
}

pub(super) fn is_soft_break(gap: &str) -> bool {
    gap.contains([',', ':', '(', ')', '—', '–'])
        || gap.contains(" - ")
        || gap.chars().any(|c| c as u32 >= 0x2190)
}

/// The byte ranges of short lists in brackets ("(дождик, шоколад, кости)"), "(" to ")"
/// inclusive: at most 60 bytes, a comma inside, no sentence's end. Brackets in runs are
/// smileys ("не успею(("). `numbered` keeps a bracket with a condition a clause ("(и смету,
/// если успею)").
fn asides(text: &str) -> Vec<Range<usize>> {
    if !text.contains('(') {
        return Vec::new();
    }
    let b = text.as_bytes();
    let lone = |i: usize| {
        (i == 0 || !matches!(b[i - 1], b'(' | b')'))
            && b.get(i + 1).is_none_or(|c| !matches!(c, b'(' | b')'))
    };
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for (i, c) in text.char_indices() {
        match c {
            '(' if lone(i) => open = Some(i),
            ')' if lone(i) => {
                if let Some(o) = open.take()
                    && i - o <= 60
                    && let Some(inner) = text.get(o..i)
                    && !inner.contains(['.', '!', '?', '\n', ':'])
                    && inner.contains(',')
                {
                    out.push(o..i + 1);
                }
            }
            _ => {}
        }
    }
    out
}

/// "КП", "ТО", "ТЗ": a Russian abbreviation in capitals, a thing named.
pub(super) fn abbreviation(written: &str) -> bool {
    let n = written.chars().count();
    (2..=4).contains(&n) && written.chars().all(|c| matches!(c, 'А'..='Я' | 'Ё'))
}

impl<'a> Msg<'a> {
    pub(super) fn new(text: &'a str) -> Msg<'a> {
        let classes = word_classes();
        let verbs = ru_verbs();
        let toks = fast_tokens(text)
            .into_iter()
            .map(|mut t| {
                // "yesss", "окккк": a stretched word reads as written plainly.
                t.norm = crate::extract::words::unstretched(t.norm);
                let f = classes.get(t.norm.as_str()).copied().unwrap_or(0);
                let verb = verbs
                    .get(t.norm.as_str())
                    .copied()
                    .or_else(|| dictionary_verb(&t.norm))
                    .or_else(|| derived_verb(&t.norm))
                    .or_else(|| guessed_fut1(&t.norm));
                Tk {
                    norm: t.norm,
                    span: t.span,
                    f,
                    verb,
                    clause: 0,
                    sent: 0,
                }
            })
            .collect::<Vec<Tk>>();
        let mut toks = toks;
        // "ТО газели сделаю завтра": a short word in capitals inside ordinary text is an
        // abbreviation (техобслуживание), not the stop word "то" it spells.
        if text.chars().any(char::is_lowercase) {
            for t in toks.iter_mut().filter(|t| t.f & STOP != 0) {
                let Some(word) = text.get(t.span.clone()) else {
                    continue;
                };
                // Four capitals may be a stop word shouted ("ТОЖЕ"); up to three, a name.
                if word.chars().count() <= 3 && abbreviation(word) {
                    t.f &= !STOP;
                }
            }
        }
        // "к вызову мастера": after a preposition a word the dictionary also reads as a verb is
        // the noun (no verb follows a Russian preposition).
        for i in 1..toks.len() {
            if toks[i].verb.is_some_and(|v| v.dict)
                && toks[i - 1].f & PREP != 0
                && toks[i - 1]
                    .norm
                    .chars()
                    .all(|c| matches!(c, 'а'..='я' | 'ё'))
            {
                toks[i].verb = None;
            }
        }
        // "квест по Жюлю Верну", "по Сибстрою": a capitalised word inside a sentence is a name,
        // not a verb the dictionary guesses from its ending ("Верну", "Сибстрою"). A capital at
        // a sentence's start, and words in capitals ("СДЕЛАЮ"), stay verbs.
        for i in 1..toks.len() {
            let Some(word) = text.get(toks[i].span.clone()) else {
                continue;
            };
            let mut chars = word.chars();
            let capital = chars.next().is_some_and(char::is_uppercase)
                && chars.any(char::is_lowercase)
                && word
                    .chars()
                    .next()
                    .is_some_and(|c| matches!(c, 'А'..='Я' | 'Ё'));
            let gap = text
                .get(toks[i - 1].span.end..toks[i].span.start)
                .unwrap_or("");
            let after_name_or_prep = toks[i - 1].f & PREP != 0
                || toks[i - 1].f & (AGREE | GREET | FILL | PLEASE) == 0
                    && text
                        .get(toks[i - 1].span.clone())
                        .and_then(|w| w.chars().next())
                        .is_some_and(char::is_uppercase);
            if capital && after_name_or_prep && toks[i].verb.is_some() && !is_hard_break(gap) {
                toks[i].verb = None;
            }
        }
        // "3) Пашу на фальцовке поучить", "Машу заберу в пять": a capitalised word the
        // dictionary also holds as a name is that name when another word of the message is the
        // verb ("пашу" of "пахать", "машу" of "махать" stay verbs written small or alone).
        // Counted once: a scan per candidate made long messages quadratic.
        let verbs = toks.iter().filter(|t| t.verb.is_some()).count();
        let named: Vec<usize> = (0..toks.len())
            .filter(|&i| {
                toks[i].verb.is_some() && {
                    let word = text.get(toks[i].span.clone()).unwrap_or("");
                    let mut chars = word.chars();
                    chars.next().is_some_and(|c| matches!(c, 'А'..='Я' | 'Ё'))
                        && chars.all(char::is_lowercase)
                        && verbs >= 2
                        && crate::morph::proper_name_form(&toks[i].norm)
                }
            })
            .collect();
        for i in named {
            toks[i].verb = None;
        }
        // "Done in https://github.com/…/pull/12", "fixed by #123": a link or a number after
        // "#" tells where the work is, it names no thing of it.
        if text.contains("://") || text.contains("www.") || text.contains('#') {
            let links = link_spans(text);
            let mut l = 0;
            for t in toks.iter_mut() {
                while links.get(l).is_some_and(|r| r.end <= t.span.start) {
                    l += 1;
                }
                let in_link = links.get(l).is_some_and(|r| r.start <= t.span.start);
                let after_hash = t.span.start > 0 && text.as_bytes()[t.span.start - 1] == b'#';
                if in_link || after_hash {
                    t.f |= STOP;
                }
            }
        }
        // "может гляну вечером", "может завтра заеду": "maybe" before the speaker's own future
        // hedges it, as "возможно" does (`lexicon/ru/maybe.txt`).
        for i in 0..toks.len() {
            if !word_list!("ru/maybe.txt").contains(&toks[i].norm.as_str()) {
                continue;
            }
            let glued = |a: usize, b: usize| {
                text.get(toks[a].span.end..toks[b].span.start)
                    .is_some_and(|g| g.trim().is_empty())
            };
            let mut k = i + 1;
            while k < toks.len() && toks[k].f & DATE != 0 && glued(k - 1, k) {
                k += 1;
            }
            if k < toks.len()
                && glued(k - 1, k)
                && toks[k].verb.is_some_and(|v| v.form == Form::Fut1)
            {
                toks[i].f |= COND;
            }
        }
        Msg::numbered(text, toks)
    }

    /// Numbers the clauses and sentences of the tokens of `text`.
    pub(super) fn numbered(text: &'a str, mut toks: Vec<Tk>) -> Msg<'a> {
        let mut question = Vec::new();
        let (mut clause, mut sent) = (0, 0);
        let mut prev_end = 0;
        // "памятки про опасности (дождик, шоколад, кости) распечатаю": a short list in
        // brackets is part of its clause, not clauses of its own.
        let mut asides = asides(text);
        asides.retain(|r| {
            !toks
                .iter()
                .any(|t| r.contains(&t.span.start) && t.f & COND != 0)
        });
        // The gap's characters outside any aside: a comma after ")" still cuts.
        let outside = |a: usize, b: usize| -> String {
            text.get(a..b)
                .unwrap_or("")
                .char_indices()
                .filter(|(i, _)| !asides.iter().any(|r| r.contains(&(a + i))))
                .map(|(_, c)| c)
                .collect()
        };
        let mut toks_prev = String::new();
        for (i, t) in toks.iter_mut().enumerate() {
            if i > 0 {
                let gap = text.get(prev_end..t.span.start).unwrap_or("");
                // "сегодня: 1) приму машины 2) сушилку гляну": a numbered item starts afresh.
                let item = gap.chars().any(char::is_whitespace)
                    && t.norm.len() <= 2
                    && is_number(&t.norm)
                    && text.get(t.span.end..).is_some_and(|r| r.starts_with(')'));
                // "Mrs. Duda", "Dr. Patel": a title's full stop ends no sentence.
                let title = gap.trim() == "."
                    && (word_list!("titles.txt").contains(&toks_prev.as_str())
                        && text
                            .get(t.span.clone())
                            .and_then(|w| w.chars().next())
                            .is_some_and(char::is_uppercase)
                        // "Sale No. 5", "№. 12": a number's abbreviation before its number.
                        || word_list!("number_abbrev.txt").contains(&toks_prev.as_str())
                            && t.norm.chars().all(|c| c.is_ascii_digit()));
                if (is_hard_break(gap) || item) && !title {
                    question.push(gap.contains('?'));
                    sent += 1;
                    clause += 1;
                } else if is_soft_break(gap)
                    && (asides.is_empty() || is_soft_break(&outside(prev_end, t.span.start)))
                {
                    clause += 1;
                }
            }
            prev_end = t.span.end;
            toks_prev.clone_from(&t.norm);
            t.clause = clause;
            t.sent = sent;
        }
        if !toks.is_empty() {
            question.push(text.get(prev_end..).unwrap_or("").contains('?'));
        }
        let mut words = [0u64; 4];
        for t in &toks {
            let (k, bit) = word_bit(&t.norm);
            words[k] |= bit;
        }
        Msg {
            text,
            toks,
            question,
            words,
        }
    }

    /// The message read as `Msg::new(&text[r])` would read it, without tokenising again: when
    /// no word straddles an end of `r`, the part's words are exactly the whole's words inside it.
    pub(super) fn slice(&self, r: Range<usize>) -> Msg<'a> {
        let Some(sub) = self.text.get(r.clone()) else {
            return Msg::new("");
        };
        // Tokens are in text order and do not overlap, so both ends are binary searches: a scan
        // of every token for every clause made long messages quadratic.
        let straddles = |x: usize| {
            let k = self.toks.partition_point(|t| t.span.start < x);
            k.checked_sub(1)
                .and_then(|k| self.toks.get(k))
                .is_some_and(|t| x < t.span.end)
        };
        if straddles(r.start) || straddles(r.end) {
            return Msg::new(sub);
        }
        let lo = self.toks.partition_point(|t| t.span.start < r.start);
        let hi = self.toks.partition_point(|t| t.span.end <= r.end).max(lo);
        let toks = self
            .toks
            .get(lo..hi)
            .unwrap_or(&[])
            .iter()
            .map(|t| Tk {
                norm: t.norm.clone(),
                span: t.span.start - r.start..t.span.end - r.start,
                f: t.f,
                verb: t.verb,
                clause: 0,
                sent: 0,
            })
            .collect();
        Msg::numbered(sub, toks)
    }

    /// The first sentence that asks (ends in "?"): its tokens and its span in the text.
    pub(super) fn asking_sentence(&self) -> Option<(Vec<usize>, Range<usize>)> {
        let q = (0..self.n()).find(|&k| self.is_q(k))?;
        let sent = self.toks.get(q)?.sent;
        let idx: Vec<usize> = (0..self.n())
            .filter(|&k| self.sent_of(k) == Some(sent))
            .collect();
        let (&a, &b) = (idx.first()?, idx.last()?);
        let span = self.toks[a].span.start..self.toks[b].span.end;
        Some((idx, span))
    }

    pub(super) fn n(&self) -> usize {
        self.toks.len()
    }

    pub(super) fn w(&self, i: usize) -> &str {
        self.toks.get(i).map_or("", |t| t.norm.as_str())
    }

    // Rules look a word or two past a cue ("will you" + 2) without checking the length first:
    // past the end there is simply no verb, clause or sentence.
    pub(super) fn verb(&self, i: usize) -> Option<Verb> {
        self.toks.get(i).and_then(|t| t.verb)
    }

    pub(super) fn clause_of(&self, i: usize) -> Option<usize> {
        self.toks.get(i).map(|t| t.clause)
    }

    pub(super) fn sent_of(&self, i: usize) -> Option<usize> {
        self.toks.get(i).map(|t| t.sent)
    }

    pub(super) fn has_f(&self, i: usize, flag: u32) -> bool {
        self.toks.get(i).is_some_and(|t| t.f & flag != 0)
    }

    pub(super) fn any_f(&self, flag: u32) -> bool {
        self.toks.iter().any(|t| t.f & flag != 0)
    }

    pub(super) fn is_q(&self, i: usize) -> bool {
        self.toks
            .get(i)
            .and_then(|t| self.question.get(t.sent))
            .copied()
            .unwrap_or(false)
    }

    /// Index of the first place where `seq` occurs (`*` matches any word).
    pub(super) fn seq(&self, seq: &[&str]) -> Option<usize> {
        if seq.is_empty() || self.n() < seq.len() || !self.may_hold(seq) {
            return None;
        }
        (0..=self.n() - seq.len()).find(|&i| self.seq_at(i, seq))
    }

    /// The phrases of `list` that may stand in the message (the others surely do not): a rule
    /// that tries a list at every word tries only these.
    pub(super) fn present<'p>(&self, list: &'p [Vec<&'static str>]) -> Vec<&'p [&'static str]> {
        list.iter()
            .map(Vec::as_slice)
            .filter(|p| self.may_hold(p))
            .collect()
    }

    /// Whether every word of `seq` (but `*`) may be among the message's words; `false` is sure.
    fn may_hold(&self, seq: &[&str]) -> bool {
        seq.iter().filter(|s| **s != "*").all(|s| {
            let (k, bit) = word_bit(s);
            self.words[k] & bit != 0
        })
    }

    /// Does `seq` stand at token `k` (`*` matches any word)?
    pub(super) fn seq_at(&self, k: usize, seq: &[&str]) -> bool {
        seq.iter()
            .enumerate()
            .all(|(j, s)| *s == "*" || self.w(k + j) == *s)
    }

    pub(super) fn has_seq(&self, seq: &[&str]) -> bool {
        self.seq(seq).is_some()
    }

    /// Token `i` as written in the text ("ID", "Ty"), empty past the end.
    pub(super) fn written(&self, i: usize) -> &'a str {
        self.toks
            .get(i)
            .and_then(|t| self.text.get(t.span.clone()))
            .unwrap_or("")
    }

    /// Is token `i` written with a capital first letter?
    pub(super) fn capital(&self, i: usize) -> bool {
        self.written(i)
            .chars()
            .next()
            .is_some_and(char::is_uppercase)
    }

    pub(super) fn clause_start(&self, i: usize) -> bool {
        i == 0 || self.toks.get(i - 1).map(|t| t.clause) != self.toks.get(i).map(|t| t.clause)
    }

    /// First token index of the clause (or sentence) holding token `i`, and one past its last.
    pub(super) fn bounds(&self, i: usize, sentence: bool) -> Range<usize> {
        let key = |t: &Tk| if sentence { t.sent } else { t.clause };
        let Some(k) = self.toks.get(i).map(key) else {
            return i..i;
        };
        let mut a = i;
        while a > 0 && key(&self.toks[a - 1]) == k {
            a -= 1;
        }
        let mut b = i;
        while b < self.n() && key(&self.toks[b]) == k {
            b += 1;
        }
        a..b
    }

    /// The bytes of the text that tokens `r` cover, from the first's start to the last's end.
    pub(super) fn byte_span(&self, r: Range<usize>) -> Option<Range<usize>> {
        let (a, b) = (
            self.toks.get(r.start)?,
            self.toks.get(r.end.checked_sub(1)?)?,
        );
        Some(a.span.start..b.span.end)
    }

    /// Do tokens `r` hold the whole byte span `inner` (a date's, say)?
    pub(super) fn holds(&self, r: Range<usize>, inner: &Range<usize>) -> bool {
        self.byte_span(r)
            .is_some_and(|o| o.start <= inner.start && inner.end <= o.end)
    }

    pub(super) fn negated(&self, i: usize) -> bool {
        i > 0 && self.has_f(i - 1, NEG)
            || i > 1
                && self.w(i - 2) == "не"
                && word_list!("ru/not_yet.txt").contains(&self.w(i - 1))
    }
}

pub(super) fn is_number(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())
}

pub(super) fn is_infinitive(w: &str) -> bool {
    w.chars().count() > 3
        && (w.ends_with("ть") || w.ends_with("ти") || w.ends_with("чь") || w.ends_with("ться"))
        // Nouns in "-ость" (доверенность, отчётность, ведомости) and a few others look like verbs.
        && !word_list!("ru/infinitive_lookalike_ends.txt")
            .iter()
            .any(|e| w.ends_with(e))
        // Endings shared with verbs (понимать, висеть, звонить, смотреть, прочесть): whole words only.
        && !word_list!("ru/infinitive_lookalikes.txt").contains(&w)
}

/// Context shared by the rules of one message.
pub(super) struct Ctx<'a, 'b> {
    pub(super) m: &'b Msg<'a>,
    pub(super) input: &'b MessageInput<'a>,
    pub(super) names: &'b NameIndex,
    pub(super) lang: Lang,
    pub(super) due: OnceCell<Option<(Range<usize>, Due)>>,
    /// Tokens before this index are a leading agreement ("да, без проблем"), never content.
    pub(super) lead: Cell<usize>,
    /// Read as already answered with a yes: a bare imperative to no one ("Send them the
    /// quote") asks, as it does not on its own ([`super::answered_request`]).
    pub(super) answered: bool,
}

impl<'a, 'b> Ctx<'a, 'b> {
    /// The context of one message read on its own (no leading yes yet).
    pub(super) fn new(
        m: &'b Msg<'a>,
        input: &'b MessageInput<'a>,
        names: &'b NameIndex,
        answered: bool,
    ) -> Ctx<'a, 'b> {
        Ctx {
            m,
            input,
            names,
            lang: input.lang.unwrap_or_else(|| Lang::detect(input.text)),
            due: OnceCell::new(),
            lead: Cell::new(0),
            answered,
        }
    }

    pub(super) fn deadline(&self) -> Option<&(Range<usize>, Due)> {
        self.due
            .get_or_init(|| {
                let text = self.m.text;
                let now = self.input.now;
                let found =
                    crate::extract::dates::deadline(text, now, self.lang).or_else(|| {
                        // Mixed messages ("деплой сделаю tonight"): the other language may know it.
                        let other = match self.lang {
                            Lang::Ru => Lang::En,
                            Lang::En => Lang::Ru,
                        };
                        let mixed = text.chars().any(|c| c.is_ascii_alphabetic())
                            && text.chars().any(|c| matches!(c, '\u{0400}'..='\u{04FF}'));
                        if mixed {
                            crate::extract::dates::deadline(text, now, other)
                        } else {
                            None
                        }
                    })?;
                self.prefer_marked(found)
            })
            .as_ref()
    }

    /// A bare date mention ("план на декабрь", "the october statements") loses to a later
    /// phrase with a deadline marker ("до конца месяца", "by EOW").
    pub(super) fn prefer_marked(&self, found: (Range<usize>, Due)) -> Option<(Range<usize>, Due)> {
        let m = self.m;
        let retry = |from: usize| {
            let rest = m.text.get(from..)?;
            crate::extract::dates::deadline(rest, self.input.now, self.lang)
                .map(|(span, due)| ((span.start + from)..(span.end + from), due))
        };
        // A match ending inside a word ("в 1" of "в 1С") read a name as a time.
        if let Some(t) = m
            .toks
            .iter()
            .find(|t| t.span.start < found.0.end && found.0.end < t.span.end)
        {
            return retry(t.span.end);
        }
        let marker = |w: &str| word_set!("deadline_markers.txt").contains(w);
        let first_in_span = m.toks.iter().find(|t| t.span.start >= found.0.start);
        // "акты за ноябрь", "план на декабрь", "the october statements": a period the work is
        // about, not a deadline.
        let idx = m.toks.iter().position(|t| t.span.start >= found.0.start);
        let period = |k: usize| {
            word_list!("period_of.txt").contains(&m.w(k))
                && m.has_f(k + 1, MONTH)
                && m.toks.get(k + 1).is_some_and(|t| t.span.end >= found.0.end)
        };
        if let Some(k) = idx
            && (period(k) || (k > 0 && period(k - 1)))
        {
            return retry(found.0.end);
        }
        // "помнишь мы им в июле делали, …, сделаю в сб": a date told in the past is when
        // something happened; a later one is the deadline.
        // "замер сделаю в пятницу с утра": a word that may be a past ("замер") beside the
        // speaker's own future tells nothing past.
        let own_future = |j: usize| {
            m.verb(j)
                .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl))
        };
        if let Some(k) = idx
            && m.bounds(k, false).any(|j| {
                m.verb(j).is_some_and(|v| matches!(v.form, Form::Past))
                    || crate::morph::past_verb(m.w(j))
            })
            && !m.bounds(k, false).any(own_future)
            && let Some(later) = retry(found.0.end)
        {
            return Some(later);
        }
        // "акцию к 23 февраля подготовлю к пт": a date right after a noun, before the verb,
        // names what the thing is for (a promo for the holiday); the date after the verb is
        // when it is done.
        if let Some(k) = idx
            && k > 0
            && word_list!("ru/k.txt").contains(&m.w(k))
            && m.verb(k - 1).is_none()
            && !m.has_f(k - 1, DATE | PREP | STOP | PRON)
            && crate::morph::likely_noun(m.w(k - 1))
            && let Some(later) = retry(found.0.end)
            && let Some(v) = m.toks.iter().position(|t| t.span.start >= found.0.end)
            && m.toks
                .iter()
                .position(|t| t.span.start >= later.0.start)
                .is_some_and(|l| {
                    marker(m.w(l))
                        && l > v
                        && (v..l).any(|j| {
                            m.verb(j)
                                .is_some_and(|x| matches!(x.form, Form::Fut1 | Form::Fut1Pl))
                        })
                        && m.clause_of(l) == m.clause_of(k)
                })
        {
            return Some(later);
        }
        if first_in_span.is_some_and(|t| marker(&t.norm) || t.f & DATE != 0) {
            return Some(found);
        }
        // "с 15 до 17": the end of hours, not a deadline.
        let hours_end = |k: usize| {
            k >= 2 && is_number(m.w(k - 1)) && word_list!("hours_from.txt").contains(&m.w(k - 2))
        };
        // "…done end of next week so you can look it over before it's due on the 7th": a date
        // said of why is not the deadline.
        let purpose_from = || {
            m.toks
                .iter()
                .position(|t| {
                    t.span.start >= found.0.end
                        && word_list!("purpose_lead.txt").contains(&t.norm.as_str())
                })
                .map_or(usize::MAX, |k| m.toks[k].span.start)
        };
        let later_marker = m
            .toks
            .iter()
            .enumerate()
            .any(|(k, t)| t.span.start >= found.0.end && marker(&t.norm) && !hours_end(k))
            && {
                let from = purpose_from();
                m.toks.iter().enumerate().any(|(k, t)| {
                    t.span.start >= found.0.end
                        && t.span.start < from
                        && marker(&t.norm)
                        && !hours_end(k)
                })
            };
        if !later_marker {
            return Some(found);
        }
        retry(found.0.end).or(Some(found))
    }

    pub(super) fn due(&self) -> Option<Due> {
        self.deadline().map(|(_, d)| *d)
    }

    /// A deadline is named: resolved, or at least a weekday / relative day / "15.12" is there
    /// (decisions should not hinge on every phrase the resolver knows).
    pub(super) fn has_date(&self) -> bool {
        self.due().is_some()
            || self.m.toks.iter().enumerate().any(|(i, t)| {
                (t.f & DATE != 0 && !word_list!("date_vague.txt").contains(&t.norm.as_str()))
                    || (t.f & MONTH != 0 && i > 0 && is_number(self.m.w(i - 1)))
                    || (is_number(&t.norm)
                        && i + 1 < self.m.n()
                        && is_number(self.m.w(i + 1))
                        && self.m.text.get(t.span.end..self.m.toks[i + 1].span.start) == Some("."))
            })
    }

    /// The deadline of the sentence `r` (tokens) when the message's own lies outside it and
    /// the sentence names one: "вкладыши заказала, будут в среду. Нурлан, завтра заберёшь?"
    /// asks for tomorrow; "к субботе лёд нужен идеальный. в пятницу вечером сделай две
    /// заливки" for Friday.
    pub(super) fn due_of_sentence(&self, r: Range<usize>) -> Option<Due> {
        let span = self.due_span()?;
        // Only a date said before the sentence ("…будут в среду. Нурлан, завтра заберёшь?")
        // gives way: one after it ("закажи муку… до четверга успеешь?") still asks.
        let before = self
            .m
            .byte_span(r.clone())
            .is_some_and(|b| span.end <= b.start);
        if self.m.holds(r.clone(), span) || !before {
            return self.due();
        }
        let b = self.m.byte_span(r)?;
        let own = self.m.text.get(b)?;
        crate::extract::dates::deadline(own, self.input.now, self.lang)
            .map(|(_, d)| d)
            .or_else(|| self.due())
    }

    pub(super) fn due_span(&self) -> Option<&Range<usize>> {
        self.deadline().map(|(s, _)| s)
    }

    /// A date is said and it is more than "right now" ("щас гляну", "I can send it now" name
    /// no deadline to hold anyone to; `lexicon/*/immediate.txt`).
    pub(super) fn deadline_said(&self) -> bool {
        let now = |t: &str| {
            let t = t.trim().to_lowercase();
            word_list!("ru/immediate.txt").contains(&t.as_str())
                || word_list!("en/immediate.txt").contains(&t.as_str())
        };
        self.due_span()
            .is_some_and(|s| self.m.text.get(s.clone()).is_some_and(|t| !now(t)))
    }

    pub(super) fn words(&self) -> Vec<String> {
        stems_of(self.m)
    }
}
