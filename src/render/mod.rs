//! Message formatting shared by answers, jobs and digests: splitting long HTML at Telegram's limits.
//!
//! Telegram refuses a message text over 4,096 characters and a caption over 1,024 ("message is
//! too long"). Every send goes through [`split`]: it cuts at paragraph, then line, then word
//! boundaries, never inside a tag or an entity, and closes the tags still open at a cut and opens
//! them again at the start of the next part, so each part is valid HTML on its own.

pub mod format;
pub mod names;

/// Telegram's limit for a message text.
pub const MESSAGE_LIMIT: usize = 4096;
/// Telegram's limit for a photo caption.
pub const CAPTION_LIMIT: usize = 1024;

/// The length the splitter keeps under the limit: UTF-16 code units of the raw HTML, tags and
/// entities included. Telegram counts the parsed text, which is never longer, so a part that
/// passes here always passes there.
pub fn telegram_len(s: &str) -> usize {
    s.encode_utf16().count()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Char(char),
    Entity,
    Open,
    Close,
}

#[derive(Debug, Clone, Copy)]
struct Atom {
    start: usize,
    end: usize,
    len: usize,
    kind: Kind,
}

/// Cuts HTML into atoms: whole tags, whole entities and single characters.
fn atoms(s: &str) -> Vec<Atom> {
    let mut out = Vec::with_capacity(s.len());
    let mut it = s.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let rest = &s[i..];
        let span = match c {
            // Only a tag of Telegram's HTML is one: kept's own text is escaped, so a stray '<' in
            // foreign text stays a character instead of swallowing what follows.
            '<' => tag_len(rest),
            '&' => rest
                .char_indices()
                .take(12)
                .skip(1)
                .find(|&(_, ch)| !(ch.is_ascii_alphanumeric() || ch == '#'))
                .filter(|&(_, ch)| ch == ';')
                .map(|(e, _)| (e + 1, Kind::Entity)),
            _ => None,
        };
        match span {
            Some((n, kind)) if n > 1 => {
                let end = i + n;
                while it.peek().is_some_and(|&(j, _)| j < end) {
                    it.next();
                }
                out.push(Atom {
                    start: i,
                    end,
                    len: telegram_len(&s[i..end]),
                    kind,
                });
            }
            _ => out.push(Atom {
                start: i,
                end: i + c.len_utf8(),
                len: c.len_utf16(),
                kind: Kind::Char(c),
            }),
        }
    }
    out
}

/// The tags Telegram's HTML parse mode knows.
const TAGS: &[&str] = &[
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "a",
    "code",
    "pre",
    "span",
    "tg-spoiler",
    "tg-emoji",
    "blockquote",
];

/// The byte length and kind of the tag `rest` starts with, if it starts with one.
fn tag_len(rest: &str) -> Option<(usize, Kind)> {
    let body = rest.strip_prefix('<')?;
    let (kind, body) = match body.strip_prefix('/') {
        Some(b) => (Kind::Close, b),
        None => (Kind::Open, body),
    };
    let name_len = body
        .bytes()
        .take_while(|b| b.is_ascii_lowercase() || *b == b'-')
        .count();
    if !TAGS.contains(&&body[..name_len]) {
        return None;
    }
    let after = &body.as_bytes()[name_len..];
    if !matches!(after.first(), Some(b'>' | b' ')) {
        return None;
    }
    let end = after
        .iter()
        .take(512)
        .position(|b| matches!(b, b'>' | b'<' | b'\n'))
        .filter(|&e| after[e] == b'>')?;
    let total = rest.len() - body.len() + name_len + end + 1;
    Some((total, kind))
}

/// The element name of an opening or closing tag: `<a href="…">` → `a`, `</b>` → `b`.
fn tag_name(tag: &str) -> &str {
    let inner = tag.trim_start_matches('<').trim_start_matches('/');
    let end = inner
        .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
        .unwrap_or(inner.len());
    &inner[..end]
}

/// Open elements at a point: (name, the opening tag as written).
type Stack<'a> = Vec<(&'a str, &'a str)>;

fn closers_len(stack: &Stack<'_>) -> usize {
    stack.iter().map(|(name, _)| name.len() + 3).sum()
}

