//! The grammar: expressions built from atoms (dates, weekdays, clock times, parts of day,
//! periods, offsets) over the token stream, and their resolution against the reference time.
//!
//! One frame collects atoms that describe one moment ("пятница, 18 июля 2014 7 часов вечера");
//! top-level forms add ranges, open intervals ("до", "after"), offsets and "next N units".

use chrono::{
    DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike,
};
use chrono_tz::Tz;

use super::lex::{Kw, Lex, Lexed, Part, Unit};
use super::{Due, Grain, Kind, TimeValue, fix_wall};

/// A resolved expression with its deadline reading.
#[derive(Debug, Clone)]
pub(super) struct Out {
    pub val: TimeValue,
    pub due: Option<Due>,
    /// Introduced by a deadline word (до, к, by, until, на, через, in...).
    pub strong: bool,
}

impl Out {
    /// An open interval from `start` ("after 5pm", "после обеда"): no deadline of its own.
    fn after(start: Option<NaiveDateTime>, grain: Grain) -> Out {
        Out {
            val: TimeValue {
                kind: Kind::After,
                start,
                end: None,
                grain,
            },
            due: None,
            strong: false,
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Clock {
    h: u32,
    m: u32,
    s: u32,
    g: Option<Grain>,
    amb: bool,
    pm: Option<bool>,
    midnight: bool,
}

#[derive(Debug, Clone, Copy, Default)]
struct Frame {
    y: Option<i32>,
    m: Option<u32>,
    d: Option<u32>,
    wd: Option<u32>,
    wk: Option<i32>,
    nth: u32,
    rel: Option<i64>,
    per: Option<(Unit, i64)>,
    q: Option<u32>,
    clock: Option<Clock>,
    weak: bool,
    part: Option<Part>,
    tz: Option<i32>,
    abs: Option<(NaiveDateTime, Grain)>,
    weekend: Option<i64>,
    season: Option<(u32, i64)>,
    n: u32,
}

impl Frame {
    fn has_date(&self) -> bool {
        self.y.is_some()
            || self.m.is_some()
            || self.d.is_some()
            || self.wd.is_some()
            || self.rel.is_some()
            || self.per.is_some()
            || self.q.is_some()
            || self.abs.is_some()
            || self.weekend.is_some()
            || self.season.is_some()
    }

    /// Merge `o` into `self`; `false` (and `self` unchanged) when they say different things.
    fn merge(&mut self, o: &Frame) -> bool {
        let mut r = *self;
        macro_rules! take {
            ($f:ident) => {
                if o.$f.is_some() {
                    if r.$f.is_some() {
                        return false;
                    }
                    r.$f = o.$f;
                }
            };
        }
        take!(y);
        take!(m);
        take!(d);
        take!(wd);
        take!(wk);
        take!(rel);
        take!(q);
        take!(clock);
        take!(part);
        take!(tz);
        take!(abs);
        take!(weekend);
        take!(season);
        if let Some(p) = o.per {
            match r.per {
                Some(_) => return false,
                None => r.per = Some(p),
            }
        }
        // a day named twice ("завтра" + "в пятницу") is a different statement
        let dayish = |f: &Frame| {
            f.rel.is_some() as u32
                + f.wd.is_some() as u32
                + f.d.is_some() as u32
                + f.abs.is_some() as u32
                + f.weekend.is_some() as u32
        };
        if dayish(&r) > 1 && !(r.wd.is_some() && r.d.is_some() && dayish(&r) == 2) {
            return false;
        }
        // a month without a day next to "завтра" is the topic, not the day: "выписки за
        // ноябрь завтра"
        if r.m.is_some() && r.d.is_none() && (r.rel.is_some() || r.abs.is_some()) {
            return false;
        }
        r.nth += o.nth;
        r.weak = (r.weak && o.clock.is_none()) || (o.weak && self.clock.is_none());
        r.n = self.n + o.n;
        *self = r;
        true
    }
}

/// Does a place write the day before the month in numeric dates ("5/6" = 5 June)? North
/// America, the Philippines and zones with no place (`UTC`, `Etc/…`) write the month first.
fn day_first_zone(tz: &str) -> bool {
    !(tz.starts_with("America/")
        || tz.starts_with("US/")
        || tz.starts_with("Canada/")
        || tz.starts_with("Etc/")
        || matches!(
            tz,
            "UTC"
                | "GMT"
                | "Pacific/Honolulu"
                | "Asia/Manila"
                | "EST5EDT"
                | "CST6CDT"
                | "MST7MDT"
                | "PST8PDT"
        ))
}

#[derive(Debug, Clone, Copy)]
enum Side {
    F(Frame),
    Bare(u32),
}

pub(super) struct P<'a> {
    pub l: &'a Lexed,
    pub now: DateTime<Tz>,
    pub nl: NaiveDateTime,
    pub today: NaiveDate,
    pub strict: bool,
}

fn unit_grain(u: Unit) -> Grain {
    match u {
        Unit::Second => Grain::Second,
        Unit::Minute => Grain::Minute,
        Unit::Hour => Grain::Hour,
        Unit::Day => Grain::Day,
        Unit::Week | Unit::Fortnight => Grain::Week,
        Unit::Month => Grain::Month,
        Unit::Quarter => Grain::Quarter,
        Unit::Year => Grain::Year,
    }
}

/// Units from the finest (0) to the coarsest, for compound durations of falling units.
fn unit_rank(u: Unit) -> u8 {
    match u {
        Unit::Second => 0,
        Unit::Minute => 1,
        Unit::Hour => 2,
        Unit::Day => 3,
        Unit::Week | Unit::Fortnight => 4,
        Unit::Month => 5,
        Unit::Quarter => 6,
        Unit::Year => 7,
    }
}

fn add_months(d: NaiveDateTime, k: i64) -> Option<NaiveDateTime> {
    let total = i64::from(d.year()) * 12 + i64::from(d.month0()) + k;
    let y = i32::try_from(total.div_euclid(12)).ok()?;
    let m = total.rem_euclid(12) as u32 + 1;
    let mut day = d.day();
    loop {
        if let Some(nd) = NaiveDate::from_ymd_opt(y, m, day) {
            return Some(nd.and_time(d.time()));
        }
        if day <= 28 {
            return None;
        }
        day -= 1;
    }
}

fn monday(d: NaiveDate) -> NaiveDate {
    d - Duration::days(i64::from(d.weekday().num_days_from_monday()))
}

fn midnight(d: NaiveDate) -> NaiveDateTime {
    d.and_time(NaiveTime::MIN)
}

fn ymd(y: i32, m: u32, d: u32) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(y, m, d)
}

fn last_of_month(y: i32, m: u32) -> Option<NaiveDate> {
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    ymd(ny, nm, 1).map(|d| d - Duration::days(1))
}

/// Start of the unit containing `t`.
fn trunc(t: NaiveDateTime, u: Unit) -> NaiveDateTime {
    let d = t.date();
    match u {
        Unit::Second => t.with_nanosecond(0).unwrap_or(t),
        Unit::Minute => d.and_hms_opt(t.hour(), t.minute(), 0).unwrap_or(t),
        Unit::Hour => d.and_hms_opt(t.hour(), 0, 0).unwrap_or(t),
        Unit::Day => midnight(d),
        Unit::Week | Unit::Fortnight => midnight(monday(d)),
        Unit::Month => ymd(d.year(), d.month(), 1).map(midnight).unwrap_or(t),
        Unit::Quarter => ymd(d.year(), (d.month0() / 3) * 3 + 1, 1)
            .map(midnight)
            .unwrap_or(t),
        Unit::Year => ymd(d.year(), 1, 1).map(midnight).unwrap_or(t),
    }
}

/// Calendar arithmetic on wall-clock time.
fn shift(t: NaiveDateTime, u: Unit, k: i64) -> Option<NaiveDateTime> {
    match u {
        Unit::Second => t.checked_add_signed(Duration::try_seconds(k)?),
        Unit::Minute => t.checked_add_signed(Duration::try_minutes(k)?),
        Unit::Hour => t.checked_add_signed(Duration::try_hours(k)?),
        Unit::Day => t.checked_add_signed(Duration::try_days(k)?),
        Unit::Week => t.checked_add_signed(Duration::try_weeks(k)?),
        Unit::Fortnight => t.checked_add_signed(Duration::try_weeks(k.checked_mul(2)?)?),
        Unit::Month => add_months(t, k),
        Unit::Quarter => add_months(t, k.checked_mul(3)?),
        Unit::Year => add_months(t, k.checked_mul(12)?),
    }
}

fn ru_day_suffix(s: &str) -> bool {
    matches!(
        s,
        "го" | "е"
            | "ое"
            | "ого"
            | "его"
            | "ее"
            | "й"
            | "ый"
            | "ий"
            | "му"
            | "ому"
            | "ему"
            | "ье"
            | "ья"
            | "ой"
            | "м"
    )
}

impl<'a> P<'a> {
    pub fn n(&self) -> usize {
        self.l.toks.len()
    }
    fn lx(&self, i: usize) -> Lex {
        self.l.toks.get(i).map_or(Lex::End, |t| t.lex)
    }
    fn kw(&self, i: usize, k: Kw) -> bool {
        self.lx(i) == Lex::Kw(k)
    }
    fn sym(&self, i: usize, c: char) -> bool {
        self.lx(i) == Lex::Sym(c)
    }
    /// Token `i` exists and is glued to the previous one.
    fn adj(&self, i: usize) -> bool {
        self.l.toks.get(i).is_some_and(|t| !t.sp)
    }
    fn w(&self, i: usize) -> &str {
        self.l.norm(i)
    }
    fn num(&self, i: usize) -> Option<(u32, u8)> {
        match self.lx(i) {
            Lex::Num(v, d) => Some((v, d)),
            _ => None,
        }
    }
    fn unit(&self, i: usize) -> Option<Unit> {
        match self.lx(i) {
            Lex::Unit(u) => Some(u),
            Lex::Word if self.w(i) == "дни" => Some(Unit::Day),
            Lex::Kw(Kw::Hours) => Some(Unit::Hour),
            Lex::Ord(2) if self.w(i) == "second" => Some(Unit::Second),
            _ => None,
        }
    }
    fn skip(&self, mut i: usize, ks: &[Kw]) -> usize {
        while let Lex::Kw(k) = self.lx(i) {
            if ks.contains(&k) {
                i += 1;
            } else {
                break;
            }
        }
        i
    }
    /// An acronym edge at `k` used as a noun in running text: "lock the BOM", "the EOD
    /// report". "BOM"/"BOY" are dates there only right after by/until/before ("by BOM",
    /// "до BOM"); "EOD"/"EOW"/"EOM"/"EOY" are, unless a determiner makes them a noun.
    fn acronym_noun(&self, k: usize) -> bool {
        if !self.strict {
            return false;
        }
        let prev = if k > 0 { self.lx(k - 1) } else { Lex::End };
        match self.lx(k) {
            Lex::Kw(Kw::Bom | Kw::Boy) => !matches!(prev, Lex::Kw(Kw::By | Kw::Until | Kw::Before)),
            Lex::Kw(Kw::Eod | Kw::Eow | Kw::Eom | Kw::Eoy) => {
                k > 0
                    && is_determiner(self.w(k - 1))
                    && !(k > 1
                        && matches!(
                            self.lx(k - 2),
                            Lex::Kw(Kw::By | Kw::Until | Kw::Before | Kw::At)
                        ))
            }
            _ => false,
        }
    }

    /// "НГ", "новый год", "нового года", "New Year('s)": the coming January 1st (or
    /// December 31st for "New Year's Eve"), and the token after.
    fn new_year(&self, i: usize) -> Option<(NaiveDate, usize)> {
        let jan1 = ymd(self.today.year() + 1, 1, 1)?;
        if self.kw(i, Kw::NewYear) {
            // "НГ-пакет", "НГ-меню": the first half of a compound names a thing
            if self.sym(i + 1, '-') && self.adj(i + 1) && self.adj(i + 2) {
                return None;
            }
            return Some((jan1, i + 1));
        }
        let w = self.w(i);
        let ru = w
            .strip_prefix("нов")
            .is_some_and(|r| matches!(r, "ый" | "ого" | "ому" | "ым" | "ом"))
            && self.lx(i + 1) == Lex::Unit(Unit::Year);
        let en = w == "new"
            && matches!(self.w(i + 1), "year" | "year's" | "years")
            && !(i > 0
                && matches!(
                    self.w(i - 1),
                    "chinese" | "lunar" | "islamic" | "jewish" | "parsi" | "persian"
                ));
        if !ru && !en {
            return None;
        }
        let e = i + 2;
        if en && self.w(e) == "eve" {
            return Some((jan1 - Duration::days(1), e + 1));
        }
        if en && self.lx(e) == Lex::Unit(Unit::Day) {
            return Some((jan1, e + 1));
        }
        Some((jan1, e))
    }

    /// After a number ends at `j`: is it really part of a longer token chain
    /// (phone number, version, id, amount)?
    fn glued_tail(&self, j: usize) -> bool {
        if !self.adj(j) {
            return false;
        }
        match self.lx(j) {
            Lex::Num(..) => true,
            Lex::Sym(c) => {
                matches!(c, '%' | '₽' | '$' | '€' | '£' | '_')
                    || (matches!(c, '.' | '-' | '/' | ':' | ',')
                        && self.adj(j + 1)
                        && matches!(self.lx(j + 1), Lex::Num(..)))
            }
            Lex::Word => true,
            _ => false,
        }
    }

    // ---------- numbers ----------

    /// A cardinal in words, with compounds ("двадцать четыре", "twenty-three").
    fn card(&self, i: usize) -> Option<(u32, usize)> {
        if let Lex::Card(t) = self.lx(i) {
            if matches!(t, 20 | 30 | 40 | 50) {
                let k = if self.sym(i + 1, '-') { i + 2 } else { i + 1 };
                if let Lex::Card(u) = self.lx(k)
                    && (1..=9).contains(&u)
                {
                    return Some((t + u, k + 1));
                }
            }
            return Some((t, i + 1));
        }
        None
    }

    /// Day of month said as an ordinal: "15th", "18-го", "восемнадцатое", "twenty-first".
    fn ord_day(&self, i: usize) -> Option<(u32, usize)> {
        let r = match self.lx(i) {
            Lex::Num(v, nd) if nd <= 2 => {
                if self.adj(i + 1) && matches!(self.w(i + 1), "st" | "nd" | "rd" | "th") {
                    Some((v, i + 2))
                } else if (self.sym(i + 1, '-') && self.adj(i + 1) && self.adj(i + 2))
                    && ru_day_suffix(self.w(i + 2))
                {
                    Some((v, i + 3))
                } else {
                    None
                }
            }
            Lex::Ord(v) => Some((v, i + 1)),
            Lex::Card(t) if matches!(t, 20 | 30) => {
                let k = if self.sym(i + 1, '-') { i + 2 } else { i + 1 };
                match self.lx(k) {
                    Lex::Ord(u) if (1..=9).contains(&u) => Some((t + u, k + 1)),
                    _ => None,
                }
            }
            _ => None,
        };
        r.filter(|&(v, _)| (1..=31).contains(&v))
    }

    /// A day of month: ordinal or plain 1–2 digit number.
    fn day_num(&self, i: usize) -> Option<(u32, usize, bool)> {
        if let Some((d, j)) = self.ord_day(i) {
            return Some((d, j, true));
        }
        match self.lx(i) {
            Lex::Num(v, nd) if nd <= 2 && (1..=31).contains(&v) => Some((v, i + 1, false)),
            _ => None,
        }
    }

