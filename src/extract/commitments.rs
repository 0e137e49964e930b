//! Commitments in chat messages: made, requested, accepted, moved, done, cancelled.
//!
//! Pure rules, no model: the text is tokenised once, every token is looked up once in a word
//! table (its classes) and in a small Russian verb lexicon (which form of which verb it is:
//! "доделаю" is a 1st-person future of "доделать", "подготовь" its imperative, "отправила" its
//! past). The rule families then run in a fixed order — cancelled, moved, accept, request,
//! offer, made, done — each with the vetoes that keep wishes, conditionals, questions, retold
//! promises, absence notes and progress notes out. Deadlines come from `super::dates`.

use std::cell::{Cell, OnceCell};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::{Mutex, OnceLock, PoisonError};

use chrono::{DateTime, Duration};
use chrono_tz::Tz;

use super::Lang;
use super::dates::Due;
use super::names::{NameIndex, Person};
use super::names::{WordHash, fast_tokens};
use super::words::stem;

/// One message as the extractor sees it.
#[derive(Debug, Clone)]
pub struct MessageInput<'a> {
    pub text: &'a str,
    /// The message's own date in the org's timezone: dates resolve against it.
    pub now: DateTime<Tz>,
    pub speaker: i64,
    /// People of the org (for addressees).
    pub people: &'a [Person],
    /// Users mentioned through Telegram entities (text mentions), in order.
    pub mentions: &'a [i64],
    /// `None`: detect from the text.
    pub lang: Option<Lang>,
}

/// What a message says about commitments.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Finding {
    /// The speaker promises to do something.
    Made { content: String, due: Option<Due> },
    /// The speaker asks or assigns someone (or, with `None`, whoever answers) to do something.
    Request {
        addressee: Option<i64>,
        content: String,
        due: Option<Due>,
    },
    /// The speaker offers to do something under a condition; it becomes a commitment if accepted.
    Offer { content: String, due: Option<Due> },
    /// The speaker agrees ("да", "ок, сделаю", "👍"), possibly naming a date ("тогда к 20-му").
    Accept { due: Option<Due> },
    /// A commitment shifts; `due` is the new deadline when the message names one.
    Moved {
        due: Option<Due>,
        words: Vec<String>,
    },
    /// A commitment is finished.
    Done { words: Vec<String> },
    /// A commitment is called off.
    Cancelled { words: Vec<String> },
}

impl Finding {
    /// The finding's family as a short lower-case label ("made", "request", "accept"...).
    pub fn label(&self) -> &'static str {
        match self {
            Finding::Made { .. } => "made",
            Finding::Request { .. } => "request",
            Finding::Offer { .. } => "offer",
            Finding::Accept { .. } => "accept",
            Finding::Moved { .. } => "moved",
            Finding::Done { .. } => "done",
            Finding::Cancelled { .. } => "cancelled",
        }
    }

    /// The deadline the finding carries, if any.
    pub fn due(&self) -> Option<Due> {
        match self {
            Finding::Made { due, .. }
            | Finding::Request { due, .. }
            | Finding::Offer { due, .. }
            | Finding::Accept { due }
            | Finding::Moved { due, .. } => *due,
            Finding::Done { .. } | Finding::Cancelled { .. } => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lexicon

/// Which form of a lexicon verb a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Inf,
    /// 1st person singular future ("сделаю") — a promise.
    Fut1,
    /// 1st person plural future ("сделаем").
    Fut1Pl,
    /// Imperative ("сделай", "сделайте") — a request.
    Imp,
    /// Past ("сделал", "сделала", "сделали") — a report.
    Past,
    /// 2nd person future ("сделаешь?") — a request when asked.
    Fut2,
}

#[derive(Debug, Clone, Copy)]
struct Verb {
    inf: &'static str,
    form: Form,
    /// Verbs of taking something on ("возьму", "займусь"): the object alone names the promise,
    /// and their past means "started", not "finished".
    take: bool,
    /// Auxiliaries ("постараюсь", "попробую"): the following infinitive carries the meaning.
    aux: bool,
}

/// infinitive, 1sg future, imperative, past (masculine), 2sg future; alternatives split by `|`;
/// optional flag `t` (taking on) or `a` (auxiliary). `ё` is written `е` (tokens fold it).
const RU_VERBS: &str = "\
сделать сделаю|зделаю сделай сделал сделаешь
сшить сошью сшей сшил сошьешь
пошить пошью пошей пошил пошьешь
подшить подошью подшей подшил подошьешь
переплести переплету переплети переплел переплетешь
нарезать нарежу нарежь нарезал нарежешь
вырезать вырежу вырежь вырезал вырежешь
доделать доделаю доделай доделал доделаешь
переделать переделаю переделай переделал переделаешь
подготовить подготовлю подготовь подготовил подготовишь
скинуть скину скинь скинул скинешь
прислать пришлю пришли прислал пришлешь
выслать вышлю вышли выслал вышлешь
переслать перешлю перешли переслал перешлешь
разослать разошлю разошли разослал разошлешь
отправить отправлю отправь отправил отправишь
посмотреть посмотрю|посмотрю посмотри посмотрел посмотришь
глянуть гляну глянь глянул глянешь
выйти выйду выйди вышел выйдешь
снять сниму сними снял снимешь
проверить проверю проверь проверил проверишь
заняться займусь займись занялся займешься t
взять возьму возьми взял возьмешь t
взяться возьмусь возьмись взялся возьмешься t
запушить запушу запушь запушил запушишь
залить залью залей залил зальешь
влить волью влей влил вольешь
выкатить выкачу выкати выкатил выкатишь
накатить накачу накати накатил накатишь
задеплоить задеплою задеплой задеплоил задеплоишь
написать напишу напиши написал напишешь
дописать допишу допиши дописал допишешь
описать опишу опиши описал опишешь
расписать распишу распиши расписал распишешь
позвонить позвоню позвони позвонил позвонишь
перезвонить перезвоню перезвони перезвонил перезвонишь
набрать наберу набери набрал наберешь
заказать закажу закажи заказал закажешь
оформить оформлю оформи оформил оформишь
собрать соберу собери собрал соберешь
узнать узнаю узнай узнал узнаешь
уточнить уточню уточни уточнил уточнишь
выяснить выясню выясни выяснил выяснишь
согласовать согласую согласуй согласовал согласуешь
организовать организую организуй организовал организуешь
добавить добавлю добавь добавил добавишь
обновить обновлю обнови обновил обновишь
исправить исправлю исправь исправил исправишь
поправить поправлю поправь поправил поправишь
починить починю почини починил починишь
пофиксить пофикшу|пофиксю пофикси пофиксил пофиксишь
закрыть закрою закрой закрыл закроешь
закончить закончу закончи закончил закончишь
завершить завершу заверши завершил завершишь
отгрузить отгружу отгрузи отгрузил отгрузишь
погрузить погружу погрузи погрузил погрузишь
выгрузить выгружу выгрузи выгрузил выгрузишь
загрузить загружу загрузи загрузил загрузишь
привезти привезу привези привез привезешь
отвезти отвезу отвези отвез отвезешь
подписать подпишу подпиши подписал подпишешь
оплатить оплачу оплати оплатил оплатишь
передать передам передай передал передашь
создать создам создай создал создашь
сдать сдам сдай сдал сдашь
подать подам подай подал подашь
выложить выложу выложи выложил выложишь
подключить подключу подключи подключил подключишь
настроить настрою настрой настроил настроишь
разобраться разберусь разберись разобрался разберешься
протестировать протестирую протестируй протестировал протестируешь
потестить потещу потести потестил потестишь
смержить смержу смержи смержил смержишь
замержить замержу замержи замержил замержишь
ответить отвечу ответь ответил ответишь
связаться свяжусь свяжись связался свяжешься
договориться договорюсь договорись договорился договоришься
провести проведу проведи провел проведешь
запустить запущу запусти запустил запустишь
доработать доработаю доработай доработал доработаешь
посчитать посчитаю посчитай посчитал посчитаешь
рассчитать рассчитаю рассчитай рассчитал рассчитаешь
пересчитать пересчитаю пересчитай пересчитал пересчитаешь
сверить сверю сверь сверил сверишь
выставить выставлю выставь выставил выставишь
закупить закуплю закупи закупил закупишь
купить куплю купи купил купишь
доставить доставлю доставь доставил доставишь
забрать заберу забери забрал заберешь
принести принесу принеси принес принесешь
распечатать распечатаю распечатай распечатал распечатаешь
напомнить напомню напомни напомнил напомнишь
поговорить поговорю поговори поговорил поговоришь
обсудить обсужу обсуди обсудил обсудишь
отписаться отпишусь отпишись отписался отпишешься
решить решу реши решил решишь
сформировать сформирую сформируй сформировал сформируешь
составить составлю составь составил составишь
заполнить заполню заполни заполнил заполнишь
внести внесу внеси внес внесешь
поменять поменяю поменяй поменял поменяешь
заменить заменю замени заменил заменишь
убрать уберу убери убрал уберешь
удалить удалю удали удалил удалишь
развернуть разверну разверни развернул развернешь
поднять подниму подними поднял поднимешь
выпустить выпущу выпусти выпустил выпустишь
зарелизить зарелижу зарелизь зарелизил зарелизишь
релизнуть релизну релизни релизнул релизнешь
отревьюить отревьюю отревьюй отревьюил отревьюишь
перевести переведу переведи перевел переведешь
нарисовать нарисую нарисуй нарисовал нарисуешь
сверстать сверстаю сверстай сверстал сверстаешь
подтвердить подтвержу подтверди подтвердил подтвердишь
обработать обработаю обработай обработал обработаешь
найти найду найди нашел|нашла|нашли найдешь
поискать поищу поищи поискал поищешь
изучить изучу изучи изучил изучишь
прочитать прочитаю прочитай прочитал прочитаешь
вернуть верну верни вернул вернешь
упаковать упакую упакуй упаковал упакуешь
покрасить покрашу покрась покрасил покрасишь
смонтировать смонтирую смонтируй смонтировал смонтируешь
установить установлю установи установил установишь
поставить поставлю поставь поставил поставишь
наладить налажу наладь наладил наладишь
отремонтировать отремонтирую отремонтируй отремонтировал отремонтируешь
заменить заменю замени заменил заменишь
подтянуть подтяну подтяни подтянул подтянешь
свести сведу сведи свел сведешь
подбить подобью подбей подбил подобьешь
зарезервировать зарезервирую зарезервируй зарезервировал зарезервируешь
забронировать забронирую забронируй забронировал забронируешь
записать запишу запиши записал запишешь
созвониться созвонюсь созвонись созвонился созвонишься
встретить встречу встреть встретил встретишь
принять приму прими принял примешь
почистить почищу почисти почистил почистишь
настроить настрою настрой настроил настроишь
продлить продлю продли продлил продлишь
зафиксировать зафиксирую зафиксируй зафиксировал зафиксируешь
прогнать прогоню прогони прогнал прогонишь
скачать скачаю скачай скачал скачаешь
выгрузить выгружу выгрузи выгрузил выгрузишь
списать спишу спиши списал спишешь
провести проведу проведи провел проведешь
разместить размещу размести разместил разместишь
прислать пришлю пришли прислал пришлешь
дать дам дай дал дашь
показать покажу покажи показал покажешь
объяснить объясню объясни объяснил объяснишь
помочь помогу помоги помог поможешь
обзвонить обзвоню обзвони обзвонил обзвонишь
прозвонить прозвоню прозвони прозвонил прозвонишь
дозвониться дозвонюсь дозвонись дозвонился дозвонишься
перебрать переберу перебери перебрал переберешь
разобрать разберу разбери разобрал разберешь
подобрать подберу подбери подобрал подберешь
выбрать выберу выбери выбрал выберешь
съездить съезжу съезди съездил съездишь
сходить схожу сходи сходил сходишь
заехать заеду заедь|заезжай заехал заедешь
заскочить заскочу заскочи заскочил заскочишь
зайти зайду зайди зашел|зашла|зашли зайдешь
подъехать подъеду подъедь|подъезжай подъехал подъедешь
отнести отнесу отнеси отнес отнесешь
занести занесу занеси занес занесешь
завезти завезу завези завез завезешь
подвезти подвезу подвези подвез подвезешь
вывезти вывезу вывези вывез вывезешь
оценить оценю оцени оценил оценишь
прикинуть прикину прикинь прикинул прикинешь
просчитать просчитаю просчитай просчитал просчитаешь
сравнить сравню сравни сравнил сравнишь
замерить замерю замерь замерил замеришь
померить померю померь померил померишь
получить получу получи получил получишь
выдать выдам выдай выдал выдашь
отсканировать отсканирую отсканируй отсканировал отсканируешь
скопировать скопирую скопируй скопировал скопируешь
напечатать напечатаю напечатай напечатал напечатаешь
переписать перепишу перепиши переписал перепишешь
подправить подправлю подправь подправил подправишь
перезапустить перезапущу перезапусти перезапустил перезапустишь
откатить откачу откати откатил откатишь
вычитать вычитаю вычитай вычитал вычитаешь
опросить опрошу опроси опросил опросишь
подменить подменю подмени подменил подменишь
проконтролировать проконтролирую проконтролируй проконтролировал проконтролируешь
проследить прослежу проследи проследил проследишь
отследить отслежу отследи отследил отследишь
оприходовать оприходую оприходуй оприходовал оприходуешь
докупить докуплю докупи докупил докупишь
помыть помою помой помыл помоешь
смазать смажу смажь смазал смажешь
отчитаться отчитаюсь отчитайся отчитался отчитаешься
встретиться встречусь встреться встретился встретишься
отшлифовать отшлифую отшлифуй отшлифовал отшлифуешь
откалибровать откалибрую откалибруй откалибровал откалибруешь
подготовиться подготовлюсь подготовься подготовился подготовишься
разослать разошлю разошли разослал разошлешь
заплатить заплачу заплати заплатил заплатишь
продлить продлю продли продлил продлишь
добить добью добей добил добьешь
дожать дожму дожми дожал дожмешь
осмотреть осмотрю осмотри осмотрел осмотришь
постараться постараюсь постарайся постарался постараешься a
попробовать попробую попробуй попробовал попробуешь a
успеть успею успей успел успеешь a
";

fn ru_verbs() -> &'static HashMap<String, Verb, WordHash> {
    static LEX: OnceLock<HashMap<String, Verb, WordHash>> = OnceLock::new();
    LEX.get_or_init(|| {
        let mut map: HashMap<String, Verb, WordHash> = HashMap::default();
        for line in RU_VERBS.lines() {
            let f: Vec<&'static str> = line.split_whitespace().collect();
            let [inf, fut1, imp, past, fut2, rest @ ..] = f.as_slice() else {
                continue;
            };
            let take = rest.contains(&"t");
            let aux = rest.contains(&"a");
            let mut put = |w: String, form: Form| {
                map.entry(w).or_insert(Verb {
                    inf,
                    form,
                    take,
                    aux,
                });
            };
            put(inf.to_string(), Form::Inf);
            for w in fut1.split('|') {
                put(w.to_string(), Form::Fut1);
            }
            for w in imp.split('|') {
                put(w.to_string(), Form::Imp);
                put(format!("{w}те"), Form::Imp);
                // Under a stressed "вы-" the spoken imperative often ends in "-и": "выстави",
                // "выправи" beside "выставь", "выправь".
                if inf.starts_with("вы")
                    && fut2.ends_with("ишь")
                    && let Some(base) = w.strip_suffix('ь')
                {
                    put(format!("{base}и"), Form::Imp);
                    put(format!("{base}ите"), Form::Imp);
                }
            }
            for w in past.split('|') {
                put(w.to_string(), Form::Past);
                if let Some(base) = w.strip_suffix("ся") {
                    put(format!("{base}ась"), Form::Past);
                    put(format!("{base}ись"), Form::Past);
                } else if w.ends_with('л') {
                    put(format!("{w}а"), Form::Past);
                    put(format!("{w}и"), Form::Past);
                } else {
                    put(format!("{w}ла"), Form::Past);
                    put(format!("{w}ли"), Form::Past);
                }
            }
            for w in fut2.split('|') {
                put(w.to_string(), Form::Fut2);
                for (s2, s1pl, s2pl) in [
                    ("ешься", "емся", "етесь"),
                    ("ишься", "имся", "итесь"),
                    ("ешь", "ем", "ете"),
                    ("ишь", "им", "ите"),
                ] {
                    if let Some(base) = w.strip_suffix(s2) {
                        put(format!("{base}{s1pl}"), Form::Fut1Pl);
                        put(format!("{base}{s2pl}"), Form::Fut2);
                        break;
                    }
                }
            }
        }
        map
    })
}

/// Verb prefixes: a prefixed form the lexicon lacks ("обзвоню", "переберу") is read through a
/// lexicon form with the same root and another prefix ("позвоню", "заберу").
const RU_PREFIXES: &[&str] = &[
    "пере", "недо", "пред", "подо", "разо", "обо", "ото", "рас", "раз", "при", "под", "про", "над",
    "воз", "вы", "до", "за", "из", "ис", "на", "об", "от", "по", "со", "вз", "с", "у", "в", "о",
];

/// The shortest root a prefix may be swapped on (shorter roots collide with nouns).
fn min_root(prefix: &str) -> usize {
    if prefix.chars().count() == 1 { 5 } else { 4 }
}

/// Lexicon forms keyed by what follows their prefix: "звоню" → ("по", позвонить 1sg).
fn ru_roots() -> &'static HashMap<&'static str, (&'static str, Verb), WordHash> {
    static ROOTS: OnceLock<HashMap<&'static str, (&'static str, Verb), WordHash>> = OnceLock::new();
    ROOTS.get_or_init(|| {
        let mut forms: Vec<(&String, &Verb)> = ru_verbs().iter().collect();
        // Sorted, so the same root always maps to the same verb.
        forms.sort_by(|a, b| a.0.cmp(b.0));
        let mut map = HashMap::default();
        for (w, v) in forms {
            if v.aux || v.take {
                continue;
            }
            for p in RU_PREFIXES {
                if let Some(root) = w.strip_prefix(p)
                    && v.inf.starts_with(p)
                    && root.chars().count() >= min_root(p)
                {
                    map.entry(root).or_insert((*p, *v));
                }
            }
        }
        map
    })
}

/// Infinitives made up by prefix swapping, kept once for the life of the process (at most one
/// per prefix and lexicon verb, so the set stays small).
fn intern(s: String) -> &'static str {
    static SET: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut set = SET
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(&known) = set.get(s.as_str()) {
        return known;
    }
    let leaked: &'static str = Box::leak(s.into_boxed_str());
    set.insert(leaked);
    leaked
}

/// A verb form outside the lexicon read by its prefix and root ("обзвонишь" like "позвонишь").
fn derived_verb(w: &str) -> Option<Verb> {
    // Nouns shaped like a derived form ("раскрой плит"), and the modal "сможешь".
    const HOMOGRAPHS: &[&str] = &["раскрой", "покрой", "настрой", "простой", "отстой"];
    if word_classes().contains_key(w) || HOMOGRAPHS.contains(&w) || w.starts_with("смо") {
        return None;
    }
    let roots = ru_roots();
    for p in RU_PREFIXES {
        let Some(root) = w.strip_prefix(p) else {
            continue;
        };
        if root.chars().count() < min_root(p) {
            continue;
        }
        // A prefix stacked on a whole lexicon form: "допроверю", "пересобрал".
        if let Some(&v) = ru_verbs().get(root)
            && !v.aux
            && !v.take
        {
            return Some(Verb {
                inf: intern(format!("{p}{}", v.inf)),
                form: v.form,
                take: false,
                aux: false,
            });
        }
        if let Some(&(other, v)) = roots.get(root)
            && other != *p
        {
            let base = v.inf.strip_prefix(other).unwrap_or(v.inf);
            return Some(Verb {
                inf: intern(format!("{p}{base}")),
                form: v.form,
                take: false,
                aux: false,
            });
        }
    }
    None
}

/// A prefixed word outside the lexicon with a 1st-person future ending ("заоптимизирую",
/// "зарелижу", "пофикшу"): slang verbs of work are made up faster than any list grows.
/// Endings shared with nouns ("-ку", "-ию", "-ую") are left out.
fn guessed_fut1(w: &str) -> Option<Verb> {
    const NOUNS: &[&str] = &["продажу", "распродажу", "поклажу", "пропажу", "порою"];
    const ENDINGS: &[(&str, &str)] = &[
        ("ирую", "ировать"),
        ("изую", "изовать"),
        ("ою", "оить"),
        ("лю", "лить"),
        ("ню", "нить"),
        ("жу", "жить"),
        ("шу", "сить"),
        ("щу", "стить"),
        ("рю", "рить"),
    ];
    if w.chars().count() < 6
        || !w.chars().all(|c| matches!(c, 'а'..='я'))
        || word_classes().contains_key(w)
        || NOUNS.contains(&w)
    {
        return None;
    }
    let prefixed = RU_PREFIXES
        .iter()
        .any(|p| w.strip_prefix(p).is_some_and(|r| r.chars().count() >= 4));
    if !prefixed {
        return None;
    }
    let (end, inf_end) = ENDINGS.iter().find(|(e, _)| w.ends_with(e))?;
    let base = w.strip_suffix(end)?;
    Some(Verb {
        inf: intern(format!("{base}{inf_end}")),
        form: Form::Fut1,
        take: false,
        aux: false,
    })
}