fn closers(stack: &Stack<'_>) -> String {
    stack
        .iter()
        .rev()
        .map(|(name, _)| format!("</{name}>"))
        .collect()
}

fn apply<'a>(stack: &mut Stack<'a>, s: &'a str, a: &Atom) {
    match a.kind {
        Kind::Open => {
            let tag = &s[a.start..a.end];
            stack.push((tag_name(tag), tag));
        }
        Kind::Close => {
            let name = tag_name(&s[a.start..a.end]);
            if let Some(pos) = stack.iter().rposition(|(n, _)| *n == name) {
                stack.truncate(pos);
            }
        }
        _ => {}
    }
}

/// How good a cut before atom `j` is: 3 after a blank line, 2 after a line end, 1 after a
/// space, 0 anywhere else between atoms.
fn priority(atoms: &[Atom], j: usize) -> usize {
    let prev = |k: usize| match atoms.get(k).map(|a| a.kind) {
        Some(Kind::Char(c)) => Some(c),
        _ => None,
    };
    match j.checked_sub(1).and_then(prev) {
        Some('\n') if j >= 2 && prev(j - 2) == Some('\n') => 3,
        Some('\n') => 2,
        Some(c) if c.is_whitespace() => 1,
        _ => 0,
    }
}

fn is_space(a: &Atom) -> bool {
    matches!(a.kind, Kind::Char(c) if c.is_whitespace())
}