    /// A two-digit year in the century that puts it at most 20 years ahead of now and less
    /// than 80 behind: in 2013 "97" is 1997, "30" is 2030, "13" is 2013.
    fn two_digit_year(&self, v: u32) -> i32 {
        let now = self.today.year();
        let mut y = now - now.rem_euclid(100) + v as i32;
        if y > now + 20 {
            y -= 100;
        } else if y <= now - 80 {
            y += 100;
        }
        y
    }

    /// A year after a date: four digits, or two where nothing clock-like follows.
    fn year_after(&self, i: usize, allow2: bool) -> Option<(i32, usize)> {
        let (v, nd) = self.num(i)?;
        let y = match nd {
            4 if (1000..=2999).contains(&v) => v as i32,
            2 if allow2 => {
                if self.sym(i + 1, ':') || self.sym(i + 1, '.') || self.glued_tail(i + 1) {
                    return None;
                }
                if matches!(
                    self.lx(i + 1),
                    Lex::Kw(Kw::Hours | Kw::Am | Kw::Pm | Kw::Oclock)
                ) || matches!(self.lx(i + 1), Lex::Unit(_))
                    || self.w(i + 1) == "o" && self.w(i + 2).starts_with("clock")
                {
                    return None;
                }
                self.two_digit_year(v)
            }
            _ => return None,
        };
        if self.glued_tail(i + 1) && !self.sym(i + 1, ',') && !self.sym(i + 1, '.') {
            return None;
        }
        let mut j = i + 1;
        if self.lx(j) == Lex::Unit(Unit::Year) {
            j += 1;
            if self.sym(j, '.') {
                j += 1;
            }
        }
        Some((y, j))
    }

    // ---------- atoms ----------

    fn atom(&self, i: usize, pref: bool) -> Option<(Frame, usize)> {
        let f = Frame {
            n: 1,
            ..Frame::default()
        };
        if let Some((mut g, j)) = self.offset_atom(i) {
            g.n = 1;
            return Some((g, j));
        }
        if let Some((mut g, j)) = self.date_atom(i, pref) {
            g.n = 1;
            return Some((g, j));
        }
        let clk = self.clock(i, pref);
        if clk.is_some_and(|c| c.2)
            && let Some((mut g, j)) = self.word_atom(i)
        {
            g.n = 1;
            return Some((g, j));
        }
        if let Some((c, j, weak)) = clk {
            return Some((
                Frame {
                    clock: Some(c),
                    weak,
                    ..f
                },
                j,
            ));
        }
        if let Some((mut g, j)) = self.word_atom(i) {
            g.n = 1;
            return Some((g, j));
        }
        None
    }

    fn date_atom(&self, i: usize, pref: bool) -> Option<(Frame, usize)> {
        let f = Frame::default();
        // numeric forms
        if let Some(r) = self.numeric_date(i) {
            return Some(r);
        }
        let i0 = if self.kw(i, Kw::The) { i + 1 } else { i };
        // day [of] month [year]
        if let Some((d, j, _)) = self.day_num(i0) {
            let mut k = j;
            if self.kw(k, Kw::Of) {
                k += 1;
            }
            // "12/March/2013", "12-марта-2013", "8/Oct/2012": words between slashes or dashes
            let sep = [('/'), ('-')]
                .into_iter()
                .find(|&c| self.sym(k, c) && self.adj(k) && self.adj(k + 1));
            if let Some(c) = sep
                && let Lex::Month(m) = self.lx(k + 1)
            {
                let mut g = Frame {
                    d: Some(d),
                    m: Some(m),
                    ..f
                };
                let mut e = k + 2;
                if self.sym(e, c)
                    && self.adj(e)
                    && self.adj(e + 1)
                    && let Some((y, e2)) = self.year_after(e + 1, true)
                {
                    g.y = Some(y);
                    e = e2;
                }
                return Some((g, e));
            }
            if let Lex::Month(m) = self.lx(k) {
                let mut e = k + 1;
                if self.sym(e, '.') && self.adj(e) {
                    e += 1;
                }
                let mut g = Frame {
                    d: Some(d),
                    m: Some(m),
                    ..f
                };
                if self.sym(e, ',') && self.num(e + 1).is_some_and(|(_, nd)| nd == 4) {
                    e += 1;
                }
                if let Some((y, e2)) = self.year_after(e, true) {
                    g.y = Some(y);
                    e = e2;
                }
                return Some((g, e));
            }
        }
        // month [the] day [year] | month [year]
        if let Lex::Month(m) = self.lx(i) {
            let mut k = i + 1;
            if self.sym(k, '.') && self.adj(k) {
                k += 1;
            }
            let k2 = if self.kw(k, Kw::The) { k + 1 } else { k };
            if let Some((d, mut e, _)) = self.day_num(k2)
                && !self.sym(e, ':')
                && !matches!(
                    self.lx(e),
                    Lex::Unit(_) | Lex::Kw(Kw::Am | Kw::Pm | Kw::Hours)
                )
                && (self.num(k2).is_none()
                    || !self.glued_tail(e)
                    || self.sym(e, ',')
                    || self.sym(e, '-'))
            {
                let mut g = Frame {
                    d: Some(d),
                    m: Some(m),
                    ..f
                };
                // "Mar 3, 97", "Aug 9 96": a two-digit year after the day
                // (without a comma only when it cannot be a clock hour: "March 3 10 o clock")
                let comma = self.sym(e, ',');
                if comma && self.num(e + 1).is_some_and(|(_, nd)| nd == 4 || nd == 2) {
                    e += 1;
                }
                let two_ok = comma || self.num(e).is_some_and(|(v, _)| v > 24);
                if let Some((y, e2)) = self.year_after(e, two_ok) {
                    g.y = Some(y);
                    e = e2;
                }
                return Some((g, e));
            }
            let mut g = Frame { m: Some(m), ..f };
            let mut e = k;
            if self.kw(e, Kw::Of) && self.num(e + 1).is_some() {
                e += 1;
            }
            // "авг 96": two digits that cannot be a day are a year
            let two_ok = self.num(e).is_some_and(|(v, nd)| nd == 2 && v > 31);
            if let Some((y, e2)) = self.year_after(e, two_ok) {
                g.y = Some(y);
                e = e2;
            } else if self.strict && !pref && self.w(i) == "may" {
                return None;
            }
            return Some((g, e));
        }
        // "the 15th", "20-го", "on the first"
        if let Some((d, j)) = self.ord_day(i0)
            && !matches!(self.lx(j), Lex::Unit(_))
        {
            let ordinal_word = matches!(self.lx(i0), Lex::Ord(_) | Lex::Card(_));
            let of_month = self.of_month(j);
            let the_month = self.of_the_month(j);
            // in running text "the first" is a date only when something says so: a month
            // ("of the month", "числа") or a deadline word before it with no noun after
            // ("by the first", not "on the first batch")
            // "4-й добью в понедельник": a masculine "-й" after a bare number is the 4th floor,
            // item or batch; a day of the month is "4-е", "4-го", "к 4-му".
            let masculine = matches!(self.lx(i0), Lex::Num(..))
                && self.sym(i0 + 1, '-')
                && matches!(self.w(i0 + 2), "й" | "ый" | "ий" | "ой");
            // "2nd coat", "3rd batch": an English ordinal in digits before a noun counts things
            let counts_things = i0 == i
                && !(i > 0 && matches!(self.lx(i - 1), Lex::Kw(_)))
                && matches!(self.lx(i0), Lex::Num(..))
                && matches!(self.w(i0 + 1), "st" | "nd" | "rd" | "th")
                && self.lx(j) == Lex::Word;
            let allowed = if self.strict && (counts_things || masculine) && !pref {
                of_month.is_some() || the_month.is_some()
            } else if self.strict && ordinal_word {
                of_month.is_some()
                    || the_month.is_some()
                    || (pref
                        && i > 0
                        && matches!(self.lx(i - 1), Lex::Kw(Kw::By | Kw::Until | Kw::Before))
                        && !matches!(self.lx(j), Lex::Word))
            } else {
                !ordinal_word || i0 > i || pref || the_month.is_some()
            };
            if allowed {
                // "20 of next month", "20th day of next month"
                let mut g = Frame { d: Some(d), ..f };
                let mut e = j;
                if let Some((per, e2)) = of_month {
                    g.per = Some(per);
                    e = e2;
                } else if let Some(e2) = the_month {
                    e = e2;
                }
                return Some((g, e));
            }
        }
        // "к 5 числу", "5-го числа"
        if let Some((d, j, _)) = self.day_num(i0)
            && let Some(e) = self.of_the_month(j)
        {
            return Some((Frame { d: Some(d), ..f }, e));
        }
        if let Some((d, j, _)) = self.day_num(i0)
            && let Some((per, e)) = self.of_month(j)
        {
            return Some((
                Frame {
                    d: Some(d),
                    per: Some(per),
                    ..f
                },
                e,
            ));
        }
        // "2012/Aug/10", "2013-марта-12": year, month word, day between slashes or dashes
        if let Some((v, 4)) = self.num(i)
            && (1000..=2999).contains(&v)
            && let Some(c) = ['/', '-']
                .into_iter()
                .find(|&c| self.sym(i + 1, c) && self.adj(i + 1) && self.adj(i + 2))
            && let Lex::Month(m) = self.lx(i + 2)
            && self.sym(i + 3, c)
            && self.adj(i + 3)
            && self.adj(i + 4)
            && let Some((d, e, _)) = self.day_num(i + 4)
        {
            return Some((
                Frame {
                    y: Some(v as i32),
                    m: Some(m),
                    d: Some(d),
                    ..f
                },
                e,
            ));
        }
        // years: "в 2014 году", "in 2014", "2014 год"
        if let Some((v, 4)) = self.num(i)
            && (1000..=2999).contains(&v)
            && !self.glued_tail(i + 1)
        {
            let unit_next = self.lx(i + 1) == Lex::Unit(Unit::Year);
            if matches!(self.w(i + 1), "bc" | "b") {
                return None;
            }
            let after_at = i > 0
                && (matches!(self.lx(i - 1), Lex::Kw(Kw::At | Kw::Around) | Lex::Sym('@'))
                    && self.w(i - 1).is_ascii()
                    || !(1900..=2100).contains(&v));
            let after_in =
                i > 0 && matches!(self.lx(i - 1), Lex::Kw(Kw::In | Kw::From | Kw::Before));
            if unit_next || ((pref && !after_at) || after_in) && !self.sym(i + 1, ':') {
                let e = if unit_next { i + 2 } else { i + 1 };
                return Some((
                    Frame {
                        y: Some(v as i32),
                        ..f
                    },
                    e,
                ));
            }
        }
        None
    }

    /// "of the month", "числа": a day of whichever month comes next.
    fn of_the_month(&self, i: usize) -> Option<usize> {
        if matches!(self.w(i), "числа" | "число" | "числу" | "числом") {
            return Some(i + 1);
        }
        if self.kw(i, Kw::Of)
            && self.kw(i + 1, Kw::The)
            && self.lx(i + 2) == Lex::Unit(Unit::Month)
            && self.w(i + 2) == "month"
        {
            return Some(i + 3);
        }
        None
    }

    /// "of next month", "of the current month", "day of next month".
    fn of_month(&self, i: usize) -> Option<((Unit, i64), usize)> {
        let mut k = i;
        if self.lx(k) == Lex::Unit(Unit::Day) {
            k += 1;
        }
        if !self.kw(k, Kw::Of) {
            return None;
        }
        k = self.skip(k + 1, &[Kw::The]);
        let off = match self.lx(k) {
            Lex::Kw(Kw::Next) => 1,
            Lex::Kw(Kw::Last) => -1,
            Lex::Kw(Kw::This) => 0,
            _ => return None,
        };
        if self.lx(k + 1) == Lex::Unit(Unit::Month) {
            Some(((Unit::Month, off), k + 2))
        } else {
            None
        }
    }

    fn numeric_date(&self, i: usize) -> Option<(Frame, usize)> {
        let f = Frame::default();
        let (a, an) = self.num(i)?;
        // "staging build 14.2", "version 3.10": a number of a thing, not a date.
        if i > 0 && versions().contains(&self.w(i - 1)) {
            return None;
        }
        let sep = match self.lx(i + 1) {
            Lex::Sym(c @ ('.' | '/' | '-')) if self.adj(i + 1) && self.adj(i + 2) => c,
            _ => return None,
        };
        let (b, bn) = self.num(i + 2)?;
        let mut third: Option<(u32, u8)> = None;
        let mut e = i + 3;
        if self.sym(e, sep)
            && self.adj(e)
            && self.adj(e + 1)
            && let Some(c) = self.num(e + 1)
        {
            third = Some(c);
            e += 2;
        }
        let year_of = |v: u32, nd: u8| -> Option<i32> {
            match nd {
                4 => Some(v as i32),
                2 => Some(if v < 50 {
                    2000 + v as i32
                } else {
                    1900 + v as i32
                }),
                _ => None,
            }
        };
        let g = if an == 4 {
            // ISO: 2015-03-03, 2014-10, 2014/10
            if sep == '.' {
                return None;
            }
            let y = a as i32;
            if !(1..=12).contains(&b) || bn > 2 {
                return None;
            }
            match third {
                Some((c, cn)) if cn <= 2 => {
                    ymd(y, b, c)?;
                    Frame {
                        y: Some(y),
                        m: Some(b),
                        d: Some(c),
                        ..f
                    }
                }
                Some(_) => return None,
                None => Frame {
                    y: Some(y),
                    m: Some(b),
                    ..f
                },
            }
        } else {
            if an > 2 || bn > 2 && !(bn == 4 && third.is_none() && sep == '/') {
                return None;
            }
            if bn == 4 {
                // 2/2013: month and year
                if !(1..=12).contains(&a) {
                    return None;
                }
                Frame {
                    y: Some(b as i32),
                    m: Some(a),
                    ..f
                }
            } else {
                let (mut d, mut m) = (a, b);
                if sep == '/' && !self.day_first() {
                    (d, m) = (b, a);
                }
                if sep == '/' && m > 12 && d <= 12 {
                    (d, m) = (m, d);
                }
                if sep == '-' && third.is_none() {
                    return None;
                }
                if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
                    return None;
                }
                let y = match third {
                    Some((c, cn)) => Some(year_of(c, cn)?),
                    None => {
                        // "2.4" reads as a version, not the 2nd of April; "5/6" is a date.
                        if an == 1 && bn == 1 && sep != '/' {
                            return None;
                        }
                        None
                    }
                };
                if let Some(y) = y {
                    ymd(y, m, d)?;
                }
                Frame {
                    y,
                    m: Some(m),
                    d: Some(d),
                    ..f
                }
            }
        };
        if sep == '.'
            && self.sym(e, '.')
            && self.adj(e)
            && (!self.adj(e + 1) || self.sym(e + 1, '/'))
        {
            e += 1;
        }
        if self.glued_tail(e) && !self.sym(e, ',') && !(self.sym(e, '-') && sep != '-') {
            return None;
        }
        if third.is_none() && self.lx(e) == Lex::Unit(Unit::Year) {
            return None;
        }
        Some((g, e))
    }