// Word classes, as bit flags: one table lookup per token.
const STOP: u32 = 1;
const AGREE: u32 = 1 << 1;
const FILL: u32 = 1 << 2;
const DATE: u32 = 1 << 3;
const PREP: u32 = 1 << 4;
const DONE: u32 = 1 << 5;
const PRON: u32 = 1 << 6;
const COND: u32 = 1 << 7;
const RETOLD: u32 = 1 << 8;
const PROGRESS: u32 = 1 << 9;
const NONWORK: u32 = 1 << 10;
const EN_VERB: u32 = 1 << 11;
const NEG: u32 = 1 << 12;
const CANCEL: u32 = 1 << 13;
const MOVE: u32 = 1 << 14;
const NEED: u32 = 1 << 15;
const PLEASE: u32 = 1 << 16;
const SUBJ: u32 = 1 << 17;
const NUMW: u32 = 1 << 18;
const GREET: u32 = 1 << 19;
const MONTH: u32 = 1 << 20;
/// English words that are verbs only (never the name of a thing), for significant stems.
const PUREV: u32 = 1 << 21;
/// Praise that closes an agreement ("было бы отлично", "would be great").
const APPROVE: u32 = 1 << 22;
/// Urgency words ("не горит", "no rush"): they name no work.
const URGE: u32 = 1 << 23;

const WORD_CLASSES: &[(u32, &str)] = &[
    (
        STOP,
        "и в во не на я с со что а то все всё он она они мы вы ты как но по это его ее её их к ко у же \
         вот от о об из за бы ли если уже или ни да нет до для мне меня мной тебе тебя нам нас вам вас \
         им ему ей там тут где когда чем чтобы так еще ещё ну только при про через после над под без \
         этот эта эти этого этой этому этим этих том тот та те то тоже также себя себе свой свою свои \
         своих был была было были будет будут буду будем есть быть сам сама сами очень можно нужно \
         надо может могу сейчас потом тогда всем всех вся весь всего который которая которые \
         the a an and or but of to in on at by for with from as is are was were be been being it \
         this that these those i you he she we they me my your our their his her its them us will \
         would shall should can could may might must do does did done have has had not no yes so if \
         then than there here what which who when where how all any some also just up out about into \
         over after before again too very i'll i'm i've i'd we'll let me get got давай давайте \
         more now last раньше earlier later позже forget drop sorry извините простите моему мой моя \
         мое моей мои щас",
    ),
    (
        AGREE,
        "да ага угу ок окей окей оки ok okay k kk хорошо ладно лады договорились принял приняла принято \
         понял поняла конечно добро го yes yep yeah yup sure alright agreed deal noted roger \
         absolutely понятно окс легко запросто",
    ),
    (
        FILL,
        "пожалуйста плиз плз пжл пж пжлст please pls plz thanks thx спасибо тогда ну так короче \
         кстати btw вообще сам сама также тоже also just then ещё еще уже already plus anyway \
         сегодня-завтра asap срочно urgently quickly fyi",
    ),
    (
        GREET,
        "привет всем коллеги ребята ребят народ друзья команда добрый доброе утро день вечер \
         здравствуйте хай hi hey hello morning all team guys folks everyone good afternoon evening",
    ),
    (
        DATE,
        "вчера позавчера сегодня завтра послезавтра вечером утром днем ночью вечера утра обеда обед обедом обеду \
         понедельник понедельника понедельнику вторник вторника вторнику среда среды среду среде \
         четверг четверга четвергу пятница пятницы пятницу пятнице суббота субботы субботу \
         воскресенье воскресенья неделе неделю недели неделя недельку месяца месяц месяце конца \
         конце выходных выходные eod eow eom cob tomorrow today tonight tmrw tmr tomoro morning \
         evening afternoon noon midday monday tuesday wednesday thursday friday saturday sunday \
         mon tue tues wed thu thur thurs fri sat sun week weekend month end",
    ),
    (
        PREP,
        "до к ко на в во по с со за через после перед this next end of the by on until till before \
         after with from about \
         at for to in this следующей следующую следующий следующем этой эту этот ближайшую ближайший \
         ближайшей конца",
    ),
    (
        DONE,
        "готово готов готова готовы сделано сделан сделана сделаны отправлено отправлен отправлена \
         отправлены выполнено выполнил выполнила закрыто закрыт закрыта оплачено оплачен оплачена \
         оплачены подписано подписан подписаны отгружено отгружен отгружена отгружены согласовано \
         согласован согласована согласованы смержено залито выкачено починено исправлено \
         доставлено доставлен доставлены завершено закончено собрано проверено выложено загружено \
         запущено задеплоено пофикшено решено улажено передано проведено сдано выставлен выставлено \
         done finished shipped sent merged deployed fixed delivered completed submitted uploaded \
         released published closed resolved signed paid booked ordered wrapped sorted approved \
         installed repaired loaded dispatched invoiced filed emailed posted launched live pushed \
         handled ready",
    ),
    (
        PRON,
        "это его ее её их это этого все всё него нее неё it this that them these those one \
         возможное возможно best",
    ),
    (
        COND,
        "если бы б if would i'd id might maybe perhaps возможно наверное наверно hopefully probably \
         possibly мб",
    ),
    (
        RETOLD,
        "сказал сказала сказали говорит говорят говорил говорила обещал обещала обещали пообещал \
         пообещала пообещали said says told promised mentioned claims пишет написала-что",
    ),
    (
        PROGRESS,
        "почти осталось осталась остался остались наполовину частично almost nearly wip halfway \
         partially",
    ),
    (
        NONWORK,
        "обед обедать пообедать кофе кофейку домой спать посплю пиво пиццу lunch coffee home dinner \
         beer sleep nap",
    ),
    (
        EN_VERB,
        "send prepare check review fix update finish write call book order ship make do look take \
         draft deliver set schedule follow ping share upload merge deploy handle sort organize \
         organise pick bring add remove clean test email reach contact confirm invoice pay file \
         submit put print collect load unload run finalize finalise grab create help find ask talk \
         tell have start pack get prep refactor migrate install repair build draw design compile \
         translate approve sign arrange chase cover complete wrap close push release publish move \
         renew reply respond answer recalculate calculate count reconcile assemble paint replace \
         investigate debug patch rewrite redo edit proofread",
    ),
    (
        NEG,
        "не not never haven't hasn't didn't isn't wasn't aren't weren't won't wont can't cant \
         cannot nothing ни нет no dont don't doesn't",
    ),
    (
        CANCEL,
        "отбой отменяется отменяем отменили отменил отменила отмена неактуально забей забейте снимаю \
         снимается снята снято cancel cancelled canceled cancelling canceling nevermind scrap \
         scrapped отменяю снимаем отменяется отменено",
    ),
    (
        MOVE,
        "сдвигаю сдвину сдвигаем сдвинем сдвинул сдвинула сдвинули сдвигается сдвинулось сдвинулся \
         сдвинулась переношу перенесу переносим перенесем перенес перенесла перенесли переносится \
         перенеслось откладываю отложу откладываем отложим отложил отложила отложили \
         задерживается задержится задерживаю задерживаем задерживаюсь задерживаемся затягивается \
         затягиваю сдвинуть перенести отложить передвинуть postpone postponed postponing delay \
         delayed delaying reschedule rescheduled rescheduling slipping slips slipped pushing \
         bump bumping",
    ),
    (
        NEED,
        "нужен нужна нужно нужны надо требуется необходимо need needed needs",
    ),
    (PLEASE, "пожалуйста плиз плз пжл пж пжлст please pls plz"),
    (
        PUREV,
        "send prepare check finish write make do take get have handle deliver ship merge deploy push \
         move pick bring add remove clean confirm pay submit put collect load run finalize finalise \
         grab create help find ask talk tell start pack prep migrate install repair compile \
         translate approve sign arrange chase cover complete wrap close publish renew reply respond \
         answer recalculate calculate count reconcile assemble paint replace investigate debug patch \
         rewrite redo edit proofread look ping share upload sort organize organise schedule follow \
         reach contact set sending sent finished shipped merged deployed fixed delivered completed \
         submitted uploaded released published closed resolved signed paid booked ordered wrapped \
         sorted approved installed repaired loaded dispatched invoiced filed emailed posted launched \
         pushed handled taking longer",
    ),
    (
        MONTH,
        "январь января январе январю февраль февраля феврале март марта марте апрель апреля апреле \
         май мая мае июнь июня июне июль июля июле август августа августе сентябрь сентября \
         сентябре октябрь октября октябре ноябрь ноября ноябре декабрь декабря декабре january \
         february march april june july august september october november december jan feb mar \
         apr jun jul aug sep sept oct nov dec",
    ),
    (SUBJ, "я i мы we"),
    (
        APPROVE,
        "отлично отличненько здорово супер класс прекрасно идеально замечательно круто удобно \
         чудесно great perfect awesome lovely fine good ideal amazing brilliant fantastic \
         excellent wonderful helpful appreciated",
    ),
    (
        URGE,
        "горит горят спеху срочно rush hurry urgent urgently горящий sooner let's lets",
    ),
    (
        NUMW,
        "пару пара пары два две три четыре пять неделю неделька недельку денек денька день дня \
         дней couple two three four five few one another day days week weeks",
    ),
];

fn word_classes() -> &'static HashMap<&'static str, u32, WordHash> {
    static MAP: OnceLock<HashMap<&'static str, u32, WordHash>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut map: HashMap<&'static str, u32, WordHash> = HashMap::default();
        for (flag, words) in WORD_CLASSES {
            for w in words.split_whitespace() {
                *map.entry(w).or_insert(0) |= flag;
            }
        }
        map
    })
}

// ---------------------------------------------------------------------------------------------
// The tokenised message

struct Tk {
    norm: String,
    span: Range<usize>,
    f: u32,
    verb: Option<Verb>,
    clause: usize,
    sent: usize,
}

struct Msg<'a> {
    text: &'a str,
    toks: Vec<Tk>,
    /// Per sentence: does it end with a question mark?
    question: Vec<bool>,
}

fn is_hard_break(gap: &str) -> bool {
    gap.contains(['!', '?', ';', '\n', '…'])
        || (gap.contains('.') && (gap.chars().any(char::is_whitespace) || gap.len() > 1))
}

fn is_soft_break(gap: &str) -> bool {
    gap.contains([',', ':', '(', ')', '—', '–'])
        || gap.contains(" - ")
        || gap.chars().any(|c| c as u32 >= 0x2190)
}