/// Splits HTML into parts of at most `limit` (as [`telegram_len`] counts), the first part at
/// most `first_limit` (a photo's caption). Text that fits comes back as one part, unchanged.
pub fn split_with(html: &str, first_limit: usize, limit: usize) -> Vec<String> {
    // Room for at least a few characters and the closing tags of a deep nesting.
    let first_limit = first_limit.max(64);
    let limit = limit.max(64);
    if telegram_len(html) <= first_limit {
        return vec![html.to_string()];
    }
    let atoms = atoms(html);
    let mut parts = Vec::new();
    let mut reopen: Stack<'_> = Vec::new();
    let mut i = 0;
    while i < atoms.len() {
        let cap = if parts.is_empty() { first_limit } else { limit };
        let prefix: String = reopen.iter().map(|(_, tag)| *tag).collect();
        let mut len = telegram_len(&prefix);
        let mut stack = reopen.clone();
        // The last feasible cut of each priority: (atom index, open elements there, length).
        let mut best: [Option<(usize, Stack<'_>, usize)>; 4] = [None, None, None, None];
        let mut j = i;
        while j < atoms.len() {
            if j > i && len + closers_len(&stack) <= cap {
                best[priority(&atoms, j)] = Some((j, stack.clone(), len));
            }
            if len + atoms[j].len > cap {
                break;
            }
            len += atoms[j].len;
            apply(&mut stack, html, &atoms[j]);
            j += 1;
        }
        if j == atoms.len() && len + closers_len(&stack) <= cap {
            let part = format!("{prefix}{}", &html[atoms[i].start..]);
            if has_text(&part) {
                parts.push(part);
            }
            break;
        }
        // A good boundary that keeps the part from being tiny; else the best there is.
        let chosen = (1..=3)
            .rev()
            .find_map(|p| best[p].clone().filter(|(_, _, l)| *l >= cap / 3))
            .or_else(|| best.iter().rev().find_map(|b| b.clone()));
        let (cut, open_at_cut) = match chosen {
            Some((cut, st, _)) => (cut, st),
            None => {
                // Nothing fits (a single tag longer than the limit): take one atom as it is.
                let mut st = reopen.clone();
                apply(&mut st, html, &atoms[i]);
                (i + 1, st)
            }
        };
        let body = html[atoms[i].start..atoms[cut - 1].end].trim_end();
        let part = format!("{prefix}{body}{}", closers(&open_at_cut));
        if has_text(&part) {
            parts.push(part);
        }
        reopen = open_at_cut;
        i = cut;
        while i < atoms.len() && is_space(&atoms[i]) {
            i += 1;
        }
    }
    if parts.is_empty() {
        parts.push(html.to_string());
    }
    parts
}

/// HTML as a terminal shows it: tags dropped (bold stays plain text), a link as "text (url)"
/// (a mention as the name alone), entities decoded.
pub fn plain(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut link: Option<(String, usize)> = None;
    for a in atoms(html) {
        let raw = &html[a.start..a.end];
        match a.kind {
            Kind::Char(c) => out.push(c),
            Kind::Entity => out.push_str(&visible(raw)),
            Kind::Open if tag_name(raw) == "a" => {
                let href = raw
                    .split_once("href=\"")
                    .and_then(|(_, rest)| rest.split_once('"'))
                    .map(|(url, _)| visible(url))
                    .unwrap_or_default();
                link = Some((href, out.len()));
            }
            Kind::Close if tag_name(raw) == "a" => {
                if let Some((href, at)) = link.take()
                    && !href.is_empty()
                    && !href.starts_with("tg://")
                {
                    if out[at..].trim() == "↗" {
                        out.truncate(at);
                        out.push_str(&href);
                    } else {
                        out.push_str(&format!(" ({href})"));
                    }
                }
            }
            Kind::Open | Kind::Close => {}
        }
    }
    out
}

/// A sentence that opens a message starts with a capital ("срок сегодня…" after a mention in a
/// group, "Срок сегодня…" on its own).
pub fn capitalized(s: &str) -> String {
    let mut cs = s.chars();
    match cs.next() {
        Some(c) if c.is_lowercase() => c.to_uppercase().chain(cs).collect(),
        _ => s.to_string(),
    }
}

/// Telegram's limit for the notice a button press answers with (`answerCallbackQuery`).
pub const NOTICE_LIMIT: usize = 200;

/// Plain text cut to `limit` characters at a word boundary, with an ellipsis when cut.
pub fn truncate(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let keep = limit.saturating_sub(1);
    let head: String = text.chars().take(keep).collect();
    let cut = match head.rfind(char::is_whitespace) {
        Some(i) if i > head.len() / 2 => &head[..i],
        _ => &head[..],
    };
    format!("{}…", cut.trim_end())
}

/// Splits a message text at Telegram's message limit.
pub fn split(html: &str) -> Vec<String> {
    split_with(html, MESSAGE_LIMIT, MESSAGE_LIMIT)
}

/// Whether a part shows anything once its tags are gone.
fn has_text(part: &str) -> bool {
    atoms(part)
        .iter()
        .any(|a| a.kind == Kind::Entity || matches!(a.kind, Kind::Char(c) if !c.is_whitespace()))
}

/// The text a reader sees: tags dropped, the entities kept's HTML uses decoded.
pub fn visible(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    for a in atoms(html) {
        match a.kind {
            Kind::Char(c) => out.push(c),
            Kind::Entity => out.push_str(match &html[a.start..a.end] {
                "&lt;" => "<",
                "&gt;" => ">",
                "&amp;" => "&",
                "&quot;" => "\"",
                other => other,
            }),
            Kind::Open | Kind::Close => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Each part's tags balance: every opened element is closed within the part.
    fn balanced(part: &str) -> bool {
        let mut stack = Vec::new();
        for a in atoms(part) {
            match a.kind {
                Kind::Open => stack.push(tag_name(&part[a.start..a.end]).to_string()),
                Kind::Close if stack.pop().as_deref() != Some(tag_name(&part[a.start..a.end])) => {
                    return false;
                }
                _ => {}
            }
        }
        stack.is_empty()
    }

    fn words(s: &str) -> Vec<String> {
        visible(s).split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn short_text_is_one_part_unchanged() {
        assert_eq!(split("<b>Итоги</b>\n\nвсё"), vec!["<b>Итоги</b>\n\nвсё"]);
    }

    #[test]
    fn long_text_splits_at_paragraphs_first() {
        let para = "строка текста ".repeat(40);
        let text: Vec<String> = (0..20).map(|i| format!("{i}. {para}")).collect();
        let html = text.join("\n\n");
        let parts = split(&html);
        assert!(parts.len() > 1);
        for p in &parts {
            assert!(telegram_len(p) <= MESSAGE_LIMIT);
            // Every part starts with a paragraph's number: no paragraph was cut.
            assert!(p.chars().next().unwrap().is_ascii_digit(), "{p:.40}");
        }
        assert_eq!(words(&parts.join(" ")), words(&html));
    }

    #[test]
    fn open_tags_are_closed_and_reopened_across_a_cut() {
        let html = format!("<b>{}</b> конец", "жирный текст\n".repeat(600));
        let parts = split(&html);
        assert!(parts.len() >= 2);
        for p in &parts {
            assert!(balanced(p), "unbalanced: {p:.60}…");
            assert!(telegram_len(p) <= MESSAGE_LIMIT);
        }
        assert!(parts[1].starts_with("<b>"));
        assert_eq!(words(&parts.join(" ")), words(&html));
    }

    #[test]
    fn never_cuts_inside_a_link_tag_or_entity() {
        let item = "<a href=\"https://t.me/c/1234/5678\">источник</a> &amp; &lt;дальше&gt;";
        let html = vec![item; 400].join("");
        let parts = split(&html);
        assert!(parts.len() > 1);
        for p in &parts {
            assert!(balanced(p));
            assert!(telegram_len(p) <= MESSAGE_LIMIT);
            // No entity broken at an edge.
            assert!(!p.ends_with('&') && !p.starts_with(';'));
        }
        assert_eq!(words(&parts.join(" ")), words(&html));
    }

    #[test]
    fn a_caption_part_keeps_the_caption_limit() {
        let html = "слово ".repeat(1000);
        let parts = split_with(&html, CAPTION_LIMIT, MESSAGE_LIMIT);
        assert!(telegram_len(&parts[0]) <= CAPTION_LIMIT);
        assert!(parts[1..].iter().all(|p| telegram_len(p) <= MESSAGE_LIMIT));
    }

    #[test]
    fn html_reads_as_plain_text_in_a_terminal() {
        assert_eq!(
            plain(
                "<b>Итоги</b> &amp; <a href=\"tg://user?id=2\">Дима</a>: отчёт <a href=\"https://t.me/c/1/5\">↗</a>"
            ),
            "Итоги & Дима: отчёт https://t.me/c/1/5"
        );
        assert_eq!(
            plain("см. <a href=\"https://example.com/a?b=1&amp;c=2\">тут</a>"),
            "см. тут (https://example.com/a?b=1&c=2)"
        );
        assert_eq!(plain("a < b"), "a < b");
    }

    #[test]
    fn an_opening_gets_its_capital() {
        assert_eq!(capitalized("срок сегодня"), "Срок сегодня");
        assert_eq!(capitalized("due today"), "Due today");
        assert_eq!(capitalized("<b>x</b>"), "<b>x</b>");
        assert_eq!(capitalized(""), "");
    }

    #[test]
    fn a_notice_is_cut_at_a_word_within_the_limit() {
        assert_eq!(truncate("коротко", 200), "коротко");
        let long = "очень длинное обещание ".repeat(20);
        let cut = truncate(&long, NOTICE_LIMIT);
        assert!(cut.chars().count() <= NOTICE_LIMIT);
        assert!(cut.ends_with("обещание…") || cut.ends_with("длинное…") || cut.ends_with("очень…"));
    }

    #[test]
    fn astral_characters_count_twice() {
        let html = "😀".repeat(3000);
        let parts = split(&html);
        assert_eq!(parts.len(), 2);
        assert!(parts.iter().all(|p| telegram_len(p) <= MESSAGE_LIMIT));
        assert_eq!(parts.concat(), html);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn any_text_splits_into_parts_within_the_limits(
            raw in proptest::collection::vec(
                prop_oneof![
                    "[а-яa-z ]{1,30}",
                    Just("\n".to_string()),
                    Just("\n\n".to_string()),
                    // kept's own HTML: shallow, balanced elements.
                    "<b>[а-я ]{1,20}</b>",
                    "<a href=\"https://t.me/c/1/2\">[a-z \n]{1,10}</a>",
                    "<b><i>[а-я\n ]{1,300}</i></b>",
                    Just("&amp;".to_string()),
                    "\\PC{0,5}",
                ],
                0..600,
            ),
            first in 64usize..1100,
            rest in 64usize..4200,
        ) {
            let html = raw.concat();
            let parts = split_with(&html, first, rest);
            prop_assert!(!parts.is_empty());
            if telegram_len(&html) > first {
                for (k, p) in parts.iter().enumerate() {
                    let cap = if k == 0 { first } else { rest };
                    prop_assert!(telegram_len(p) <= cap, "part {} is {} > {}", k, telegram_len(p), cap);
                }
            }
        }
    }
}