    fn day_first(&self) -> bool {
        // Russian writes 15/02; American English 2/15, but English in Perth, Dublin or
        // Auckland writes 15/2 too: the script decides, and for Latin script the place.
        day_first_zone(self.now.timezone().name())
            || self.l.toks.iter().any(|t| {
                matches!(
                    t.lex,
                    Lex::Word | Lex::Month(_) | Lex::Wd(..) | Lex::Kw(_) | Lex::RelDay(_)
                ) && self
                    .l
                    .lower
                    .get(t.n0 as usize..t.n1 as usize)
                    .is_some_and(|w| !w.is_ascii())
            })
    }

    /// Clock times. `weak`: a bare number that needs company to be a time.
    fn clock(&self, i: usize, pref: bool) -> Option<(Clock, usize, bool)> {
        let (mut c, mut j, strong) = self.clock_core(i, pref)?;
        let mut suffixed = false;
        let mut hours_word = false;
        loop {
            match self.lx(j) {
                Lex::Kw(Kw::Hours) | Lex::Unit(Unit::Hour)
                    if !hours_word
                        && (self.lx(j) == Lex::Kw(Kw::Hours)
                            || matches!(self.w(j), "час" | "часа" | "часов")) =>
                {
                    if c.g.is_none() {
                        c.g = Some(Grain::Hour);
                    }
                    hours_word = true;
                    // "потратил 3 часа" is a duration; in running text a clock needs more
                    suffixed = !self.strict;
                    j += 1;
                }
                Lex::Kw(Kw::Oclock) => {
                    suffixed = true;
                    j += 1;
                }
                // "10 o clock", "10 o' clock"
                Lex::Word if self.w(j) == "o" && self.w(j + 1) == "clock" => {
                    suffixed = true;
                    j += 2;
                }
                Lex::Word
                    if self.w(j) == "o" && self.sym(j + 1, '\'') && self.w(j + 2) == "clock" =>
                {
                    suffixed = true;
                    j += 3;
                }
                Lex::Kw(Kw::Ish) => j += 1,
                Lex::Kw(Kw::Around) if self.w(j) == "approximately" => j += 1,
                _ => {
                    if let Some((pm, e)) = self.ampm(j, strong || pref) {
                        c.pm = Some(pm);
                        suffixed = true;
                        j = e;
                        break;
                    }
                    if let Lex::Part(p) = self.lx(j)
                        && self.w(j) != "днем"
                        && !matches!(self.w(j), "morning" | "evening" | "afternoon" | "night")
                    {
                        apply_part(&mut c, p);
                        suffixed = true;
                        j += 1;
                        break;
                    }
                    if self.lx(j) == Lex::Unit(Unit::Day)
                        && self.w(j) == "дня"
                        && (hours_word || strong || pref)
                    {
                        apply_part(&mut c, Part::Afternoon);
                        c.pm.get_or_insert(true);
                        suffixed = true;
                        j += 1;
                        break;
                    }
                    if self.kw(j, Kw::After) && self.kw(j + 1, Kw::Poludni) {
                        apply_part(&mut c, Part::Afternoon);
                        suffixed = true;
                        j += 2;
                        break;
                    }
                    if self.kw(j, Kw::In)
                        && let k = self.skip(j + 1, &[Kw::The])
                        && let Lex::Part(p) = self.lx(k)
                    {
                        apply_part(&mut c, p);
                        suffixed = true;
                        j = k + 1;
                        break;
                    }
                    if self.kw(j, Kw::In)
                        && self.kw(j + 1, Kw::The)
                        && let Lex::Kw(k @ (Kw::Am | Kw::Pm)) = self.lx(j + 2)
                    {
                        c.pm = Some(k == Kw::Pm);
                        suffixed = true;
                        j += 3;
                        break;
                    }
                    break;
                }
            }
        }
        if self.kw(j, Kw::Ish) {
            j += 1;
        }
        if let Some(pm) = c.pm {
            if c.h > 12 {
                if !pm {
                    return None;
                }
            } else if pm && c.h < 12 {
                c.h += 12;
            } else if !pm && c.h == 12 {
                c.h = 0;
            }
            c.amb = false;
        }
        if c.h > 24 || c.m > 59 || c.s > 59 || (c.h == 24 && c.m > 0) {
            return None;
        }
        let weak = !(strong || pref || suffixed);
        if weak && self.strict {
            return None;
        }
        if c.g.is_none() {
            c.g = Some(Grain::Hour);
        }
        Some((c, j, weak))
    }

    fn ampm(&self, j: usize, loose: bool) -> Option<(bool, usize)> {
        match self.lx(j) {
            Lex::Kw(Kw::Am) => return Some((false, j + 1)),
            Lex::Kw(Kw::Pm) => return Some((true, j + 1)),
            _ => {}
        }
        let w = self.w(j);
        let pm = match w {
            "a" => false,
            "p" => true,
            _ => return None,
        };
        let mut k = j + 1;
        if self.sym(k, '.') {
            k += 1;
        }
        if self.w(k) == "m" {
            k += 1;
            if self.sym(k, '.') {
                k += 1;
            }
            return Some((pm, k));
        }
        if loose && !matches!(self.lx(k), Lex::Word) {
            return Some((pm, k));
        }
        None
    }

    /// Returns the clock, the end, and whether its form alone makes it a time.
    fn clock_core(&self, i: usize, pref: bool) -> Option<(Clock, usize, bool)> {
        if matches!(self.lx(i), Lex::Num(..) | Lex::Card(_))
            && let Some(r) = self.clock_relative(i, pref)
        {
            return Some(r);
        }
        match self.lx(i) {
            Lex::Num(h, hn) => {
                // hh:mm[:ss]
                if self.sym(i + 1, ':') && self.adj(i + 1) && self.adj(i + 2) && hn <= 2 {
                    let (m, mn) = self.num(i + 2)?;
                    if mn != 2 {
                        return None;
                    }
                    let mut c = Clock {
                        h,
                        m,
                        g: Some(Grain::Minute),
                        amb: (1..=12).contains(&h) && !(hn == 2 && h < 10),
                        ..Clock::default()
                    };
                    let mut j = i + 3;
                    if self.sym(j, ':') && self.adj(j) && self.adj(j + 1) {
                        let (s, sn) = self.num(j + 1)?;
                        if sn != 2 {
                            return None;
                        }
                        c.s = s;
                        c.g = Some(Grain::Second);
                        j += 2;
                    }
                    if self.glued_tail(j)
                        && !self.is_glued_suffix(j)
                        && !matches!(self.lx(j), Lex::Sym('-' | '/' | '–'))
                    {
                        return None;
                    }
                    return Some((c, j, true));
                }
                // 15h, 15h30, 17ч10, 15ч
                if self.kw(i + 1, Kw::Hours) && self.adj(i + 1) && hn <= 2 {
                    let mut c = Clock {
                        h,
                        g: Some(Grain::Minute),
                        ..Clock::default()
                    };
                    let mut j = i + 2;
                    if self.adj(j)
                        && let Some((m, 2)) = self.num(j)
                    {
                        c.m = m;
                        j += 1;
                    }
                    return Some((c, j, true));
                }
                let range_dash = hn <= 2
                    && matches!(self.lx(i + 1), Lex::Sym('-' | '–'))
                    && self.num(i + 2).is_some_and(|(_, d)| d <= 2)
                    && !self.glued_tail(i + 3);
                if self.glued_tail(i + 1) && !self.is_glued_suffix(i + 1) && !range_dash {
                    return None;
                }
                // 1030, 730
                if (3..=4).contains(&hn) {
                    let (hh, mm) = (h / 100, h % 100);
                    if hh > 23 || mm > 59 {
                        return None;
                    }
                    let c = Clock {
                        h: hh,
                        m: mm,
                        g: Some(Grain::Minute),
                        amb: (1..=12).contains(&hh) && hn == 3 || (10..=12).contains(&hh),
                        ..Clock::default()
                    };
                    let loose = pref || self.ampm(i + 1, false).is_some();
                    return if loose { Some((c, i + 1, true)) } else { None };
                }
                if hn > 2 || h > 24 {
                    return None;
                }
                let mut c = Clock {
                    h,
                    amb: (1..=12).contains(&h) && hn == 1 || (10..=12).contains(&h),
                    ..Clock::default()
                };
                // "at 3 15"
                if pref
                    && let Some((m, 2)) = self.num(i + 1)
                    && m < 60
                    && !self.glued_tail(i + 2)
                {
                    c.m = m;
                    c.g = Some(Grain::Minute);
                    return Some((c, i + 2, true));
                }
                Some((c, i + 1, false))
            }
            Lex::Card(_) => {
                let (h, j) = self.card(i)?;
                if h > 24 {
                    return None;
                }
                let mut c = Clock {
                    h,
                    amb: (1..=12).contains(&h),
                    ..Clock::default()
                };
                // "three twenty", "nine fifty nine", "ten thirty"
                if let Some((m, e)) = self.card(j)
                    && (10..60).contains(&m)
                    && (pref || self.ampm(e, false).is_some())
                {
                    c.m = m;
                    c.g = Some(Grain::Minute);
                    return Some((c, e, true));
                }
                if let Lex::Card(m) = self.lx(j)
                    && m >= 60
                {
                    return None;
                }
                Some((c, j, false))
            }
            Lex::Noon => Some((
                Clock {
                    h: 12,
                    g: Some(Grain::Hour),
                    ..Clock::default()
                },
                i + 1,
                true,
            )),
            Lex::Kw(Kw::Mid) if self.lx(i + 1) == Lex::Unit(Unit::Day) => Some((
                Clock {
                    h: 12,
                    g: Some(Grain::Hour),
                    ..Clock::default()
                },
                i + 2,
                true,
            )),
            Lex::Midnight => Some((
                Clock {
                    h: 0,
                    g: Some(Grain::Hour),
                    midnight: true,
                    ..Clock::default()
                },
                i + 1,
                true,
            )),
            _ => self.clock_relative(i, pref),
        }
    }

    fn is_glued_suffix(&self, j: usize) -> bool {
        matches!(
            self.lx(j),
            Lex::Kw(Kw::Am | Kw::Pm | Kw::Hours | Kw::Ish | Kw::A) | Lex::Tz(_)
        ) || self.w(j) == "p"
    }

    /// "a quarter past 3pm", "half past three", "20 minutes to 2pm", "half three".
    fn clock_relative(&self, i: usize, pref: bool) -> Option<(Clock, usize, bool)> {
        let mut k = self.skip(i, &[Kw::A]);
        let mins: u32 = match self.lx(k) {
            Lex::Unit(Unit::Quarter) => {
                k += 1;
                15
            }
            Lex::Kw(Kw::Half) => {
                k += 1;
                30
            }
            Lex::Num(v, nd) if nd <= 2 && k == i => {
                k += 1;
                v
            }
            Lex::Card(_) if k == i => {
                let (v, e) = self.card(k)?;
                k = e;
                v
            }
            _ => return None,
        };
        if mins == 0 || mins >= 60 {
            return None;
        }
        let mut named = k > i + 1 || matches!(self.lx(i), Lex::Kw(_) | Lex::Unit(_));
        if self.lx(k) == Lex::Unit(Unit::Minute) {
            k += 1;
            named = true;
        }
        if !self.w(k).is_ascii() {
            return None;
        }
        let sign: i32 = match self.lx(k) {
            Lex::Kw(Kw::Past | Kw::After) => 1,
            Lex::Kw(Kw::From) if self.w(k) == "from" => 1,
            Lex::Kw(Kw::To | Kw::Before | Kw::Until)
                if named || matches!(self.lx(k + 1), Lex::Noon | Lex::Midnight) =>
            {
                -1
            }
            Lex::Card(_) | Lex::Num(..) if mins == 30 && (i..k).any(|t| self.kw(t, Kw::Half)) => {
                // "half three" = 3:30
                let (mut c, e, _) = self.clock_core(k, true)?;
                if c.m != 0 {
                    return None;
                }
                c.m = 30;
                c.g = Some(Grain::Minute);
                return Some((c, e, true));
            }
            _ => return None,
        };
        let (base, e, _) = self.clock(k + 1, true)?;
        if base.m != 0 && sign < 0 {
            return None;
        }
        if !(named || base.pm.is_some() || matches!(self.lx(k + 1), Lex::Noon | Lex::Midnight)) {
            return None;
        }
        let _ = pref;
        let total = (base.h * 60 + base.m) as i32 + sign * mins as i32;
        let total = total.rem_euclid(24 * 60) as u32;
        Some((
            Clock {
                h: total / 60,
                m: total % 60,
                g: Some(Grain::Minute),
                amb: base.amb,
                pm: None,
                ..Clock::default()
            },
            e,
            true,
        ))
    }

    /// Weekdays, relative days, parts of day, periods, seasons, zones.
    fn word_atom(&self, i: usize) -> Option<(Frame, usize)> {
        let f = Frame::default();
        let lx = self.lx(i);
        // relative days
        if let Lex::RelDay(r) = lx {
            return Some((
                Frame {
                    rel: Some(i64::from(r)),
                    ..f
                },
                i + 1,
            ));
        }
        // the day after tomorrow / the day before yesterday
        {
            let k = self.skip(i, &[Kw::The]);
            if self.lx(k) == Lex::Unit(Unit::Day) {
                match (self.lx(k + 1), self.lx(k + 2)) {
                    (Lex::Kw(Kw::After), Lex::RelDay(1)) => {
                        return Some((Frame { rel: Some(2), ..f }, k + 3));
                    }
                    (Lex::Kw(Kw::Before), Lex::RelDay(-1)) => {
                        return Some((Frame { rel: Some(-2), ..f }, k + 3));
                    }
                    _ => {}
                }
            }
        }
        if self.kw(i, Kw::Tonight) {
            return Some((
                Frame {
                    rel: Some(0),
                    part: Some(Part::Evening),
                    ..f
                },
                i + 1,
            ));
        }
        if self.kw(i, Kw::Late) && self.kw(i + 1, Kw::Tonight) {
            return Some((
                Frame {
                    rel: Some(0),
                    part: Some(Part::LateEvening),
                    ..f
                },
                i + 2,
            ));
        }
        if self.kw(i, Kw::Late)
            && self.kw(i + 1, Kw::Last)
            && matches!(self.lx(i + 2), Lex::Part(Part::Night | Part::Evening))
        {
            return Some((
                Frame {
                    rel: Some(-1),
                    part: Some(Part::LateEvening),
                    ..f
                },
                i + 3,
            ));
        }
        if let Some((d, e)) = self.new_year(i) {
            return Some((
                Frame {
                    abs: Some((midnight(d), Grain::Day)),
                    ..f
                },
                e,
            ));
        }
        if let Some(r) = self.weekday_atom(i) {
            return Some(r);
        }
        if let Some(r) = self.part_atom(i) {
            return Some(r);
        }
        if let Some(r) = self.period_atom(i) {
            return Some(r);
        }
        match lx {
            Lex::Tz(z) => return Some((Frame { tz: Some(z), ..f }, i + 1)),
            Lex::Sym('(') => {
                if let Lex::Tz(z) = self.lx(i + 1)
                    && self.sym(i + 2, ')')
                {
                    return Some((Frame { tz: Some(z), ..f }, i + 3));
                }
            }
            Lex::Kw(Kw::Now) => {
                return Some((
                    Frame {
                        abs: Some((self.nl, Grain::Second)),
                        ..f
                    },
                    i + 1,
                ));
            }
            _ => {}
        }
        // "at the moment"
        if self.kw(i, Kw::The) && self.w(i + 1) == "moment" {
            return Some((
                Frame {
                    abs: Some((self.nl, Grain::Second)),
                    ..f
                },
                i + 2,
            ));
        }
        None
    }