impl<'a> Msg<'a> {
    fn new(text: &'a str) -> Msg<'a> {
        let classes = word_classes();
        let verbs = ru_verbs();
        let toks = fast_tokens(text)
            .into_iter()
            .map(|t| {
                let f = classes.get(t.norm.as_str()).copied().unwrap_or(0);
                let verb = verbs
                    .get(t.norm.as_str())
                    .copied()
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
            .collect();
        Msg::numbered(text, toks)
    }

    /// Numbers the clauses and sentences of the tokens of `text`.
    fn numbered(text: &'a str, mut toks: Vec<Tk>) -> Msg<'a> {
        let mut question = Vec::new();
        let (mut clause, mut sent) = (0, 0);
        let mut prev_end = 0;
        for (i, t) in toks.iter_mut().enumerate() {
            if i > 0 {
                let gap = text.get(prev_end..t.span.start).unwrap_or("");
                if is_hard_break(gap) {
                    question.push(gap.contains('?'));
                    sent += 1;
                    clause += 1;
                } else if is_soft_break(gap) {
                    clause += 1;
                }
            }
            prev_end = t.span.end;
            t.clause = clause;
            t.sent = sent;
        }
        if !toks.is_empty() {
            question.push(text.get(prev_end..).unwrap_or("").contains('?'));
        }
        Msg {
            text,
            toks,
            question,
        }
    }

    /// The message read as `Msg::new(&text[r])` would read it, without tokenising again: when
    /// no word straddles an end of `r`, the part's words are exactly the whole's words inside it.
    fn slice(&self, r: Range<usize>) -> Msg<'a> {
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

    fn n(&self) -> usize {
        self.toks.len()
    }

    fn w(&self, i: usize) -> &str {
        self.toks.get(i).map_or("", |t| t.norm.as_str())
    }

    // Rules look a word or two past a cue ("will you" + 2) without checking the length first:
    // past the end there is simply no verb, clause or sentence.
    fn verb(&self, i: usize) -> Option<Verb> {
        self.toks.get(i).and_then(|t| t.verb)
    }

    fn clause_of(&self, i: usize) -> Option<usize> {
        self.toks.get(i).map(|t| t.clause)
    }

    fn sent_of(&self, i: usize) -> Option<usize> {
        self.toks.get(i).map(|t| t.sent)
    }

    fn has_f(&self, i: usize, flag: u32) -> bool {
        self.toks.get(i).is_some_and(|t| t.f & flag != 0)
    }

    fn any_f(&self, flag: u32) -> bool {
        self.toks.iter().any(|t| t.f & flag != 0)
    }

    fn is_q(&self, i: usize) -> bool {
        self.toks
            .get(i)
            .and_then(|t| self.question.get(t.sent))
            .copied()
            .unwrap_or(false)
    }

    /// Index of the first place where `seq` occurs (`*` matches any word).
    fn seq(&self, seq: &[&str]) -> Option<usize> {
        if seq.is_empty() || self.n() < seq.len() {
            return None;
        }
        (0..=self.n() - seq.len()).find(|&i| {
            seq.iter()
                .enumerate()
                .all(|(k, s)| *s == "*" || self.w(i + k) == *s)
        })
    }

    fn has_seq(&self, seq: &[&str]) -> bool {
        self.seq(seq).is_some()
    }

    fn clause_start(&self, i: usize) -> bool {
        i == 0 || self.toks.get(i - 1).map(|t| t.clause) != self.toks.get(i).map(|t| t.clause)
    }

    /// First token index of the clause (or sentence) holding token `i`, and one past its last.
    fn bounds(&self, i: usize, sentence: bool) -> Range<usize> {
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

    fn negated(&self, i: usize) -> bool {
        i > 0 && self.has_f(i - 1, NEG)
            || i > 1
                && self.w(i - 2) == "не"
                && matches!(self.w(i - 1), "еще" | "ещё" | "до" | "уже")
    }
}

fn is_number(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())
}

fn is_infinitive(w: &str) -> bool {
    // Nouns in "-ость" (доверенность, отчётность, ведомости) and a few others look like verbs.
    const NOUN_ENDS: &[&str] = &[
        "ость",
        "ости",
        "остью",
        "часть",
        "части",
        "власть",
        "страсть",
        "шерсть",
        "кисть",
        "горсть",
        "лесть",
        "жесть",
        "печать",
        "кровать",
        "путь",
        "пути",
        "сети",
        "смерть",
        "нити",
        "пять",
        "шесть",
        "девять",
        "десять",
        "дцать",
        "гости",
        "кости",
    ];
    // Endings shared with verbs (понимать, висеть, звонить, смотреть, прочесть): whole words only.
    const NOUN_WORDS: &[&str] = &["мать", "сеть", "нить", "треть", "честь", "дети", "месть"];
    w.chars().count() > 3
        && (w.ends_with("ть") || w.ends_with("ти") || w.ends_with("чь") || w.ends_with("ться"))
        && !NOUN_ENDS.iter().any(|e| w.ends_with(e))
        && !NOUN_WORDS.contains(&w)
}

// ---------------------------------------------------------------------------------------------
// Content

/// Builds the short text of what is promised or asked from tokens `range` of the message,
/// replacing token `verb.0` by `verb.1` (the infinitive) placed first, and dropping `skip`,
/// the deadline phrase, greetings, fillers and stray date words. Returns the text and whether it
/// names anything beyond the verb.
fn content(
    m: &Msg,
    range: Range<usize>,
    verb: Option<(usize, &str)>,
    skip: &[usize],
    due_span: Option<&Range<usize>>,
) -> (String, bool) {
    let in_due = |t: &Tk| due_span.is_some_and(|d| t.span.start < d.end && d.start < t.span.end);
    let mut end = range.end.min(m.n());
    // The condition of a promise is not its content: "сделаю, как только клиент ответит".
    if let Some(k) = (range.start..end).find(|&k| {
        k > range.start
            && (matches!(m.w(k), "когда" | "once" | "when" | "если" | "if" | "чтобы")
                || (m.w(k) == "как" && m.w(k + 1) == "только"))
    }) {
        end = k;
    }
    let mut keep: Vec<usize> = Vec::new();
    for i in range.start..end {
        let t = &m.toks[i];
        // "мы с Игорем сделаем": the partner is not the task.
        let partner = (m.w(i) == "с" && i > 0 && m.w(i - 1) == "мы")
            || (i > 1 && m.w(i - 1) == "с" && m.w(i - 2) == "мы");
        // "@kept_bot доделаю отчёт", "@lena скину макеты": a username is not the task.
        let username = m
            .text
            .as_bytes()
            .get(..t.span.start)
            .unwrap_or(&[])
            .iter()
            .rev()
            .find(|b| !(b.is_ascii_alphanumeric() || **b == b'_'))
            == Some(&b'@');
        if skip.contains(&i)
            || partner
            || username
            || verb.is_some_and(|(v, _)| v == i)
            || in_due(t)
            || t.f & (FILL | GREET | AGREE) != 0
            || (t.f & DATE != 0 && !(t.f & PREP != 0 && m.has_f(i + 1, STOP)))
            || t.f & PLEASE != 0
        {
            continue;
        }
        // A number right before a date word or in the deadline ("к 3 марта") is part of the date.
        // "18:00": a clock time is a date too.
        let clock = |a: usize, b: usize| {
            is_number(m.w(a))
                && is_number(m.w(b))
                && m.toks
                    .get(a)
                    .zip(m.toks.get(b))
                    .and_then(|(x, y)| m.text.get(x.span.end..y.span.start))
                    == Some(":")
        };
        if is_number(&t.norm) && (clock(i, i + 1) || (i > 0 && clock(i - 1, i))) {
            continue;
        }
        // "к 3 марта", "до 5-го": but not "счёт 1010 завтра", where the day word stands alone.
        let standalone_day = matches!(
            m.w(i + 1),
            "завтра" | "сегодня" | "послезавтра" | "tomorrow" | "today" | "tonight"
        );
        if is_number(&t.norm) && m.has_f(i + 1, DATE | MONTH) && !standalone_day {
            continue;
        }
        if t.f & MONTH != 0 && i > 0 && is_number(m.w(i - 1)) {
            continue;
        }
        keep.push(i);
    }
    // Prepositions left hanging in front of a dropped date, and edges that carry nothing.
    let mut k = 0;
    while k < keep.len() {
        let i = keep[k];
        let next_kept = keep.get(k + 1).copied();
        let next_dropped = next_kept != Some(i + 1) && i + 1 < end;
        if m.has_f(i, PREP) && (next_dropped || next_kept.is_none()) {
            keep.remove(k);
            k = k.saturating_sub(1);
            continue;
        }
        k += 1;
    }
    let edge = |i: usize| {
        m.has_f(i, PREP | SUBJ)
            || matches!(
                m.w(i),
                "и" | "а" | "но" | "and" | "but" | "то" | "что" | "ли" | "also" | "then" | "so"
            )
    };
    // A preposition right after the verb belongs to it: "позвонить в банк", "разобраться с X".
    let verb_next = verb.map(|(v, _)| v + 1);
    while keep
        .first()
        .is_some_and(|&i| edge(i) && !(Some(i) == verb_next && m.has_f(i, PREP)))
    {
        keep.remove(0);
    }
    while keep.last().is_some_and(|&i| edge(i) || m.has_f(i, PRON)) {
        keep.pop();
    }
    keep.truncate(16);
    let has_object = keep
        .iter()
        .any(|&i| m.toks[i].f & (PRON | STOP | PUREV | PREP) == 0);
    let mut parts: Vec<String> = Vec::new();
    if let Some((_, inf)) = verb
        && inf != NO_VERB
    {
        parts.push(inf.to_string());
    }
    let mut g = 0;
    while g < keep.len() {
        let start = keep[g];
        let mut last = start;
        while g + 1 < keep.len()
            && keep[g + 1] == last + 1
            && m.clause_of(last + 1) == m.clause_of(start)
        {
            g += 1;
            last = keep[g];
        }
        let (a, b) = (m.toks[start].span.start, m.toks[last].span.end);
        // "сделаю и скину": the "и" dropped at the edge joins two actions of one promise.
        let joined = !parts.is_empty()
            && start > 0
            && matches!(m.w(start - 1), "и" | "and")
            && m.verb(start).is_some();
        if joined {
            parts.push(m.w(start - 1).to_string());
        }
        if let Some(s) = m.text.get(a..b).map(infinitives) {
            let s = s.as_str();
            // "Смету пришлю завтра" → "прислать смету": the capital belonged to the sentence,
            // not to the word, once the word is no longer first.
            let opened_sentence = start == 0 || m.sent_of(start - 1) != m.sent_of(start);
            if opened_sentence && !parts.is_empty() {
                parts.push(lower_common_opening(s));
            } else {
                parts.push(s.to_string());
            }
        }
        g += 1;
    }
    (parts.join(" "), has_object)
}

/// A promise says what is to be done, in the infinitive: a first-person verb inside it ("и
/// отпишусь", "и скину") becomes one ("и отписаться"). Words the dictionary cannot place stay.
fn infinitives(s: &str) -> String {
    let Some(d) = crate::morph::dictionary() else {
        return s.to_string();
    };
    let mut out = String::with_capacity(s.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.is_empty() {
            return;
        }
        let lower = word.to_lowercase();
        let cyrillic = lower.chars().all(|c| matches!(c, 'а'..='я' | 'ё'));
        let found = if cyrillic {
            d.analyze(&lower)
        } else {
            Vec::new()
        };
        // The word's likeliest reading must be a first-person verb ("стали" or "мой" are
        // other things first).
        let best = found
            .iter()
            .filter(|a| a.source == rumorph::Source::Dictionary)
            .max_by(|a, b| a.prob.total_cmp(&b.prob));
        let first_person = best.is_some_and(|a| {
            d.ud_tag(a.ud).is_some_and(|t| {
                t.pos() == "VERB" && t.feat("Person") == Some("1") && t.feat("Mood") == Some("Ind")
            })
        });
        match best.filter(|_| first_person) {
            Some(a) if !a.lemma.is_empty() => out.push_str(&a.lemma.replace('ё', "е")),
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in s.chars() {
        if c.is_alphabetic() || c == '-' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The text with its first word in lower case when that word is an ordinary word with a capital
/// only for opening a sentence: the dictionary knows it in lower case and not as a name, and
/// it is not an abbreviation ("КП", "ЧПУ" stay).
fn lower_common_opening(s: &str) -> String {
    let word_end = s
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(s.len(), |(i, _)| i);
    let word = &s[..word_end];
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return s.to_string();
    };
    let rest: String = chars.collect();
    if !first.is_uppercase() || rest.is_empty() || rest.chars().any(char::is_uppercase) {
        return s.to_string();
    }
    let lower = word.to_lowercase();
    let common = crate::morph::dictionary().is_some_and(|d| {
        let found = d.analyze(&lower);
        !found.is_empty()
            && found.iter().all(|a| {
                a.source == rumorph::Source::Dictionary
                    && d.ud_tag(a.ud)
                        .is_some_and(|t| t.pos() != "PROPN" && t.feat("NameType").is_none())
            })
    });
    if common {
        format!("{lower}{}", &s[word_end..])
    } else {
        s.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Rules

/// Context shared by the rules of one message.
struct Ctx<'a, 'b> {
    m: &'b Msg<'a>,
    input: &'b MessageInput<'a>,
    names: &'b NameIndex,
    lang: Lang,
    due: OnceCell<Option<(Range<usize>, Due)>>,
    /// Tokens before this index are a leading agreement ("да, без проблем"), never content.
    lead: Cell<usize>,
}

impl Ctx<'_, '_> {
    fn deadline(&self) -> Option<&(Range<usize>, Due)> {
        self.due
            .get_or_init(|| {
                let text = self.m.text;
                let now = self.input.now;
                let found = super::dates::deadline(text, now, self.lang).or_else(|| {
                    // Mixed messages ("деплой сделаю tonight"): the other language may know it.
                    let other = match self.lang {
                        Lang::Ru => Lang::En,
                        Lang::En => Lang::Ru,
                    };
                    let mixed = text.chars().any(|c| c.is_ascii_alphabetic())
                        && text.chars().any(|c| matches!(c, '\u{0400}'..='\u{04FF}'));
                    if mixed {
                        super::dates::deadline(text, now, other)
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
    fn prefer_marked(&self, found: (Range<usize>, Due)) -> Option<(Range<usize>, Due)> {
        let m = self.m;
        let retry = |from: usize| {
            let rest = m.text.get(from..)?;
            super::dates::deadline(rest, self.input.now, self.lang)
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
        let marker = |w: &str| {
            matches!(
                w,
                "до" | "к" | "ко" | "by" | "until" | "till" | "before" | "latest" | "eod" | "eow"
            )
        };
        let first_in_span = m.toks.iter().find(|t| t.span.start >= found.0.start);
        // "акты за ноябрь", "план на декабрь", "the october statements": a period the work is
        // about, not a deadline.
        let idx = m.toks.iter().position(|t| t.span.start >= found.0.start);
        let period = |k: usize| {
            matches!(m.w(k), "за" | "на" | "for" | "the")
                && m.has_f(k + 1, MONTH)
                && m.toks.get(k + 1).is_some_and(|t| t.span.end >= found.0.end)
        };
        if let Some(k) = idx
            && (period(k) || (k > 0 && period(k - 1)))
        {
            return retry(found.0.end);
        }
        if first_in_span.is_some_and(|t| marker(&t.norm) || t.f & DATE != 0) {
            return Some(found);
        }
        let later_marker = m
            .toks
            .iter()
            .any(|t| t.span.start >= found.0.end && marker(&t.norm));
        if !later_marker {
            return Some(found);
        }
        retry(found.0.end).or(Some(found))
    }

    fn due(&self) -> Option<Due> {
        self.deadline().map(|(_, d)| *d)
    }

    /// A deadline is named: resolved, or at least a weekday / relative day / "15.12" is there
    /// (decisions should not hinge on every phrase the resolver knows).
    fn has_date(&self) -> bool {
        self.due().is_some()
            || self.m.toks.iter().enumerate().any(|(i, t)| {
                (t.f & DATE != 0
                    && !matches!(
                        t.norm.as_str(),
                        "end" | "week" | "month" | "конца" | "конце" | "обед"
                    ))
                    || (t.f & MONTH != 0 && i > 0 && is_number(self.m.w(i - 1)))
                    || (is_number(&t.norm)
                        && i + 1 < self.m.n()
                        && is_number(self.m.w(i + 1))
                        && self.m.text.get(t.span.end..self.m.toks[i + 1].span.start) == Some("."))
            })
    }

    fn due_span(&self) -> Option<&Range<usize>> {
        self.deadline().map(|(s, _)| s)
    }

    fn words(&self) -> Vec<String> {
        stems_of(self.m)
    }
}

/// "ещё пару дней", "two more days", "ещё неделю": the new deadline is that far from now.
fn more_time(m: &Msg, now: DateTime<Tz>) -> Option<Due> {
    for i in 0..m.n() {
        let w = m.w(i);
        let days_unit = |u: &str| -> Option<i64> {
            match u {
                "день" | "дня" | "дней" | "денек" | "денька" | "day" | "days" => {
                    Some(1)
                }
                "неделю" | "недели" | "недель" | "недельку" | "week" | "weeks" => {
                    Some(7)
                }
                _ => None,
            }
        };
        let count = |c: &str| -> Option<i64> {
            match c {
                "пару" | "пара" | "couple" | "два" | "две" | "two" | "2" => Some(2),
                "три" | "three" | "3" | "few" | "несколько" => Some(3),
                "четыре" | "four" | "4" => Some(4),
                "пять" | "five" | "5" => Some(5),
                "один" | "одну" | "one" | "a" | "another" | "1" | "еще" | "ещё" => {
                    Some(1)
                }
                _ => None,
            }
        };
        if let Some(unit) = days_unit(w) {
            // Look back up to three words for the count, and demand "ещё"/"more" near by.
            let back = i.saturating_sub(3)..i;
            let more = back
                .clone()
                .any(|k| matches!(m.w(k), "еще" | "ещё" | "more" | "another"))
                || matches!(m.w(i + 1), "more" | "еще" | "ещё");
            if !more {
                continue;
            }
            let n = back
                .rev()
                .find_map(|k| {
                    let c = m.w(k);
                    if matches!(c, "еще" | "ещё" | "more") {
                        None
                    } else {
                        count(c)
                    }
                })
                // "ещё дня три": the count may follow the unit.
                .or_else(|| {
                    count(m.w(i + 1)).filter(|_| m.w(i + 1) != "еще" && m.w(i + 1) != "ещё")
                })
                .unwrap_or(1);
            let date = now.date_naive() + Duration::days(n * unit);
            return Some(Due { date, time: None });
        }
    }
    None
}

fn is_cancelled(m: &Msg) -> Option<usize> {
    for i in 0..m.n() {
        let w = m.w(i);
        if m.has_f(i, CANCEL) && !m.negated(i) {
            return Some(i);
        }
        let next = m.w(i + 1);
        let hit = match w {
            "не" => {
                matches!(
                    next,
                    "нужно"
                        | "надо"
                        | "нужен"
                        | "нужна"
                        | "нужны"
                        | "актуально"
                        | "актуальна"
                        | "актуален"
                        | "делай"
                        | "делайте"
                        | "требуется"
                ) && !(next == "нужно" && m.w(i + 2) == "было")
            }
            "можно" => next == "не" && m.w(i + 2).starts_with("дела"),
            // "drop the trailer back at the yard", "drop it off": delivering, not dropping.
            "drop" | "dropping" | "forget" => {
                matches!(
                    next,
                    "the" | "it" | "that" | "this" | "about" | "those" | "these" | "them"
                ) && !(w != "forget"
                    && (i + 1..m.n().min(i + 5)).any(|k| matches!(m.w(k), "back" | "off")))
                    && !(i > 0 && matches!(m.w(i - 1), "i'll" | "will" | "gonna" | "can"))
            }
            "never" => next == "mind",
            "scratch" => next == "that",
            "no" => matches!(next, "longer" | "need"),
            "not" => next == "needed",
            "don't" | "dont" => next == "bother",
            "call" | "called" | "calling" => next == "off",
            _ => false,
        };
        if hit {
            return Some(i);
        }
    }
    None
}

fn is_moved(m: &Msg) -> Option<usize> {
    for i in 0..m.n() {
        let w = m.w(i);
        let next = m.w(i + 1);
        if m.has_f(i, MOVE) && !(i > 0 && m.w(i - 1) == "не") {
            // "the delayed truck" describes a thing; "is delayed", "delayed to" moves it.
            let passive = i > 0
                && matches!(
                    m.w(i - 1),
                    "is" | "was" | "been" | "be" | "are" | "got" | "were"
                );
            let followed = matches!(
                next,
                "to" | "until" | "till" | "by" | "again" | "it" | "this" | "that" | "them" | ""
            );
            let adjective = w.ends_with("ed") && !passive && !followed && !m.clause_start(i);
            if !adjective {
                return Some(i);
            }
        }
        let hit = match w {
            "не" if next.starts_with("успе") && next.len() > 6 => true,
            "нужно" | "нужен" | "нужна" | "нужны" | "надо" | "дайте" | "дай" =>
            {
                let more_words = |k: usize| {
                    m.has_f(k, NUMW) || matches!(m.w(k), "немного" | "времени" | "время" | "чуть")
                };
                matches!(next, "еще" | "ещё" | "раньше")
                    && (next == "раньше" || more_words(i + 2) || more_words(i + 3))
            }
            // "будет не в среду, а в пятницу"
            "не" if (i + 1..(i + 3).min(m.n())).any(|k| m.has_f(k, DATE)) => (i + 2..m.n())
                .any(|k| m.w(k) == "а" && (k + 1..(k + 4).min(m.n())).any(|j| m.has_f(j, DATE))),
            "раньше" | "пораньше" => i > 0 && m.has_f(i - 1, NEED),
            // "не горит, давай к среде", "no rush, let's do it by tuesday": a relaxed deadline.
            "не" if m.has_f(i + 1, URGE) || next == "к" && m.w(i + 2) == "спеху" => {
                m.any_f(DATE | MONTH)
            }
            "no" | "not" | "isn't" | "nothing" if m.has_f(i + 1, URGE) => m.any_f(DATE | MONTH),
            "can" if next == "wait" => m.any_f(DATE | MONTH),
            // "we need the quote sooner, by wednesday".
            "sooner" => (i.saturating_sub(5)..i).any(|k| m.has_f(k, NEED)) || m.any_f(DATE | MONTH),
            "больше" => next == "времени",
            // "будет в понедельник, а не в пятницу": a new date against the old one.
            // "нужны к 8-му, а не к 10-му": a day number counts as a date too.
            "а" => {
                next == "не"
                    && (i + 2..(i + 5).min(m.n()))
                        .any(|k| m.has_f(k, DATE) || is_number(m.w(k)) && m.w(k - 1) == "к")
            }
            // "rough cut is gonna be thursday sorry", "отчёт будет в четверг, извините": a new
            // date for the thing, with an apology marking it as a change.
            "be" | "будет" | "будут" => {
                let future = w != "be"
                    || i > 0 && matches!(m.w(i - 1), "gonna" | "will" | "ll" | "now")
                    || i > 1 && m.w(i - 2) == "going" && m.w(i - 1) == "to";
                let date_at = |k: usize| m.has_f(k, DATE | MONTH) && !m.has_f(k, PREP);
                let dated = date_at(i + 1)
                    || matches!(
                        next,
                        "в" | "во" | "on" | "к" | "ко" | "by" | "next" | "this"
                    ) && date_at(i + 2);
                let sorry = m.toks.iter().any(|t| {
                    matches!(
                        t.norm.as_str(),
                        "sorry" | "sry" | "apologies" | "извините" | "простите" | "сорри" | "сори"
                    )
                });
                // "contract is gonna be monday now": "now" marks the change as well.
                let changed =
                    sorry || (i + 1..m.n()).any(|k| matches!(m.w(k), "now" | "instead" | "теперь"));
                future && dated && changed && !(i > 0 && m.has_f(i - 1, NEG))
            }
            "push" | "pushed" | "move" | "moved" | "moves" | "moving" => {
                matches!(
                    next,
                    "it" | "this" | "that" | "them" | "back" | "to" | "the"
                ) && (next == "back"
                    // "pushed to the drive" is an upload; "pushed to monday" a move.
                    || m.has_seq(&["to"])
                        && (m.any_f(DATE | MONTH) || m.toks.iter().any(|t| is_number(&t.norm))))
                    && !m.has_f(i + 1, NEG)
            }
            "need" | "needs" if matches!(next, "until" | "till") => true,
            "need" | "needs" => {
                let look: Vec<&str> = (i + 1..(i + 5).min(m.n())).map(|k| m.w(k)).collect();
                look.contains(&"more")
                    && look
                        .iter()
                        .any(|w| matches!(*w, "days" | "day" | "time" | "week" | "hours"))
            }
            "more" => next == "time" && i > 0 && matches!(m.w(i - 1), "need" | "some" | "bit"),
            "won't" | "wont" => next == "make" && m.w(i + 2) == "it",
            "not" => next == "going" && m.w(i + 2) == "to" && m.w(i + 3) == "make",
            "taking" => next == "longer",
            "running" if next == "behind" => true,
            "running" => next == "late" && m.w(i + 2) == "on",
            // "meet in person instead, no deck needed" changes the plan, not its date.
            "instead" | "earlier" => i > 1 && m.any_f(DATE | MONTH | NUMW),
            _ => false,
        };
        if hit {
            return Some(i);
        }
    }
    None
}

/// "can we move it to Friday?", "можно перенести на пятницу?": a question proposing a change.
fn proposal(m: &Msg) -> bool {
    m.has_seq(&["can", "we"])
        || m.has_seq(&["could", "we"])
        || m.has_seq(&["можно"])
        || m.has_seq(&["давай"])
        || m.has_seq(&["давайте"])
        || m.has_seq(&["может"])
}

/// The speaker's own work status ("почти готово", "almost done", "осталось ревью"). "Почти" about
/// anything else ("клей почти кончился") is no status.
fn is_progress(m: &Msg) -> bool {
    let status = |k: usize| {
        let w = m.w(k);
        m.has_f(k, DONE)
            || m.toks
                .get(k)
                .and_then(|t| t.verb)
                .is_some_and(|v| v.form == Form::Past)
            || w.starts_with("готов")
            || w.starts_with("законч")
            || w.starts_with("доделал")
            || w.starts_with("finish")
            || w.starts_with("complet")
            || w == "there"
    };
    let partial = |i: usize| match m.w(i) {
        "почти" | "almost" | "nearly" => status(i + 1) || status(i + 2),
        _ => true,
    };
    (0..m.n()).any(|i| m.has_f(i, PROGRESS) && partial(i))
        || m.has_seq(&["в", "процессе"])
        || m.has_seq(&["in", "review"])
        || m.has_seq(&["in", "progress"])
        || m.has_seq(&["на", "ревью"])
        || m.has_seq(&["пока", "не"])
        || m.has_seq(&["еще", "не"])
        || m.has_seq(&["ещё", "не"])
        || m.has_seq(&["not", "yet"])
        || m.has_seq(&["still", "working"])
}

/// Conditionals and wishes ("если успею", "я бы", "надо бы", "I'd love to", "might").
fn is_conditional(m: &Msg) -> bool {
    (0..m.n()).any(|i| {
        if !m.has_f(i, COND) {
            return false;
        }
        let next = m.w(i + 1);
        match m.w(i) {
            // "если что" and "если честно" are only manners of speaking.
            "если" => !matches!(next, "что" | "честно" | "чо" | "чего"),
            "if" => !matches!(next, "anything" | "any"),
            // "would you…", "could you…": polite requests, not conditionals; "would be great"
            // is praise.
            "would" | "might" => {
                !(matches!(next, "you" | "u") || next == "be" && m.has_f(i + 2, APPROVE))
            }
            // "было бы отлично": praise.
            "бы" | "б" if m.has_f(i + 1, APPROVE) || m.has_f(i + 2, APPROVE) && next == "очень" => {
                false
            }
            // "мог бы ты…", "не могли бы вы…": polite requests.
            "бы" | "б" => {
                !(i > 0 && m.w(i - 1).starts_with("мог") || matches!(next, "ты" | "вы"))
            }
            _ => true,
        }
    }) || m.has_seq(&["want", "to"]) && m.has_seq(&["we", "might"])
        || m.has_seq(&["love", "to"])
        || m.has_seq(&["not", "sure"])
        || m.has_seq(&["не", "уверен"])
        || m.has_seq(&["не", "уверена"])
        || m.has_seq(&["хочу", "*"]) && !m.any_f(PLEASE)
}

/// "если хочешь, сделаю" / "if you want I can": a conditional that is really an offer.
fn is_offer_condition(m: &Msg) -> bool {
    (0..m.n()).any(|i| {
        let (w, n) = (m.w(i), m.w(i + 1));
        (w == "если" && matches!(n, "хочешь" | "хотите" | "надо" | "нужно" | "интересно"))
            || (w == "if" && matches!(n, "you" | "needed" | "necessary" | "that's" | "thats"))
    })
}

/// A notice opened by "напоминаю:", "reminder:", "FYI", "heads up" and not about the speaker's
/// own work.
fn is_announcement(m: &Msg) -> bool {
    let mut k = 0;
    while m.has_f(k, GREET) {
        k += 1;
    }
    let opener = match m.w(k) {
        "напоминаю"
        | "напоминание"
        | "напомню"
        | "объявление"
        | "внимание"
        | "инфо"
        | "reminder"
        | "fyi"
        | "psa"
        | "announcement"
        | "notice"
        | "info" => true,
        "heads" => m.w(k + 1) == "up",
        "к" | "для" => m.w(k + 1) == "сведению" || m.w(k + 1) == "информации",
        "just" => m.w(k + 1) == "a" && m.w(k + 2) == "reminder",
        "friendly" => m.w(k + 1) == "reminder",
        _ => false,
    };
    let own = (0..m.n()).any(|i| {
        m.has_f(i, SUBJ)
            || matches!(
                m.w(i),
                "i'll" | "i've" | "i'm" | "im" | "ill" | "i’ll" | "we'll"
            )
            || m.verb(i)
                .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl))
    });
    opener && !own
}

fn is_retold(m: &Msg) -> bool {
    m.any_f(RETOLD) || m.has_seq(&["по", "словам"]) || m.has_seq(&["according", "to"])
}

fn is_absence(m: &Msg) -> bool {
    m.has_seq(&["меня", "не", "будет"])
        || m.has_seq(&["не", "будет", "меня"])
        || m.has_seq(&["в", "отпуске"])
        || m.has_seq(&["в", "отпуск"])
        || m.has_seq(&["на", "больничном"])
        || m.has_seq(&["на", "больничный"])
        || m.has_seq(&["буду", "позже"])
        || ["отгул", "опоздаю", "задержусь", "отпрошусь", "ooo", "pto"]
            .iter()
            .any(|w| m.has_seq(&[w]))
        || m.has_seq(&["i'm", "off"])
        || m.has_seq(&["im", "off"])
        || m.has_seq(&["be", "off"])
        || m.has_seq(&["be", "out"])
        || m.has_seq(&["be", "away"])
        || m.has_seq(&["be", "late"])
        || m.has_seq(&["be", "offline"])
        || m.has_seq(&["day", "off"])
        || m.has_seq(&["out", "of", "office"])
        || m.has_seq(&["on", "vacation"])
        || m.has_seq(&["on", "leave"])
        || m.has_seq(&["on", "holiday"])
        || m.has_seq(&["won't", "be", "in"])
        || m.has_seq(&["off", "sick"])
        // "в понедельник выйду на полдня позже": when the speaker turns up, not a task.
        || ["выйду", "приду", "подойду", "буду"].iter().any(|w| m.has_seq(&[w]))
            && ["позже", "попозже", "пораньше", "полдня"]
                .iter()
                .any(|w| m.has_seq(&[w]))
}

fn is_idiom(m: &Msg) -> bool {
    m.has_seq(&["сделаю", "вид"])
        || m.has_seq(&["сделал", "вид"])
        || m.has_seq(&["посмотрим"])
        || m.has_seq(&["i'll", "see"])
        || m.has_seq(&["we'll", "see"])
        || m.has_seq(&["we'll", "talk"])
        || m.has_seq(&["we'll", "think"])
        || m.has_seq(&["i'll", "think"])
        || m.has_seq(&["подумаю"])
        || m.has_seq(&["socks", "off"])
        || m.has_seq(&["believe", "it"])
        || m.has_seq(&["when", "i", "see", "it"])
        || m.has_seq(&["grain", "of", "salt"])
        || m.has_seq(&["with", "a", "pinch", "of", "salt"])
        || m.has_seq(&["тебя", "урою"])
        || m.has_seq(&["урою"])
        || m.has_seq(&["вид", "что"])
        // "допью кофе и посмотрю" does the work after the coffee.
        || (0..m.n()).any(|i| nonwork_at(m, i) && !work_after(m, i))
}

/// "пойду на обед" is not work; "после обеда", "at home" only say when or where.
fn nonwork_at(m: &Msg, i: usize) -> bool {
    m.has_f(i, NONWORK)
        && !(i > 0
            && matches!(
                m.w(i - 1),
                "после" | "до" | "перед" | "after" | "before" | "at" | "from" | "с" | "из" | "over"
            ))
}

/// Is the verb at `i` about something other than work ("схожу на обед", "допью кофе"), with
/// work of its own joined after it ("…и потом доделаю отчёт")?
fn nonwork_before_work(m: &Msg, i: usize) -> bool {
    let clause = m.toks.get(i).map(|t| t.clause);
    let end = (i + 1..m.n())
        .find(|&k| m.clause_of(k) != clause || conjunction_before(m, k + 1) == Some(k))
        .unwrap_or(m.n());
    (i + 1..end).any(|k| nonwork_at(m, k)) && work_after(m, i)
}

/// Does an action of work follow token `i` in its sentence, joined by "и" / "and" ("допью кофе и
/// посмотрю", "схожу на обед и потом доделаю отчёт")?
fn work_after(m: &Msg, i: usize) -> bool {
    let sent = m.toks.get(i).map(|t| t.sent);
    (i + 1..m.n())
        .take_while(|&k| m.sent_of(k) == sent)
        .any(|k| {
            conjunction_before(m, k).is_some_and(|c| c > i)
                && !m.has_f(k, NONWORK)
                && m.verb(k)
                    .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl | Form::Imp))
        })
}

/// Where an English promise starts: the trigger index and the index of the first word after it.
fn en_promise(m: &Msg) -> Option<(usize, usize)> {
    for i in 0..m.n() {
        let w = m.w(i);
        let (a, b, c) = (m.w(i + 1), m.w(i + 2), m.w(i + 3));
        let start = m.clause_start(i);
        let after = match w {
            "i'll" | "i’ll" | "ill" if w != "ill" || start => Some(i + 1),
            "i" if matches!(a, "will" | "shall") => Some(i + 2),
            "i" if a == "am" && b == "going" && c == "to" => Some(i + 4),
            "i" if a == "am" && b == "gonna" => Some(i + 3),
            "i'm" | "im" | "i’m" if a == "gonna" => Some(i + 2),
            "i'm" | "im" | "i’m" if a == "going" && b == "to" => Some(i + 3),
            "gonna" if start => Some(i + 1),
            "will" if start && !m.is_q(i) => Some(i + 1),
            "let" if a == "me" && b != "know" && (start || m.w(i.wrapping_sub(1)) == "ok") => {
                Some(i + 2)
            }
            "on" if a == "it" && (start || i > 0 && matches!(m.w(i - 1), "i'm" | "im" | "i’m")) => {
                Some(i + 2)
            }
            "i'm" | "im" | "i’m" if a == "on" && b != "it" => Some(i + 2),
            "should" if a == "have" && (start || i > 0 && m.w(i - 1) == "i") => Some(i + 1),
            "you'll" if a == "have" || a == "get" => Some(i + 1),
            "leave" if a == "it" && b == "with" && c == "me" => Some(i + 4),
            "expect" if start && !m.is_q(i) => Some(i + 1),
            // "the deck will be ready by Friday": the thing is the subject.
            "will" | "should"
                if a == "be"
                    && matches!(
                        b,
                        "ready" | "done" | "finished" | "sent" | "delivered" | "shipped"
                    )
                    && !(i > 0 && matches!(m.w(i - 1), "he" | "she" | "they" | "who")) =>
            {
                Some(i + 3)
            }
            _ => None,
        };
        if let Some(mut v) = after {
            // "I'm going to the store", "going to lunch": going somewhere, not doing something.
            if m.w(v.wrapping_sub(1)) == "to"
                && matches!(
                    m.w(v),
                    "the"
                        | "a"
                        | "an"
                        | "my"
                        | "our"
                        | "his"
                        | "her"
                        | "their"
                        | "lunch"
                        | "bed"
                        | "work"
                        | "school"
                        | "church"
                        | "town"
                        | "sleep"
                        | "dinner"
                        | "breakfast"
                        | "class"
                )
            {
                continue;
            }
            // "I'll be in the office", "I'll be there": where the speaker will be, not a task.
            if m.w(v) == "be"
                && !matches!(
                    m.w(v + 1),
                    "done" | "ready" | "sending" | "working" | "finishing"
                )
            {
                continue;
            }
            // "I'll try to", "will try", "I'll do my best": a weak promise, no commitment.
            let weak_from = if matches!(m.w(v), "also" | "just" | "def" | "definitely") {
                v + 1
            } else {
                v
            };
            if matches!(m.w(weak_from), "try" | "attempt")
                || m.w(weak_from) == "do" && m.w(weak_from + 2) == "best"
            {
                continue;
            }
            // "I'll also just try to send": the words before the verb carry nothing.
            while matches!(
                m.w(v),
                "also"
                    | "just"
                    | "probably"
                    | "definitely"
                    | "try"
                    | "to"
                    | "quickly"
                    | "then"
                    | "first"
                    | "def"
                    | "totally"
                    | "personally"
                    | "still"
                    | "go"
                    | "and"
                    | "gonna"
                    | "be"
                    | "sure"
            ) && v < m.n()
            {
                if m.w(v) == "be" && !matches!(m.w(v + 1), "done" | "ready" | "sending" | "working")
                {
                    break;
                }
                v += 1;
            }
            // "gonna pour tomorrow, bring umbrellas": the weather, not anyone's work.
            // "I'll pour the slab" is work: "pour" is weather only without an object.
            let bare = v + 1 >= m.n() || m.has_f(v + 1, DATE) || m.clause_start(v + 1);
            if matches!(m.w(v), "rain" | "snow" | "drizzle" | "hail" | "sleet")
                || matches!(m.w(v), "pour" | "storm" | "freeze")
                    && bare
                    && !matches!(w, "i'll" | "i’ll" | "ill" | "i")
            {
                continue;
            }
            return Some((i, v));
        }
    }
    None
}

/// Where a Russian promise is: the trigger index, the verb carrying the meaning (index and
/// infinitive), and whether the verb is one of taking something on.
/// A Russian promise: trigger index, the verb carrying the meaning, "taking on" verb or not.
type RuPromise = (usize, Option<(usize, &'static str)>, bool);

/// The verb token is dropped and no infinitive stands for it ("будет готов").
const NO_VERB: &str = "—";

/// Damerau distance at most one: one letter missing, extra, wrong or two swapped ("сдлаю").
fn one_typo(a: &[char], b: &[char]) -> bool {
    let (la, lb) = (a.len(), b.len());
    if la.abs_diff(lb) > 1 {
        return false;
    }
    let p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if p == la && p == lb {
        return true;
    }
    let (ra, rb) = (&a[p..], &b[p..]);
    if la == lb {
        ra.get(1..) == rb.get(1..)
            || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra.get(2..) == rb.get(2..))
    } else if la > lb {
        ra.get(1..) == Some(rb)
    } else {
        rb.get(1..) == Some(ra)
    }
}

/// 1st-person future forms of the lexicon, for typo matching.
/// 1st-person future forms by first letter, spelled out as chars.
type Fut1Forms = HashMap<char, Vec<(Vec<char>, Verb)>>;

fn fut1_forms() -> &'static Fut1Forms {
    static FORMS: OnceLock<Fut1Forms> = OnceLock::new();
    FORMS.get_or_init(|| {
        let mut map: Fut1Forms = HashMap::new();
        for (w, v) in ru_verbs() {
            if v.form == Form::Fut1 && !v.aux {
                let chars: Vec<char> = w.chars().collect();
                if let Some(&c) = chars.first() {
                    map.entry(c).or_default().push((chars, *v));
                }
            }
        }
        // The lexicon map has no order of its own: the same slip should always read the same.
        for forms in map.values_mut() {
            forms.sort_by(|a, b| a.0.cmp(&b.0));
        }
        map
    })
}

/// A promise verb typed with one slip ("сдлаю отчет"), only where a verb opens the clause.
fn ru_promise_typo(m: &Msg) -> Option<RuPromise> {
    for i in 0..m.n() {
        let t = &m.toks[i];
        let w = t.norm.as_str();
        let opens = m.clause_start(i) || (i > 0 && m.has_f(i - 1, SUBJ | DATE | FILL));
        if !opens
            || t.verb.is_some()
            || t.f != 0
            || !(w.ends_with('ю') || w.ends_with('у'))
            || w.chars().count() < 5
            || Lang::detect(w) != Lang::Ru
        {
            continue;
        }
        let chars: Vec<char> = w.chars().collect();
        let candidates = chars.first().and_then(|c| fut1_forms().get(c));
        if let Some((_, v)) = candidates
            .into_iter()
            .flatten()
            .find(|(f, _)| one_typo(f, &chars))
        {
            return Some((i, Some((i, v.inf)), v.take));
        }
    }
    None
}

fn ru_promise(m: &Msg) -> Option<RuPromise> {
    for i in 0..m.n() {
        if m.negated(i) {
            continue;
        }
        let w = m.w(i);
        if let Some(v) = m.verb(i) {
            let promise = match v.form {
                Form::Fut1 => true,
                // "сделаем к пятнице" promises for the team; "давай сделаем" only proposes.
                Form::Fut1Pl => !(i > 0 && m.w(i - 1).starts_with("давай")),
                _ => false,
            };
            if !promise || nonwork_before_work(m, i) {
                continue;
            }
            // "постараюсь выбить скидку", "попробую": a weak promise, no commitment.
            if matches!(v.inf, "постараться" | "попробовать") {
                continue;
            }
            if v.aux {
                // "постараюсь успеть доделать": the last infinitive in a row carries the meaning.
                let mut k = i + 1;
                let mut found = None;
                while let Some(t) = m.toks.get(k) {
                    match t.verb {
                        Some(x) if x.form == Form::Inf => {
                            found = Some((k, x.inf));
                            if !x.aux {
                                break;
                            }
                        }
                        _ => {
                            if is_infinitive(&t.norm) {
                                found = Some((k, ""));
                                break;
                            }
                            if found.is_some() {
                                break;
                            }
                        }
                    }
                    k += 1;
                }
                return Some((i, found, false));
            }
            return Some((i, Some((i, v.inf)), v.take));
        }
        match w {
            // "беру на себя X", "беру"
            "беру" | "берусь" => return Some((i, None, true)),
            // "взял на себя X" is taking it on now, not a report.
            "взял" | "взяла" if m.w(i + 1) == "на" && m.w(i + 2) == "себя" => {
                return Some((i, None, true));
            }
            // "отчёт будет готов к пятнице": the thing is the subject.
            "будет" | "будут"
                if !(i > 0 && matches!(m.w(i - 1), "как" | "когда" | "если" | "только")) =>
            {
                if let Some(k) = (i + 1..(i + 3).min(m.n())).find(|&k| m.has_f(k, DONE)) {
                    return Some((i, Some((k, NO_VERB)), false));
                }
            }
            _ => {}
        }
        match w {
            // "я буду делать X", "обещаю прислать", "планирую закончить"
            "буду" | "обещаю" | "планирую" | "собираюсь" | "начну" | "начнем" =>
            {
                let next = i + 1;
                let skip_adv = if m.has_f(next, DATE | FILL) {
                    next + 1
                } else {
                    next
                };
                for k in [next, skip_adv] {
                    let t = m.w(k);
                    if is_infinitive(t) {
                        let inf = m.verb(k).map(|v| v.inf).unwrap_or("");
                        return Some((i, Some((k, inf)), false));
                    }
                }
                // "обработку копыт начну в четверг": the work is a noun, "начну" the promise.
                // "начну с бэкапа" only orders the work that follows.
                if matches!(w, "начну" | "начнем")
                    && !(i > 0 && m.w(i - 1).starts_with("давай"))
                    && !matches!(m.w(i + 1), "с" | "со")
                {
                    return Some((i, Some((i, "начать")), false));
                }
            }
            _ => {}
        }
    }
    None
}

/// The clause range to take the content from, widened to the sentence when the clause names
/// nothing but the verb.
fn promise_content(
    cx: &Ctx,
    trigger: usize,
    verb: Option<(usize, &str)>,
    take: bool,
    skip: &[usize],
) -> (String, bool) {
    let m = cx.m;
    let span = cx.due_span();
    let mut skip: Vec<usize> = skip.to_vec();
    skip.push(trigger);
    // "возьму на себя": "на себя" is part of the verb.
    if m.w(trigger + 1) == "на" && m.w(trigger + 2) == "себя" {
        skip.extend([trigger + 1, trigger + 2]);
    }
    let verb = verb.map(|(k, inf)| {
        let inf = if inf.is_empty() { m.w(k) } else { inf };
        (k, inf)
    });
    let clause = m.bounds(trigger, false);
    // "ща допью кофе и посмотрю": what comes before "и" is a break before the work, not the
    // object of the promise; neither is the clause before it.
    let conjunct = conjunction_before(m, trigger)
        .filter(|&k| k > clause.start && (clause.start..k).any(|j| nonwork_at(m, j)));
    skip.extend(conjunct.map_or(0..0, |k| k..trigger));
    let (text, obj) = content(
        m,
        conjunct.unwrap_or(clause.start)..clause.end,
        verb,
        &skip,
        span,
    );
    let (text, obj) = if obj || conjunct.is_some() {
        (text, obj)
    } else {
        // Object in a neighbouring clause of the same sentence ("отчёт по продажам — сделаю").
        let sentence = m.bounds(trigger, true);
        let before = sentence.start..clause.start;
        let (t2, o2) = content(m, before, verb, &skip, span);
        if o2 && !(sentence.start..clause.start).any(|k| m.verb(k).is_some()) {
            (t2, o2)
        } else {
            (text, obj)
        }
    };
    if take && obj && verb.is_none_or(|(_, inf)| inf.starts_with("взя")) {
        // "беру на себя закупку стульев" → "взять на себя закупку стульев": the promise reads
        // as what is to be done, an infinitive, like every other.
        let object = verb
            .and_then(|(_, inf)| text.strip_prefix(inf))
            .map(|s| s.trim().to_string())
            .unwrap_or(text);
        let first = object.split_whitespace().next().unwrap_or("");
        let is_infinitive = ["ть", "ться", "ти", "чь"]
            .iter()
            .any(|e| first.ends_with(e));
        let cyrillic = first
            .chars()
            .next()
            .is_some_and(|c| matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё'));
        if cyrillic && !is_infinitive {
            return (format!("взять на себя {object}"), obj);
        }
        return (object, obj);
    }
    (text, obj)
}

/// "…и посмотрю", "…и потом пришлю": the index of the conjunction joining the verb at `v` to
/// an action before it, when one stands right in front of the verb.
fn conjunction_before(m: &Msg, v: usize) -> Option<usize> {
    let and = |w: &str| matches!(w, "и" | "а" | "and");
    let then = |w: &str| matches!(w, "потом" | "затем" | "then" | "после" | "сразу");
    match v {
        0 => None,
        _ if and(m.w(v - 1)) => Some(v - 1),
        _ if then(m.w(v - 1)) && v > 1 && and(m.w(v - 2)) => Some(v - 2),
        _ => None,
    }
}

/// "иду", "уже бегу", "выезжаю", "иду смотреть": the speaker is on their way, i.e. agrees.
/// Tokens `from..` must say nothing else (fillers, "уже", "ща", at most one work infinitive).
fn on_my_way(m: &Msg, from: usize) -> bool {
    let mut motion = false;
    let mut inf = false;
    for i in from..m.n() {
        let w = m.w(i);
        if matches!(
            w,
            "иду"
                | "идем"
                | "бегу"
                | "бежу"
                | "лечу"
                | "еду"
                | "выезжаю"
                | "выдвигаюсь"
                | "подхожу"
                | "спускаюсь"
                | "поднимаюсь"
        ) && !motion
        {
            motion = true;
        } else if matches!(
            w,
            "уже"
                | "ща"
                | "щас"
                | "сейчас"
                | "счас"
                | "уж"
                | "все"
                | "всё"
                | "тогда"
                | "же"
        ) || m.has_f(i, FILL | AGREE | PLEASE)
        {
        } else if motion
            && !inf
            && !m.has_f(i, NONWORK)
            && (m.verb(i).is_some_and(|v| v.form == Form::Inf) || is_infinitive(w))
        {
            inf = true;
        } else {
            return false;
        }
    }
    motion
}

/// "да, запиши меня", "ок, ставь и меня тоже": after an agreement, an imperative about the
/// speaker themself signs them up — an acceptance, not a request.
fn signs_me_up(m: &Msg, from: usize) -> bool {
    let mut verb = false;
    let mut me = false;
    for i in from..m.n() {
        let w = m.w(i);
        if matches!(w, "меня" | "мне" | "нас" | "нам") {
            me = true;
        } else if !verb && (m.verb(i).is_some_and(|v| v.form == Form::Imp) || ru_imperative_like(w))
        {
            verb = true;
        } else if !(matches!(w, "и" | "тоже" | "тогда" | "уже" | "на" | "в" | "к")
            || m.has_f(i, FILL | AGREE | PLEASE | DATE))
        {
            return false;
        }
    }
    verb && me
}

fn leading_agreement(m: &Msg) -> usize {
    let mut k = 0;
    // "давай, к четвергу" agrees; "давай сделаем" proposes.
    let lets = |k: usize| matches!(m.w(k), "давай" | "давайте") && m.clause_start(k + 1);
    while k < m.n() && (m.has_f(k, AGREE) || lets(k) || (k > 0 && m.has_f(k, FILL))) && !m.is_q(k) {
        // "sure thing": a multi-word agreement may open with a one-word one.
        if let Some(end) = multi_agreement(m, k) {
            return leading_agreement_after(m, end);
        }
        k += 1;
    }
    multi_agreement(m, k).map_or(k, |end| leading_agreement_after(m, end))
}

/// A multi-word agreement starting at token `k`: the index just past it.
fn multi_agreement(m: &Msg, k: usize) -> Option<usize> {
    for seq in [
        &["без", "проблем"][..],
        &["не", "вопрос"],
        &["will", "do"],
        &["got", "it"],
        &["no", "problem"],
        &["sounds", "good"],
        &["of", "course"],
        &["can", "do"],
        &["consider", "it", "done"],
        &["будет", "сделано"],
        &["no", "prob"],
        &["no", "worries"],
        &["np"],
        &["sure", "thing"],
        &["go", "ahead"],
        &["please", "do"],
        &["sounds", "great"],
        &["sounds", "perfect"],
        &["you", "got", "it"],
        &["сделаем"],
    ] {
        let fits = seq.iter().enumerate().all(|(j, s)| m.w(k + j) == *s);
        // "сделаем" alone agrees; "сделаем макет к пятнице" promises.
        if fits && (seq != ["сделаем"] || k + 1 >= m.n()) {
            return Some(k + seq.len());
        }
    }
    None
}

/// Past an agreement: more agreement, fillers and a familiar address ("will do boss").
fn leading_agreement_after(m: &Msg, mut k: usize) -> usize {
    while k < m.n() && (m.has_f(k, AGREE | FILL) || is_vocative(m.w(k))) {
        k += 1;
    }
    k
}

/// Familiar forms of address that name no one in particular.
fn is_vocative(w: &str) -> bool {
    matches!(
        w,
        "boss" | "chief" | "mate" | "buddy" | "bro" | "sir" | "шеф" | "босс" | "бро" | "начальник"
    )
}

/// Do tokens `from..` say nothing but a date, fillers and pronouns?
fn only_date_left(cx: &Ctx, from: usize) -> bool {
    let m = cx.m;
    let span = cx.due_span();
    (from..m.n()).all(|i| {
        let t = &m.toks[i];
        span.is_some_and(|d| t.span.start < d.end && d.start < t.span.end)
            || t.f & (AGREE | FILL | DATE | PREP | PRON | PLEASE | STOP | APPROVE) != 0
            || is_number(&t.norm)
            || matches!(
                t.norm.as_str(),
                "го" | "му"
                    | "е"
                    | "ого"
                    | "ому"
                    | "числа"
                    | "st"
                    | "nd"
                    | "rd"
                    | "th"
                    | "that'd"
                    | "it'd"
                    | "that's"
                    | "it's"
                    | "щас"
            )
    })
}

fn emoji_only(text: &str) -> Option<Finding> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    if t.contains(['✅', '✔']) {
        return Some(Finding::Done { words: Vec::new() });
    }
    let agree = ['👍', '👌', '🙏', '🤝', '💪', '🆗', '+', '✊', '🫡'];
    if t.chars().any(|c| agree.contains(&c)) {
        return Some(Finding::Accept { due: None });
    }
    None
}

/// Request cues: the token index where the asked action starts.
fn request_cue(m: &Msg) -> Option<usize> {
    for i in 0..m.n() {
        let w = m.w(i);
        if let Some(v) = m.verb(i) {
            let asks = match v.form {
                Form::Imp => !m.negated(i),
                Form::Fut2 => m.is_q(i) || (i > 0 && m.w(i - 1) == "ты"),
                _ => false,
            };
            if asks {
                return Some(i);
            }
        }
        match w {
            "забудь" | "забудьте" if i > 0 && m.w(i - 1) == "не" => {
                if let Some(k) = (i + 1..(i + 3).min(m.n())).find(|&k| is_infinitive(m.w(k))) {
                    return Some(k);
                }
                // "не забудь про отчёт": the reminder names the thing.
                if matches!(m.w(i + 1), "про" | "о" | "об") {
                    return Some(i + 2);
                }
            }
            "make" if m.w(i + 1) == "sure" && m.clause_start(i) => return Some(i + 2),
            "можешь" | "сможешь" | "можете" | "сможете" | "мог" | "могла" | "могли" => {
                if let Some(k) = (i + 1..(i + 4).min(m.n())).find(|&k| is_infinitive(m.w(k))) {
                    return Some(k);
                }
            }
            "could" | "can" | "would" | "will" if matches!(m.w(i + 1), "you" | "u" | "y'all") => {
                let k = if matches!(m.w(i + 2), "mind" | "please" | "pls") {
                    i + 3
                } else {
                    i + 2
                };
                return Some(k);
            }
            "need" if m.w(i + 1) == "you" && m.w(i + 2) == "to" => return Some(i + 3),
            _ => {}
        }
    }
    None
}

/// "кто возьмёт?", "can someone…", "нужен акт к пятнице": a request to whoever answers.
fn open_request_cue(cx: &Ctx) -> Option<usize> {
    let m = cx.m;
    for i in 0..m.n() {
        let (w, a) = (m.w(i), m.w(i + 1));
        match w {
            "кто" | "кто-нибудь" | "кто-то" => {
                let k = if a == "нибудь" || a == "то" {
                    i + 2
                } else {
                    i + 1
                };
                let n = m.w(k);
                if matches!(n, "может" | "сможет" | "возьмет" | "возьмется" | "займется")
                    || n.ends_with("ет") && m.is_q(k) && n != "знает"
                {
                    return Some(k + 1);
                }
            }
            "can" | "could" | "would"
                if matches!(a, "someone" | "anyone" | "somebody" | "anybody") =>
            {
                return Some(i + 2);
            }
            "who" if matches!(a, "can" | "could" | "will" | "wants") => return Some(i + 2),
            _ => {}
        }
        if m.has_f(i, NEED)
            && !(i > 0 && matches!(m.w(i - 1), "мне" | "не" | "i" | "бы" | "если" | "if"))
            && m.w(i + 1) != "бы"
            && cx.has_date()
        {
            return Some(i + 1);
        }
    }
    None
}

fn addressee(cx: &Ctx, cue: usize) -> Option<(i64, Vec<usize>)> {
    let m = cx.m;
    let input = cx.input;
    let limit = m.toks.get(cue).map_or(m.text.len(), |t| t.span.start);
    let found = cx.names.people_in(m.text.get(..limit).unwrap_or(""));
    // Who is named, where, and is it a vocative (opening the message, before a comma, or an
    // @mention)?
    let mut candidates: Vec<(Range<usize>, i64)> = Vec::new();
    for (span, id) in found {
        if id == input.speaker {
            continue;
        }
        let first_tok = m.toks.iter().position(|t| t.span.start >= span.start);
        let opening = first_tok
            .is_some_and(|k| (0..k).all(|j| m.has_f(j, GREET | AGREE) || m.w(j).is_empty()));
        let at = span.start < m.text.len() && m.text.as_bytes().get(span.start) == Some(&b'@');
        let comma_after = m
            .text
            .get(span.end..)
            .is_some_and(|r| r.trim_start().starts_with(','));
        if opening || at || comma_after {
            candidates.push((span, id));
        }
    }
    if let Some((span, id)) = candidates.first() {
        let skip: Vec<usize> = (0..m.n())
            .filter(|&k| m.toks[k].span.start >= span.start && m.toks[k].span.end <= span.end)
            .collect();
        return Some((*id, skip));
    }
    input
        .mentions
        .iter()
        .copied()
        .find(|&id| id != input.speaker)
        .map(|id| (id, Vec::new()))
}

/// A word outside the lexicon shaped like a Russian imperative ("нарисуй", "подпишите").
fn ru_imperative_like(w: &str) -> bool {
    Lang::detect(w) == Lang::Ru
        && w.chars().count() > 4
        && ["ай", "яй", "ей", "уй", "юй", "йте", "ьте", "ите", "ь", "и"]
            .iter()
            .any(|e| w.ends_with(e))
        && !word_classes().contains_key(w)
}

/// Tokens of a clause calling someone at the start of the sentence from `start` ("Дэн,",
/// "кстати, Ксюш,", "Василий Петрович,"): one to three capitalised words before a comma.
fn opening_vocative(m: &Msg, start: usize) -> Vec<usize> {
    let mut k = start;
    while k < m.n() {
        let clause = m.bounds(k, false);
        if clause.clone().all(|j| m.has_f(j, FILL | GREET | AGREE)) {
            k = clause.end;
            continue;
        }
        let capital = |j: usize| {
            m.text
                .get(m.toks[j].span.clone())
                .and_then(|s| s.chars().next())
                .is_some_and(char::is_uppercase)
        };
        let comma_after = m
            .toks
            .get(clause.end.saturating_sub(1))
            .and_then(|t| m.text.get(t.span.end..))
            .is_some_and(|r| r.trim_start().starts_with(','));
        if clause.len() <= 3 && clause.end < m.n() && comma_after && clause.clone().all(capital) {
            return clause.collect();
        }
        break;
    }
    Vec::new()
}

/// Question words asking when, what, how or why rather than for the work itself.
fn wh_word(w: &str) -> bool {
    matches!(
        w,
        "как"
            | "где"
            | "когда"
            | "что"
            | "чего"
            | "чем"
            | "куда"
            | "зачем"
            | "почему"
            | "кто"
    )
}

fn request(cx: &Ctx) -> Option<Finding> {
    let m = cx.m;
    let mut cue = request_cue(m);
    let please = m.any_f(PLEASE);
    let mut vocative = m.text.trim_start().starts_with('@') || !cx.input.mentions.is_empty();
    if cue.is_none() {
        // "Ben, send me…", "Ben pls check…", "Alex, let's have…": a name, then an imperative.
        // Names are only looked up when such a word follows the first few.
        let imperative_at = |k: usize| {
            m.has_f(k, EN_VERB | PLEASE)
                || ru_imperative_like(m.w(k))
                || matches!(m.w(k), "let's" | "lets" | "mind")
        };
        if (1..m.n().min(5)).any(imperative_at)
            && let Some((_, name)) = addressee(cx, m.n().min(5))
            && let Some(&last) = name.last()
        {
            vocative = true;
            let mut k = last + 1;
            let mut asked = false;
            while k < m.n() && m.has_f(k, PLEASE | GREET) {
                asked |= m.has_f(k, PLEASE);
                k += 1;
            }
            let w = m.w(k);
            // "alex pls resize the banners": after a name and "please" comes the verb.
            let en_word = !w.is_empty()
                && w.chars().all(|c| c.is_ascii_alphabetic())
                && !m.has_f(k, STOP | PRON | DATE | PREP);
            if m.has_f(k, EN_VERB) || ru_imperative_like(w) || (asked && en_word) {
                cue = Some(k);
            } else if matches!(w, "let's" | "lets" | "mind") {
                cue = Some(k + 1);
            }
        }
    }
    let open = if cue.is_none() {
        open_request_cue(cx)
    } else {
        None
    };
    if cue.is_none() && open.is_none() && !(please && vocative) {
        return None;
    }
    let at = cue.or(open).unwrap_or(1);
    let who = addressee(cx, at.min(m.n()));
    let (addr, mut skip) = match &who {
        Some((id, skip)) => (Some(*id), skip.clone()),
        None => (None, Vec::new()),
    };
    // A bare imperative to nobody in particular needs a date or a "please" to be a request.
    if addr.is_none() && open.is_none() {
        // "мы вышли сегодня", "они пришли": a subject before the verb makes it a past plural.
        let subject = |c: usize| {
            (m.bounds(c, false).start..c).any(|k| {
                m.has_f(k, SUBJ) || matches!(m.w(k), "он" | "она" | "оно" | "они" | "вы" | "ты")
            })
        };
        let imperative_opening = cue.is_some_and(|c| {
            (m.bounds(c, false).start == c || c <= 1) && !(m.w(c).ends_with("ли") && subject(c))
        });
        // "счёт Вектору выстави сегодня плз": the object may come first. Without a "please",
        // the past plurals shaped like imperatives ("пришли", "вышли") stay out.
        let fronted = cue.is_some_and(|c| {
            let before = m.bounds(c, false).start..c;
            m.verb(c).is_some_and(|v| v.form == Form::Imp && !v.aux)
                && before.clone().all(|k| !m.has_f(k, SUBJ | PRON | NEG | COND))
                // An object, not a name: "Насть поправь" calls, "счёт выстави" fronts.
                && before.clone().any(|k| {
                    !m.has_f(k, STOP | FILL | GREET | AGREE | DATE)
                        && m.text
                            .get(m.toks[k].span.clone())
                            .and_then(|s| s.chars().next())
                            .is_some_and(char::is_lowercase)
                })
                && (please || cx.has_date() && !m.w(c).ends_with("ли"))
        });
        // "Дэн, первичку в 1с занесёшь послезавтра?": a second person asked, whoever it is.
        // Not "когда сделаешь?", "что скажешь?" (asking when or what), nor "пойдёшь обедать?".
        let asked = cue.is_some_and(|c| {
            let sentence = m.bounds(c, true);
            m.is_q(c)
                && match m.verb(c) {
                    None => true,
                    Some(v) => {
                        v.form == Form::Fut2
                            && !v.aux
                            && !(sentence.start..c).any(|k| wh_word(m.w(k)))
                            && !sentence.clone().any(|k| nonwork_at(m, k))
                    }
                }
        });
        if !((imperative_opening || fronted) && (please || cx.has_date())) && !asked {
            return None;
        }
    }
    let start = match (cue, open) {
        (Some(c), _) => c,
        (None, Some(o)) => o,
        // Vocative + please: everything after the name.
        (None, None) => skip.last().map_or(1, |&k| k + 1),
    };
    let start = start.min(m.n());
    // Helpers of the request itself.
    for k in start.saturating_sub(3)..start {
        if matches!(
            m.w(k),
            "можешь"
                | "сможешь"
                | "можете"
                | "сможете"
                | "could"
                | "can"
                | "would"
                | "will"
                | "you"
                | "u"
                | "mind"
                | "sure"
                | "make"
                | "ли"
                | "ты"
        ) {
            skip.push(k);
        }
    }
    let verb = m
        .toks
        .get(start)
        .and_then(|t| t.verb)
        .map(|v| (start, v.inf));
    let sentence = m.bounds(start, true);
    let from = if cue.is_some() || open.is_some() {
        start
    } else {
        sentence.start
    };
    // A remark after the request ("need it EOD", "на складе почти кончился") is not its content.
    let mut end = sentence.end;
    if let Some(k) = (from + 1..sentence.end)
        .find(|&k| m.clause_start(k) && m.clause_of(k) > m.clause_of(from) && remark(m, k))
    {
        end = k;
    }
    let (mut text, obj) = content(m, from..end, verb, &skip, cx.due_span());
    // The object before the verb: "Дима, отчёт по простоям нужен к пятнице, сделаешь?".
    if !obj && from > sentence.start {
        let before = sentence.start..from;
        let mut skip2 = skip.clone();
        skip2.extend(before.clone().filter(|&k| m.has_f(k, NEED | URGE)));
        let other_verb = before
            .clone()
            .any(|k| !skip2.contains(&k) && m.verb(k).is_some());
        if !other_verb {
            // "Дэн, первичку занесёшь?": a name the team list does not know still only calls.
            if addr.is_none() {
                skip2.extend(opening_vocative(m, sentence.start));
            }
            let (t2, o2) = content(m, sentence.start..end, verb, &skip2, cx.due_span());
            if o2 {
                text = t2;
            }
        }
    }
    Some(Finding::Request {
        addressee: addr,
        content: text,
        due: cx.due(),
    })
}

/// An offer asked as a question: "могу завтра съездить на замеры, надо?", "хочешь, я подготовлю
/// сравнение?", "want me to write the case study?", "should I draft the reply?".
fn question_offer(cx: &Ctx) -> Option<Finding> {
    let m = cx.m;
    let wh = |k: usize| {
        let s = m.bounds(k, true).start;
        (s..k).any(|j| {
            matches!(
                m.w(j),
                "как"
                    | "где"
                    | "когда"
                    | "что"
                    | "чем"
                    | "куда"
                    | "зачем"
                    | "почему"
                    | "how"
                    | "where"
                    | "what"
                    | "why"
                    | "when"
                    | "who"
                    | "кто"
            )
        })
    };
    // (index of the first word of the offered work, that word's infinitive for Russian).
    let mut found: Option<(usize, Option<&'static str>)> = None;
    for i in 0..m.n() {
        if !m.is_q(i) || m.negated(i) {
            continue;
        }
        let (w, a, b) = (m.w(i), m.w(i + 1), m.w(i + 2));
        let sent_end = m.bounds(i, true).end;
        let ru_inf = |from: usize, to: usize| {
            (from..to.min(sent_end)).find_map(|k| {
                let t = &m.toks[k];
                match t.verb {
                    Some(v) if v.form == Form::Inf && !v.aux => Some((k, Some(v.inf))),
                    _ => None,
                }
            })
        };
        let ru_fut1 = |from: usize, to: usize| {
            (from..to.min(sent_end)).find_map(|k| {
                let t = &m.toks[k];
                match t.verb {
                    Some(v) if v.form == Form::Fut1 && !v.aux => Some((k, Some(v.inf))),
                    _ => None,
                }
            })
        };
        found = match w {
            // "могу ли я…" asks for permission; "можем созвониться?" proposes.
            "могу" | "смогу" if a != "ли" && !wh(i) => ru_inf(i + 1, i + 5),
            "хочешь" | "хотите" if m.clause_start(i) || m.w(i.wrapping_sub(1)) == "если" => {
                ru_fut1(i + 1, i + 4)
            }
            "давай" | "давайте" | "может" | "мб" if matches!(a, "я" | "мы") => {
                ru_fut1(i + 2, i + 4)
            }
            "мне" if m.clause_start(i) => ru_inf(i + 1, i + 3),
            "want" | "need" | "like" if a == "me" && b == "to" => Some((i + 3, None)),
            "should" | "shall" if a == "i" && m.clause_start(i) => Some((i + 2, None)),
            _ => None,
        };
        if found.is_some() {
            break;
        }
    }
    // "подготовить сравнение к пятнице?": an infinitive opening a question offers it.
    if found.is_none() {
        for i in 0..m.n() {
            // Names are looked up last: most words are no infinitive opening a question.
            let opens = || {
                (m.bounds(i, true).start..i)
                    .all(|k| m.has_f(k, GREET | AGREE | FILL) || addressed_word(cx, k))
            };
            if let Some(v) = m.verb(i)
                && v.form == Form::Inf
                && !v.aux
                && !m.has_f(i, MOVE | CANCEL)
                && m.is_q(i)
                && !m.negated(i)
                && opens()
            {
                found = Some((i, Some(v.inf)));
                break;
            }
        }
    }
    let (v, inf) = found?;
    let clause = m.bounds(v.min(m.n().saturating_sub(1)), false);
    let verb = inf.map(|x| (v, x));
    let (text, _) = content(m, v..clause.end, verb, &[], cx.due_span());
    Some(Finding::Offer {
        content: text,
        due: cx.due(),
    })
}

/// Is token `k` part of a person's name (a vocative in front of the message)?
fn addressed_word(cx: &Ctx, k: usize) -> bool {
    let Some(t) = cx.m.toks.get(k) else {
        return false;
    };
    let raw = cx.m.text.get(t.span.clone()).unwrap_or("");
    !cx.names.people_in(raw).is_empty()
        || super::names::is_patronymic_word(&t.norm)
        || cx
            .m
            .text
            .get(..t.span.start)
            .is_some_and(|b| b.ends_with('@'))
}

/// Does the clause starting at `k` comment on the request rather than extend it ("need it EOD",
/// "нужен к пятнице", "на складе почти кончился", "because the client asked")?
fn remark(m: &Msg, k: usize) -> bool {
    let clause = m.bounds(k, false);
    let (w, next) = (m.w(k), m.w(k + 1));
    // "the client asked for it": a subject and its past verb.
    let en_past = matches!(
        w,
        "the" | "our" | "their" | "they" | "he" | "she" | "we" | "it" | "i" | "client" | "customer"
    ) && (k + 1..clause.end).any(|j| {
        let x = m.w(j);
        x.len() > 4
            && x.ends_with("ed")
            && !matches!(
                m.w(j - 1),
                "the" | "a" | "an" | "our" | "their" | "your" | "be" | "is"
            )
    });
    m.has_f(k, NEED)
        || en_past
        || matches!(
            w,
            "потому"
                | "так"
                | "т"
                | "тк"
                | "ибо"
                | "иначе"
                | "там"
                | "тут"
                | "because"
                | "since"
                | "cause"
                | "coz"
                | "otherwise"
        )
        || (w == "а" && next == "то")
        || clause.clone().any(|j| {
            let w = m.w(j);
            // "технадзор ждёт", "они тянут с реквизитами": what others do or want.
            matches!(
                w,
                "ждет"
                    | "ждут"
                    | "тянет"
                    | "тянут"
                    | "торопит"
                    | "торопят"
                    | "просит"
                    | "просят"
                    | "требует"
                    | "требуют"
                    | "жалуется"
                    | "жалуются"
            ) || m.has_f(j, PROGRESS)
                || m.verb(j).is_some_and(|v| v.form == Form::Past)
                || (Lang::detect(w) == Lang::Ru
                    && ["лся", "лась", "лось", "лись"]
                        .iter()
                        .any(|e| w.ends_with(e)))
        })
}

fn offer(cx: &Ctx) -> Option<Finding> {
    let m = cx.m;
    for i in 0..m.n() {
        let (w, a) = (m.w(i), m.w(i + 1));
        let verb_at = match w {
            "могу" | "смогу" | "можем" if !m.negated(i) && !m.is_q(i) => {
                (i + 1..(i + 4).min(m.n()))
                    .find(|&k| is_infinitive(m.w(k)))
                    // "если никто не возьмёт, могу я": the offer names no verb.
                    .or_else(|| (m.w(i + 1) == "я" || i + 1 >= m.n()).then_some(i))
            }
            "can" | "could" if i > 0 && m.w(i - 1) == "i" && !m.is_q(i) && a != "you" => {
                Some(i + 1)
            }
            "happy" if a == "to" => Some(i + 2),
            _ => None,
        };
        let Some(v) = verb_at else { continue };
        let conditional = (0..m.n()).any(|k| {
            matches!(
                m.w(k),
                "но" | "после" | "если" | "когда" | "but" | "after" | "if" | "once" | "when"
            )
        }) || w == "could"
            || w == "happy";
        let verb = m.toks.get(v).and_then(|t| t.verb).map(|x| (v, x.inf));
        let verb = verb.or_else(|| is_infinitive(m.w(v)).then_some((v, "")));
        let verb = verb.map(|(k, inf)| (k, if inf.is_empty() { m.w(k) } else { inf }));
        let mut skip = vec![i];
        if i > 0 && m.has_f(i - 1, SUBJ) {
            skip.push(i - 1);
        }
        let clause = m.bounds(v.min(m.n().saturating_sub(1)), false);
        let (text, _) = content(
            m,
            clause.start.max(i)..clause.end,
            verb,
            &skip,
            cx.due_span(),
        );
        let due = cx.due();
        if !conditional && cx.has_date() {
            return Some(Finding::Made { content: text, due });
        }
        return Some(Finding::Offer { content: text, due });
    }
    None
}

fn made(cx: &Ctx) -> Option<Finding> {
    let m = cx.m;
    let (trigger, verb, take) = if let Some(p) = ru_promise(m) {
        p
    } else if let Some(p) = en_promise(m)
        .is_none()
        .then(|| ru_promise_typo(m))
        .flatten()
    {
        p
    } else if let Some((t, v)) = en_promise(m) {
        // English keeps its own verb in place: skip the trigger words only.
        let mut skip: Vec<usize> = (t..v).chain(0..cx.lead.get()).collect();
        if t > 0 && m.has_f(t - 1, SUBJ) {
            skip.push(t - 1);
        }
        if m.is_q(t) {
            return None;
        }
        let clause = m.bounds(v.min(m.n().saturating_sub(1)), false);
        let range = clause.start.min(t)..clause.end;
        let (text, obj) = content(m, range, None, &skip, cx.due_span());
        let generic = text.split_whitespace().all(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "do" | "it"
                    | "that"
                    | "this"
                    | "handle"
                    | "take"
                    | "send"
                    | "have"
                    | "get"
                    | "check"
                    | "look"
                    | "fix"
                    | "on"
                    | "done"
                    | "ready"
                    | "be"
                    | "finish"
                    | "one"
                    | "care"
                    | "of"
                    | "sort"
                    | "out"
            )
        });
        if !obj || generic {
            return Some(Finding::Accept { due: cx.due() });
        }
        return Some(Finding::Made {
            content: text,
            due: cx.due(),
        });
    } else {
        return None;
    };
    if m.is_q(trigger) {
        return None;
    }
    let mut skip: Vec<usize> = (0..cx.lead.get()).collect();
    if trigger > 0 && m.has_f(trigger - 1, SUBJ) {
        skip.push(trigger - 1);
    }
    let (text, obj) = promise_content(cx, trigger, verb, take, &skip);
    if !obj {
        return Some(Finding::Accept { due: cx.due() });
    }
    Some(Finding::Made {
        content: text,
        due: cx.due(),
    })
}

fn done(m: &Msg) -> Option<usize> {
    if m.has_seq(&["all", "set"]) {
        return m.seq(&["all", "set"]);
    }
    for i in 0..m.n() {
        let t = &m.toks[i];
        // "got the green samples from the port": the errand is run.
        let got = t.norm == "got"
            && (m.clause_start(i) || matches!(m.w(i.wrapping_sub(1)), "i" | "we" | "finally"))
            && matches!(
                m.w(i + 1),
                "the" | "all" | "both" | "our" | "those" | "these"
            );
        let past = t
            .verb
            .is_some_and(|v| v.form == Form::Past && !v.take && !v.aux)
            || got
            || en_work_past(m, i);
        if !(past || t.f & DONE != 0) || m.negated(i) || m.is_q(i) {
            continue;
        }
        let (prev, next) = (if i > 0 { m.w(i - 1) } else { "" }, m.w(i + 1));
        // "готов помочь", "готов к запуску": ready to, not finished.
        if t.norm.starts_with("готов") && (is_infinitive(next) || matches!(next, "к" | "ко"))
        {
            continue;
        }
        // "will be done", "to be sent", "get it done by": a future, not a report.
        if matches!(
            prev,
            "будет"
                | "будут"
                | "буду"
                | "будем"
                | "be"
                | "will"
                | "to"
                | "gonna"
                | "should"
                | "must"
                | "can"
                | "get"
                | "i'll"
        ) {
            continue;
        }
        if t.norm == "pushed" && matches!(next, "to" | "back") {
            continue;
        }
        if matches!(t.norm.as_str(), "live" | "ready")
            && !matches!(prev, "is" | "are" | "went" | "now")
        {
            continue;
        }
        return Some(i);
    }
    None
}

/// "reviewed the contract", "chased Tesco", "I filed it": a regular past of a verb of work
/// opening its clause (not "the attached file", "is delayed").
fn en_work_past(m: &Msg, i: usize) -> bool {
    let w = m.w(i);
    let Some(stemless) = w.strip_suffix("ed") else {
        return false;
    };
    let opens = m.clause_start(i)
        || matches!(
            m.w(i.wrapping_sub(1)),
            "i" | "we"
                | "just"
                | "already"
                | "have"
                | "has"
                | "i've"
                | "we've"
                | "finally"
                | "also"
        );
    let thing_done = !opens && object_then_participle(m, i);
    if !(opens || thing_done) || w.len() < 5 {
        return false;
    }
    let mut bases = vec![stemless.to_string(), format!("{stemless}e")];
    if let Some(y) = stemless.strip_suffix('i') {
        bases.push(format!("{y}y"));
    }
    let chars: Vec<char> = stemless.chars().collect();
    if chars.len() > 2 && chars[chars.len() - 1] == chars[chars.len() - 2] {
        bases.push(chars[..chars.len() - 1].iter().collect());
    }
    let classes = word_classes();
    let work = |b: &str| classes.get(b).is_some_and(|f| f & EN_VERB != 0);
    let craft = |b: &str| {
        work(b)
            || matches!(
                b,
                "return"
                    | "calibrate"
                    | "service"
                    | "restock"
                    | "refund"
                    | "swap"
                    | "measure"
                    | "mount"
                    | "tune"
                    | "polish"
                    | "sand"
                    | "glaze"
                    | "laminate"
                    | "bind"
                    | "trim"
                    | "weld"
                    | "seal"
                    | "wire"
                    | "tile"
                    | "scan"
                    | "clean"
                    | "fit"
                    | "bake"
                    | "stitch"
                    | "tidy"
            )
    };
    // After the thing it was done to ("drawings updated", "samples dropped at the client") a
    // participle reports work whatever the verb, unless it says the work did not happen.
    let not_work = matches!(
        w,
        "delayed"
            | "postponed"
            | "pushed"
            | "moved"
            | "rescheduled"
            | "scheduled"
            | "planned"
            | "needed"
            | "supposed"
            | "used"
            | "tired"
            | "interested"
            | "excited"
            | "confused"
            | "related"
            | "based"
            | "blocked"
            | "cancelled"
            | "canceled"
    ) || (w == "dropped" && !thing_done);
    !not_work
        && bases.iter().any(|b| {
            work(b)
                || thing_done
                    && (craft(b) || b.strip_prefix("re").is_some_and(craft) || b.len() >= 4)
        })
}

/// "furnace recalibrated, temps look good", "lenses returned": a thing (one or two words, not
/// a person) and the participle of the work done on it, closing its clause.
fn object_then_participle(m: &Msg, i: usize) -> bool {
    // "... updated and on the server", "... dropped at hatch & co": a preposition or "and" may
    // follow; "is roasted", "was sent" may sit between the thing and the participle.
    let closes = i + 1 >= m.n()
        || m.clause_start(i + 1)
        || matches!(
            m.w(i + 1),
            "and" | "at" | "to" | "on" | "in" | "with" | "off" | "for" | "from" | "into" | "onto"
        );
    let be = |k: usize| {
        matches!(
            m.w(k),
            "is" | "are" | "was" | "were" | "been" | "has" | "have"
        )
    };
    let mut end = i;
    while end > 0 && be(end - 1) {
        end -= 1;
    }
    if !(1..=4).contains(&end) || m.clause_start(i) || !closes {
        return false;
    }
    (0..end).all(|k| {
        let w = m.w(k);
        (k == 0 || !m.clause_start(k))
            && (w == "the" || !m.has_f(k, STOP | PRON | SUBJ | DATE | AGREE | GREET | NEG))
            && !matches!(
                w,
                "client"
                    | "customer"
                    | "supplier"
                    | "vendor"
                    | "boss"
                    | "manager"
                    | "guy"
                    | "courier"
                    | "driver"
                    | "landlord"
                    | "someone"
                    | "somebody"
                    | "everyone"
                    | "team"
                    | "he"
                    | "she"
                    | "they"
                    | "mum"
                    | "mom"
                    | "dad"
            )
    })
}

/// A completion report in a sentence of its own, beside a promise in another sentence: the
/// report's significant stems.
fn done_elsewhere(m: &Msg) -> Option<Vec<String>> {
    let promise = ru_promise(m)
        .map(|p| p.0)
        .or_else(|| en_promise(m).map(|p| p.0))?;
    let psent = m.toks.get(promise)?.sent;
    let sentences = m.question.len();
    for s in (0..sentences).filter(|&s| s != psent && !m.question.get(s).copied().unwrap_or(true)) {
        let idx: Vec<usize> = (0..m.n()).filter(|&k| m.sent_of(k) == Some(s)).collect();
        let (&a, &b) = (idx.first()?, idx.last()?);
        let text = m.text.get(m.toks[a].span.start..m.toks[b].span.end)?;
        let sub = m.slice(m.toks[a].span.start..m.toks[b].span.end);
        debug_assert_eq!(sub.text, text);
        if ru_promise(&sub).is_none() && en_promise(&sub).is_none() && done(&sub).is_some() {
            return Some(stems_of(&sub));
        }
    }
    None
}

/// How much of a message is read at once: Telegram's own limit on a message. Longer text (from
/// a replay or an import) is read in pieces of about this size, so the work per message is
/// linear in its length whatever the rules do within a piece.
pub const PIECE_CHARS: usize = 4096;

/// The findings of one message (usually none or one), in the order its pieces say them, each
/// once.
pub fn analyze(input: &MessageInput<'_>) -> Vec<Finding> {
    let parts = pieces(input.text, PIECE_CHARS);
    if parts.len() < 2 {
        return analyze_piece(input);
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for text in parts {
        let piece = MessageInput {
            text,
            ..input.clone()
        };
        for f in analyze_piece(&piece) {
            if seen.insert(f.clone()) {
                out.push(f);
            }
        }
    }
    out
}

/// `text` cut into consecutive pieces of at most `max` characters that together are the whole
/// text: each ends at the last line break of its second half, else the last sentence end,
/// else the last space, so a promise is rarely cut in two; a run without any is cut at `max`.
pub fn pieces(text: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let (piece, next) = rest.split_at(piece_end(rest, max));
        out.push(piece);
        if next.is_empty() {
            return out;
        }
        rest = next;
    }
}

/// Where the first piece of `text` ends (see [`pieces`]): a char boundary, past 0 unless the
/// text is empty.
fn piece_end(text: &str, max: usize) -> usize {
    let max = max.max(2);
    let Some((limit, _)) = text.char_indices().nth(max) else {
        return text.len();
    };
    let window = text.get(..limit).unwrap_or(text);
    let half = window.char_indices().nth(max / 2).map_or(0, |(i, _)| i);
    let tail = window.get(half..).unwrap_or("");
    let after = |i: usize, c: char| half + i + c.len_utf8();
    let line = tail.rfind('\n').map(|i| after(i, '\n'));
    let sentence = || {
        let mut next: Option<char> = None;
        for (i, c) in tail.char_indices().rev() {
            if matches!(c, '.' | '!' | '?' | '…' | ';') && next.is_some_and(char::is_whitespace) {
                return Some(after(i, c));
            }
            next = Some(c);
        }
        None
    };
    let space = || {
        tail.char_indices()
            .rev()
            .find(|&(_, c)| c.is_whitespace())
            .map(|(i, c)| after(i, c))
    };
    line.or_else(sentence)
        .or_else(space)
        .filter(|&c| c > 0 && c <= limit)
        .unwrap_or(limit)
}

/// The findings of one piece of a message.
///
/// The whole piece is read first; then each independent clause on its own, because a hedge,
/// a report or a date in one clause says nothing about the promise in another ("I'll send the
/// rate con tmrw. also the strike might be a problem", "оплачу на этой неделе, сегодня лимит").
fn analyze_piece(input: &MessageInput<'_>) -> Vec<Finding> {
    let names = NameIndex::new(input.people);
    let m = Msg::new(input.text);
    let whole = analyze_whole(input, &m, &names);
    if whole.is_empty()
        && let Some(bare) = without_address(&m, &names)
    {
        // "Игорь Валентинович, принято", "выйду, Игорь Валентинович": the address aside.
        let sub = MessageInput {
            text: &bare,
            ..input.clone()
        };
        let found = analyze_whole(&sub, &Msg::new(&bare), &names);
        if matches!(found.first(), Some(Finding::Accept { .. })) {
            return found;
        }
    }
    let segs = segments(&m, &names);
    if segs.len() < 2 {
        return whole;
    }
    let lang = input.lang.or_else(|| Some(Lang::detect(input.text)));
    let parts: Vec<Msg> = segs.iter().map(|r| m.slice(r.clone())).collect();
    let per: Vec<Vec<Finding>> = parts
        .iter()
        .map(|part| {
            let sub = MessageInput {
                text: part.text,
                lang,
                ..input.clone()
            };
            analyze_whole(&sub, part, &names)
        })
        .collect();
    combine(input, whole, &segs, &parts, per)
}

/// Does a finding start or assign new work?
fn is_new_work(f: &Finding) -> bool {
    matches!(
        f,
        Finding::Made { .. } | Finding::Request { .. } | Finding::Offer { .. }
    )
}

/// Merge the whole-message reading with the per-clause readings.
fn combine(
    input: &MessageInput<'_>,
    whole: Vec<Finding>,
    segs: &[Range<usize>],
    parts: &[Msg],
    per: Vec<Vec<Finding>>,
) -> Vec<Finding> {
    // The deadline of a clause that says nothing else ("…, к четвергу надо") belongs to its
    // neighbour; a date in a clause with its own finding does not.
    // So does a bare "…, сделаю до конца недели" / "…, will have it by the 24th" after the work.
    let whole_due = whole.first().and_then(Finding::due);
    let bare_yes = |j: usize| per[j].iter().all(|f| matches!(f, Finding::Accept { .. }));
    let mut flat: Vec<Finding> = Vec::new();
    for (k, fs) in per.iter().enumerate() {
        for f in fs {
            let mut f = f.clone();
            if f.due().is_none() && is_new_work(&f) {
                let neighbour = [k.checked_sub(1), Some(k + 1)]
                    .into_iter()
                    .flatten()
                    .filter(|&j| j < segs.len() && bare_yes(j))
                    .filter(|&j| same_sentence(input.text, &segs[j.min(k)]))
                    .find(|&j| clause_has_date(input, &segs[j]));
                if let Some(j) = neighbour {
                    let own = per[j].first().and_then(Finding::due);
                    set_due(&mut f, own.or(whole_due));
                }
            }
            // "в декабре заходим на 5 этаж": a team's plan told in passing is no promise unless
            // the whole message already read one.
            if matches!(f, Finding::Made { .. })
                && !whole.iter().any(|w| w.label() == "made")
                && !parts.get(k).is_some_and(singular_promise)
            {
                continue;
            }
            if matches!(f, Finding::Accept { .. }) && !whole.iter().any(|w| w.label() == "accept") {
                // A bare "сделаю до пятницы" beside the work is that work's date, not a reply.
                continue;
            }
            flat.push(f);
        }
    }
    let new_in_parts = flat.iter().filter(|f| is_new_work(f)).count();
    if whole.is_empty() {
        // Only new work and reports are trusted from a part the whole message vetoed.
        flat.retain(|f| is_new_work(f) || matches!(f, Finding::Done { .. }));
        if flat.iter().any(is_new_work) {
            return flat;
        }
        return Vec::new();
    }
    let Some(first) = whole.first() else {
        return whole;
    };
    match first {
        Finding::Made { .. } | Finding::Request { .. } | Finding::Offer { .. } => {
            // The parts name the same work more precisely (its own date), and may add a second
            // piece of work ("I'll lock the BOM by wed, and @arjun pls flash the boards").
            let labels = |fs: &[Finding]| {
                let mut l: Vec<&'static str> = fs
                    .iter()
                    .filter(|f| is_new_work(f))
                    .map(Finding::label)
                    .collect();
                l.dedup();
                l
            };
            let (in_whole, in_parts) = (labels(&whole), labels(&flat));
            if in_parts.contains(&first.label()) && in_parts.iter().any(|l| !in_whole.contains(l)) {
                flat.retain(is_new_work);
                return flat;
            }
            own_due(whole, &flat, true)
        }
        Finding::Accept { .. } | Finding::Done { .. } if whole.len() == 1 => {
            // "я вчера выложила пост, а стори сниму в пятницу": a report beside a promise.
            if new_in_parts >= 1 && !flat.iter().any(|f| matches!(f, Finding::Accept { .. })) {
                return flat;
            }
            own_due(whole, &flat, false)
        }
        Finding::Moved { .. } if whole.len() == 1 => own_due(whole, &flat, false),
        _ => whole,
    }
}

/// Does the text promise in the first person singular ("сделаю", "I'll send")?
fn singular_promise(m: &Msg) -> bool {
    en_promise(m).is_some()
        || ru_promise(m).is_some_and(|(i, _, _)| {
            m.toks
                .get(i)
                .and_then(|t| t.verb)
                .is_none_or(|v| v.form != Form::Fut1Pl)
        })
}

/// Does the clause end inside its sentence (no full stop, "?", "!" or line break after it)?
fn same_sentence(text: &str, r: &Range<usize>) -> bool {
    let part = text.get(r.clone()).unwrap_or("");
    let tail = part.trim_end_matches(|c: char| !c.is_alphanumeric());
    let gap = part.get(tail.len()..).unwrap_or("");
    !is_hard_break(gap)
}

/// "оплачу на этой неделе, сегодня в банке лимит": the date of the clause that holds the
/// finding wins over a date elsewhere in the message.
/// With `even_none`, a clause without a date clears one read from another sentence ("fyi Sysco
/// delivers tmrw. also I can take the call" offers no date).
fn own_due(mut whole: Vec<Finding>, parts: &[Finding], even_none: bool) -> Vec<Finding> {
    let Some(first) = whole.first_mut() else {
        return whole;
    };
    let same: Vec<&Finding> = parts
        .iter()
        .filter(|f| f.label() == first.label())
        .collect();
    // Two promises in one message ("плитку начну завтра, к пятнице положу стены"): the part
    // naming the same work carries its date.
    let content_of = |f: &Finding| match f {
        Finding::Made { content, .. }
        | Finding::Request { content, .. }
        | Finding::Offer { content, .. } => Some(content.clone()),
        _ => None,
    };
    let mine = content_of(first);
    let one = match same.as_slice() {
        [one] => Some(*one),
        [_, _, ..] if mine.is_some() => {
            let mut hits = same.iter().filter(|f| content_of(f) == mine);
            match (hits.next(), hits.next()) {
                (Some(f), None) if f.due().is_some() => Some(*f),
                _ => None,
            }
        }
        _ => None,
    };
    if let Some(one) = one
        && (even_none || one.due().is_some())
    {
        set_due(first, one.due());
    }
    whole
}

fn set_due(f: &mut Finding, d: Option<Due>) {
    match f {
        Finding::Made { due, .. }
        | Finding::Request { due, .. }
        | Finding::Offer { due, .. }
        | Finding::Accept { due }
        | Finding::Moved { due, .. } => *due = d,
        Finding::Done { .. } | Finding::Cancelled { .. } => {}
    }
}

fn clause_has_date(input: &MessageInput<'_>, r: &Range<usize>) -> bool {
    let text = input.text.get(r.clone()).unwrap_or("");
    let lang = input.lang.unwrap_or_else(|| Lang::detect(text));
    super::dates::deadline(text, input.now, lang).is_some()
}

/// Byte ranges of the independent clauses of a message. A clause that only addresses or agrees
/// ("Дима,", "ok team,") or sets a condition ("если успею,") stays with the next one; one that
/// qualifies the previous ("…, если успею", "…, but no promises", "…, к четвергу надо") stays
/// with it.
fn segments(m: &Msg, names: &NameIndex) -> Vec<Range<usize>> {
    let text = m.text;
    if m.n() < 2 {
        return Vec::new();
    }
    let named = names.people_in(text);
    // Clause runs.
    let mut runs: Vec<Range<usize>> = Vec::new();
    let mut a = 0;
    // "18:00", "1,5": punctuation inside a number splits nothing.
    let in_number = |i: usize| {
        is_number(m.w(i - 1))
            && is_number(m.w(i))
            && text
                .get(m.toks[i - 1].span.end..m.toks[i].span.start)
                .is_some_and(|g| matches!(g, ":" | "," | "."))
    };
    for i in 1..=m.n() {
        if i == m.n() || m.clause_start(i) && !in_number(i) {
            runs.push(a..i);
            a = i;
        }
    }
    let lead_only = |r: &Range<usize>| {
        r.clone().all(|i| {
            let t = &m.toks[i];
            let orig = text.get(t.span.clone()).unwrap_or("");
            t.f & (AGREE | GREET | FILL | PLEASE | APPROVE) != 0
                || orig.chars().next().is_some_and(char::is_uppercase)
                || named
                    .iter()
                    .any(|(s, _)| s.start <= t.span.start && t.span.end <= s.end)
                || text.get(..t.span.start).is_some_and(|b| b.ends_with('@'))
        })
    };
    let opens_condition = |i: usize| {
        matches!(
            m.w(i),
            "если"
                | "if"
                | "when"
                | "когда"
                | "unless"
                | "once"
                | "чтобы"
                | "пока"
                | "as"
                | "хотя"
                | "although"
                | "though"
                | "раз"
                | "since"
                | "because"
                | "потому"
                | "так"
        )
    };
    let qualifies = |r: &Range<usize>| {
        let i = r.start;
        opens_condition(i)
            || matches!(
                m.w(i),
                "что"
                    | "that"
                    | "which"
                    | "who"
                    | "где"
                    | "which's"
                    | "но"
                    | "but"
                    | "however"
                    | "однако"
                    | "как"
                    | "or"
                    | "или"
                    | "либо"
                    | "не"
                    | "not"
            )
            || m.w(i).starts_with("котор")
            || r.clone().all(|k| {
                let t = &m.toks[k];
                t.f & (DATE | PREP | NEED | PLEASE | FILL | AGREE | APPROVE | NUMW | MONTH | URGE)
                    != 0
                    || is_number(&t.norm)
                    || matches!(t.norm.as_str(), "го" | "му" | "е" | "числа" | "th" | "st")
            })
    };
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut pending: Option<usize> = None;
    for r in runs {
        let start = pending.take().unwrap_or(r.start);
        let joined = start..r.end;
        let same_sent = |x: usize, y: usize| m.sent_of(x) == m.sent_of(y);
        if let Some(last) = out.last_mut()
            && same_sent(last.start, r.start)
            && pending.is_none()
            && start == r.start
            && qualifies(&r)
        {
            last.end = r.end;
            continue;
        }
        if r.end < m.n() && (lead_only(&joined) || opens_condition(joined.start)) {
            pending = Some(joined.start);
            continue;
        }
        out.push(joined);
    }
    if let Some(p) = pending {
        match out.last_mut() {
            Some(last) => last.end = m.n(),
            None => out.push(p..m.n()),
        }
    }
    // Token runs to byte ranges: each clause keeps the punctuation after it ("?" matters).
    let mut spans = Vec::with_capacity(out.len());
    for (k, r) in out.iter().enumerate() {
        // "…, and @arjun pls flash the boards": the joining word belongs to neither clause.
        let first = if k > 0 && r.len() > 1 && matches!(m.w(r.start), "and" | "и" | "а" | "plus")
        {
            r.start + 1
        } else {
            r.start
        };
        let from = if k == 0 { 0 } else { m.toks[first].span.start };
        let to = out
            .get(k + 1)
            .map_or(text.len(), |n| m.toks[n.start].span.start);
        spans.push(from..to);
    }
    spans
}

/// The text without the words addressing someone (a team member's name, a name and
/// patronymic), when there are any.
fn without_address(m: &Msg, names: &NameIndex) -> Option<String> {
    let text = m.text;
    let named = names.people_in(text);
    let patronymic = |i: usize| super::names::is_patronymic_word(m.w(i));
    let capital = |i: usize| {
        m.toks.get(i).is_some_and(|t| {
            text.get(t.span.clone())
                .and_then(|s| s.chars().next())
                .is_some_and(char::is_uppercase)
        })
    };
    let address: Vec<bool> = (0..m.n())
        .map(|i| {
            let t = &m.toks[i];
            named
                .iter()
                .any(|(s, _)| s.start <= t.span.start && t.span.end <= s.end)
                || patronymic(i)
                // "Виктор Палыч", but not "Хорошо, Палыч".
                || capital(i) && patronymic(i + 1) && !m.has_f(i, AGREE | FILL | GREET | STOP)
        })
        .collect();
    if !address.contains(&true) || address.iter().all(|&a| a) {
        return None;
    }
    let mut out = String::new();
    let mut at = 0;
    for (i, t) in m.toks.iter().enumerate() {
        if address[i] {
            out.push_str(text.get(at..t.span.start).unwrap_or(""));
            at = t.span.end;
        }
    }
    out.push_str(text.get(at..).unwrap_or(""));
    Some(out)
}

fn analyze_whole(input: &MessageInput<'_>, m: &Msg, names: &NameIndex) -> Vec<Finding> {
    let text = input.text;
    debug_assert_eq!(m.text, text);
    if m.toks.is_empty() {
        return emoji_only(text).into_iter().collect();
    }
    let lang = input.lang.unwrap_or_else(|| Lang::detect(text));
    let cx = Ctx {
        m,
        input,
        names,
        lang,
        due: OnceCell::new(),
        lead: Cell::new(0),
    };
    let conditional = is_conditional(m) && !is_offer_condition(m);
    let question_everywhere = m.question.iter().all(|&q| q);

    // "reminder: toolbox talk moved to 7:30", "FYI standup moved to 10": news for everyone, no
    // one's promise moves, ends or starts. A request inside still asks.
    if is_announcement(m) {
        return request(&cx).into_iter().collect();
    }
    if let Some(i) = is_cancelled(m)
        && !m.is_q(i)
        && !conditional
        && is_moved(m).is_none()
    {
        return vec![Finding::Cancelled { words: cx.words() }];
    }
    if let Some(i) = is_moved(m)
        && (!m.is_q(i) || proposal(m))
        && !conditional
        && !is_retold(m)
    {
        // "к среде не успеваю, переношу на четверг": the new date follows the word that
        // moves; the one before it is the date being missed.
        let after_move = m
            .toks
            .get(i)
            .and_then(|t| text.get(t.span.end..))
            .and_then(|rest| super::dates::deadline(rest, input.now, lang).map(|(_, due)| due));
        let due = more_time(m, input.now).or(after_move).or_else(|| cx.due());
        return vec![Finding::Moved {
            due,
            words: cx.words(),
        }];
    }
    if let Some(o) = question_offer(&cx) {
        return vec![o];
    }
    if is_progress(m) || is_retold(m) {
        return Vec::new();
    }
    let absence = is_absence(m);
    let idiom = is_idiom(m);
    if conditional {
        // "могу съездить, если машина будет": a conditional offer is still an offer.
        return match offer(&cx) {
            Some(Finding::Made { content, due } | Finding::Offer { content, due })
                if !absence && !idiom =>
            {
                vec![Finding::Offer { content, due }]
            }
            _ => Vec::new(),
        };
    }

    // "могу к пятнице" right after a request: yes, by then.
    if m.w(0) == "могу"
        && m.n() > 1
        && !question_everywhere
        && only_date_left(&cx, 1)
        && let Some(due) = cx.due()
    {
        return vec![Finding::Accept { due: Some(due) }];
    }
    // "в четверг", "15.02", "Wednesday": a date and nothing else answers "когда сможешь?" —
    // an acceptance by then, if a request to the speaker is there to accept (ingest checks).
    if m.n() > 0
        && !question_everywhere
        && !m.is_q(0)
        && only_date_left(&cx, 0)
        // Only the date: "завтра меня не будет" says something else about tomorrow.
        && (0..m.n()).all(|i| !m.has_f(i, PRON | STOP) || m.has_f(i, DATE | PREP))
        && let Some(due) = cx.due()
    {
        return vec![Finding::Accept { due: Some(due) }];
    }
    // Agreement first: "да, сделаю", "ок, к среде сделаю", "хорошо, тогда к 20-му", "sure, will do".
    let lead = leading_agreement(m);
    if lead > 0 && !question_everywhere {
        let lead_sent = m.sent_of(lead - 1);
        if lead >= m.n() || only_date_left(&cx, lead) || on_my_way(m, lead) || signs_me_up(m, lead)
        {
            return vec![Finding::Accept { due: cx.due() }];
        }
        let promise_at = ru_promise(m)
            .map(|p| p.0)
            .or_else(|| en_promise(m).map(|p| p.0));
        if let Some(p) = promise_at
            && p >= lead
            && !absence
            && !m.is_q(p)
        {
            // A new sentence with its own promise ("Ок. Завтра пришлю отчёт") is a promise, and
            // so is a promise naming its own work ("ok team, I'll send the Q2 deck to Harmon").
            if m.sent_of(p) == lead_sent {
                cx.lead.set(lead);
                return match made(&cx) {
                    Some(f @ Finding::Made { .. }) => vec![f],
                    _ => vec![Finding::Accept { due: cx.due() }],
                };
            }
        }
    }
    // A bare "уже иду", "бегу" answers a call.
    if lead == 0 && !question_everywhere && on_my_way(m, 0) {
        return vec![Finding::Accept { due: cx.due() }];
    }
    if !absence && let Some(r) = request(&cx) {
        return vec![r];
    }
    if absence || idiom {
        return Vec::new();
    }
    if let Some(o) = offer(&cx) {
        return vec![o];
    }
    if let Some(f) = made(&cx) {
        if is_offer_condition(m)
            && let Finding::Made { content, due } = f
        {
            return vec![Finding::Offer { content, due }];
        }
        // "Отчёт отправил. Завтра займусь сметой": a report and a new promise.
        if matches!(f, Finding::Made { .. })
            && let Some(words) = done_elsewhere(m)
        {
            return vec![Finding::Done { words }, f];
        }
        return vec![f];
    }
    if done(m).is_some() || text.contains(['✅', '✔']) {
        return vec![Finding::Done { words: cx.words() }];
    }
    Vec::new()
}

/// Significant stems of a text (no stop words, no dates), for matching updates to commitments.
/// A promise whose content names only a verb ("взять", "have it") is about what the rest of
/// the message says ("на завтра рейс в Тольятти ... возьмёшь?", "let me draft the gift box
/// copy, I can have it by thursday"): the clause of `text` with the most significant words is
/// appended to it. Any other content is returned as it is.
pub fn with_context(content: &str, text: &str) -> String {
    if !significant_stems(content).is_empty() {
        return content.to_string();
    }
    // A long text is read in pieces; its opening piece is the context, so the cost per
    // promise stays bounded however long the message.
    let text = text.get(..piece_end(text, PIECE_CHARS)).unwrap_or("");
    let best = text
        .split(['.', '!', '?', ';', ',', '\n'])
        .map(|c| c.trim().trim_matches(['—', '-', ' ']))
        .filter(|c| !c.is_empty())
        .map(|c| (significant_stems(c).len(), c))
        .filter(|(n, _)| *n > 0)
        .max_by_key(|(n, c)| (*n, std::cmp::Reverse(c.len())));
    match best {
        Some((_, clause)) if content.trim().is_empty() => clause.to_string(),
        Some((_, clause)) => format!("{} — {clause}", content.trim()),
        None => content.to_string(),
    }
}

pub fn significant_stems(text: &str) -> Vec<String> {
    stems_of(&Msg::new(text))
}

fn stems_of(m: &Msg) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // `out.contains` alone made a long text of varied words quadratic.
    let mut seen: HashSet<String> = HashSet::new();
    for t in &m.toks {
        let w = t.norm.as_str();
        let noise = STOP
            | AGREE
            | FILL
            | GREET
            | DATE
            | MONTH
            | PREP
            | PRON
            | COND
            | RETOLD
            | PROGRESS
            | PUREV
            | NEG
            | CANCEL
            | MOVE
            | NEED
            | PLEASE
            | SUBJ
            | NUMW
            | URGE
            | APPROVE;
        let done_word = t.f & DONE != 0 && Lang::detect(w) == Lang::Ru;
        if t.f & noise != 0
            || done_word
            || t.verb.is_some()
            || w.chars().any(|c| c.is_ascii_digit()) && !w.chars().any(char::is_alphabetic)
            || w.chars().count() < 2
            || is_infinitive(w) && Lang::detect(w) == Lang::Ru
            || w.starts_with("успе")
            || w.ends_with("ing") && w.len() > 5 && is_en_verb_ing(w)
        {
            continue;
        }
        let s = stem(w);
        if !s.is_empty() && seen.insert(s.clone()) {
            out.push(s);
        }
    }
    out
}

fn is_en_verb_ing(w: &str) -> bool {
    let base = w.trim_end_matches("ing");
    let classes = word_classes();
    [base.to_string(), format!("{base}e")].iter().any(|b| {
        classes
            .get(b.as_str())
            .is_some_and(|f| f & (EN_VERB | MOVE) != 0)
    }) || matches!(
        w,
        "pushing" | "moving" | "taking" | "working" | "doing" | "going"
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_sentence_opening_capital_is_dropped_inside_the_promise() {
        use super::lower_common_opening;
        assert_eq!(
            lower_common_opening("Смету для гостиницы"),
            "смету для гостиницы"
        );
        assert_eq!(lower_common_opening("Счёт"), "счёт");
        // Names, abbreviations and unknown words keep their capitals.
        assert_eq!(lower_common_opening("Альфе"), "Альфе");
        assert_eq!(lower_common_opening("КП для Альфы"), "КП для Альфы");
        assert_eq!(lower_common_opening("Олегу"), "Олегу");
        assert_eq!(lower_common_opening("Invoice"), "Invoice");
    }

    use super::*;
    use chrono::{NaiveDate, TimeZone};

    fn team() -> Vec<Person> {
        let p = |id: i64, first: &str, last: &str, user: &str| Person {
            id,
            first_name: first.to_string(),
            last_name: Some(last.to_string()),
            username: Some(user.to_string()),
        };
        vec![
            p(1, "Анна", "Смирнова", "anna"),
            p(2, "Дмитрий", "Кузнецов", "dima"),
            p(3, "Елена", "Павлова", "lena"),
            p(4, "Игорь", "Соколов", "igor"),
            p(5, "Ольга", "Морозова", "olga"),
            p(6, "Светлана", "Кравец", "sveta"),
            p(7, "Павел", "Орлов", "pasha"),
            p(8, "Екатерина", "Волкова", "katya"),
            p(9, "Сергей", "Новиков", "serg"),
            p(10, "Мария", "Белова", "masha"),
            p(11, "Ben", "Carter", "ben"),
            p(12, "Michael", "Reed", "mike"),
            p(13, "Katherine", "Hall", "kate"),
            p(14, "Priya", "Shah", "priya"),
            p(15, "Tom", "Baker", "tom"),
            p(16, "Alex", "Morgan", "alexm"),
            p(17, "Николай", "Зайцев", "kolya"),
        ]
    }

    /// Monday 2026-11-23 10:00 in Moscow unless said otherwise.
    fn monday() -> DateTime<Tz> {
        chrono_tz::Europe::Moscow
            .with_ymd_and_hms(2026, 11, 23, 10, 0, 0)
            .single()
            .expect("valid time")
    }

    fn run_as(text: &str, speaker: i64) -> Vec<Finding> {
        let people = team();
        analyze(&MessageInput {
            text,
            now: monday(),
            speaker,
            people: &people,
            mentions: &[],
            lang: None,
        })
    }

    fn run(text: &str) -> Vec<Finding> {
        run_as(text, 99)
    }

    fn label(text: &str) -> &'static str {
        run(text).first().map_or("none", Finding::label)
    }

    #[test]
    fn a_date_alone_answers_when_and_one_word_yes_and_going_somewhere() {
        // "когда сможешь?" — "в четверг": an acceptance by that date.
        for text in ["в четверг", "15.02", "Wednesday", "к пятнице."] {
            assert!(
                matches!(run(text).first(), Some(Finding::Accept { due: Some(_) })),
                "{text}: {:?}",
                run(text)
            );
        }
        // A question about a date asks, it does not accept.
        assert!(!matches!(
            run("в четверг?").first(),
            Some(Finding::Accept { .. })
        ));
        assert_eq!(label("Легко"), "accept");
        // Going somewhere is not doing something.
        assert_eq!(label("I'm going to the store"), "none");
        assert_eq!(label("I'm going to lunch, back at 2"), "none");
        assert_eq!(label("I'm going to send the deck tonight"), "made");
    }

    fn made_content(text: &str) -> String {
        match run(text).first() {
            Some(Finding::Made { content, .. }) => content.clone(),
            other => panic!("{text}: expected Made, got {other:?}"),
        }
    }

    /// Is the date resolver the real one (the shared stub answers nothing)?
    fn resolver_ready() -> bool {
        super::super::dates::deadline("до пятницы", monday(), Lang::Ru).is_some()
    }

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).expect("valid date")
    }

    // --- made

    #[test]
    fn own_future_promises_in_russian_are_made() {
        for t in [
            "доделаю рефакторинг auth до пятницы",
            "завтра скину макеты упаковки",
            "займусь отгрузкой для Техностроя в четверг",
            "беру на себя сверку с поставщиком",
            "я буду делать выгрузку для налоговой",
            "залью хотфикс до EOD",
            "деплой сделаю tonight",
            "Обещаю прислать фотки образцов",
        ] {
            assert_eq!(label(t), "made", "{t}");
        }
    }

    #[test]
    fn own_future_promises_in_english_are_made() {
        for t in [
            "I'll finish the release notes for 2.4 by Wednesday",
            "Will send the invoice today",
            "gonna fix the flaky login test by friday",
            "I will migrate the billing service to the new queue",
            "I'm on the invoice rounding bug, should have a fix tomorrow",
            "i’ll send over the updated pricing sheet",
        ] {
            assert_eq!(label(t), "made", "{t}");
        }
    }

    #[test]
    fn a_promise_verb_with_one_typo_still_counts() {
        assert_eq!(label("сдлаю отчет к среде"), "made");
        assert_eq!(label("зделаю отчет к среде"), "made");
        assert_eq!(label("жду оплату до пятницы"), "none");
    }

    #[test]
    fn made_content_keeps_the_object_and_drops_greetings_and_dates() {
        assert_eq!(
            made_content("Всем привет! На этой неделе доделаю рефакторинг auth до пятницы"),
            "доделать рефакторинг auth"
        );
        assert_eq!(
            made_content("Коллеги, акты сверки за октябрь пришлю завтра до обеда"),
            "прислать акты сверки за октябрь"
        );
        assert_eq!(
            made_content("Возьму на себя обновление документации по API, сделаю до конца недели"),
            "взять на себя обновление документации по API"
        );
        assert_eq!(
            made_content("проверю станок ЧПУ и отпишусь"),
            "проверить станок ЧПУ и отписаться"
        );
        assert_eq!(
            made_content("сделаю и скину до пятницы"),
            "сделать и скинуть"
        );
        // A number before a day word that stands alone is the thing's, not the date's.
        assert_eq!(
            made_content("Пришлю счёт 1010 завтра"),
            "прислать счёт 1010"
        );
        assert_eq!(
            made_content("I'll send invoice 2002 tomorrow"),
            "send invoice 2002"
        );
        assert_eq!(
            made_content("Завтра посмотрю баг с очередью email-уведомлений"),
            "посмотреть баг с очередью email-уведомлений"
        );
        assert_eq!(
            made_content("Morning all. I'll finish the release notes for 2.4 by Wednesday"),
            "finish the release notes for 2.4"
        );
        assert!(
            made_content("I'm on the invoice rounding bug, should have a fix tomorrow")
                .contains("rounding")
        );
        assert!(made_content("подготовлю КП для Ромашки").contains("КП для Ромашки"));
    }

    #[test]
    fn content_keeps_the_preposition_after_the_verb_and_drops_clock_times() {
        assert_eq!(
            made_content("позвоню в транспортную компанию насчет задержки фуры"),
            "позвонить в транспортную компанию насчет задержки фуры"
        );
        assert_eq!(
            made_content("Сегодня до 18:00 отправлю отчёт по продажам"),
            "отправить отчёт по продажам"
        );
        assert_eq!(
            made_content("мы с Игорем сделаем интеграцию к среде"),
            "сделать интеграцию"
        );
    }

    #[test]
    fn a_month_the_work_is_about_is_not_its_deadline() {
        if !resolver_ready() {
            return;
        }
        match run("Света, можешь проверить табель за ноябрь?").first()
        {
            Some(Finding::Request { due, content, .. }) => {
                assert_eq!(*due, None);
                assert!(content.contains("за ноябрь"), "{content}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn made_due_comes_from_the_deadline_phrase() {
        if !resolver_ready() {
            eprintln!("date resolver is still the stub: due checks skipped");
            return;
        }
        match run("доделаю рефакторинг auth до пятницы").first() {
            Some(Finding::Made { due: Some(d), .. }) => assert_eq!(d.date, date(2026, 11, 27)),
            other => panic!("{other:?}"),
        }
        match run("I'll send the deck tomorrow to the client").first() {
            Some(Finding::Made { due: Some(d), .. }) => assert_eq!(d.date, date(2026, 11, 24)),
            other => panic!("{other:?}"),
        }
    }

    // --- request

    #[test]
    fn requests_to_a_named_person_resolve_the_addressee() {
        let cases = [
            (
                "Лена, подготовь КП для Ромашки до среды, пожалуйста",
                3,
                "подготовить КП для Ромашки",
            ),
            (
                "Катя, подготовь смету для Альфы до четверга",
                8,
                "подготовить смету для Альфы",
            ),
            ("Дима, сделаешь отчёт к среде?", 2, "сделать отчёт"),
            ("@olga пришли акты сверки", 5, "прислать акты сверки"),
            (
                "Ben, could you have the slides ready by Tuesday noon?",
                11,
                "have the slides ready",
            ),
            (
                "Priya, could you send the new landing mockups to the client by Thursday?",
                14,
                "send the new landing mockups to the client",
            ),
        ];
        for (t, who, what) in cases {
            match run(t).first() {
                Some(Finding::Request {
                    addressee, content, ..
                }) => {
                    assert_eq!(*addressee, Some(who), "{t}");
                    assert_eq!(content, what, "{t}");
                }
                other => panic!("{t}: {other:?}"),
            }
        }
    }

    #[test]
    fn requests_to_whoever_answers_have_no_addressee() {
        for t in [
            "кто может съездить на склад завтра?",
            "подготовьте пожалуйста отчёт по браку к пятнице",
            "can someone pick up the samples from the courier tomorrow?",
        ] {
            match run(t).first() {
                Some(Finding::Request { addressee, .. }) => assert_eq!(*addressee, None, "{t}"),
                other => panic!("{t}: {other:?}"),
            }
        }
    }

    #[test]
    fn telegram_mentions_give_the_addressee() {
        let people = team();
        let found = analyze(&MessageInput {
            text: "посмотри пожалуйста заявку",
            now: monday(),
            speaker: 1,
            people: &people,
            mentions: &[42],
            lang: None,
        });
        assert!(matches!(
            found.first(),
            Some(Finding::Request {
                addressee: Some(42),
                ..
            })
        ));
    }

    // --- offer

    #[test]
    fn conditional_offers_are_offers() {
        for t in [
            "Я могу заняться, но после отпуска",
            "могу взять инвентаризацию, если надо",
            "если хотите, посмотрю договор с юристом",
            "I could take the migration after the release",
            "I can review the contract if you want",
        ] {
            assert_eq!(label(t), "offer", "{t}");
        }
    }

    // --- accept

    #[test]
    fn short_agreements_are_accepts() {
        for t in [
            "да",
            "ок",
            "окей",
            "Да, сделаю",
            "принял",
            "принято",
            "+",
            "👍",
            "сделаю",
            "Sure, will do",
            "on it",
            "ок, к среде сделаю",
            "Хорошо, тогда к 20-му",
            "got it",
            "no problem 👍",
        ] {
            assert_eq!(label(t), "accept", "{t}");
        }
    }

    #[test]
    fn accept_carries_the_date_it_names() {
        if !resolver_ready() {
            return;
        }
        assert_eq!(
            run("ок, к среде сделаю")
                .first()
                .and_then(Finding::due)
                .map(|d| d.date),
            Some(date(2026, 11, 25))
        );
    }

    // --- moved

    #[test]
    fn shifts_are_moved_in_both_languages() {
        for t in [
            "сдвигаю auth на следующую неделю",
            "не успеваю, давай в среду",
            "нужно ещё пару дней",
            "переношу на пятницу",
            "КП для Ромашки не успеваю, клиент прислал новые объёмы. Переношу на пятницу",
            "смета нужна раньше, к среде",
            "pushing it to Friday",
            "moving this to next week",
            "I need two more days",
            "Release notes are taking longer, pushing them to Friday",
        ] {
            assert_eq!(label(t), "moved", "{t}");
        }
    }

    #[test]
    fn more_days_count_from_the_message_date() {
        for (t, d) in [
            ("нужно ещё пару дней", date(2026, 11, 25)),
            ("I need two more days", date(2026, 11, 25)),
            ("дайте ещё неделю", date(2026, 11, 30)),
        ] {
            match run(t).first() {
                Some(Finding::Moved { due: Some(due), .. }) => assert_eq!(due.date, d, "{t}"),
                other => panic!("{t}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_move_takes_the_date_after_the_word_that_moves() {
        // run() reads messages on Monday 2026-11-23.
        for (t, d) in [
            (
                "6-НДФЛ для Вектора к среде не успеваю, там больничные кривые. переношу на четверг",
                date(2026, 11, 26),
            ),
            (
                "контракт к пятнице не успеваю. сдвину на вторник",
                date(2026, 11, 24),
            ),
            (
                "can't make it by wednesday, pushing it to friday",
                date(2026, 11, 27),
            ),
        ] {
            match run(t).first() {
                Some(Finding::Moved { due: Some(due), .. }) => assert_eq!(due.date, d, "{t}"),
                other => panic!("{t}: {other:?}"),
            }
        }
    }

    #[test]
    fn moved_words_name_the_thing() {
        match run("КП для Ромашки не успеваю. Переношу на пятницу").first()
        {
            Some(Finding::Moved { words, .. }) => {
                assert!(words.contains(&"кп".to_string()), "{words:?}");
                assert!(words.contains(&"ромашк".to_string()), "{words:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    // --- done / cancelled

    #[test]
    fn completion_reports_are_done() {
        for t in [
            "готово",
            "баг с очередью починил, выкатил на стейджинг",
            "Акты сверки отправила на почту",
            "Рефакторинг auth смержил 🎉",
            "done",
            "shipped",
            "merged ✅",
            "Mockups sent to the client ✅",
            "Rounding fix is merged and deployed",
        ] {
            assert_eq!(label(t), "done", "{t}");
        }
    }

    #[test]
    fn call_offs_are_cancelled() {
        for t in [
            "отбой",
            "не нужно",
            "сверку отменяем",
            "не надо",
            "cancel that",
            "drop the slides",
            "Tom, forget the release notes for now, marketing will write them",
        ] {
            assert_eq!(label(t), "cancelled", "{t}");
        }
    }

    #[test]
    fn done_words_are_significant_stems() {
        match run("Рефакторинг auth смержил 🎉").first() {
            Some(Finding::Done { words }) => {
                assert_eq!(words, &["рефакторинг".to_string(), "auth".to_string()]);
            }
            other => panic!("{other:?}"),
        }
    }

    // --- not commitments

    #[test]
    fn conditionals_and_wishes_are_not_commitments() {
        for t in [
            "если успею, сделаю",
            "надо бы обновить зависимости",
            "Я бы ещё обновил зависимости в auth-service, но это если время останется",
            "I'd love to refactor this",
            "we might want to revisit the pricing",
            "if I have time I'll update the wiki",
        ] {
            assert_eq!(label(t), "none", "{t}");
        }
    }

    #[test]
    fn questions_and_announcements_are_not_commitments() {
        for t in [
            "кто-нибудь знает, где лежат доступы к стейджингу?",
            "Напоминаю: в четверг в 15:00 созвон с заводом в Твери",
            "Did anyone see the font licence email?",
            "сделаю завтра?",
        ] {
            assert_eq!(label(t), "none", "{t}");
        }
    }

    #[test]
    fn retold_and_suppliers_promises_are_not_commitments() {
        for t in [
            "Anna said she'll send the deck",
            "Дима сказал, что сделает",
            "поставщик обещал привезти паллеты в четверг",
            "Оля говорит, что акты отправит завтра",
        ] {
            assert_eq!(label(t), "none", "{t}");
        }
    }

    #[test]
    fn idioms_absences_weather_and_progress_are_not_commitments() {
        for t in [
            "сделаю вид, что не видел",
            "I'm off on Monday",
            "завтра меня не будет",
            "I'll be late tomorrow, dentist",
            "завтра будет дождь",
            "it's going to rain all week",
            "auth почти готов, осталось ревью",
            "auth almost done, in review",
            "пойду пообедаю",
        ] {
            assert_eq!(label(t), "none", "{t}");
        }
    }

    #[test]
    fn significant_stems_drop_stop_words_verbs_and_dates() {
        let s = significant_stems("Переношу КП для Ромашки на пятницу, 27 ноября");
        assert_eq!(s, vec!["кп".to_string(), "ромашк".to_string()]);
        let s = significant_stems("I'll send the release notes by Friday");
        assert_eq!(s, vec!["releas".to_string(), "note".to_string()]);
    }

    #[test]
    fn offers_asked_as_questions_are_offers_with_the_offered_work() {
        for (t, what) in [
            (
                "могу завтра съездить на замеры к клиенту, надо?",
                "съездить на замеры к клиенту",
            ),
            (
                "Ольга Викторовна, могу до конца недели подготовить шаблон учётной политики, нужно?",
                "подготовить шаблон учётной политики",
            ),
            (
                "@marcus want me to write the case study by thursday?",
                "write the case study",
            ),
            ("should I draft the reply?", "draft the reply"),
            ("хочешь, я подготовлю сравнение?", "подготовить сравнение"),
        ] {
            match run(t).first() {
                Some(Finding::Offer { content, .. }) => assert_eq!(content, what, "{t}"),
                other => panic!("{t}: {other:?}"),
            }
        }
        assert_eq!(label("могу ли я взять отгул в пятницу?"), "none");
        assert_eq!(label("где я могу найти договор?"), "none");
    }

    #[test]
    fn agreements_with_thanks_or_praise_are_accepts() {
        for t in [
            "да, давай",
            "да, нужно, спасибо!",
            "yes please, by thursday would be great 🙏",
            "sure, go ahead",
            "давай, к четвергу было бы отлично",
        ] {
            assert_eq!(label(t), "accept", "{t}");
        }
    }

    #[test]
    fn a_leading_agreement_keeps_a_promise_that_names_its_work() {
        assert_eq!(
            made_content("ok team, I'll send the Q2 pitch deck to Harmon Foods by thursday"),
            "send the Q2 pitch deck to Harmon Foods"
        );
        for t in [
            "ок, к среде сделаю",
            "ok, will do by friday",
            "да, без проблем, к четвергу сделаю",
        ] {
            assert_eq!(label(t), "accept", "{t}");
        }
    }

    #[test]
    fn request_content_before_the_verb_and_without_trailing_remarks() {
        let content = |t: &str| match run(t).first() {
            Some(Finding::Request { content, .. }) => content.clone(),
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(
            content("Дима, отчёт по простоям нужен к пятнице, сделаешь?"),
            "сделать отчёт по простоям"
        );
        assert_eq!(
            content("Маша, сверку с контрагентами по Альфе сделаешь до пятницы?"),
            "сделать сверку с контрагентами по Альфе"
        );
        assert_eq!(
            content("alex pls resize the lumen banner set, need it EOD"),
            "resize the lumen banner set"
        );
        assert_eq!(
            content("паш, закажи клей пва до пятницы, на складе почти кончился"),
            "заказать клей пва"
        );
    }

    #[test]
    fn relaxed_and_tightened_deadlines_are_moved() {
        for (t, stem) in [
            ("Миша, с оценкой по CRM не горит, давай к среде", "оценк"),
            (
                "дима, с отчётом по простоям не горит, можно на следующей неделе",
                "отчет",
            ),
            ("no rush, let's do it by next tuesday", ""),
            ("we need the dawson quote sooner, by wednesday", "dawson"),
            ("смета нужна раньше, к среде", "смет"),
            ("давай перенесём на понедельник", ""),
        ] {
            match run(t).first() {
                Some(Finding::Moved { words, .. }) => {
                    assert!(
                        stem.is_empty() || words.contains(&stem.to_string()),
                        "{t}: {words:?}"
                    );
                }
                other => panic!("{t}: {other:?}"),
            }
        }
    }

    #[test]
    fn announcements_move_and_finish_nothing() {
        for t in [
            "reminder: toolbox talk moved to 7:30 tomorrow",
            "напоминаю: планёрка переносится на 10",
            "FYI standup moved to 10",
        ] {
            assert_eq!(label(t), "none", "{t}");
        }
    }

    #[test]
    fn almost_about_anything_but_own_work_is_no_progress_note() {
        assert_eq!(
            label("паш, закажи клей пва до пятницы, на складе почти кончился"),
            "request"
        );
        for t in [
            "почти готово",
            "почти закончил отчёт",
            "almost done",
            "in review",
        ] {
            assert_eq!(label(t), "none", "{t}");
        }
    }

    #[test]
    fn nouns_in_ost_are_significant_stems() {
        let s = significant_stems("доверенность отчётность ведомость себестоимость новость");
        assert_eq!(s.len(), 5, "{s:?}");
        assert!(is_infinitive("прочесть") && is_infinitive("звонить") && is_infinitive("нести"));
    }

    #[test]
    fn prefixed_verbs_outside_the_lexicon_are_read_by_their_root() {
        assert_eq!(
            made_content("переберу упаковочный станок"),
            "перебрать упаковочный станок"
        );
        assert_eq!(
            made_content("обзвоню водителей завтра"),
            "обзвонить водителей"
        );
        assert_eq!(
            made_content("допроверю накладные до обеда"),
            "допроверить накладные"
        );
        assert_eq!(label("обзвонил водителей"), "done");
        assert_eq!(label("перепроверил накладные"), "done");
        match run("Паша, обзвонишь водителей?").first() {
            Some(Finding::Request {
                addressee, content, ..
            }) => {
                assert_eq!(*addressee, Some(7));
                assert_eq!(content, "обзвонить водителей");
            }
            other => panic!("{other:?}"),
        }
        for w in [
            "раскрой",
            "заказ",
            "отпуск",
            "договор",
            "сможешь",
            "простой",
        ] {
            assert!(derived_verb(w).is_none(), "{w}");
        }
    }

    #[test]
    fn a_report_and_a_new_promise_give_both() {
        let found = run("Отчёт отправил. Завтра займусь сметой");
        assert_eq!(
            found.iter().map(Finding::label).collect::<Vec<_>>(),
            ["done", "made"]
        );
        assert!(matches!(&found[0], Finding::Done { words } if words == &["отчет".to_string()]));
    }

    #[test]
    fn a_hedge_or_report_in_another_clause_leaves_the_promise() {
        for t in [
            "i'll send the rate con to Dunnes tmrw. also the port strike might be a problem, lmk",
            "not yet, I'll update the lane pricing sheet by friday",
            "смету на кровлю доделаю до вечера, там немного осталось",
            "я вчера выложила пост, а стори с пекарями сниму в пятницу",
        ] {
            assert_eq!(label(t), "made", "{t}");
        }
    }

    #[test]
    fn the_date_comes_from_the_clause_holding_the_finding() {
        if !resolver_ready() {
            return;
        }
        let due = |t: &str| run(t).first().and_then(Finding::due).map(|d| d.date);
        assert_eq!(
            due("завтра прогоню regression, к обеду будет репорт"),
            Some(date(2026, 11, 24))
        );
        assert_eq!(
            due("оплачу на этой неделе, сегодня в банке лимит"),
            Some(date(2026, 11, 27))
        );
        assert_eq!(
            due("fyi Sysco will deliver the oil tmrw. also I can take the call if you want"),
            None
        );
        assert_eq!(
            due("Возьму на себя обновление документации, сделаю до конца недели"),
            Some(date(2026, 11, 27))
        );
    }

    #[test]
    fn a_promise_and_a_request_in_one_message_give_both() {
        let found = run("I'll lock the BOM by wed, and Ben pls get the boards flashed by friday");
        let labels: Vec<&str> = found.iter().map(Finding::label).collect();
        assert_eq!(labels, ["made", "request"]);
    }

    #[test]
    fn addressed_and_date_only_replies_are_accepts() {
        for t in [
            "Игорь Валентинович, принято",
            "хорошо Тамара Ивановна 👌",
            "ок щас гляну",
            "yes please, that'd be great",
            "могу к пятнице",
        ] {
            assert_eq!(label(t), "accept", "{t}");
        }
    }

    #[test]
    fn weak_promises_and_idioms_are_nothing() {
        for t in [
            "постараюсь, но не обещаю",
            "постараюсь выбить скидку",
            "I'll try to",
            "will try",
            "I'll knock their socks off 😅",
            "я тебя урою",
            "I'll believe it when I see it",
        ] {
            assert!(run(t).is_empty(), "{t}");
        }
    }

    #[test]
    fn english_regular_pasts_of_work_are_done_and_uploads_are_no_moves() {
        for t in [
            "reviewed the contract, all good",
            "chased Tesco on the overdue invoices",
            "enclosure CAD pushed to the drive ✅",
        ] {
            assert_eq!(label(t), "done", "{t}");
        }
        assert_eq!(label("enclosure CAD pushed to monday"), "moved");
        assert_eq!(
            label("scratch that, they want to meet in person instead, no deck needed"),
            "cancelled"
        );
        assert_eq!(label("ассеты нужны к 8-му, а не к 10-му"), "moved");
    }

    #[test]
    fn slang_first_person_futures_are_promises() {
        for t in [
            "заоптимизирую запросы на этой неделе",
            "в понедельник начну тестить новую локацию",
            "пофикшу краш сегодня",
        ] {
            assert_eq!(label(t), "made", "{t}");
        }
    }

    #[test]
    fn odd_input_never_panics() {
        let long = "сделаю ".repeat(5000);
        for t in [
            "",
            " ",
            "?",
            "👍👍",
            "✅",
            "...",
            "а",
            "I'll",
            "i'll ?",
            "Лена,",
            "@",
            "@@x",
            "не",
            "will",
            "на себя",
            "буду",
            "могу",
            "кто",
            "\u{301}\u{301}",
            long.as_str(),
        ] {
            let _ = run(t);
            let _ = significant_stems(t);
        }
    }

    // --- replies, fronted objects, breaks and others' delays

    fn due_date(f: Option<&Finding>) -> Option<NaiveDate> {
        f.and_then(Finding::due).map(|d| d.date)
    }

    fn request_content(text: &str) -> String {
        match run(text).first() {
            Some(Finding::Request { content, .. }) => content.clone(),
            other => panic!("{text}: expected Request, got {other:?}"),
        }
    }

    #[test]
    fn on_my_way_and_sign_me_up_replies_are_accepts() {
        for t in [
            "ага, иду",
            "уже бегу",
            "ок, иду смотреть",
            "сейчас выезжаю",
            "да, запиши меня",
            "ок, ставь и меня тоже",
            "да, пришли мне",
        ] {
            assert_eq!(label(t), "accept", "{t}");
        }
        // Going for lunch or home answers no call for work.
        for t in ["иду обедать", "ага, иду обедать", "иду домой", "еду в офис"]
        {
            assert_eq!(label(t), "none", "{t}");
        }
        // Asking to be booked in is no promise (a plain request, or nothing).
        for t in ["запиши меня на стрижку", "да, запиши меня на стрижку"]
        {
            assert!(!matches!(label(t), "made" | "accept" | "offer"), "{t}");
        }
    }

    #[test]
    fn a_break_before_the_work_does_not_veto_the_promise() {
        match run("ща допью кофе и посмотрю").first() {
            Some(Finding::Accept { .. }) => {}
            Some(Finding::Made { content, .. }) => assert!(!content.contains("кофе"), "{content}"),
            other => panic!("expected Accept or Made, got {other:?}"),
        }
        assert_eq!(made_content("допью кофе и гляну отчёт"), "глянуть отчёт");
        assert_eq!(
            made_content("схожу на обед и потом доделаю отчёт"),
            "доделать отчёт"
        );
        for t in ["пойду домой и посплю", "схожу за кофе", "пойду на обед"]
        {
            assert_eq!(label(t), "none", "{t}");
        }
        // Without a break the object before "и" is still the work's.
        assert!(
            made_content("меню банкета на 31-е финализирую до среды и скину сюда")
                .contains("меню банкета")
        );
    }

    #[test]
    fn fronted_objects_and_unnamed_second_persons_are_requests() {
        // The team list knows none of these names: the request stands without an addressee.
        let t = "кстати, Ксюш, счёт Вектору за январь выстави сегодня плз";
        assert_eq!(request_content(t), "выставить счёт Вектору за январь");
        let t = "Дэн, первичку Вектора в 1с занесёшь послезавтра?";
        assert_eq!(request_content(t), "занести первичку Вектора в 1с");
        let t = "Дашенька, протоколы качества за февраль для молкомбината пришлёшь мне завтра?";
        assert!(request_content(t).starts_with("прислать протоколы качества за февраль"));
        assert_eq!(request_content("счёт выстави завтра"), "выставить счёт");
        assert_eq!(
            request_content(
                "Руслан Ильдарович, акт скрытых работ подготовь до конца месяца, технадзор ждёт"
            ),
            "подготовить акт скрытых работ"
        );
        if resolver_ready() {
            let due = |t: &str| due_date(run(t).first());
            assert_eq!(
                due("кстати, Ксюш, счёт Вектору за январь выстави сегодня плз"),
                Some(date(2026, 11, 23))
            );
            assert_eq!(
                due("Дэн, первичку Вектора в 1с занесёшь послезавтра?"),
                Some(date(2026, 11, 25))
            );
            assert_eq!(
                due(
                    "Дашенька, протоколы качества за февраль для молкомбината пришлёшь мне завтра?"
                ),
                Some(date(2026, 11, 24))
            );
        }
        // Past plurals shaped like imperatives, questions asking when or what, and lunch.
        for t in [
            "мы вышли сегодня на объект",
            "они пришли сегодня",
            "когда сделаешь?",
            "что скажешь?",
            "как дела, пойдёшь обедать?",
            "Насть поправь",
        ] {
            assert_eq!(label(t), "none", "{t}");
        }
    }

    #[test]
    fn prefixed_verbs_and_noun_objects_make_russian_promises() {
        let t = "сегодня после обеда осмотрю корову 1187, похоже мастит";
        assert_eq!(made_content(t), "осмотреть корову 1187");
        let t = "обработку копыт во втором дворе начну в четверг, после проверки";
        assert!(made_content(t).starts_with("начать обработку копыт"), "{t}");
        let t = "Ирина Валерьевна, договор с Альфа-Трейдом дожму до конца месяца, они тянут с реквизитами";
        assert_eq!(made_content(t), "дожать договор с Альфа-Трейдом");
        assert_eq!(
            made_content("завтра оставлю ключи на вахте"),
            "оставить ключи на вахте"
        );
        // "начну с X" orders the work; the promise is what follows.
        assert_eq!(
            made_content("начну с бэкапа: сделаю бэкап сегодня"),
            "сделать бэкап"
        );
        if resolver_ready() {
            let due = |t: &str| due_date(run(t).first());
            assert_eq!(
                due("сегодня после обеда осмотрю корову 1187, похоже мастит"),
                Some(date(2026, 11, 23))
            );
            assert_eq!(
                due("обработку копыт во втором дворе начну в четверг, после проверки"),
                Some(date(2026, 11, 26))
            );
            assert_eq!(
                due(
                    "Ирина Валерьевна, договор с Альфа-Трейдом дожму до конца месяца, они тянут с реквизитами"
                ),
                Some(date(2026, 11, 30))
            );
            // Two promises: the date goes with the one the message is read as.
            assert_eq!(
                due("плитку в санузле начну завтра, к пятнице положу стены"),
                Some(date(2026, 11, 24))
            );
        }
        for t in [
            "начну, если успею",
            "осмотрю, если будет время",
            "они обещали дожать до конца месяца",
            "они тянут с реквизитами",
            "посмотрим",
            "осмотр коровы прошёл нормально",
            "давай начнём в понедельник",
        ] {
            assert_eq!(label(t), "none", "{t}");
        }
    }

    // --- the labelled set

    #[derive(Default, Clone, Copy)]
    struct Counts {
        tp: usize,
        fp: usize,
        fn_: usize,
    }

    fn tz_for(now: &str) -> Tz {
        if now.ends_with("+03:00") {
            chrono_tz::Europe::Moscow
        } else {
            chrono_tz::Europe::London
        }
    }

    #[test]
    fn labelled_set_precision_and_recall_stay_above_floors() {
        const LABELS: [&str; 8] = [
            "made",
            "request",
            "offer",
            "accept",
            "moved",
            "done",
            "cancelled",
            "none",
        ];
        let data = include_str!("../../tests/data/commitments-labelled.jsonl");
        let people = team();
        let mut counts: HashMap<&str, Counts> = HashMap::new();
        let (mut total, mut right) = (0usize, 0usize);
        let (mut due_total, mut due_right) = (0usize, 0usize);
        let (mut addr_total, mut addr_right) = (0usize, 0usize);
        let mut misses = Vec::new();
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("valid json line");
            let text = v["text"].as_str().expect("text");
            let now_s = v["now"].as_str().expect("now");
            let now = DateTime::parse_from_rfc3339(now_s)
                .expect("rfc3339")
                .with_timezone(&tz_for(now_s));
            let want = LABELS
                .iter()
                .find(|l| **l == v["label"].as_str().unwrap_or(""))
                .copied()
                .expect("known label");
            let lang = v["lang"].as_str().and_then(|l| l.parse::<Lang>().ok());
            let found = analyze(&MessageInput {
                text,
                now,
                speaker: v["speaker"].as_i64().unwrap_or(0),
                people: &people,
                mentions: &[],
                lang,
            });
            let got = found.first().map_or("none", Finding::label);
            total += 1;
            if got == want {
                right += 1;
                counts.entry(want).or_default().tp += 1;
            } else {
                counts.entry(want).or_default().fn_ += 1;
                counts.entry(got).or_default().fp += 1;
                misses.push(format!("{want:>9} got {got:<9} | {text}"));
            }
            if let Some(d) = v["due"].as_str()
                && got == want
            {
                due_total += 1;
                let got_due = found
                    .first()
                    .and_then(Finding::due)
                    .map(|d| d.date.to_string());
                if got_due.as_deref() == Some(d) {
                    due_right += 1;
                } else {
                    misses.push(format!("      due {d} got {got_due:?} | {text}"));
                }
            }
            if let Some(a) = v["addressee"].as_i64()
                && got == want
            {
                addr_total += 1;
                if let Some(Finding::Request {
                    addressee: Some(x), ..
                }) = found.first()
                    && *x == a
                {
                    addr_right += 1;
                } else {
                    misses.push(format!("  addressee {a} got {:?} | {text}", found.first()));
                }
            }
        }
        for m in &misses {
            eprintln!("{m}");
        }
        // Floors just under what the rules reach today; raise them when the rules improve.
        let floors: [(&str, f64, f64); 8] = [
            ("made", 0.97, 0.97),
            ("request", 0.97, 0.97),
            ("offer", 0.95, 0.95),
            ("accept", 0.97, 0.97),
            ("moved", 0.97, 0.97),
            ("done", 0.97, 0.97),
            ("cancelled", 0.95, 0.95),
            ("none", 0.97, 0.97),
        ];
        let mut failed = Vec::new();
        for (l, p_floor, r_floor) in floors {
            let c = counts.get(l).copied().unwrap_or_default();
            let p = c.tp as f64 / (c.tp + c.fp).max(1) as f64;
            let r = c.tp as f64 / (c.tp + c.fn_).max(1) as f64;
            eprintln!(
                "{l:>9}: precision {p:.3} recall {r:.3} ({} / {} / {})",
                c.tp, c.fp, c.fn_
            );
            if p < p_floor || r < r_floor {
                failed.push(l);
            }
        }
        let acc = right as f64 / total.max(1) as f64;
        eprintln!("overall accuracy {acc:.3} ({right}/{total})");
        eprintln!("addressee {addr_right}/{addr_total}, due {due_right}/{due_total}");
        assert!(failed.is_empty(), "below floor: {failed:?}");
        assert!(acc >= 0.98, "overall accuracy {acc:.3}");
        assert!(addr_right as f64 >= 0.97 * addr_total as f64, "addressees");
        if resolver_ready() {
            assert!(due_right as f64 >= 0.95 * due_total as f64, "due dates");
        }
    }
}