    fn weekday_atom(&self, i: usize) -> Option<(Frame, usize)> {
        let mut k = self.skip(i, &[Kw::The]);
        let mut wk = None;
        match self.lx(k) {
            Lex::Kw(Kw::Next) if self.w(k) != "upcoming" => {
                wk = Some(1);
                k += 1;
            }
            Lex::Kw(Kw::Next) => k += 1,
            Lex::Kw(Kw::Last | Kw::Past) => {
                wk = Some(-1);
                k += 1;
            }
            Lex::Kw(Kw::LastLast) => {
                wk = Some(-2);
                k += 1;
            }
            Lex::Kw(Kw::This) => k += 1,
            _ => {}
        }
        let Lex::Wd(d, false) = self.lx(k) else {
            return None;
        };
        if self.strict
            && k == i
            && matches!(self.w(k), "sat" | "sun" | "wed" | "mon")
            && !self.l.toks.get(k).is_some_and(|t| t.sp)
        {
            return None;
        }
        let mut e = k + 1;
        if self.sym(e, '.') && self.adj(e) {
            e += 1;
        }
        let mut f = Frame {
            wd: Some(d),
            wk,
            ..Frame::default()
        };
        // "friday after next"
        if self.kw(e, Kw::After) && self.kw(e + 1, Kw::Next) && wk.is_none() {
            f.nth = 1;
            e += 2;
        }
        Some((f, e))
    }

    fn part_atom(&self, i: usize) -> Option<(Frame, usize)> {
        let mut f = Frame::default();
        let mut k = i;
        if self.kw(k, Kw::In) {
            k = self.skip(k + 1, &[Kw::The]);
        } else if self.kw(k, Kw::This) {
            f.rel = Some(0);
            k += 1;
        } else if self.kw(k, Kw::Last) && matches!(self.lx(k + 1), Lex::Part(Part::Night)) {
            f.rel = Some(-1);
            f.part = Some(Part::Evening);
            return Some((f, k + 2));
        }
        let mut early = false;
        let mut late = false;
        if self.kw(k, Kw::Early) {
            early = true;
            k += 1;
            if self.kw(k, Kw::In) {
                k = self.skip(k + 1, &[Kw::The]);
            }
        } else if self.kw(k, Kw::Late) {
            late = true;
            k += 1;
        }
        // "in the early hours of the morning"
        if early && self.lx(k) == Lex::Unit(Unit::Hour) && self.kw(k + 1, Kw::Of) {
            k = self.skip(k + 2, &[Kw::The]);
        }
        let Lex::Part(p) = self.lx(k) else {
            return None;
        };
        if self.strict && k == i && p == Part::Lunch && self.w(k) == "обед" {
            // "на обед" is a meal, not a time
        }
        let p = match (p, early, late) {
            (Part::Morning, true, _) => Part::EarlyMorning,
            (Part::Evening | Part::Night, _, true) => Part::LateEvening,
            (p, _, _) => p,
        };
        f.part = Some(p);
        Some((f, k + 1))
    }

    fn period_atom(&self, i: usize) -> Option<(Frame, usize)> {
        let f = Frame::default();
        let mut k = self.skip(i, &[Kw::The]);
        // ordinal quarter: "третий квартал 2018", "the 4th qtr of 2018"
        if let Some((q, j)) = self.ord_day(k)
            && q <= 4
            && self.lx(j) == Lex::Unit(Unit::Quarter)
        {
            let mut g = Frame { q: Some(q), ..f };
            let mut e = j + 1;
            let e0 = if self.kw(e, Kw::Of) { e + 1 } else { e };
            if let Some((y, e2)) = self.year_after(e0, false) {
                g.y = Some(y);
                e = e2;
            }
            return Some((g, e));
        }
        // 18q4, 2018Q4
        if let Some((y, yn)) = self.num(k)
            && (yn == 2 || yn == 4)
            && self.adj(k + 1)
            && self.w(k + 1) == "q"
            && self.adj(k + 2)
            && let Some((q, 1)) = self.num(k + 2)
            && (1..=4).contains(&q)
        {
            let y = if yn == 2 { 2000 + y as i32 } else { y as i32 };
            return Some((
                Frame {
                    q: Some(q),
                    y: Some(y),
                    ..f
                },
                k + 3,
            ));
        }
        let off: i64 = match self.lx(k) {
            Lex::Kw(Kw::This) => {
                if self.kw(k + 1, Kw::Past) {
                    k += 1;
                    -1
                } else {
                    0
                }
            }
            Lex::Kw(Kw::Next) => 1,
            Lex::Kw(Kw::Last | Kw::Past) => -1,
            Lex::Kw(Kw::LastLast) => -2,
            _ => {
                // "на выходных", "weekend"
                if self.kw(k, Kw::Weekend)
                    && (k > i
                        || !self.strict
                        || i > 0
                            && matches!(
                                self.lx(i - 1),
                                Lex::Kw(Kw::On | Kw::At | Kw::In | Kw::After | Kw::Until | Kw::By)
                            ))
                {
                    return Some((
                        Frame {
                            weekend: Some(0),
                            ..f
                        },
                        k + 1,
                    ));
                }
                if let Lex::Season(s) = self.lx(k) {
                    return Some((
                        Frame {
                            season: Some((s, 0)),
                            ..f
                        },
                        k + 1,
                    ));
                }
                return None;
            }
        };
        k += 1;
        if self.lx(k) == Lex::Unit(Unit::Week) && self.sym(k + 1, '-') && self.kw(k + 2, Kw::End) {
            return Some((
                Frame {
                    weekend: Some(off),
                    ..f
                },
                k + 3,
            ));
        }
        match self.lx(k) {
            Lex::Unit(u @ (Unit::Week | Unit::Month | Unit::Quarter | Unit::Year)) => Some((
                Frame {
                    per: Some((u, off)),
                    ..f
                },
                k + 1,
            )),
            Lex::Unit(Unit::Day) if off == 0 => Some((Frame { rel: Some(0), ..f }, k + 1)),
            Lex::Kw(Kw::Weekend) => Some((
                Frame {
                    weekend: Some(off),
                    ..f
                },
                k + 1,
            )),
            Lex::Sym('-') if self.w(k.saturating_sub(1)) == "week" => None,
            Lex::Season(s) => Some((
                Frame {
                    season: Some((s, off)),
                    ..f
                },
                k + 1,
            )),
            _ => {
                // "this week-end"
                if self.lx(k) == Lex::Unit(Unit::Week)
                    && self.sym(k + 1, '-')
                    && self.w(k + 2) == "end"
                {
                    return Some((
                        Frame {
                            weekend: Some(off),
                            ..f
                        },
                        k + 3,
                    ));
                }
                None
            }
        }
    }

    // ---------- durations and offsets ----------

    /// An amount and a unit: "2 часа", "полтора часа", "a couple of hours", "1/4h", "15'".
    fn duration(&self, i: usize, unit_alone: bool) -> Option<(f64, Unit, usize)> {
        let mut k = i;
        let mut amount: Option<f64> = None;
        match self.lx(k) {
            Lex::Num(v, nd) if nd <= 6 => {
                let mut a = f64::from(v);
                k += 1;
                if (self.sym(k, '.') || self.sym(k, ','))
                    && self.adj(k)
                    && self.adj(k + 1)
                    && let Some((fr, fd)) = self.num(k + 1)
                {
                    a += f64::from(fr) / 10f64.powi(i32::from(fd));
                    k += 2;
                } else if self.sym(k, '/')
                    && self.adj(k)
                    && self.adj(k + 1)
                    && let Some((den, _)) = self.num(k + 1)
                {
                    if den == 0 {
                        return None;
                    }
                    a /= f64::from(den);
                    k += 2;
                }
                // minutes and seconds as ' and "
                if self.adj(k) {
                    if self.sym(k, '\'') || self.sym(k, '’') {
                        return Some((a, Unit::Minute, k + 1));
                    }
                    if self.sym(k, '"') || self.sym(k, '\\') && self.sym(k + 1, '"') {
                        let e = if self.sym(k, '"') { k + 1 } else { k + 2 };
                        return Some((a, Unit::Second, e));
                    }
                }
                amount = Some(a);
            }
            Lex::Card(_) => {
                let (v, e) = self.card(k)?;
                k = e;
                amount = Some(f64::from(v));
                // "three-quarters of an hour"
                if self.sym(k, '-') && self.lx(k + 1) == Lex::Unit(Unit::Quarter) {
                    let e = self.skip(k + 2, &[Kw::Of, Kw::A]);
                    if self.lx(e) == Lex::Unit(Unit::Hour) {
                        return Some((f64::from(v) * 0.25, Unit::Hour, e + 1));
                    }
                    return None;
                }
            }
            Lex::Kw(Kw::A) => {
                k += 1;
                amount = Some(1.0);
                match self.lx(k) {
                    Lex::Kw(Kw::Couple | Kw::Pair) => {
                        amount = Some(2.0);
                        k = self.skip(k + 1, &[Kw::Of]);
                    }
                    Lex::Kw(Kw::Few) => {
                        amount = Some(3.0);
                        k += 1;
                    }
                    Lex::Unit(Unit::Quarter) => {
                        let e = self.skip(k + 1, &[Kw::Of, Kw::A]);
                        if self.lx(e) == Lex::Unit(Unit::Hour) {
                            return Some((0.25, Unit::Hour, e + 1));
                        }
                        return None;
                    }
                    _ => {}
                }
            }
            Lex::Kw(Kw::Couple | Kw::Pair) => {
                amount = Some(2.0);
                k = self.skip(k + 1, &[Kw::Of]);
            }
            Lex::Kw(Kw::Few) => {
                amount = Some(3.0);
                k += 1;
            }
            Lex::Kw(Kw::OneAndHalf) => {
                amount = Some(1.5);
                k += 1;
            }
            Lex::Kw(Kw::HalfHour) => return Some((0.5, Unit::Hour, k + 1)),
            Lex::Kw(Kw::Pol) => {
                if let Some(u) = self.unit(k + 1) {
                    return Some((0.5, u, k + 2));
                }
                return None;
            }
            Lex::Kw(Kw::Half) => {
                let e = self.skip(k + 1, &[Kw::A]);
                if let Some(u) = self.unit(e) {
                    return Some((0.5, u, e + 1));
                }
                return None;
            }
            _ => {}
        }
        // "2 and an half hours"
        if amount.is_some() && self.kw(k, Kw::And) {
            let e = self.skip(k + 1, &[Kw::A]);
            if self.kw(e, Kw::Half)
                && let Some(u) = self.unit(e + 1)
            {
                return Some((amount.unwrap_or(0.0) + 0.5, u, e + 2));
            }
        }
        if amount.is_some() && self.w(k) == "more" {
            k += 1;
        }
        // "2-3 дня", "2 или 3 дня", "2 or 3 days": the longer one
        if let Some(a) = amount
            && (self.sym(k, '-') || self.sym(k, '–') || matches!(self.w(k), "or" | "или"))
            && let Some((b, e)) = self.count(k + 1)
            && f64::from(b) > a
            && self.unit(e).is_some()
        {
            amount = Some(f64::from(b));
            k = e;
        }
        let u = self.unit(k)?;
        if amount.is_none() && !unit_alone {
            return None;
        }
        // "день-два", "a day or two", "неделю-другую": the longer one
        let dash = (self.sym(k + 1, '-') || self.sym(k + 1, '–')) && self.adj(k + 1);
        if dash || matches!(self.w(k + 1), "or" | "или") {
            let first = amount.unwrap_or(1.0);
            let alt = match self.count(k + 2) {
                Some((b, e))
                    if !matches!(self.lx(e), Lex::Sym(':') | Lex::Kw(Kw::Am | Kw::Pm))
                        && (self.unit(e).is_none() || self.unit(e) == Some(u)) =>
                {
                    let e = if self.unit(e).is_some() { e + 1 } else { e };
                    Some((f64::from(b), e))
                }
                None if dash && matches!(self.w(k + 2), "другую" | "другой" | "другие") => {
                    Some((first + 1.0, k + 3))
                }
                _ => None,
            };
            if let Some((b, e)) = alt
                && b > first
            {
                return Some((b, u, e));
            }
        }
        // "15 ч" is a clock in "в 15ч"; as a duration only when spaced or "h"
        Some((amount.unwrap_or(1.0), u, k + 1))
    }

    /// `now` moved by an amount of a unit; sub-day units in absolute time (DST-safe).
    fn moved(&self, amount: f64, u: Unit, sign: i64) -> Option<NaiveDateTime> {
        let secs = |per: f64| -> Option<NaiveDateTime> {
            let s = (amount * per).round();
            if !s.is_finite() || s.abs() > 1e11 {
                return None;
            }
            let d = Duration::try_seconds(s as i64 * sign)?;
            Some(self.now.checked_add_signed(d)?.naive_local())
        };
        let whole = |k: f64| -> Option<i64> {
            let r = (amount * k).round();
            if !r.is_finite() || r.abs() > 1e6 {
                None
            } else {
                Some(r as i64 * sign)
            }
        };
        let tz = self.now.timezone();
        match u {
            Unit::Second => secs(1.0),
            Unit::Minute => secs(60.0),
            Unit::Hour => secs(3600.0),
            Unit::Day | Unit::Week | Unit::Fortnight => {
                let per = match u {
                    Unit::Day => 24.0,
                    Unit::Week => 168.0,
                    _ => 336.0,
                };
                let hours = whole(per)?;
                let t = self.nl.checked_add_signed(Duration::try_hours(hours)?)?;
                Some(fix_wall(tz, t))
            }
            Unit::Month | Unit::Quarter | Unit::Year => {
                let per = match u {
                    Unit::Month => 1.0,
                    Unit::Quarter => 3.0,
                    _ => 12.0,
                };
                Some(fix_wall(tz, add_months(self.nl, whole(per)?)?))
            }
        }
    }

    /// One duration or several of falling units, optionally joined by "," / "and" / "и":
    /// "1 год 2 месяца", "2 ч. 21 мин.", "1d, 2hr, and 5min". Only the first may be a bare
    /// unit ("час назад"); later ones need an amount.
    fn durations(&self, i: usize, unit_alone: bool) -> Option<(Vec<(f64, Unit)>, usize)> {
        let (a, u, mut e) = self.duration(i, unit_alone)?;
        let mut parts = vec![(a, u)];
        loop {
            let mut k = e;
            if self.sym(k, '.') && self.adj(k) {
                k += 1;
            }
            if self.sym(k, ',') {
                k += 1;
            }
            if self.kw(k, Kw::And) {
                k += 1;
            }
            let Some((a2, u2, e2)) = self.duration(k, false) else {
                break;
            };
            let last = parts.last().map_or(Unit::Year, |p| p.1);
            if unit_rank(u2) >= unit_rank(last) || parts.len() >= 6 {
                break;
            }
            parts.push((a2, u2));
            e = e2;
        }
        if self.sym(e, '.') && self.adj(e) && parts.len() > 1 {
            e += 1;
        }
        Some((parts, e))
    }

    /// `now` moved by each (amount, unit) in turn, and the grain of the finest unit.
    fn moved_all(&self, parts: &[(f64, Unit)], sign: i64) -> Option<(NaiveDateTime, Grain)> {
        let mut at = self.now;
        let mut g = Grain::Year;
        for &(a, u) in parts {
            let p = P {
                now: at,
                nl: at.naive_local(),
                ..*self
            };
            let t = p.moved(a, u, sign)?;
            at = super::to_instant(self.now.timezone(), t)?;
            g = unit_grain(u);
        }
        Some((at.naive_local(), g))
    }

    fn offset_atom(&self, i: usize) -> Option<(Frame, usize)> {
        let f = Frame::default();
        // через N units / in N units / спустя N units, each possibly compound
        // ("через 1 день 2 часа", "in 1d, 2hr and 5min")
        if matches!(self.lx(i), Lex::Kw(Kw::Through | Kw::In))
            || self.kw(i, Kw::Later) && self.w(i) == "спустя"
        {
            let k = self.skip(i + 1, &[Kw::Around]);
            if let Some((parts, e)) = self.durations(k, true) {
                let (t, g) = self.moved_all(&parts, 1)?;
                return Some((
                    Frame {
                        abs: Some((t, g)),
                        ..f
                    },
                    e,
                ));
            }
            return None;
        }
        // "now + 40 minutes", "сейчас - 2 часа": the sign may stand apart after "now"
        if self.kw(i, Kw::Now)
            && (self.sym(i + 1, '+') || self.sym(i + 1, '-'))
            && let Some((parts, e)) = self.durations(i + 2, false)
        {
            let sign = if self.sym(i + 1, '-') { -1 } else { 1 };
            let (t, g) = self.moved_all(&parts, sign)?;
            return Some((
                Frame {
                    abs: Some((t, g)),
                    ..f
                },
                e,
            ));
        }
        // terse signed offsets: "+20 minutes", "+2 дня 3 часа", "-3 года", "+15мин"
        if (self.sym(i, '+') || self.sym(i, '-'))
            && self.adj(i + 1)
            && (i == 0
                || !matches!(
                    self.lx(i - 1),
                    Lex::Num(..) | Lex::Card(_) | Lex::Month(_) | Lex::Unit(_) | Lex::Tz(_)
                ))
            && let Some((parts, e)) = self.durations(i + 1, false)
        {
            let sign = if self.sym(i, '-') { -1 } else { 1 };
            let (t, g) = self.moved_all(&parts, sign)?;
            return Some((
                Frame {
                    abs: Some((t, g)),
                    ..f
                },
                e,
            ));
        }
        // N fridays from now / 2 thursdays ago
        if let Some((n, e)) = self.count(i)
            && let Lex::Wd(d, true) = self.lx(e)
        {
            let (sign, e2) = self.after_duration(e + 1)?;
            let n = i64::from(n);
            let mut day = self.today;
            let mut left = n;
            while left > 0 {
                day += Duration::days(sign);
                if day.weekday().num_days_from_monday() == d {
                    left -= 1;
                }
            }
            return Some((
                Frame {
                    abs: Some((midnight(day), Grain::Day)),
                    ..f
                },
                e2,
            ));
        }
        // N units ago / назад / hence / from now / later, possibly compound
        // ("2 часа 5 минут назад", "5 days 2 hours ago")
        let (parts, e) = self.durations(i, true)?;
        let (sign, e2) = self.after_duration(e)?;
        let from_today = self.w(e2.saturating_sub(1)) == "today";
        let (mut t, mut g) = self.moved_all(&parts, sign)?;
        if from_today {
            t = midnight(t.date());
            g = Grain::Day;
        }
        Some((
            Frame {
                abs: Some((t, g)),
                ..f
            },
            e2,
        ))
    }

    fn count(&self, i: usize) -> Option<(u32, usize)> {
        match self.lx(i) {
            Lex::Num(v, nd) if nd <= 3 => Some((v, i + 1)),
            Lex::Card(_) => self.card(i),
            _ => None,
        }
    }

    /// "ago", "назад", "тому назад", "hence", "from now", "from today", "back".
    fn after_duration(&self, e: usize) -> Option<(i64, usize)> {
        match self.lx(e) {
            Lex::Kw(Kw::Ago) => Some((-1, e + 1)),
            Lex::Kw(Kw::Tomu) if self.kw(e + 1, Kw::Ago) => Some((-1, e + 2)),
            Lex::Kw(Kw::Hence) => Some((1, e + 1)),
            // "3 days later", "2 дня спустя", "15 minutes earlier"
            Lex::Kw(Kw::Later) if !self.kw(e + 1, Kw::Than) => Some((1, e + 1)),
            Lex::Kw(Kw::Earlier) => Some((-1, e + 1)),
            Lex::Kw(Kw::From) if self.w(e) == "from" => {
                let k = if self.w(e + 1) == "right" {
                    e + 2
                } else {
                    e + 1
                };
                if self.kw(k, Kw::Now) || self.lx(k) == Lex::RelDay(0) {
                    Some((1, k + 1))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    // ---------- frames ----------

    fn is_conn(&self, i: usize) -> bool {
        matches!(
            self.lx(i),
            Lex::Kw(Kw::At | Kw::On | Kw::Around | Kw::In | Kw::Of | Kw::The) | Lex::Sym(',' | '@')
        ) || matches!(
            self.w(i),
            "right" | "just" | "for" | "sometimes" | "anytime"
        )
    }

    fn frame(&self, i: usize, pref0: bool) -> Option<(Frame, usize)> {
        let mut f = Frame::default();
        let mut j = i;
        let mut first = true;
        loop {
            let mut k = j;
            let mut pref = first && pref0;
            loop {
                if let Some((g, e)) = self.atom(k, pref) {
                    if f.merge(&g) {
                        j = e;
                        break;
                    }
                    return self.finish(f, j);
                }
                if !self.is_conn(k) {
                    return self.finish(f, j);
                }
                if matches!(self.lx(k), Lex::Kw(Kw::At | Kw::Around)) || self.sym(k, '@') {
                    pref = true;
                }
                k += 1;
                if k > j + 4 {
                    return self.finish(f, j);
                }
            }
            first = false;
        }
    }

    fn finish(&self, f: Frame, j: usize) -> Option<(Frame, usize)> {
        if f.n == 0 {
            return None;
        }
        // "в 2 раза больше": a lone bare number before an unknown word is a count; but "к 18
        // привезу", "до 20 всё будет": after a deadline word, a verb or "всё" says it is a clock
        if self.strict
            && f.n == 1
            && f.clock.is_some()
            && j > 0
            && matches!(self.lx(j - 1), Lex::Num(_, 1..=2) | Lex::Card(_))
            && !self.adj(j - 1)
            && matches!(self.lx(j), Lex::Word)
            && !(j >= 2
                && matches!(self.lx(j - 2), Lex::Kw(Kw::By | Kw::Until))
                && matches!(self.w(j - 2), "к" | "ко" | "до")
                && (matches!(self.w(j), "все" | "всё" | "уже" | "точно" | "обязательно")
                    || crate::morph::finite_verb(self.w(j))))
        {
            return None;
        }
        if f.weak && f.n == 1 {
            return None;
        }
        // a lone month or weekday abbreviation in running text is too weak
        Some((f, j))
    }

    fn clock_hm(&self, c: &Clock) -> (u32, u32, u32) {
        (c.h % 24, c.m, c.s)
    }

    /// Resolve a frame into a value and the deadline reading.
    fn resolve_frame(
        &self,
        f: &Frame,
        after: Option<NaiveDateTime>,
    ) -> Option<(TimeValue, Option<Due>, bool)> {
        let tz = self.now.timezone();
        // `after` is in the reference zone; a frame with its own zone compares in that zone
        let after = match (after, f.tz) {
            (Some(a), Some(z)) => {
                let utc = super::to_instant(tz, a)?.naive_utc();
                utc.checked_add_signed(Duration::try_minutes(i64::from(z))?)
            }
            (a, _) => a,
        };
        let mut clock = f.clock;
        if let (Some(c), Some(p)) = (clock.as_mut(), f.part)
            && c.amb
        {
            apply_part(c, p);
        }
        let point = |t: NaiveDateTime, g: Grain| TimeValue {
            kind: Kind::Point,
            start: Some(t),
            end: None,
            grain: g,
        };
        let interval = |a: NaiveDateTime, b: NaiveDateTime, g: Grain| TimeValue {
            kind: Kind::Interval,
            start: Some(a),
            end: Some(b),
            grain: g,
        };
        let has_clock = clock.is_some();
        let due_of = |d: NaiveDate, t: Option<NaiveTime>| -> Option<Due> {
            if d < self.today {
                None
            } else {
                Some(Due { date: d, time: t })
            }
        };
        // --- the day (or a wider span) ---
        let mut date: Option<NaiveDate> = None;
        let grain = Grain::Day;
        let mut due_date: Option<NaiveDate> = None;
        if let Some((t, g)) = f.abs {
            match clock {
                Some(_) => date = Some(t.date()),
                None => {
                    let v = point(t, g);
                    let due = if t < self.nl {
                        None
                    } else {
                        Some(Due {
                            date: t.date(),
                            time: None,
                        })
                    };
                    return Some((v, due, false));
                }
            }
        } else if let Some(d) = f.d {
            let dd = if let Some(m) = f.m {
                match f.y {
                    Some(y) => ymd(y, m, d)?,
                    None => match f.wd {
                        // "Friday, 13 March": the year that makes it a Friday, this one or
                        // the next; further off, the weekday is another day said beside the
                        // date ("the OT pay for Saturday on 9/1"), and the date stands.
                        Some(w) => {
                            let base = self.infer_year(m, d)?;
                            (0..2)
                                .filter_map(|k| ymd(base.year() + k, m, d))
                                .find(|x| x.weekday().num_days_from_monday() == w)
                                .unwrap_or(base)
                        }
                        None => self.infer_year(m, d)?,
                    },
                }
            } else if let Some((Unit::Month, k)) = f.per {
                let first =
                    add_months(midnight(ymd(self.today.year(), self.today.month(), 1)?), k)?;
                ymd(first.year(), first.month(), d)?
            } else {
                // bare day of month: the next such day (today counts)
                let mut cur = ymd(self.today.year(), self.today.month(), 1)?;
                let mut found = None;
                for _ in 0..48 {
                    if let Some(x) = ymd(cur.year(), cur.month(), d)
                        && x >= self.today
                        && f.wd.is_none_or(|w| x.weekday().num_days_from_monday() == w)
                    {
                        found = Some(x);
                        break;
                    }
                    cur = add_months(midnight(cur), 1)?.date();
                }
                found?
            };
            date = Some(dd);
        } else if let Some(m) = f.m {
            let y = match f.y {
                Some(y) => y,
                None => {
                    if m >= self.today.month() {
                        self.today.year()
                    } else {
                        self.today.year() + 1
                    }
                }
            };
            let s = ymd(y, m, 1)?;
            let e = last_of_month(y, m)?;
            let v = interval(midnight(s), midnight(e + Duration::days(1)), Grain::Month);
            if has_clock || f.part.is_some() {
                return None;
            }
            return Some((v, due_of(e, None), false));
        } else if let Some(r) = f.rel {
            date = Some(self.today + Duration::try_days(r)?);
        } else if let Some(w) = f.wd {
            let wk = f.wk.or(match f.per {
                Some((Unit::Week, k)) => Some(k as i32),
                _ => None,
            });
            let d = match wk {
                Some(k) => monday(self.today) + Duration::days(7 * i64::from(k) + i64::from(w)),
                None => {
                    let tw = self.today.weekday().num_days_from_monday();
                    let mut d = self.today + Duration::days(i64::from((w + 7 - tw) % 7));
                    if d == self.today {
                        let later_today = clock.is_some_and(|c| {
                            let (h, m, _) = self.clock_hm(&c);
                            let h = if c.amb && h < 12 && h < self.nl.hour() {
                                h + 12
                            } else {
                                h
                            };
                            (h, m) > (self.nl.hour(), self.nl.minute())
                        });
                        if !later_today {
                            d += Duration::days(7);
                        }
                    }
                    d + Duration::days(7 * i64::from(f.nth))
                }
            };
            date = Some(d);
        } else if let Some(q) = f.q {
            let y = f.y.unwrap_or(self.today.year());
            let s = ymd(y, (q - 1) * 3 + 1, 1)?;
            let e = add_months(midnight(s), 3)?;
            return Some((
                interval(midnight(s), e, Grain::Quarter),
                due_of(e.date() - Duration::days(1), None),
                false,
            ));
        } else if let Some((u, k)) = f.per {
            let s = shift(trunc(self.nl, u), u, k)?;
            let e = shift(s, u, 1)?;
            let last = e.date() - Duration::days(1);
            let due_d = if u == Unit::Week {
                // a working week ends on Friday
                let fri = s.date() + Duration::days(4);
                if fri < self.today {
                    self.today.max(last)
                } else {
                    fri
                }
            } else {
                last
            };
            if has_clock {
                return None;
            }
            return Some((interval(s, e, unit_grain(u)), due_of(due_d, None), false));
        } else if let Some(k) = f.weekend {
            let fri = monday(self.today) + Duration::days(4 + 7 * k);
            let s = fri.and_hms_opt(18, 0, 0)?;
            let e = midnight(fri + Duration::days(3));
            // on Sunday "на выходных" is still this weekend: today
            let sat = fri + Duration::days(1);
            let due_d = if sat < self.today && self.today < e.date() {
                self.today
            } else {
                sat
            };
            return Some((interval(s, e, Grain::Hour), due_of(due_d, None), false));
        } else if let Some((s, k)) = f.season {
            let (a, b) = self.season(s, k)?;
            return Some((
                interval(midnight(a), midnight(b), Grain::Day),
                due_of(b - Duration::days(1), None),
                false,
            ));
        } else if let Some(y) = f.y {
            let s = ymd(y, 1, 1)?;
            let e = ymd(y + 1, 1, 1)?;
            if has_clock {
                return None;
            }
            return Some((
                interval(midnight(s), midnight(e), Grain::Year),
                due_of(e - Duration::days(1), None),
                false,
            ));
        }
        if let Some(d) = date {
            due_date = Some(d);
        }
        // --- the time of day ---
        if let Some(mut c) = clock {
            let t = match date {
                Some(d) => {
                    if c.midnight {
                        midnight(d + Duration::days(1))
                    } else {
                        if c.amb {
                            if d == self.today {
                                if c.h < 12 && c.h < self.nl.hour() {
                                    c.h += 12;
                                }
                            } else if let Some(a) = after {
                                if c.h < 12 && d.and_hms_opt(c.h, c.m, 0)? < a {
                                    c.h += 12;
                                }
                            } else if (1..=6).contains(&c.h) && f.part.is_none() {
                                // "завтра в 3": business hours
                                c.h += 12;
                            }
                        }
                        let (h, m, s) = self.clock_hm(&c);
                        d.and_hms_opt(h, m, s)?
                    }
                }
                None => {
                    if c.midnight {
                        midnight(self.today + Duration::days(1))
                    } else {
                        let (h, m, s) = self.clock_hm(&c);
                        let floor = match after {
                            Some(a) => a,
                            None => trunc(self.nl, Unit::Hour),
                        };
                        let mut cands: [u32; 2] = [h, h];
                        if c.amb {
                            cands = [h % 12, h % 12 + 12];
                        }
                        let mut pick = None;
                        'outer: for day in 0..2 {
                            let dd = self.today + Duration::days(day);
                            for hh in cands {
                                let x = dd.and_hms_opt(hh, m, s)?;
                                if x >= floor {
                                    pick = Some(x);
                                    break 'outer;
                                }
                            }
                        }
                        pick?
                    }
                }
            };
            let mut t = t;
            if let Some(z) = f.tz {
                let utc = t.checked_sub_signed(Duration::try_minutes(i64::from(z))?)?;
                t = tz.from_utc_datetime(&utc).naive_local();
            } else {
                t = fix_wall(tz, t);
            }
            let g = c.g.unwrap_or(Grain::Hour);
            let due = if t < self.nl && date.is_none_or(|d| d < self.today) || t.date() < self.today
            {
                None
            } else {
                Some(Due {
                    date: t.date(),
                    time: Some(t.time()),
                })
            };
            return Some((point(t, g), due, true));
        }
        if let Some(p) = f.part {
            let d = date.unwrap_or(self.today);
            let (a, b) = part_bounds(p);
            let s = d.and_hms_opt(a, 0, 0)?;
            let e = if b >= 24 {
                midnight(d + Duration::days(1))
            } else {
                d.and_hms_opt(b, 0, 0)?
            };
            return Some((interval(s, e, Grain::Hour), due_of(d, None), false));
        }
        let d = date?;
        Some((
            point(midnight(d), grain),
            due_date.and_then(|x| due_of(x, None)),
            false,
        ))
    }

    /// A month and day without a year: this year's, unless that is past by more than
    /// three weeks, then next year's.
    fn infer_year(&self, m: u32, d: u32) -> Option<NaiveDate> {
        let y = self.today.year();
        for k in 0..8 {
            if let Some(x) = ymd(y + k, m, d) {
                if k == 0 && x + Duration::days(21) < self.today {
                    continue;
                }
                return Some(x);
            }
        }
        None
    }

    fn season(&self, s: u32, k: i64) -> Option<(NaiveDate, NaiveDate)> {
        let ru = !self.l.lower.is_ascii();
        // Russians count seasons by months; English usage follows the solstices
        let bounds = |y: i32| -> Option<(NaiveDate, NaiveDate)> {
            if ru {
                match s {
                    0 => Some((ymd(y - 1, 12, 1)?, ymd(y, 3, 1)?)),
                    1 => Some((ymd(y, 3, 1)?, ymd(y, 6, 1)?)),
                    2 => Some((ymd(y, 6, 1)?, ymd(y, 9, 1)?)),
                    _ => Some((ymd(y, 9, 1)?, ymd(y, 12, 1)?)),
                }
            } else {
                match s {
                    0 => Some((ymd(y - 1, 12, 21)?, ymd(y, 3, 21)?)),
                    1 => Some((ymd(y, 3, 20)?, ymd(y, 6, 21)?)),
                    2 => Some((ymd(y, 6, 21)?, ymd(y, 9, 24)?)),
                    _ => Some((ymd(y, 9, 23)?, ymd(y, 12, 21)?)),
                }
            }
        };
        let y = self.today.year();
        let mut cur = bounds(y)?;
        if cur.1 <= self.today {
            cur = bounds(y + 1)?;
        }
        if k != 0 {
            let yy = i32::try_from(i64::from(cur.0.year()) + k).ok()?;
            let shifted = if s == 0 { bounds(yy + 1)? } else { bounds(yy)? };
            return Some(shifted);
        }
        Some(cur)
    }

    // ---------- top level ----------

    /// One expression starting at token `i`; returns it and the token after it.
    pub fn expr(&self, i: usize) -> Option<(Out, usize)> {
        let r = self.expr_inner(i)?;
        let (ref o, e) = r;
        if e <= i || o.val.start.is_none() && o.val.end.is_none() {
            return None;
        }
        // glued to a longer token chain on the left: "v3.1", "JIRA-1024"
        if self.adj(i) && i > 0 {
            let prev = self.lx(i - 1);
            let bad = match prev {
                Lex::Word | Lex::Num(..) => true,
                Lex::Sym(c) => {
                    matches!(c, '#' | '$' | '№' | '_' | '€' | '£')
                        || (matches!(c, '.' | '-' | '/' | ':')
                            && i >= 2
                            && self.adj(i - 1)
                            && matches!(self.lx(i - 2), Lex::Word | Lex::Num(..)))
                }
                _ => false,
            };
            if bad {
                return None;
            }
        }
        if self.glued_tail(e) && matches!(self.lx(e - 1), Lex::Num(..)) {
            return None;
        }
        Some(r)
    }

    fn expr_inner(&self, i: usize) -> Option<(Out, usize)> {
        let now = self.nl;
        let mk = |val: TimeValue, due: Option<Due>, strong: bool| Out { val, due, strong };
        if let Some(r) = self.day_after_clock(i) {
            return Some(r);
        }
        match self.lx(i) {
            Lex::Kw(k @ (Kw::Until | Kw::Before | Kw::By)) => {
                if let Some(r) = self.until_expr(i, k) {
                    return Some(r);
                }
            }
            Lex::Kw(Kw::After) => {
                if let Some((o, e)) = self.after_expr(i + 1) {
                    return Some((o, e));
                }
            }
            Lex::Kw(Kw::To) if self.w(i) == "through" => {
                if let Some(r) = self.until_expr(i, Kw::Before) {
                    return Some(r);
                }
            }
            Lex::Word
                if self.w(i) == "as"
                    && self.w(i + 1) == "soon"
                    && self.w(i + 2) == "as"
                    && self.w(i + 3) == "possible" =>
            {
                return Some((
                    mk(
                        TimeValue {
                            kind: Kind::After,
                            start: Some(now),
                            end: None,
                            grain: Grain::Second,
                        },
                        Some(Due {
                            date: self.today,
                            time: None,
                        }),
                        true,
                    ),
                    i + 4,
                ));
            }
            Lex::Kw(Kw::Eod | Kw::Eow) => {
                // a bare "EOD" in running text is a deadline: "will ship the fix EOD"
                if let Some(r) = self.end_of_expr(i) {
                    return Some(r);
                }
            }
            Lex::Kw(Kw::Asap) => {
                return Some((
                    mk(
                        TimeValue {
                            kind: Kind::After,
                            start: Some(now),
                            end: None,
                            grain: Grain::Second,
                        },
                        Some(Due {
                            date: self.today,
                            time: None,
                        }),
                        true,
                    ),
                    i + 1,
                ));
            }
            Lex::Kw(Kw::Within) => {
                if let Some(r) = self.within(i + 1) {
                    return Some(r);
                }
            }
            Lex::Kw(Kw::At) if self.kw(i + 1, Kw::Within) => {
                if let Some(r) = self.within(i + 2) {
                    return Some(r);
                }
            }
            Lex::Kw(Kw::Next | Kw::Last | Kw::Past) => {
                if let Some(r) = self.next_n(i) {
                    return Some(r);
                }
            }
            Lex::Kw(Kw::On) => {
                // "на этой неделе", "на следующей неделе": deadline words
                if let Some((mut o, e)) = self.expr_inner(i + 1) {
                    o.strong = true;
                    return Some((o, e));
                }
            }
            _ => {}
        }
        if let Some(r) = self.upcoming(i) {
            return Some(r);
        }
        if let Some(r) = self.nth_of(i) {
            return Some(r);
        }
        if let Some(r) = self.for_duration(i) {
            return Some(r);
        }
        if let Some(r) = self.edge_expr(i) {
            return Some(r);
        }
        // "с 13 по 15 июля", "from 9:30 to 11:00", "between 3:30pm and 6 pm"
        if matches!(self.lx(i), Lex::Kw(Kw::From | Kw::Between)) {
            if let Some(r) = self.range(i + 1) {
                return Some(r);
            }
            if self.w(i) != "between"
                && let Some(r) = self.after_expr(i + 1)
            {
                return Some(r);
            }
        }
        if self.kw(i, Kw::Later) && self.kw(i + 1, Kw::Than) {
            // "later than 9:30 but before 11:00"
            let (a, e) = self.frame(i + 2, true)?;
            if self.kw(e, Kw::But) && self.kw(e + 1, Kw::Before) {
                let (b, e2) = self.frame(e + 2, true)?;
                return self.combine(Side::F(a), Side::F(b), e2);
            }
            return None;
        }
        if let Some(r) = self.range(i) {
            return Some(r);
        }
        let (f, e) = self.frame(i, false)?;
        // "tomorrow EOD", "пятница EOD": the end of that day
        if f.has_date() && f.clock.is_none() && f.part.is_none() {
            let k = self.skip(e, &[Kw::By, Kw::Until, Kw::Before]);
            if self.kw(k, Kw::Eod)
                && let Some((v, Some(d), _)) = self.resolve_frame(&f, None)
                && v.kind == Kind::Point
            {
                return Some((
                    mk(
                        TimeValue {
                            kind: Kind::Before,
                            start: Some(now),
                            end: Some(midnight(d.date + Duration::days(1))),
                            grain: Grain::Day,
                        },
                        Some(d),
                        true,
                    ),
                    k + 1,
                ));
            }
        }
        // "завтра до обеда", "завтра до 15:00", "завтра к 10 утра", "tomorrow by 3pm"
        if f.has_date()
            && f.clock.is_none()
            && matches!(self.lx(e), Lex::Kw(Kw::Until | Kw::By | Kw::Before))
            && let Some((g, e2)) = self.frame(e + 1, true)
            && !g.has_date()
        {
            let mut h = f;
            if h.merge(&g) {
                let (v, due, clock) = self.resolve_frame(&h, None)?;
                let end = v.start?;
                let due = due.map(|d| Due {
                    date: d.date,
                    time: if clock { d.time } else { None },
                });
                return Some((
                    mk(
                        TimeValue {
                            kind: Kind::Before,
                            start: Some(now),
                            end: Some(end),
                            grain: v.grain,
                        },
                        due,
                        true,
                    ),
                    e2,
                ));
            }
        }
        // "Thursday from 9:30 to 11:00"
        if matches!(self.lx(e), Lex::Kw(Kw::From | Kw::Between))
            && let Some((o, e2)) = self.range_with(e + 1, Some(f))
        {
            return Some((o, e2));
        }
        let strong = f.abs.is_some() && matches!(self.lx(i), Lex::Kw(Kw::Through | Kw::In));
        // a whole month, quarter or year not introduced by a time preposition is what the
        // work is about ("выписки за ноябрь", "the october statements", "for Q3"), not when;
        // such a month is the nearest one, past or coming ("за октябрь" in November)
        if self.strict
            && f.d.is_none()
            && f.wd.is_none()
            && f.rel.is_none()
            && (f.m.is_some() || f.q.is_some() || f.y.is_some())
            && !self.time_preposition(i)
        {
            let mut g = f;
            if let (Some(m), None) = (g.m, g.y) {
                let back = (self.today.month() + 12 - m) % 12;
                let y = self.today.year();
                g.y = Some(if back <= 6 && m <= self.today.month() {
                    y
                } else if back <= 6 {
                    y - 1
                } else if m >= self.today.month() {
                    y
                } else {
                    y + 1
                });
            }
            let (v, _, _) = self.resolve_frame(&g, None)?;
            return Some((mk(v, None, strong), e));
        }
        let (v, due, _) = self.resolve_frame(&f, None)?;
        Some((mk(v, due, strong), e))
    }

    /// The expression at `i` is, or directly follows, a preposition of time
    /// ("в ноябре", "in October", "на ноябрь"), as opposed to "за ноябрь", "for October".
    fn time_preposition(&self, i: usize) -> bool {
        let is = |lx: Lex| {
            matches!(
                lx,
                Lex::Kw(Kw::At | Kw::In | Kw::On | Kw::By | Kw::Until | Kw::Before)
            )
        };
        is(self.lx(i)) || i > 0 && is(self.lx(i - 1))
    }

    fn until_expr(&self, i: usize, k: Kw) -> Option<(Out, usize)> {
        let now = self.nl;
        let before = |end: NaiveDateTime, g: Grain| TimeValue {
            kind: Kind::Before,
            start: Some(now),
            end: Some(end),
            grain: g,
        };
        // до конца дня / by EOD / by the end of next month
        if let Some(r) = self.end_of_expr(i + 1) {
            return Some(r);
        }
        // "до НГ", "к новому году", "by New Year": done in the old year
        if let Some((d, e)) = self.new_year(i + 1)
            && d.month() == 1
        {
            let last = d - Duration::days(1);
            return Some((
                Out {
                    val: before(midnight(d), Grain::Day),
                    due: Some(Due {
                        date: last,
                        time: None,
                    }),
                    strong: true,
                },
                e,
            ));
        }
        // "до начала месяца", "by BOM": before the month (year) starts; week edges keep
        // their working-day reading
        let k0 = self.skip(i + 1, &[Kw::The]);
        if matches!(self.lx(k0), Lex::Kw(Kw::Begin | Kw::Bom | Kw::Boy))
            && let Some((o, e)) = self.edge_expr(i + 1)
            && !(k0..e).any(|t| self.lx(t) == Lex::Unit(Unit::Week))
            && let Some(mut s) = o.val.start
        {
            if s <= self.nl {
                match self.lx(k0) {
                    Lex::Kw(Kw::Bom) => s = add_months(s, 1)?,
                    Lex::Kw(Kw::Boy) => s = add_months(s, 12)?,
                    _ => {}
                }
            }
            let last = s.date() - Duration::days(1);
            return Some((
                Out {
                    val: before(s, Grain::Day),
                    due: (last >= self.today).then_some(Due {
                        date: last,
                        time: None,
                    }),
                    strong: true,
                },
                e,
            ));
        }
        if let Some((a, u, e)) = self.duration(i + 1, false)
            && !matches!(self.lx(e), Lex::Kw(Kw::Ago | Kw::Hence))
        {
            // "до 3 часов" is a clock; a bare duration after "до" is not a date
            let _ = (a, u);
        }
        let (f, e) = self.frame(i + 1, true)?;
        let (v, due, clock) = self.resolve_frame(&f, None)?;
        let start = v.start?;
        if f.weekend.is_some() && !clock && f.part.is_none() {
            // "до выходных": by the Friday it starts; on the weekend itself, the next one
            let mut fri = start.date();
            let mut end = start;
            if fri < self.today {
                fri += Duration::days(7);
                end += Duration::days(7);
            }
            return Some((
                Out {
                    val: before(end, Grain::Hour),
                    due: Some(Due {
                        date: fri,
                        time: None,
                    }),
                    strong: true,
                },
                e,
            ));
        }
        let date_only = !clock && v.grain == Grain::Day && f.part.is_none();
        if date_only && v.kind == Kind::Point && self.kw(e, Kw::Eod) {
            // "by tomorrow EOD"
            let d = start.date();
            return Some((
                Out {
                    val: before(midnight(d + Duration::days(1)), Grain::Day),
                    due: due.map(|x| Due {
                        date: x.date,
                        time: None,
                    }),
                    strong: true,
                },
                e + 1,
            ));
        }
        if date_only && matches!(k, Kw::Until | Kw::By) {
            return Some((
                Out {
                    val: v,
                    due,
                    strong: true,
                },
                e,
            ));
        }
        if f.part.is_some() && !clock {
            // "до вечера": the day of that part
            let d = start.date();
            return Some((
                Out {
                    val: before(start, Grain::Hour),
                    due: (d >= self.today).then_some(Due {
                        date: d,
                        time: None,
                    }),
                    strong: true,
                },
                e,
            ));
        }
        // "will close the MoU by this week", "by this month": the period under way, so by its
        // end (a week's on its Friday, as "by the end of the week").
        let current = !clock
            && k == Kw::By
            && start <= self.nl
            && matches!(
                v.grain,
                Grain::Week | Grain::Month | Grain::Quarter | Grain::Year
            );
        if current && let Some(end) = v.end.filter(|end| *end > self.nl) {
            let last = if v.grain == Grain::Week {
                start.date() + Duration::days(4)
            } else {
                end.date() - Duration::days(1)
            };
            return Some((
                Out {
                    val: before(end, v.grain),
                    due: (last >= self.today).then_some(Due {
                        date: last,
                        time: None,
                    }),
                    strong: true,
                },
                e,
            ));
        }
        let due = if clock {
            due
        } else {
            // "до марта", "before 2014": the last day before
            let last = start.date() - Duration::days(1);
            (last >= self.today).then_some(Due {
                date: last,
                time: None,
            })
        };
        Some((
            Out {
                val: before(start, v.grain),
                due,
                strong: true,
            },
            e,
        ))
    }

    /// "EOD", "конца недели", "end of the month" as a deadline: open until the period's end.
    /// "EOD Friday" / "COB tomorrow": the end of that day.
    fn end_of_expr(&self, i: usize) -> Option<(Out, usize)> {
        let (_, e, u, j) = self.end_of(i)?;
        let mut last = e.date() - Duration::days(1);
        let mut end = e;
        if u == Unit::Week && last < self.today {
            // said on the weekend: this working week is over, the coming one is meant
            last += Duration::days(7);
            end += Duration::days(7);
        }
        let mut j = j;
        if u == Unit::Day && e.date() == self.today + Duration::days(1) {
            // "EOD Friday", "by end of day tomorrow", "до конца дня пятницы",
            // "к концу дня в пятницу": the end of that day
            let acro = self.kw(i, Kw::Eod);
            let k = self.skip(j, &[Kw::On, Kw::At]);
            if let Some((f, e2)) = self.frame(k, false)
                && f.clock.is_none()
                && f.part.is_none()
                && (f.rel.is_some() || f.wd.is_some() || f.d.is_some() && (acro || f.m.is_some()))
                && let Some((v, Some(d), _)) = self.resolve_frame(&f, None)
                && v.kind == Kind::Point
            {
                last = d.date;
                end = midnight(d.date + Duration::days(1));
                j = e2;
            }
        }
        Some((
            Out {
                val: TimeValue {
                    kind: Kind::Before,
                    start: Some(self.nl),
                    end: Some(end),
                    grain: unit_grain(u),
                },
                due: (last >= self.today).then_some(Due {
                    date: last,
                    time: None,
                }),
                strong: true,
            },
            j,
        ))
    }

    /// "tomorrow after 5pm", "в пятницу после 15:00": open from that clock time on that
    /// day, not today.
    fn day_after_clock(&self, i: usize) -> Option<(Out, usize)> {
        if !matches!(
            self.lx(i),
            Lex::RelDay(_) | Lex::Wd(..) | Lex::Kw(Kw::On | Kw::In)
        ) {
            return None;
        }
        let (df, e) = self.frame(i, true)?;
        if !df.has_date() || df.clock.is_some() || df.part.is_some() || !self.kw(e, Kw::After) {
            return None;
        }
        let (mut cf, e2) = self.frame(e + 1, true)?;
        // "thurs after lunch", "в пятницу после обеда": that day's afternoon.
        if cf.clock.is_none() && cf.part == Some(Part::Lunch) && !cf.has_date() {
            let (v, _, _) = self.resolve_frame(&df, None)?;
            return Some((self.afternoon(v.start?.date(), true), e2));
        }
        if cf.clock.is_none() || cf.has_date() || !cf.merge(&df) {
            return None;
        }
        let (v, _, _) = self.resolve_frame(&cf, None)?;
        Some((Out::after(v.start, v.grain), e2))
    }

    /// The afternoon of day `d` (13:00–17:00), a deadline that day unless it has passed.
    fn afternoon(&self, d: NaiveDate, strong: bool) -> Out {
        Out {
            val: TimeValue {
                kind: Kind::Interval,
                start: d.and_hms_opt(13, 0, 0),
                end: d.and_hms_opt(17, 0, 0),
                grain: Grain::Hour,
            },
            due: (d >= self.today).then_some(Due {
                date: d,
                time: None,
            }),
            strong,
        }
    }

    fn after_expr(&self, i: usize) -> Option<(Out, usize)> {
        let dur_first = self
            .duration(i, false)
            .is_some_and(|(_, u, e)| u != Unit::Hour || self.w(e - 1).is_ascii());
        if !dur_first
            && let Some((f, e)) = self.frame(i, true)
            && f.clock.is_some()
            && let Some((v, _, _)) = self.resolve_frame(&f, None)
        {
            return Some((Out::after(v.start, v.grain), e));
        }
        if let Some((a, u, e)) = self.duration(i, false)
            && (u != Unit::Hour || self.w(e - 1).is_ascii())
        {
            let t = self.moved(a, u, 1)?;
            return Some((Out::after(Some(t), unit_grain(u)), e));
        }
        let (f, e) = self.frame(i, true)?;
        if f.part == Some(Part::Lunch) && f.clock.is_none() {
            // "после обеда", "after lunch": the afternoon of that day
            let (v, _, _) = self.resolve_frame(&f, None)?;
            return Some((self.afternoon(v.start?.date(), false), e));
        }
        if f.part.is_some() && f.clock.is_none() {
            return None;
        }
        let (v, _, _) = self.resolve_frame(&f, None)?;
        if f.weekend.is_some() && f.clock.is_none() && v.kind == Kind::Interval {
            // "после выходных": from the Monday after, which is also the deadline
            let mon = v.end?;
            return Some((
                Out {
                    val: TimeValue {
                        kind: Kind::After,
                        start: Some(mon),
                        end: None,
                        grain: Grain::Day,
                    },
                    due: (mon.date() >= self.today).then_some(Due {
                        date: mon.date(),
                        time: None,
                    }),
                    strong: false,
                },
                e,
            ));
        }
        Some((Out::after(v.start, v.grain), e))
    }

    fn within(&self, i: usize) -> Option<(Out, usize)> {
        let (a, u, e) = self.duration(i, true)?;
        let t = self.moved(a, u, 1)?;
        let end = match u {
            Unit::Second | Unit::Minute | Unit::Hour => t,
            _ => midnight(t.date()),
        };
        let last = if end.time() == NaiveTime::MIN {
            end.date() - Duration::days(1)
        } else {
            end.date()
        };
        Some((
            Out {
                val: TimeValue {
                    kind: Kind::Interval,
                    start: Some(self.nl),
                    end: Some(end),
                    grain: Grain::Second,
                },
                due: Some(Due {
                    date: last.max(self.today),
                    time: None,
                }),
                strong: true,
            },
            e,
        ))
    }

    /// "next 3 days", "последние 2 недели", "next few days".
    fn next_n(&self, i: usize) -> Option<(Out, usize)> {
        let dir: i64 = if self.kw(i, Kw::Next) { 1 } else { -1 };
        let upcoming = self.w(i) == "upcoming";
        let (n, e) = match self.lx(i + 1) {
            Lex::Kw(Kw::Few) => (3, i + 2),
            // "в ближайшие дни", "in the coming days": a vague couple of days
            _ if dir > 0 && matches!(self.w(i + 1), "дни" | "days") => (2, i + 1),
            _ => self.count(i + 1)?,
        };
        let u = self.unit(e)?;
        if n == 0 || n > 1000 {
            return None;
        }
        let n = i64::from(n);
        let base = trunc(self.nl, u);
        let g = unit_grain(u);
        if upcoming {
            let s = shift(base, u, n)?;
            return Some((
                Out {
                    val: TimeValue {
                        kind: Kind::Point,
                        start: Some(s),
                        end: None,
                        grain: g,
                    },
                    due: Some(Due {
                        date: s.date(),
                        time: None,
                    }),
                    strong: false,
                },
                e + 1,
            ));
        }
        let (s, en) = if dir > 0 {
            let s = shift(base, u, 1)?;
            (s, shift(s, u, n)?)
        } else {
            (shift(base, u, -n)?, base)
        };
        let last = en.date() - Duration::days(1);
        Some((
            Out {
                val: TimeValue {
                    kind: Kind::Interval,
                    start: Some(s),
                    end: Some(en),
                    grain: g,
                },
                due: (dir > 0).then_some(Due {
                    date: last.max(self.today),
                    time: None,
                }),
                strong: false,
            },
            e + 1,
        ))
    }

    /// "first Monday of March", "last friday of october", "third day of october",
    /// "first week of october 2014", "last weekend of October".
    fn nth_of(&self, i: usize) -> Option<(Out, usize)> {
        let k = self.skip(i, &[Kw::The]);
        let (nth, k): (i64, usize) = match self.lx(k) {
            Lex::Kw(Kw::Last) => (-1, k + 1),
            _ => {
                let (n, e) = self.ord_day(k)?;
                if n > 5 {
                    return None;
                }
                if self.kw(e, Kw::Last) {
                    (-i64::from(n), e + 1)
                } else {
                    (i64::from(n), e)
                }
            }
        };
        #[derive(Clone, Copy, PartialEq)]
        enum W {
            Wd(u32),
            Day,
            Week,
            Weekend,
        }
        let what = match self.lx(k) {
            Lex::Wd(d, false) => W::Wd(d),
            Lex::Unit(Unit::Day) => W::Day,
            Lex::Unit(Unit::Week) => W::Week,
            Lex::Kw(Kw::Weekend) => W::Weekend,
            _ => return None,
        };
        let mut e = k + 1;
        if !matches!(self.lx(e), Lex::Kw(Kw::Of | Kw::In)) {
            return None;
        }
        e = self.skip(e + 1, &[Kw::The]);
        // the containing span: a month (named or relative) or a year
        let (s, en) = if let Lex::Month(m) = self.lx(e) {
            let (f, e2) = self.date_atom(e, true)?;
            if f.d.is_some() {
                return None;
            }
            let y = f.y.unwrap_or(if m >= self.today.month() {
                self.today.year()
            } else {
                self.today.year() + 1
            });
            e = e2;
            let s = ymd(y, m, 1)?;
            (s, add_months(midnight(s), 1)?.date())
        } else if let Some((y, e2)) = self.year_after(e, false) {
            e = e2;
            (ymd(y, 1, 1)?, ymd(y + 1, 1, 1)?)
        } else {
            let off = match self.lx(e) {
                Lex::Kw(Kw::Next) => {
                    e += 1;
                    1
                }
                Lex::Kw(Kw::Last | Kw::Past) => {
                    e += 1;
                    -1
                }
                Lex::Kw(Kw::This) => {
                    e += 1;
                    0
                }
                _ => 0,
            };
            if self.lx(e) != Lex::Unit(Unit::Month) {
                return None;
            }
            e += 1;
            let s = add_months(trunc(self.nl, Unit::Month), off)?.date();
            (s, add_months(midnight(s), 1)?.date())
        };
        let days: Vec<NaiveDate> = s.iter_days().take_while(|d| *d < en).collect();
        let fits = |d: &NaiveDate| -> bool {
            match what {
                W::Wd(w) => d.weekday().num_days_from_monday() == w,
                W::Day => true,
                W::Week => {
                    d.weekday().num_days_from_monday() == 0
                        && (nth > 0 || *d + Duration::days(6) < en)
                }
                W::Weekend => {
                    d.weekday().num_days_from_monday() == 4 && *d + Duration::days(2) < en
                }
            }
        };
        let c: Vec<&NaiveDate> = days.iter().filter(|d| fits(d)).collect();
        let idx = if nth > 0 {
            nth - 1
        } else {
            c.len() as i64 + nth
        };
        let d = **c.get(usize::try_from(idx).ok()?)?;
        let (val, due_d) = match what {
            W::Weekend => (
                TimeValue {
                    kind: Kind::Interval,
                    start: d.and_hms_opt(18, 0, 0),
                    end: Some(midnight(d + Duration::days(3))),
                    grain: Grain::Hour,
                },
                d + Duration::days(1),
            ),
            W::Week => (
                TimeValue {
                    kind: Kind::Interval,
                    start: Some(midnight(d)),
                    end: Some(midnight(d + Duration::days(7))),
                    grain: Grain::Week,
                },
                d + Duration::days(4),
            ),
            _ => (
                TimeValue {
                    kind: Kind::Point,
                    start: Some(midnight(d)),
                    end: None,
                    grain: Grain::Day,
                },
                d,
            ),
        };
        let due = (due_d >= self.today).then_some(Due {
            date: due_d,
            time: None,
        });
        Some((
            Out {
                val,
                due,
                strong: false,
            },
            e,
        ))
    }

    /// "4pm for 30 mins", "from 18th Dec for 10 days", "for 30' starting from 4pm".
    fn for_duration(&self, i: usize) -> Option<(Out, usize)> {
        let (f, dur, e) = if self.w(i) == "for" {
            let (a, u, e) = self.duration(i + 1, false)?;
            let k = self.skip(e, &[Kw::From]);
            if k == e {
                return None;
            }
            let (f, e2) = self.frame(k, true)?;
            (f, (a, u), e2)
        } else {
            let k = self.skip(i, &[Kw::From]);
            let (f, e) = self.frame(k, k > i)?;
            if self.w(e) != "for" {
                return None;
            }
            let (a, u, e2) = self.duration(e + 1, false)?;
            (f, (a, u), e2)
        };
        let (v, _, _) = self.resolve_frame(&f, None)?;
        let s = v.start?;
        let whole = dur.0.round() as i64;
        let end = shift(s, dur.1, whole)?;
        let end = shift(
            end,
            if dur.1 == Unit::Day {
                Unit::Day
            } else {
                Unit::Minute
            },
            1,
        )?;
        Some((
            Out {
                val: TimeValue {
                    kind: Kind::Interval,
                    start: Some(s),
                    end: Some(end),
                    grain: v.grain,
                },
                due: None,
                strong: false,
            },
            e,
        ))
    }

    /// "2 upcoming weeks" (a point, as Duckling reads it).
    fn upcoming(&self, i: usize) -> Option<(Out, usize)> {
        let (n, e) = self.count(i)?;
        if self.w(e) != "upcoming" {
            return None;
        }
        let u = self.unit(e + 1)?;
        let s = shift(trunc(self.nl, u), u, i64::from(n))?;
        Some((
            Out {
                val: TimeValue {
                    kind: Kind::Point,
                    start: Some(s),
                    end: None,
                    grain: unit_grain(u),
                },
                due: None,
                strong: false,
            },
            e + 2,
        ))
    }

    /// The period named after "end of"/"конца": its bounds and unit.
    /// Returns (start, exclusive end, unit, next token).
    fn end_of(&self, i: usize) -> Option<(NaiveDateTime, NaiveDateTime, Unit, usize)> {
        let mut k = self.skip(i, &[Kw::The]);
        let u_for = |kw: Kw| match kw {
            Kw::Eod => Some(Unit::Day),
            Kw::Eow => Some(Unit::Week),
            Kw::Eom => Some(Unit::Month),
            Kw::Eoy => Some(Unit::Year),
            _ => None,
        };
        if let Lex::Kw(kw) = self.lx(k)
            && let Some(u) = u_for(kw)
        {
            if self.acronym_noun(k) {
                return None;
            }
            let s = trunc(self.nl, u);
            let e = if u == Unit::Week {
                midnight(s.date() + Duration::days(5))
            } else {
                shift(s, u, 1)?
            };
            return Some((s, e, u, k + 1));
        }
        if !self.kw(k, Kw::End) {
            return None;
        }
        k = self.skip(k + 1, &[Kw::Of, Kw::The]);
        let off: i64 = match self.lx(k) {
            Lex::Kw(Kw::Next) => {
                k += 1;
                1
            }
            Lex::Kw(Kw::Last | Kw::Past) => {
                k += 1;
                -1
            }
            Lex::Kw(Kw::This) => {
                k += 1;
                0
            }
            _ => 0,
        };
        let u = match self.lx(k) {
            Lex::Unit(u @ (Unit::Day | Unit::Week | Unit::Month | Unit::Quarter | Unit::Year)) => u,
            _ => return None,
        };
        let s = shift(trunc(self.nl, u), u, off)?;
        let e = if u == Unit::Week {
            // the working week ends with Friday
            midnight(s.date() + Duration::days(5))
        } else {
            shift(s, u, 1)?
        };
        Some((s, e, u, k + 1))
    }

    /// "end of the month", "EOM", "beginning of next week", "в конце месяца", "mid March".
    fn edge_expr(&self, i: usize) -> Option<(Out, usize)> {
        let mut k = self.skip(i, &[Kw::At, Kw::The, Kw::In]);
        #[derive(PartialEq, Clone, Copy)]
        enum E {
            Begin,
            Mid,
            End,
        }
        // "before month end", "by year-end": the unit's end, said the other way round.
        let unit_end = match self.lx(k) {
            Lex::Unit(u @ (Unit::Month | Unit::Quarter | Unit::Year)) => {
                if self.w(k + 1) == "end" {
                    Some((u, 1))
                } else if self.sym(k + 1, '-') && self.w(k + 2) == "end" {
                    Some((u, 2))
                } else {
                    None
                }
            }
            _ => None,
        };
        let (edge, mut per): (E, Option<(Unit, i64)>) = match self.lx(k) {
            _ if let Some((u, n)) = unit_end => {
                k += n;
                (E::End, Some((u, 0)))
            }
            Lex::Kw(Kw::Eom) => (E::End, Some((Unit::Month, 0))),
            Lex::Kw(Kw::Eoy) => (E::End, Some((Unit::Year, 0))),
            Lex::Kw(Kw::Bom) => (E::Begin, Some((Unit::Month, 0))),
            Lex::Kw(Kw::Boy) => (E::Begin, Some((Unit::Year, 0))),
            Lex::Kw(Kw::End | Kw::Late) => (E::End, None),
            Lex::Kw(Kw::Begin | Kw::Early) => (E::Begin, None),
            Lex::Kw(Kw::Mid) => (E::Mid, None),
            _ => return None,
        };
        if self.acronym_noun(k) {
            return None;
        }
        k += 1;
        let mut month: Option<(i32, u32)> = None;
        let mut year: Option<i32> = None;
        // "в начале месяца" with no "this"/"next": in running text, the coming one
        let mut implicit = false;
        if per.is_none() {
            k = self.skip(k, &[Kw::Of, Kw::The]);
            let off: Option<i64> = match self.lx(k) {
                Lex::Kw(Kw::Next) => Some(1),
                Lex::Kw(Kw::Last | Kw::Past) => Some(-1),
                Lex::Kw(Kw::This) => Some(0),
                _ => None,
            };
            if off.is_some() {
                k += 1;
            }
            match self.lx(k) {
                Lex::Unit(u @ (Unit::Week | Unit::Month | Unit::Year)) => {
                    per = Some((u, off.unwrap_or(0)));
                    implicit = off.is_none();
                    k += 1;
                }
                Lex::Month(m) if off.is_none() => {
                    let (f, e) = self.date_atom(k, true)?;
                    if f.d.is_some() {
                        return None;
                    }
                    let y = f.y.unwrap_or(if m >= self.today.month() {
                        self.today.year()
                    } else {
                        self.today.year() + 1
                    });
                    month = Some((y, m));
                    k = e;
                }
                Lex::Num(v, 4) if off.is_none() && (1000..=2999).contains(&v) => {
                    year = Some(v as i32);
                    k += 1;
                }
                _ => return None,
            }
        }
        let bounds = |off: i64| -> Option<(NaiveDateTime, NaiveDateTime, Unit)> {
            if let Some((y, m)) = month {
                let s = midnight(ymd(y, m, 1)?);
                Some((s, add_months(s, 1)?, Unit::Month))
            } else if let Some(y) = year {
                let s = midnight(ymd(y, 1, 1)?);
                Some((s, add_months(s, 12)?, Unit::Year))
            } else {
                let (u, o) = per?;
                let s = shift(trunc(self.nl, u), u, o + off)?;
                Some((s, shift(s, u, 1)?, u))
            }
        };
        let (mut s, mut e, u) = bounds(0)?;
        if self.strict
            && implicit
            && edge_due(s, e, u, edge == E::Begin, edge == E::End)? < self.today
        {
            (s, e, _) = bounds(1)?;
        }
        let (a, b, g) = match (u, edge) {
            (Unit::Week, E::Begin) => (s, s + Duration::days(3), Grain::Day),
            (Unit::Week, E::Mid) => (s + Duration::days(2), s + Duration::days(5), Grain::Day),
            (Unit::Week, E::End) => (s + Duration::days(4), e, Grain::Day),
            (Unit::Month, E::Begin) => (s, s + Duration::days(10), Grain::Day),
            (Unit::Month, E::Mid) => (s + Duration::days(10), s + Duration::days(20), Grain::Day),
            (Unit::Month, E::End) => (s + Duration::days(20), e, Grain::Day),
            (Unit::Year, E::Begin) => (s, add_months(s, 3)?, Grain::Month),
            (Unit::Year, E::Mid) => (add_months(s, 4)?, add_months(s, 8)?, Grain::Month),
            (Unit::Year, E::End) => (add_months(s, 8)?, e, Grain::Month),
            _ => return None,
        };
        let due_d = match (u, edge) {
            (Unit::Week, _) | (_, E::End) => edge_due(s, e, u, edge == E::Begin, edge == E::End)?,
            _ => b.date() - Duration::days(1),
        };
        Some((
            Out {
                val: TimeValue {
                    kind: Kind::Interval,
                    start: Some(a),
                    end: Some(b),
                    grain: g,
                },
                due: (due_d >= self.today).then_some(Due {
                    date: due_d,
                    time: None,
                }),
                strong: false,
            },
            k,
        ))
    }

    fn side(&self, i: usize, pref: bool) -> Option<(Side, usize)> {
        if let Some((f, e)) = self.frame(i, pref)
            && !(f.weak && f.n == 1)
        {
            return Some((Side::F(f), e));
        }
        // a bare number waiting for the other side: "13" in "13 - 15 июля"
        let i0 = self.skip(i, &[Kw::The]);
        if let Some((d, j)) = self.ord_day(i0) {
            return Some((Side::Bare(d), j));
        }
        if let Some((v, nd)) = self.num(i0)
            && nd <= 2
            && v <= 31
        {
            let mut j = i0 + 1;
            if self.sym(j, '.') && self.adj(j) {
                j += 1;
            }
            if self.kw(j, Kw::Ish) {
                j += 1;
            }
            return Some((Side::Bare(v), j));
        }
        if let Some((v, j)) = self.card(i0)
            && v <= 24
        {
            return Some((Side::Bare(v), j));
        }
        None
    }

    fn range(&self, i: usize) -> Option<(Out, usize)> {
        self.range_with(i, None)
    }

    fn range_with(&self, i: usize, ctx: Option<Frame>) -> Option<(Out, usize)> {
        let (a, j) = self.side(i, ctx.is_some())?;
        let conn = matches!(
            self.lx(j),
            Lex::Sym('-' | '–' | '—' | '/') | Lex::Kw(Kw::To | Kw::Until | Kw::And)
        );
        if !conn {
            return None;
        }
        let day_left = matches!(a, Side::F(f) if f.d.is_some() && f.clock.is_none());
        let (b, e) = self.side(j + 1, !day_left)?;
        let (mut a, mut b) = (a, b);
        if let Some(c) = ctx {
            for s in [&mut a, &mut b] {
                if let Side::F(f) = s {
                    let _ = f.merge(&Frame {
                        y: c.y,
                        m: c.m,
                        d: c.d,
                        wd: c.wd,
                        wk: c.wk,
                        rel: c.rel,
                        ..Frame::default()
                    });
                }
            }
        }
        self.combine(a, b, e)
    }

    fn combine(&self, a: Side, b: Side, e: usize) -> Option<(Out, usize)> {
        let date_of = |f: &Frame| Frame {
            y: f.y,
            m: f.m,
            wd: f.wd,
            wk: f.wk,
            rel: f.rel,
            abs: f.abs.filter(|_| false),
            per: f.per,
            tz: f.tz,
            ..Frame::default()
        };
        let bare_like = |n: u32, other: &Frame| -> Option<Frame> {
            if other.d.is_some() {
                Some(Frame {
                    d: Some(n),
                    m: other.m,
                    y: other.y,
                    n: 1,
                    ..Frame::default()
                })
            } else if let Some(c) = other.clock {
                if n > 24 {
                    return None;
                }
                let mut f = date_of(other);
                f.clock = Some(Clock {
                    h: n,
                    g: c.g
                        .map(|g| if g == Grain::Second { Grain::Minute } else { g }),
                    amb: (1..=12).contains(&n),
                    ..Clock::default()
                });
                f.part = other.part;
                f.n = 1;
                Some(f)
            } else {
                None
            }
        };
        let (mut fa, mut fb) = match (a, b) {
            (Side::F(x), Side::F(y)) => (x, y),
            (Side::Bare(n), Side::F(y)) => (bare_like(n, &y)?, y),
            (Side::F(x), Side::Bare(n)) => {
                let y = bare_like(n, &x)?;
                (x, y)
            }
            _ => return None,
        };
        // share the date between the sides
        if fa.clock.is_some() && fb.clock.is_some() {
            let db = date_of(&fb);
            let da = date_of(&fa);
            if !fa.has_date() {
                let _ = fa.merge(&db);
            }
            if !fb.has_date() {
                let _ = fb.merge(&da);
            }
            if fa.tz.is_none() {
                fa.tz = fb.tz;
            }
            // "3-4pm": the first side takes the second's half of the day
            if let (Some(ca), Some(cb)) = (fa.clock.as_mut(), fb.clock) {
                if ca.amb && cb.pm == Some(true) && ca.h < 12 && ca.h + 12 <= cb.h {
                    ca.h += 12;
                    ca.amb = false;
                }
                if ca.amb && cb.pm == Some(false) {
                    ca.amb = false;
                }
            }
            if fa.part.is_none() {
                fa.part = fb.part;
            }
        } else if fa.d.is_some() && fb.d.is_some() {
            if fa.m.is_none() {
                fa.m = fb.m;
            }
            if fa.y.is_none() {
                fa.y = year_before(&fa, &fb);
            }
            if fb.m.is_none() {
                fb.m = fa.m;
            }
            if fb.y.is_none() && fb.m == fa.m {
                fb.y = fa.y;
            }
        } else if fa.has_date() && fb.has_date() && fa.clock.is_none() && fb.clock.is_none() {
            // "from March to June 2021": the year said once at the end is both sides'
            if fa.y.is_none() && fa.m.is_some() && fb.m.is_some() {
                fa.y = year_before(&fa, &fb);
            }
        } else {
            return None;
        }
        let (va, _, _) = self.resolve_frame(&fa, None)?;
        let sa = va.start?;
        let (vb, due_b, _) = self.resolve_frame(&fb, Some(sa))?;
        let sb = vb.start?;
        let g = va.grain;
        let fine = if (va.grain as u8) < (vb.grain as u8) {
            va.grain
        } else {
            vb.grain
        };
        let end = match vb.kind {
            Kind::Interval => vb.end?,
            _ => match fine {
                Grain::Second => sb + Duration::seconds(1),
                Grain::Minute => sb + Duration::minutes(1),
                Grain::Hour => sb + Duration::hours(1),
                Grain::Day => sb + Duration::days(1),
                _ => vb.end.unwrap_or(sb),
            },
        };
        if end <= sa {
            return None;
        }
        Some((
            Out {
                val: TimeValue {
                    kind: Kind::Interval,
                    start: Some(sa),
                    end: Some(end),
                    grain: g,
                },
                due: due_b,
                strong: false,
            },
            e,
        ))
    }
}

/// The year of a range's first side when only the second says one: the same year, or the
/// year before when the first side's month and day come later ("28 декабря – 3 января 2021").
fn year_before(a: &Frame, b: &Frame) -> Option<i32> {
    let y = b.y?;
    let later = (a.m, a.d.unwrap_or(1)) > (b.m, b.d.unwrap_or(1));
    Some(if later && a.m.is_some() && b.m.is_some() {
        y - 1
    } else {
        y
    })
}

fn is_determiner(w: &str) -> bool {
    matches!(
        w,
        "the"
            | "a"
            | "an"
            | "this"
            | "that"
            | "these"
            | "those"
            | "our"
            | "my"
            | "your"
            | "their"
            | "his"
            | "her"
            | "its"
            | "each"
            | "every"
            | "any"
            | "no"
            | "some"
    )
}

/// The deadline day of a period's edge. A week's edges are days of the working week
/// (beginning Monday, middle Wednesday, end Friday); a month's or year's end is its last
/// day; its beginning and middle end with the first and second thirds.
fn edge_due(
    s: NaiveDateTime,
    e: NaiveDateTime,
    u: Unit,
    begin: bool,
    end: bool,
) -> Option<NaiveDate> {
    let d = s.date();
    Some(match (u, begin, end) {
        (Unit::Week, true, _) => d,
        (Unit::Week, _, true) => d + Duration::days(4),
        (Unit::Week, _, _) => d + Duration::days(2),
        (_, _, true) => e.date() - Duration::days(1),
        (Unit::Year, true, _) => add_months(s, 3)?.date() - Duration::days(1),
        (Unit::Year, _, _) => add_months(s, 8)?.date() - Duration::days(1),
        (_, true, _) => d + Duration::days(9),
        _ => d + Duration::days(19),
    })
}

fn part_bounds(p: Part) -> (u32, u32) {
    match p {
        Part::Morning => (0, 12),
        Part::EarlyMorning => (0, 9),
        Part::Afternoon => (12, 19),
        Part::Evening => (18, 24),
        Part::LateEvening => (21, 24),
        Part::Night => (0, 4),
        Part::Lunch => (12, 14),
    }
}

/// A part of day fixes the half of an ambiguous hour: "8 вечера" = 20:00, "3 утра" = 03:00.
fn apply_part(c: &mut Clock, p: Part) {
    if c.h > 12 || !c.amb && c.pm.is_some() {
        c.amb = false;
        return;
    }
    match p {
        Part::Morning | Part::EarlyMorning => {
            if c.h == 12 {
                c.h = 0;
            }
        }
        Part::Afternoon | Part::Lunch => {
            if c.h < 12 && (c.h <= 7 || p == Part::Lunch || c.amb) {
                c.h += 12;
            }
        }
        Part::Evening | Part::LateEvening => {
            if c.h < 12 {
                c.h += 12;
            } else if c.h == 12 {
                c.h = 0;
                c.midnight = true;
            }
        }
        Part::Night => {
            if c.h == 12 {
                c.h = 0;
            } else if c.h >= 6 {
                c.h += 12;
            }
        }
    }
    c.amb = false;
    c.pm.get_or_insert(c.h >= 12);
}

/// Words before a number that make it a version or a build (`lexicon/versions.txt`).
fn versions() -> &'static [&'static str] {
    static LIST: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    LIST.get_or_init(|| {
        crate::extract::words::lexicon_words(include_str!("../../../lexicon/versions.txt"))
            .collect()
    })
}
