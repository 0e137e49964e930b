//! People named in text: first names in any case, diminutives, patronymics, surnames, @usernames.
//!
//! Russian names decline ("Лена", "Лены", "Леной"), so a name is matched as a base plus one of the
//! endings of its declension class rather than through a list of every form. Diminutives and full
//! names ("Дима" / "Дмитрий", "Ben" / "Benjamin") live in one compact table of groups; the
//! affectionate forms of the short ones ("Дашенька", "Танечка", "Лизка") and their truncated
//! vocatives ("Ксюш", "Тань") are made from it once per process. Names that are also ordinary
//! words ("Вера", "Роман", "Will", "Mark") only count when written with a capital letter or used
//! as the vocative that opens a message.

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::rc::Rc;
use std::sync::OnceLock;

use super::words::{Token, normalize};

/// A person kept knows, as far as names go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub id: i64,
    pub first_name: String,
    pub last_name: Option<String>,
    pub username: Option<String>,
}

/// Full names with their usual diminutives; a person written under any member of a group is
/// found under every other member of it.
const RU_GROUPS: &[&[&str]] = &[
    &["александр", "саша", "саня", "шура", "санек", "сашка"],
    &["александра", "саша", "шура"],
    &["алексей", "леша", "алеша", "леха", "лешка"],
    &["алена", "аленка", "аленушка"],
    &["алина", "алинка"],
    &["анастасия", "настя", "настена", "настюша"],
    &["анатолий", "толя", "толик"],
    &["андрей", "андрюша", "андрюха"],
    &["анна", "аня", "анюта", "анечка", "анька"],
    &["антон", "антоша", "тоха"],
    &["арсений", "сеня", "арсюша"],
    &["артем", "тема"],
    &["борис", "боря"],
    &["вадим", "вадик"],
    &["валентин", "валя"],
    &["валентина", "валя"],
    &["валерий", "валера", "валерик"],
    &["василий", "вася"],
    &["вера", "верочка"],
    &["вероника", "ника"],
    &["виктор", "витя"],
    &["виктория", "вика"],
    &["виталий", "виталик"],
    &["владимир", "вова", "володя", "вовчик", "вован"],
    &["владислав", "влад", "слава", "владик"],
    &["вячеслав", "слава"],
    &["галина", "галя"],
    &["геннадий", "гена"],
    &["георгий", "жора", "гоша", "жорик"],
    &["глеб", "глебушка"],
    &["григорий", "гриша"],
    &["даниил", "даня", "данила"],
    &["дарья", "даша", "дашенька", "дашка", "дашуля"],
    &["денис", "дэн", "ден", "дениска", "денчик"],
    &["дмитрий", "дима", "митя", "димон", "димка"],
    &["евгений", "женя", "женька", "жека"],
    &["евгения", "женя"],
    &["егор", "егорка", "егорушка"],
    &["екатерина", "катя", "катюша", "катенька", "катька"],
    &[
        "елена",
        "лена",
        "леночка",
        "ленка",
        "ленуся",
        "ленок",
        "ленусик",
    ],
    &["елизавета", "лиза"],
    &["иван", "ваня", "ванька", "ванечка"],
    &["игорь", "игорек"],
    &["илья", "илюша", "илюха"],
    &["ирина", "ира", "иришка", "иринка"],
    &["карина", "каринка"],
    &["кирилл", "киря", "кирюша", "кирюха"],
    &["константин", "костя", "костик"],
    &["кристина", "кристя", "кристинка"],
    &["ксения", "ксюша", "ксюха"],
    &["лариса", "лара"],
    &["лев", "лева"],
    &["леонид", "леня"],
    &["любовь", "люба"],
    &["людмила", "люда", "мила", "люся"],
    &["максим", "макс"],
    &["маргарита", "рита"],
    &["марина", "мариша", "маришка", "маринка", "мариночка"],
    &["мария", "маша", "машенька", "машка", "маруся"],
    &["марк"],
    &["матвей", "матвейка"],
    &["михаил", "миша", "мишаня", "мишка"],
    &["надежда", "надя"],
    &["наталья", "наталия", "наташа", "наташка"],
    &["никита", "никитос", "никитка"],
    &["николай", "коля", "колян", "колька"],
    &["нина", "ниночка", "нинка"],
    &["оксана", "ксана", "оксанка", "ксюша", "ксюха"],
    &["олег", "олежка", "олежек"],
    &["ольга", "оля", "олечка", "оленька", "олька"],
    &["павел", "паша", "пашка", "павлик"],
    &["петр", "петя"],
    &["полина", "поля", "полинка", "полиночка"],
    &["роман", "рома"],
    &["руслан", "руся", "русик"],
    &["светлана", "света", "светик", "светочка"],
    &["семен", "сеня", "сема"],
    &["сергей", "сережа", "серега", "серж", "сережка", "серый"],
    &["софия", "софья", "соня"],
    &["станислав", "стас", "стасик"],
    &["степан", "степа"],
    &["татьяна", "таня", "танюша", "танька"],
    &["тимофей", "тима"],
    &["тимур", "тима"],
    &["ульяна", "уля"],
    &["федор", "федя"],
    &["эдуард", "эдик"],
    // Tatar and Bashkir names, common in Russian teams.
    &["гульнара", "гуля", "гулечка"],
    &["гульшат", "гуля"],
    &["зульфия", "зуля"],
    &["альбина", "аля"],
    &["эльвира", "эля"],
    &["ильдар", "ильдарчик"],
    &["юлия", "юля", "юленька", "юлька"],
    &["юрий", "юра"],
    &["яна", "янка", "яночка"],
    &["ярослав", "слава", "ярик"],
];

const EN_GROUPS: &[&[&str]] = &[
    &["abigail", "abby"],
    &["alexander", "alex"],
    &["alexandra", "alex", "sasha"],
    &["allison", "ally"],
    &["andrew", "andy", "drew"],
    &["anna", "ann", "annie"],
    &["anthony", "tony"],
    &["benjamin", "ben", "benny"],
    &["catherine", "kate", "katie", "cathy"],
    &["charles", "charlie", "chuck"],
    &["christopher", "chris"],
    &["christine", "chris", "christina"],
    &["daniel", "dan", "danny"],
    &["david", "dave"],
    &["edward", "ed", "eddie", "ted"],
    &["elizabeth", "liz", "lizzie", "beth", "betty"],
    &["frederick", "fred"],
    &["gregory", "greg"],
    &["henry", "harry", "hank"],
    &["jacob", "jake"],
    &["james", "jim", "jimmy", "jamie"],
    &["jennifer", "jen", "jenny"],
    &["jessica", "jess"],
    &["jonathan", "jon"],
    &["joseph", "joe", "joey"],
    &["joshua", "josh"],
    &["katherine", "kathryn", "kate", "katie", "kathy", "kat"],
    &["kenneth", "ken"],
    &["margaret", "maggie", "meg", "peggy"],
    &["matthew", "matt"],
    &["michael", "mike", "mikey", "mick"],
    &["nathan", "nate"],
    &["nicholas", "nick"],
    &["patricia", "pat", "trish"],
    &["patrick", "pat"],
    &["peter", "pete"],
    &["rebecca", "becky", "becca"],
    &["richard", "rick", "rich"],
    &["robert", "rob", "bob", "bobby", "robbie"],
    &["samantha", "sam"],
    &["samuel", "sam", "sammy"],
    &["stephen", "steve"],
    &["steven", "steve"],
    &["susan", "sue", "susie"],
    &["thomas", "tom", "tommy"],
    &["timothy", "tim"],
    &["victoria", "vicky", "tori"],
    &["william", "will", "bill", "billy", "liam"],
    &["zachary", "zach", "zack"],
];

/// Names that are also everyday words: only a capital letter or the opening vocative makes them
/// a name.
const AMBIGUOUS: &[&str] = &[
    // Russian
    "вера",
    "надежда",
    "надя",
    "роман",
    "слава",
    "люба",
    "любовь",
    "мила",
    "лев",
    "тема",
    "ника",
    "марк",
    "поля",
    "света",
    "мира",
    "роза",
    "лилия",
    "макс",
    "ян",
    "соня",
    "уля",
    "руся",
    "янка",
    "мишка",
    "сережка",
    // Affectionate forms that are words too (see [`affectionate_forms`])
    "полька",
    "милка",
    "милочка",
    "славка",
    "темка",
    // English
    "will",
    "mark",
    "bill",
    "rob",
    "pat",
    "sue",
    "max",
    "grace",
    "hope",
    "faith",
    "joy",
    "may",
    "june",
    "april",
    "dawn",
    "art",
    "gene",
    "jack",
    "frank",
    "rich",
    "drew",
    "nick",
    "chuck",
    "ray",
    "rose",
    "lily",
    "penny",
    "holly",
    "iris",
    "ruby",
    "amber",
    "summer",
    "chase",
    "hunter",
    "mason",
    "ed",
    "al",
    // Latin spellings of Russian names that are English words
    "marina",
    "ira",
    "den",
];

/// Endings a Russian first name of each declension class takes, and the base it attaches to.
fn ru_name_base(name: &str) -> (&str, &'static [&'static str]) {
    const IA: &[&str] = &["ия", "ии", "ию", "ией", "ие"];
    const YA_SOFT: &[&str] = &["ья", "ьи", "ье", "ью", "ьей", "ьею"];
    const A: &[&str] = &["а", "ы", "и", "е", "у", "ой", "ою", "ей", "ею"];
    const YA: &[&str] = &["я", "и", "е", "ю", "ей", "ею"];
    const IY: &[&str] = &["ий", "ия", "ию", "ием", "ии", "ие"];
    const J: &[&str] = &["й", "я", "ю", "ем", "е"];
    const SOFT: &[&str] = &["ь", "я", "ю", "ем", "е", "и", "ью"];
    const HARD: &[&str] = &["", "а", "у", "ом", "е", "ым"];
    for (suffix, endings) in [
        ("ия", IA),
        ("ья", YA_SOFT),
        ("а", A),
        ("я", YA),
        ("ий", IY),
        ("й", J),
        ("ь", SOFT),
    ] {
        if let Some(base) = name.strip_suffix(suffix) {
            return (base, endings);
        }
    }
    // Fleeting vowels: Павел → Павла, Лев → Льва.
    let base = match name {
        "павел" => "павл",
        "лев" => "льв",
        _ => name,
    };
    (base, HARD)
}

fn is_cyrillic(s: &str) -> bool {
    s.chars().any(|c| matches!(c, '\u{0400}'..='\u{04FF}'))
}

/// Does the normalised token `tok` name `name` (a normalised nominative) in some case?
fn first_name_matches(tok: &str, name: &str) -> bool {
    if tok == name {
        return true;
    }
    if is_cyrillic(name) {
        let (base, endings) = ru_name_base(name);
        if base.chars().count() < 2 {
            return false;
        }
        if let Some(rest) = tok.strip_prefix(base) {
            return endings.contains(&rest);
        }
        // "Павел" also keeps its nominative base "павел": handled by equality above.
        false
    } else {
        // English names only take the possessive.
        tok.strip_suffix("'s")
            .or_else(|| tok.strip_suffix("’s"))
            .is_some_and(|t| t == name)
    }
}

/// Truncated vocatives that are everyday words ("Тем, кто не сдал отчёт, …", "Лень, но сделаю"):
/// only a "ё" in the text ("Тём,", "Лёнь,") makes them a name.
const VOCATIVE_WORDS: &[&str] = &["тем", "лень"];

/// The colloquial vocative of a short name, if it has one: "Паш", "Лен", "Дим", "Ксюш", "Мариш",
/// "Оль", "Тань", "Дашуль". Full names in -ия/-ья have none, and a name in -я keeps its soft
/// sign ("Оль", never "Ол"), so "Вас" or "Пол" are not read as "Вася" or "Поля".
fn truncated_vocative(name: &str) -> Option<String> {
    if name.ends_with("ия") || name.ends_with("ья") {
        return None;
    }
    let form = if let Some(base) = name.strip_suffix('а') {
        (base.chars().count() >= 3).then(|| base.to_string())?
    } else if let Some(base) = name.strip_suffix('я') {
        let last = base.chars().last()?;
        if base.chars().count() < 2 {
            return None;
        }
        if "аеиоуыэюя".contains(last) {
            format!("{base}й")
        } else {
            format!("{base}ь")
        }
    } else {
        return None;
    };
    Some(form)
}

/// Affectionate forms the suffixes would make that are other words, or that nobody uses.
const NOT_AFFECTIONATE: &[&str] = &["галька", "колечка", "семка"];

/// The affectionate forms a short name makes with the common suffixes: "Даша" → "Дашенька",
/// "Дашуля", "Дашуся", "Дашка"; "Лиза" → "Лизочка", "Лизонька", "Лизка"; "Таня" → "Танечка",
/// "Танюля", "Танька". Full names are left to the table (their forms are less regular), and so
/// are forms already ending in -ка ("Дашка", "Леночка").
fn affectionate_forms(name: &str) -> Vec<String> {
    let vowel = |c: char| "аеиоуыэюя".contains(c);
    let suffixed = name
        .strip_suffix("ка")
        .and_then(|b| b.chars().last())
        .is_some_and(|c| !vowel(c));
    if suffixed || name.ends_with("ия") || name.ends_with("ья") {
        return Vec::new();
    }
    let (stem, soft) = if let Some(b) = name.strip_suffix('а') {
        (b, false)
    } else if let Some(b) = name.strip_suffix('я') {
        (b, true)
    } else {
        return Vec::new();
    };
    let Some(last) = stem.chars().last() else {
        return Vec::new();
    };
    if stem.chars().count() < 2 || vowel(last) || matches!(last, 'й' | 'ь') {
        return Vec::new();
    }
    let suffixes: &[&str] = match (soft, last) {
        // Already affectionate: "Дашуля" → "Дашуленька", "Дашулька"; "Маруся" → "Маруська".
        (true, _)
            if ["уля", "юля", "уся", "юся"]
                .iter()
                .any(|s| name.ends_with(s)) =>
        {
            &["енька", "ечка", "ька"]
        }
        (true, _) => &["енька", "ечка", "юля", "юся", "ька"],
        (false, 'ш' | 'ж' | 'ч' | 'щ') => &["енька", "уля", "уся", "ка"],
        (false, 'к') => &["уля", "уся"],
        (false, 'г' | 'х' | 'ц') => &[],
        (false, _) => &["очка", "онька", "уля", "уся", "ка"],
    };
    suffixes
        .iter()
        .map(|s| format!("{stem}{s}"))
        .filter(|f| !NOT_AFFECTIONATE.contains(&f.as_str()))
        .collect()
}

/// The regular affectionate forms of a full name in -на ("Кристина" → "Кристиночка",
/// "Кристинонька"; "Галина" → "Галиночка"), which the table need not list one by one.
fn full_name_affectionate(name: &str) -> Vec<String> {
    match name.strip_suffix('а') {
        Some(stem) if stem.ends_with('н') && stem.chars().count() >= 4 => ["очка", "онька"]
            .iter()
            .map(|s| format!("{stem}{s}"))
            .collect(),
        _ => Vec::new(),
    }
}

/// Does the normalised token name the surname `surname` (normalised nominative) in some case?
fn surname_matches(tok: &str, surname: &str) -> bool {
    if tok == surname {
        return true;
    }
    if !is_cyrillic(surname) {
        return tok
            .strip_suffix("'s")
            .or_else(|| tok.strip_suffix("’s"))
            .is_some_and(|t| t == surname);
    }
    let strip = |suffix: &str| surname.strip_suffix(suffix).map(str::to_string);
    // Adjectival: Чайковский, Толстой, Чайковская.
    for (suf, endings) in [
        (
            "ский",
            &[
                "ский",
                "ского",
                "скому",
                "ским",
                "ском",
                "ская",
                "ской",
                "скую",
            ][..],
        ),
        (
            "ская",
            &["ская", "ской", "скую", "ский", "ского", "скому", "ским"][..],
        ),
        (
            "цкий",
            &[
                "цкий",
                "цкого",
                "цкому",
                "цким",
                "цком",
                "цкая",
                "цкой",
                "цкую",
            ][..],
        ),
        (
            "цкая",
            &["цкая", "цкой", "цкую", "цкий", "цкого", "цкому", "цким"][..],
        ),
    ] {
        if let Some(base) = strip(suf) {
            return tok
                .strip_prefix(base.as_str())
                .is_some_and(|rest| endings.contains(&rest));
        }
    }
    // Possessive: Кузнецов / Кузнецова, Павлов, Ильин, Соловьёв.
    for suf in ["ов", "ев", "ин", "ын"] {
        if surname.ends_with(suf) {
            return tok.strip_prefix(surname).is_some_and(|rest| {
                ["", "а", "у", "ым", "е", "ой", "ы", "ых", "ым", "ыми"].contains(&rest)
            });
        }
    }
    for suf in ["ова", "ева", "ина", "ына"] {
        if surname.ends_with(suf) {
            let base = strip("а").unwrap_or_default();
            return tok
                .strip_prefix(base.as_str())
                .is_some_and(|rest| ["а", "ой", "у", "ы", "", "ым", "е"].contains(&rest));
        }
    }
    if surname.ends_with('а') || surname.ends_with('я') || surname.ends_with('ь') {
        return first_name_matches(tok, surname);
    }
    // Other consonant stems (Кравец, Шевчук, Новак): women's forms do not decline, men's take
    // the hard endings; "Кравца" with its fleeting vowel is accepted too.
    if let Some(rest) = tok.strip_prefix(surname) {
        return ["а", "у", "ом", "е", "ым"].contains(&rest);
    }
    if let Some(base) = surname.strip_suffix("ец") {
        return tok
            .strip_prefix(base)
            .and_then(|r| r.strip_prefix('ц'))
            .is_some_and(|rest| ["а", "у", "ом", "е"].contains(&rest));
    }
    false
}

/// Is the normalised word a patronymic ("Викторовна", "Сергеевич")?
pub fn is_patronymic_word(tok: &str) -> bool {
    is_patronymic(tok) || is_colloquial_patronymic(tok)
}

/// Spoken patronymics used alone as a familiar address: "Палыч", "Саныч", "Михалыч".
fn is_colloquial_patronymic(tok: &str) -> bool {
    ["ыч", "ыча", "ычу", "ычем"]
        .iter()
        .any(|s| tok.ends_with(s) && tok.chars().count() >= s.chars().count() + 3)
}

fn is_patronymic(tok: &str) -> bool {
    [
        "вич",
        "вича",
        "вичу",
        "вичем",
        "виче",
        "вна",
        "вны",
        "вне",
        "вну",
        "вной",
        "ична",
        "ичны",
        "ичне",
        "ичну",
        "ичной",
        "ич",
        "ича",
        "ичу",
        "ичем",
    ]
    .iter()
    .any(|s| tok.ends_with(s) && tok.chars().count() > s.chars().count() + 3)
}

pub use crate::domain::text::translit;

/// One key for the Latin spellings of a Russian name: "Dmitriy", "Dmitry", "Dmitrii" → "dmitry";
/// "Natalia", "Natalya" → "natalya"; "Aleksei", "Alexey" → "alexey"; "Pyotr", "Petr" → "petr".
fn fold(latin: &str) -> String {
    let mut s: String = latin
        .chars()
        .map(|c| match c {
            'j' => 'y',
            'w' => 'v',
            other => other,
        })
        .collect();
    for (from, to) in [
        ("shch", "sch"),
        ("kh", "h"),
        ("ks", "x"),
        ("iya", "ya"),
        ("ia", "ya"),
        ("iyu", "yu"),
        ("iu", "yu"),
        ("yo", "e"),
        ("ye", "e"),
    ] {
        s = s.replace(from, to);
    }
    for (from, to) in [
        ("iy", "y"),
        ("ii", "y"),
        ("ei", "ey"),
        ("ai", "ay"),
        ("i", "y"),
    ] {
        if let Some(base) = s.strip_suffix(from) {
            s = format!("{base}{to}");
            break;
        }
    }
    // Doubled letters are spelled either way ("Kiril", "Kirill").
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if !out.ends_with(c) {
            out.push(c);
        }
    }
    out
}

fn is_latin_word(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic())
}

/// A Latin spelling of a Russian name ("dmitry") → the Russian groups it belongs to.
fn latin_group_index() -> &'static HashMap<String, Vec<Group>> {
    static INDEX: OnceLock<HashMap<String, Vec<Group>>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut map: HashMap<String, Vec<Group>> = HashMap::new();
        for group in RU_GROUPS {
            for name in group.iter() {
                let groups = map.entry(fold(&translit(name))).or_default();
                if !groups.contains(group) {
                    groups.push(group);
                }
            }
        }
        map
    })
}

/// What matching needs of a name of the tables or of an affectionate form of one, worked out
/// once per process rather than once per team.
struct TableName {
    /// The affectionate forms of a short Russian name (a group member after the full name).
    affectionate: Vec<String>,
    /// `fold(translit(name))` of a Cyrillic name.
    latin: Option<String>,
    keys: VariantKeys,
    truncated: Option<String>,
}

/// Every name of the tables and every affectionate form of their short Russian names.
fn table_names() -> &'static HashMap<String, TableName, WordHash> {
    static NAMES: OnceLock<HashMap<String, TableName, WordHash>> = OnceLock::new();
    NAMES.get_or_init(|| {
        // The sound key is for English names written in Cyrillic ("Джейк" ↔ "Jake"). A Russian
        // name of the tables that sounds like a name of an English group meaning someone else
        // ("Дэн" of Денис like "Dan" of Daniel, not "Ксения" like nobody, "Анна" like "Anna" of
        // the same name) is reached in Latin through its own spellings only, and the
        // affectionate forms have no English sound at all.
        let en_groups: Vec<HashSet<String>> = EN_GROUPS
            .iter()
            .map(|g| {
                g.iter()
                    .filter_map(|n| VariantKeys::new(n).en_sound)
                    .collect()
            })
            .collect();
        let mut soundless: HashMap<&str, bool> = HashMap::new();
        for group in RU_GROUPS {
            let full = VariantKeys::new(group[0]).cyr_sound;
            let foreign: Vec<&HashSet<String>> = en_groups
                .iter()
                .filter(|sounds| !full.as_ref().is_some_and(|f| sounds.contains(f)))
                .collect();
            for name in group.iter() {
                let sound = VariantKeys::new(name).cyr_sound;
                let other = sound
                    .as_ref()
                    .is_some_and(|s| foreign.iter().any(|sounds| sounds.contains(s)));
                // A name of several groups keeps its sound if one of them claims it.
                *soundless.entry(name).or_insert(true) &= other;
            }
        }
        let entry = |name: &str, affectionate: Vec<String>, sound: bool| {
            let mut keys = VariantKeys::new(name);
            if !sound || soundless.get(name).copied().unwrap_or(false) {
                keys.cyr_sound = None;
            }
            TableName {
                affectionate,
                latin: is_cyrillic(name).then(|| fold(&translit(name))),
                keys,
                truncated: truncated_vocative(name),
            }
        };
        let mut map: HashMap<String, TableName, WordHash> = HashMap::default();
        for group in RU_GROUPS.iter().chain(EN_GROUPS.iter()) {
            for (k, name) in group.iter().enumerate() {
                let short = k > 0 && is_cyrillic(name);
                match map.get_mut(*name) {
                    Some(t) if short && t.affectionate.is_empty() => {
                        t.affectionate = affectionate_forms(name);
                    }
                    Some(_) => {}
                    None => {
                        let forms = if short {
                            affectionate_forms(name)
                        } else {
                            Vec::new()
                        };
                        map.insert(name.to_string(), entry(name, forms, true));
                    }
                }
            }
        }
        let forms: Vec<String> = map
            .values()
            .flat_map(|t| t.affectionate.iter().cloned())
            .collect();
        for form in forms {
            if let std::collections::hash_map::Entry::Vacant(slot) = map.entry(form) {
                let t = entry(slot.key(), Vec::new(), false);
                slot.insert(t);
            }
        }
        map
    })
}

/// A value of the tables, or one worked out for a name they do not know.
type Shared<T> = Cow<'static, T>;

/// The name variants a person answers to (normalised): their own first name plus every member
/// of each group it belongs to, and the Latin spellings of the Russian ones ("Dima" for
/// "Дмитрий"); a Latin first name of a Russian ("Dmitry") joins the Russian group too.
struct Variants {
    own: String,
    groups: Vec<Group>,
    /// The affectionate forms of the short names among them ([`affectionate_forms`]) that the
    /// table does not list already.
    derived: Vec<Shared<str>>,
    /// Folded Latin spellings of the Cyrillic variants.
    latin: Vec<Shared<str>>,
}

impl Variants {
    fn new(first: &str) -> Variants {
        let own = normalize(first.trim());
        let mut groups: Vec<Group> = group_index().get(own.as_str()).cloned().unwrap_or_default();
        if is_latin_word(&own)
            && let Some(ru) = latin_group_index().get(&fold(&own))
        {
            for g in ru {
                if !groups.contains(g) {
                    groups.push(g);
                }
            }
        }
        // Short names: the group members after the full name, and a first name the table
        // does not know.
        let table = table_names();
        let known = groups.iter().any(|g| g.contains(&own.as_str()));
        let mut derived: Vec<Shared<str>> = Vec::new();
        let own_forms = if !known && is_cyrillic(&own) {
            affectionate_forms(&own)
        } else {
            full_name_affectionate(&own)
        };
        let table_forms = groups
            .iter()
            .flat_map(|g| g.iter().skip(1))
            .filter_map(|short| table.get(*short))
            .flat_map(|t| t.affectionate.iter().map(|f| Cow::Borrowed(f.as_str())));
        for form in own_forms.into_iter().map(Cow::Owned).chain(table_forms) {
            let listed = *form == *own
                || groups.iter().any(|g| g.contains(&&*form))
                || derived.contains(&form);
            if !listed {
                derived.push(form);
            }
        }
        let mut v = Variants {
            own,
            groups,
            derived,
            latin: Vec::new(),
        };
        let latin: Vec<Shared<str>> = v
            .iter()
            .filter(|n| is_cyrillic(n))
            .map(|n| match table.get(n).and_then(|t| t.latin.as_deref()) {
                Some(l) => Cow::Borrowed(l),
                None => Cow::Owned(fold(&translit(n))),
            })
            .collect();
        v.latin = latin;
        v
    }

    fn iter(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.own.as_str())
            .chain(self.groups.iter().flat_map(|g| g.iter().copied()))
            .chain(self.derived.iter().map(|d| &**d))
            .filter(|v| !v.is_empty())
    }
}

/// Every name of the tables → the groups it belongs to (built once).
/// A group of names meaning the same person ("дмитрий", "дима", "митя").
type Group = &'static [&'static str];

fn group_index() -> &'static HashMap<&'static str, Vec<Group>> {
    static INDEX: OnceLock<HashMap<&'static str, Vec<Group>>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut map: HashMap<&'static str, Vec<Group>> = HashMap::new();
        for group in RU_GROUPS.iter().chain(EN_GROUPS.iter()) {
            for name in group.iter() {
                map.entry(*name).or_default().push(group);
            }
        }
        map
    })
}

struct Matcher {
    id: i64,
    first: Variants,
    /// Per variant of `first.iter()`, in the same order: what matching needs of it.
    keys: Vec<Shared<VariantKeys>>,
    /// The truncated vocatives of the variants ("паш", "оль", "мариш").
    truncated: Vec<Shared<str>>,
    /// The first letters of the variants: a token starting otherwise names none of them.
    initials: Vec<char>,
    /// Some variant has an English sound key (a Cyrillic token may sound like it).
    en_sounds: bool,
    /// Some variant has a Cyrillic sound key (a Latin token may sound like it).
    cyr_sounds: bool,
    surname: Option<String>,
    username: Option<String>,
    /// The surname has five letters or more (a short one only counts with a capital).
    surname_long: bool,
    /// `fold(translit(surname))` of a Cyrillic surname.
    surname_cyr_fold: Option<String>,
    /// `fold(surname)` of a Latin surname of three letters or more.
    surname_latin_fold: Option<String>,
}

/// Sound keys of one name variant, computed once per org instead of once per token.
#[derive(Clone)]
struct VariantKeys {
    /// `english_sound` of a Latin variant, when [`sounds_alike_keyed`] may use it.
    en_sound: Option<String>,
    /// `cyrillic_sound` of a Cyrillic variant, when [`sounds_alike_keyed`] may use it.
    cyr_sound: Option<String>,
}

impl VariantKeys {
    fn new(v: &str) -> VariantKeys {
        let en_sound = if is_latin_word(v) && v.len() >= 3 {
            Some(english_sound(&normalize(v))).filter(|w| w.chars().count() >= 3)
        } else {
            None
        };
        let cyr_sound = (is_cyrillic(v) && v.chars().count() >= 3).then(|| cyrillic_sound(v));
        VariantKeys {
            en_sound,
            cyr_sound,
        }
    }
}

fn matcher(p: &Person) -> Matcher {
    let first = Variants::new(&p.first_name);
    let table = table_names();
    let mut keys: Vec<Shared<VariantKeys>> = Vec::new();
    let mut truncated: Vec<Shared<str>> = Vec::new();
    for v in first.iter() {
        let (k, t) = match table.get(v) {
            Some(t) => (
                Cow::Borrowed(&t.keys),
                t.truncated.as_deref().map(Cow::Borrowed),
            ),
            None => {
                let mut k = VariantKeys::new(v);
                // An affectionate form of a name the tables do not know: no English sound.
                if first.derived.iter().any(|d| d == v) {
                    k.cyr_sound = None;
                }
                (Cow::Owned(k), truncated_vocative(v).map(Cow::Owned))
            }
        };
        keys.push(k);
        if let Some(t) = t
            && !truncated.contains(&t)
        {
            truncated.push(t);
        }
    }
    let surname = p
        .last_name
        .as_deref()
        .map(|s| normalize(s.trim()))
        .filter(|s| !s.is_empty());
    let sur = surname.as_deref().unwrap_or("");
    let mut initials: Vec<char> = first.iter().filter_map(first_char).collect();
    initials.sort_unstable();
    initials.dedup();
    Matcher {
        id: p.id,
        en_sounds: keys.iter().any(|k| k.en_sound.is_some()),
        cyr_sounds: keys.iter().any(|k| k.cyr_sound.is_some()),
        initials,
        first,
        keys,
        truncated,
        surname_long: sur.chars().count() >= 5,
        surname_cyr_fold: is_cyrillic(sur).then(|| fold(&translit(sur))),
        surname_latin_fold: (is_latin_word(sur) && sur.chars().count() >= 3).then(|| fold(sur)),
        surname,
        username: p
            .username
            .as_deref()
            .map(|u| normalize(u.trim().trim_start_matches('@')))
            .filter(|u| !u.is_empty()),
    }
}

fn matchers(people: &[Person]) -> Vec<Matcher> {
    people.iter().map(matcher).collect()
}

/// What a token is matched by, worked out once per token (lazily: most tokens need little).
struct TokKeys<'t> {
    tok: &'t str,
    cyrillic: bool,
    latin: bool,
    /// `fold` of the token without a possessive, for the Latin spellings of the variants.
    latin_key: OnceCell<Option<String>>,
    /// `english_sound` of a Latin token, for [`sounds_alike_keyed`].
    en_sound: OnceCell<Option<String>>,
    /// `cyrillic_sound` of a Cyrillic token and of its bases without case endings.
    cyr_sounds: OnceCell<Vec<String>>,
    /// The token's side of [`surname_across_scripts`].
    latin_fold: OnceCell<Option<String>>,
    cyr_fold: OnceCell<Option<String>>,
}

impl<'t> TokKeys<'t> {
    fn new(tok: &'t str) -> TokKeys<'t> {
        TokKeys {
            tok,
            cyrillic: is_cyrillic(tok),
            latin: is_latin_word(tok),
            latin_key: OnceCell::new(),
            en_sound: OnceCell::new(),
            cyr_sounds: OnceCell::new(),
            latin_fold: OnceCell::new(),
            cyr_fold: OnceCell::new(),
        }
    }

    fn latin_key(&self) -> Option<&str> {
        self.latin_key
            .get_or_init(|| {
                let tok = self.tok;
                let tok = tok
                    .strip_suffix("'s")
                    .or_else(|| tok.strip_suffix("’s"))
                    .unwrap_or(tok);
                (is_latin_word(tok) && tok.chars().count() >= 3).then(|| fold(tok))
            })
            .as_deref()
    }

    fn en_sound(&self) -> Option<&str> {
        self.en_sound
            .get_or_init(|| {
                (self.latin && self.tok.len() >= 3)
                    .then(|| english_sound(&normalize(self.tok)))
                    .filter(|w| w.chars().count() >= 3)
            })
            .as_deref()
    }

    fn cyr_sounds(&self) -> &[String] {
        self.cyr_sounds.get_or_init(|| {
            let cyr = self.tok;
            if !self.cyrillic || cyr.chars().count() < 3 {
                return Vec::new();
            }
            let mut forms = vec![cyrillic_sound(cyr)];
            for end in ["ом", "ем", "ой", "ей", "а", "у", "е", "ю", "я", "ы"] {
                if let Some(base) = cyr.strip_suffix(end)
                    && base.chars().count() >= 3
                {
                    forms.push(cyrillic_sound(base));
                }
            }
            forms
        })
    }

    fn latin_fold(&self) -> Option<&str> {
        self.latin_fold
            .get_or_init(|| (self.latin && self.tok.chars().count() >= 3).then(|| fold(self.tok)))
            .as_deref()
    }

    fn cyr_fold(&self) -> Option<&str> {
        self.cyr_fold
            .get_or_init(|| self.cyrillic.then(|| fold(&translit(self.tok))))
            .as_deref()
    }
}

/// Which variant (if any) of the matcher the token names: in some case, in a Latin spelling, or
/// by sound; the variants' keys are worked out beforehand, the token's as needed.
fn matched_variant_keyed<'m>(m: &'m Matcher, tk: &TokKeys) -> Option<&'m str> {
    let tok = tk.tok;
    let c = first_char(tok)?;
    if m.initials.contains(&c)
        && let Some(v) = m
            .first
            .iter()
            .find(|v| first_char(v) == Some(c) && first_name_matches(tok, v))
    {
        return Some(v);
    }
    let latin = tk
        .latin_key()
        .and_then(|key| m.first.latin.iter().position(|l| l == key))
        .and_then(|k| m.first.iter().filter(|n| is_cyrillic(n)).nth(k));
    if latin.is_some() {
        return latin;
    }
    let sounds = (tk.cyrillic && m.en_sounds) || (tk.latin && m.cyr_sounds);
    if !sounds {
        return None;
    }
    m.first
        .iter()
        .zip(&m.keys)
        .find(|(_, vk)| sounds_alike_keyed(tk, vk))
        .map(|(v, _)| v)
}

/// An English name written in Cyrillic or a Russian one in Latin, as Russians transcribe them:
/// "Джейк"/"Джейка" ↔ Jake, "Мэтт" ↔ Matt, "Крис"/"Крису" ↔ Chris; through the sound keys of
/// the token and of the variant.
fn sounds_alike_keyed(tk: &TokKeys, vk: &VariantKeys) -> bool {
    if tk.cyrillic {
        vk.en_sound
            .as_deref()
            .is_some_and(|w| tk.cyr_sounds().iter().any(|f| f == w))
    } else if tk.latin {
        vk.cyr_sound
            .as_deref()
            .is_some_and(|s| tk.en_sound() == Some(s))
    } else {
        false
    }
}

/// Does the token name the matcher's surname (in some case, or in the other script)?
fn surname_hit_keyed(m: &Matcher, tk: &TokKeys) -> bool {
    let tok = tk.tok;
    m.surname.as_deref().is_some_and(|s| {
        s.chars().count() >= 3
            && ((first_char(s) == first_char(tok) && surname_matches(tok, s))
                || (tk.latin
                    && m.surname_cyr_fold.is_some()
                    && tk.latin_fold() == m.surname_cyr_fold.as_deref())
                || (tk.cyrillic
                    && m.surname_latin_fold.is_some()
                    && tk.cyr_fold() == m.surname_latin_fold.as_deref()))
    })
}

/// Per matcher, what one token is to it (bit flags).
const HIT_FIRST: u8 = 1;
/// The first-name hit is a name that is also a word.
const HIT_AMBIGUOUS: u8 = 1 << 1;
const HIT_TRUNCATED: u8 = 1 << 2;
const HIT_SURNAME: u8 = 1 << 3;
/// The truncated vocative is also a word ([`VOCATIVE_WORDS`]): only with a "ё" is it a name.
const HIT_TRUNCATED_WORD: u8 = 1 << 4;

/// Memoised token lookups per org are dropped past this many distinct tokens.
const MEMO_LIMIT: usize = 8192;

/// The name matchers of one org, and what each token seen so far names in it.
struct Compiled {
    people: Vec<Person>,
    ms: Vec<Matcher>,
    memo: RefCell<HashMap<String, Rc<[u8]>, WordHash>>,
}

impl Compiled {
    fn hits(&self, tok: &str) -> Rc<[u8]> {
        if let Some(h) = self.memo.borrow().get(tok) {
            return Rc::clone(h);
        }
        let tk = TokKeys::new(tok);
        let ambiguous_tok = AMBIGUOUS.contains(&tok);
        let flags: Rc<[u8]> = self
            .ms
            .iter()
            .map(|m| {
                let mut f = 0;
                if let Some(v) = matched_variant_keyed(m, &tk) {
                    f |= HIT_FIRST;
                    if AMBIGUOUS.contains(&v) || ambiguous_tok {
                        f |= HIT_AMBIGUOUS;
                    }
                }
                if m.truncated.iter().any(|t| t == tok) {
                    f |= if VOCATIVE_WORDS.contains(&tok) {
                        HIT_TRUNCATED_WORD
                    } else {
                        HIT_TRUNCATED
                    };
                }
                if surname_hit_keyed(m, &tk) {
                    f |= HIT_SURNAME;
                }
                f
            })
            .collect();
        let mut memo = self.memo.borrow_mut();
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(tok.to_string(), Rc::clone(&flags));
        flags
    }
}

/// Orgs whose matchers are kept per thread (a bot serves a few orgs in turn).
const ORGS_KEPT: usize = 8;

thread_local! {
    static ORGS: RefCell<Vec<Rc<Compiled>>> = const { RefCell::new(Vec::new()) };
}

/// The name matchers of a team, built once and reused while its people stay the same.
///
/// Building them (every variant of every name, transliterated and folded, with sound keys) is
/// far dearer than reading a message, so they are kept per thread for the last few teams seen,
/// keyed by the people themselves (any change of a name or id gives a fresh set).
pub struct NameIndex {
    inner: Rc<Compiled>,
    /// Texts already read through this handle (one message's reading asks about the same
    /// text several times).
    seen: RefCell<Vec<(String, Mentions)>>,
}

/// Who a text names, with where: what [`people_in`] gives.
type Mentions = Vec<(Range<usize>, i64)>;

/// Texts remembered per [`NameIndex`] handle.
const SEEN_LIMIT: usize = 32;

impl NameIndex {
    pub fn new(people: &[Person]) -> NameIndex {
        let inner = ORGS.with(|orgs| {
            let mut orgs = orgs.borrow_mut();
            if let Some(k) = orgs.iter().position(|c| c.people == people) {
                let c = orgs.remove(k);
                orgs.insert(0, Rc::clone(&c));
                return c;
            }
            let c = Rc::new(Compiled {
                people: people.to_vec(),
                ms: matchers(people),
                memo: RefCell::new(HashMap::default()),
            });
            orgs.insert(0, Rc::clone(&c));
            orgs.truncate(ORGS_KEPT);
            c
        });
        NameIndex {
            inner,
            seen: RefCell::new(Vec::new()),
        }
    }

    /// [`people_in`] with these people.
    pub fn people_in(&self, text: &str) -> Vec<(Range<usize>, i64)> {
        if let Some((_, found)) = self.seen.borrow().iter().find(|(t, _)| t == text) {
            return found.clone();
        }
        let found = people_in_compiled(text, &self.inner);
        let mut seen = self.seen.borrow_mut();
        if seen.len() >= SEEN_LIMIT {
            seen.clear();
        }
        seen.push((text.to_string(), found.clone()));
        found
    }
}

fn first_char(s: &str) -> Option<char> {
    s.chars().next()
}

/// Which variant (if any) of the matcher the token names.
fn matched_variant<'m>(m: &'m Matcher, tok: &str) -> Option<&'m str> {
    matched_variant_keyed(m, &TokKeys::new(tok))
}

/// A rough sound key of a Latin-spelt English name.
fn english_sound(w: &str) -> String {
    let mut s = w.to_string();
    // A silent final "e" lengthens the vowel before it: "jake" → "jeik", "mike" → "maik".
    let chars: Vec<char> = s.chars().collect();
    if chars.len() >= 4 && chars[chars.len() - 1] == 'e' {
        let (v, c) = (chars[chars.len() - 3], chars[chars.len() - 2]);
        if !"aeiouy".contains(c) {
            let long = match v {
                'a' => Some("ei"),
                'i' | 'y' => Some("ai"),
                'o' => Some("ou"),
                'u' => Some("yu"),
                'e' => Some("i"),
                _ => None,
            };
            if let Some(l) = long {
                let head: String = chars[..chars.len() - 3].iter().collect();
                s = format!("{head}{l}{c}");
            }
        }
    }
    for (from, to) in [
        ("chr", "kr"),
        ("ph", "f"),
        ("th", "t"),
        ("ck", "k"),
        ("qu", "kv"),
        ("x", "ks"),
        ("ce", "se"),
        ("ci", "si"),
        ("c", "k"),
        ("w", "u"),
        ("j", "dzh"),
    ] {
        s = s.replace(from, to);
    }
    sound_fold(&s)
}

fn cyrillic_sound(w: &str) -> String {
    sound_fold(&translit(w))
}

/// Merges what the two scripts spell differently: "a"/"e" ("Matt"/"Мэтт"), "y"/"i", doubles.
fn sound_fold(s: &str) -> String {
    let mapped: String = s
        .chars()
        .map(|c| match c {
            'a' => 'e',
            'y' => 'i',
            other => other,
        })
        .collect();
    let mut out = String::with_capacity(mapped.len());
    for c in mapped.chars() {
        if !out.ends_with(c) {
            out.push(c);
        }
    }
    out
}

/// The same surname in the other script ("Volkov" / "Волков"), nominative only.
fn surname_across_scripts(tok: &str, surname: &str) -> bool {
    let (latin, cyr) = if is_latin_word(tok) && is_cyrillic(surname) {
        (tok, surname)
    } else if is_latin_word(surname) && is_cyrillic(tok) {
        (surname, tok)
    } else {
        return false;
    };
    latin.chars().count() >= 3 && fold(latin) == fold(&translit(cyr))
}

/// The words of `text` exactly as [`super::words::tokens`] gives them, without its per-character
/// Unicode table lookups for the common letters (ASCII, Russian); kept's hot paths tokenise a
/// lot.
pub fn fast_tokens(text: &str) -> Vec<Token> {
    fn word_char(c: char) -> bool {
        if c.is_ascii() {
            c.is_ascii_alphanumeric()
        } else if matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё') {
            true
        } else {
            c.is_alphanumeric()
        }
    }
    fn alphabetic(c: char) -> bool {
        if c.is_ascii() {
            c.is_ascii_alphabetic()
        } else if matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё') {
            true
        } else {
            c.is_alphabetic()
        }
    }
    fn norm(word: &str) -> String {
        let mut out = String::with_capacity(word.len());
        for c in word.chars() {
            match c {
                'A'..='Z' => out.push(c.to_ascii_lowercase()),
                'а'..='я' | '\0'..='\u{7f}' => out.push(c),
                'А'..='Я' => out.push(char::from_u32(c as u32 + 0x20).unwrap_or(c)),
                'ё' | 'Ё' => out.push('е'),
                _ => {
                    for l in c.to_lowercase() {
                        out.push(if l == 'ё' { 'е' } else { l });
                    }
                }
            }
        }
        out
    }
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut it = text.char_indices().peekable();
    while let Some((pos, c)) = it.next() {
        let inner_apostrophe = (c == '\'' || c == '’')
            && start.is_some()
            && it.peek().is_some_and(|&(_, n)| alphabetic(n));
        if word_char(c) || inner_apostrophe {
            start.get_or_insert(pos);
        } else if let Some(s) = start.take() {
            out.push(Token {
                norm: norm(text.get(s..pos).unwrap_or("")),
                span: s..pos,
            });
        }
    }
    if let Some(s) = start {
        out.push(Token {
            norm: norm(text.get(s..).unwrap_or("")),
            span: s..text.len(),
        });
    }
    out
}

/// A quick hasher for short word keys (the default SipHash guards against flooding, which
/// lookups of one team's chat words do not need).
#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// `HashMap` hasher for word keys.
pub type WordHash = std::hash::BuildHasherDefault<WordHasher>;

/// `@username` mentions: Telegram usernames are letters, digits and underscores.
fn usernames(text: &str) -> Vec<(Range<usize>, String)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'@' && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
            let start = i + 1;
            let mut end = start;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            if end > start {
                // Only ASCII bytes were consumed, so both ends are char boundaries.
                out.push((i..end, text[start..end].to_ascii_lowercase()));
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// Everyone the text names, with the byte span of each mention, left to right.
///
/// A first name followed by a patronymic or by the person's surname is one mention (the span
/// covers all of it); a name shared by several people gives one entry per person with the same
/// span, unless a surname next to it tells them apart.
pub fn people_in(text: &str, people: &[Person]) -> Vec<(Range<usize>, i64)> {
    if people.is_empty() || text.is_empty() {
        return Vec::new();
    }
    NameIndex::new(people).people_in(text)
}

fn people_in_compiled(text: &str, c: &Compiled) -> Vec<(Range<usize>, i64)> {
    let ms = &c.ms;
    if ms.is_empty() || text.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<(Range<usize>, i64)> = Vec::new();
    if text.contains('@') {
        for (span, user) in usernames(text) {
            for m in ms {
                if m.username.as_deref() == Some(user.as_str()) {
                    out.push((span.clone(), m.id));
                }
            }
        }
    }
    let toks = fast_tokens(text);
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let after_at = t.span.start > 0 && text.as_bytes().get(t.span.start - 1) == Some(&b'@');
        if after_at {
            i += 1;
            continue;
        }
        let raw = text.get(t.span.clone()).unwrap_or("");
        let capital = raw.chars().next().is_some_and(char::is_uppercase);
        let vocative = i == 0
            && text
                .get(t.span.end..)
                .is_some_and(|rest| rest.trim_start().starts_with(',') || rest.trim().is_empty());
        let next = toks.get(i + 1);
        // First names (with an optional patronymic / surname after them).
        let mut firsts: Vec<usize> = Vec::new();
        let comma_after = text
            .get(t.span.end..)
            .is_some_and(|rest| rest.trim_start().starts_with(','));
        let hits = c.hits(&t.norm);
        for (k, &f) in hits.iter().enumerate() {
            let named = f & HIT_FIRST != 0 && (capital || vocative || f & HIT_AMBIGUOUS == 0);
            // "Наташ сможешь к четвергу?", "Лёш, глянешь?": called at the head of a sentence,
            // with a comma, or without one when a capital opens the sentence and a verb
            // speaking to someone follows.
            let sentence_head = i == 0
                || text
                    .get(toks[i - 1].span.end..t.span.start)
                    .is_some_and(|gap| gap.contains(['.', '!', '?', '\n']));
            // "Дим по АгроФуду 12 тыс коробок, когда сможешь запустить?": the verb speaking to
            // them may come later in the same sentence.
            let called = || {
                sentence_head
                    && capital
                    && toks[i..]
                        .windows(2)
                        .take(12)
                        .take_while(|w| {
                            text.get(w[0].span.end..w[1].span.start)
                                .is_none_or(|gap| !gap.contains(['.', '!', '?', '\n']))
                        })
                        .any(|w| crate::morph::addressing_verb(&w[1].norm))
            };
            let truncated = (comma_after && (i == 0 || capital) || called())
                && (f & HIT_TRUNCATED != 0
                    || (f & HIT_TRUNCATED_WORD != 0 && raw.contains(['ё', 'Ё'])));
            if named || truncated {
                firsts.push(k);
            }
        }
        if !firsts.is_empty() {
            let mut end = t.span.end;
            let mut consumed = 1;
            if let Some(n) = next {
                if is_patronymic(&n.norm) {
                    end = n.span.end;
                    consumed = 2;
                }
                let sur_tok = toks.get(i + consumed);
                if let Some(s) = sur_tok {
                    let sur_hits = c.hits(&s.norm);
                    let with_surname: Vec<usize> = firsts
                        .iter()
                        .copied()
                        .filter(|&k| sur_hits.get(k).is_some_and(|f| f & HIT_SURNAME != 0))
                        .collect();
                    if !with_surname.is_empty() {
                        firsts = with_surname;
                        end = s.span.end;
                        consumed += 1;
                    }
                }
            }
            for k in firsts {
                out.push((t.span.start..end, ms[k].id));
            }
            i += consumed;
            continue;
        }
        // A surname alone ("у Кузнецова"), possibly followed by a first name ("Кравец Светлана").
        let surs: Vec<usize> = hits
            .iter()
            .enumerate()
            .filter(|&(k, f)| f & HIT_SURNAME != 0 && (ms[k].surname_long || capital))
            .map(|(k, _)| k)
            .collect();
        if !surs.is_empty() {
            let mut end = t.span.end;
            let mut consumed = 1;
            let mut chosen = surs.clone();
            if let Some(n) = next {
                let first_hits = c.hits(&n.norm);
                let with_first: Vec<usize> = surs
                    .iter()
                    .copied()
                    .filter(|&k| first_hits.get(k).is_some_and(|f| f & HIT_FIRST != 0))
                    .collect();
                if !with_first.is_empty() {
                    chosen = with_first;
                    end = n.span.end;
                    consumed = 2;
                }
            }
            for k in chosen {
                out.push((t.span.start..end, ms[k].id));
            }
            i += consumed;
            continue;
        }
        if i == 0
            && capital
            && let Some(k) = clipped_start(&t.norm, ms)
        {
            out.push((t.span.clone(), ms[k].id));
        }
        i += 1;
    }
    out.sort_by_key(|(span, id)| (span.start, *id));
    out.dedup();
    out
}

/// Who a name query ("Лены", "Диму", "@dima", "Светланы Кравец") may mean: zero, one or several ids.
///
/// Every word of the query must fit the same person (first name, surname, patronymic or
/// username); the query is explicit, so names that are also words need no capital here.
pub fn resolve(query: &str, people: &[Person]) -> Vec<i64> {
    let q = query.trim();
    if q.is_empty() {
        return Vec::new();
    }
    let index = NameIndex::new(people);
    let ms = &index.inner.ms;
    if let Some(user) = q.strip_prefix('@') {
        let user = normalize(user.trim());
        return ms
            .iter()
            .filter(|m| m.username.as_deref() == Some(user.as_str()))
            .map(|m| m.id)
            .collect();
    }
    let toks = fast_tokens(q);
    if toks.is_empty() {
        return Vec::new();
    }
    let found: Vec<i64> = ms
        .iter()
        .filter(|m| {
            let mut named = false;
            let all = toks.iter().all(|t| {
                let by_name = matched_variant(m, &t.norm).is_some()
                    || m.surname.as_deref().is_some_and(|s| {
                        surname_matches(&t.norm, s)
                            || surname_across_scripts(&t.norm, s)
                            // One half of a double surname: "Бонч", "Бруевича".
                            || (s.contains('-')
                                && s.split('-').any(|part| surname_matches(&t.norm, part)))
                    })
                    || m.username.as_deref() == Some(t.norm.as_str());
                named |= by_name;
                by_name || is_patronymic(&t.norm)
            });
            all && named
        })
        .map(|m| m.id)
        .collect();
    if found.is_empty() {
        // "Marc-André", "Анна-Мария": a name written whole, hyphen and all, accents or none.
        let whole = unaccented(q);
        let written_whole: Vec<i64> = people
            .iter()
            .filter(|p| {
                unaccented(&p.first_name) == whole
                    || p.last_name
                        .as_deref()
                        .is_some_and(|l| unaccented(&format!("{} {l}", p.first_name)) == whole)
            })
            .map(|p| p.id)
            .collect();
        if !written_whole.is_empty() {
            return written_whole;
        }
    }
    match toks.as_slice() {
        [t] if found.is_empty() => clipped(&t.norm, people),
        _ => found,
    }
}

/// "Dami pls call Mrs Adeyemi" (Damilola): an English first name cut short opening a message
/// names the one member whose name it starts, two letters or more before its end, unless it is
/// a word that opens messages (`lexicon/en/not_names.txt`). So does the cut with an
/// affectionate ending ("Dusty can you hose out the yards" for Dustin), one cut from the name
/// with its first syllable dropped ("Bec" for Rebecca), and the first part of one member's
/// username ("dusty" for @dusty).
fn clipped_start(tok: &str, ms: &[Matcher]) -> Option<usize> {
    static NOT_NAMES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        crate::extract::words::lexicon_words(include_str!("../../lexicon/en/not_names.txt"))
            .collect()
    });
    if tok.len() < 3 || !tok.chars().all(|c| c.is_ascii_lowercase()) || NOT_NAMES.contains(&tok) {
        return None;
    }
    let firsts = || ms.iter().map(|m| m.first.own.as_str());
    if let Some(k) = sole_prefix(tok, firsts(), 2) {
        return Some(k);
    }
    if let Some(stem) = tok.strip_suffix("ie").or_else(|| tok.strip_suffix('y'))
        && stem.len() >= 3
        && let Some(k) = sole_prefix(stem, firsts(), 2)
    {
        return Some(k);
    }
    let tails: Vec<String> = firsts().map(without_first_syllable).collect();
    if let Some(k) = sole_prefix(tok, tails.iter().map(String::as_str), 2) {
        return Some(k);
    }
    let mut handles = ms.iter().enumerate().filter(|(_, m)| {
        m.username
            .as_deref()
            .is_some_and(|u| normalize(u.split(['_', '.', '-']).next().unwrap_or("")) == tok)
    });
    match (handles.next(), handles.next()) {
        (Some((k, _)), None) => Some(k),
        _ => None,
    }
}

/// The index of the one name `tok` starts, `rest` letters or more before its end; `None` when
/// no name or several do.
fn sole_prefix<'a>(tok: &str, names: impl Iterator<Item = &'a str>, rest: usize) -> Option<usize> {
    let mut hits = names
        .enumerate()
        .filter(|(_, n)| n.len() >= tok.len() + rest && n.starts_with(tok));
    match (hits.next(), hits.next()) {
        (Some((k, _)), None) => Some(k),
        _ => None,
    }
}

/// "Kev" for Kevin, "Bern" for Bernadette: an English first name cut to its first three letters
/// or more names the one person whose name it starts, if only one. So does one cut from the
/// name with its first syllable dropped ("Tash" for Natasha, "Bec" for Rebecca), or the first
/// part of a username ("tash" for @tash_nguyen) — asked about, a name has no other reading.
fn clipped(tok: &str, people: &[Person]) -> Vec<i64> {
    if tok.len() < 3 || !tok.chars().all(|c| c.is_ascii_alphabetic()) {
        return Vec::new();
    }
    let names: Vec<String> = people.iter().map(|p| normalize(&p.first_name)).collect();
    if let Some(k) = sole_prefix(tok, names.iter().map(String::as_str), 0) {
        return vec![people[k].id];
    }
    let tails: Vec<String> = names.iter().map(|n| without_first_syllable(n)).collect();
    if let Some(k) = sole_prefix(tok, tails.iter().map(String::as_str), 0) {
        return vec![people[k].id];
    }
    let handles: Vec<String> = people
        .iter()
        .map(|p| {
            p.username
                .as_deref()
                .map(|u| normalize(u.split(['_', '.', '-']).next().unwrap_or("")))
                .unwrap_or_default()
        })
        .collect();
    let mut hits = handles
        .iter()
        .enumerate()
        .filter(|(_, h)| h.as_str() == tok);
    match (hits.next(), hits.next()) {
        (Some((k, _)), None) => vec![people[k].id],
        _ => Vec::new(),
    }
}

/// Lower case without accents ("Marc-André" → "marc-andre"); Cyrillic "й" and "ё" stay.
fn unaccented(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    normalize(s)
        .split(' ')
        .map(|w| {
            if w.chars().any(|c| ('\u{400}'..='\u{4ff}').contains(&c)) {
                w.to_string()
            } else {
                w.nfd()
                    .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
                    .collect()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// "natasha" → "tasha", "rebecca" → "becca": the name from its second syllable on (empty for a
/// name of one syllable, which has nothing left to clip).
fn without_first_syllable(name: &str) -> String {
    let vowel = |c: char| "aeiouy".contains(c);
    let chars: Vec<char> = name.chars().collect();
    let Some(v) = chars.iter().position(|&c| vowel(c)) else {
        return String::new();
    };
    let Some(c) = chars[v..].iter().position(|&c| !vowel(c)).map(|k| v + k) else {
        return String::new();
    };
    let rest: String = chars[c..].iter().collect();
    if rest.chars().any(vowel) {
        rest
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A member known by their first name alone.
    fn p(id: i64, name: &str) -> Person {
        Person {
            id,
            first_name: name.into(),
            last_name: None,
            username: None,
        }
    }

    #[test]
    fn a_message_opening_with_a_name_cut_short_names_its_one_member() {
        let team = vec![
            p(1, "Damilola"),
            p(2, "Candice"),
            p(3, "Samantha"),
            p(4, "Samuel"),
        ];
        let ids = |t: &str| {
            people_in(t, &team)
                .into_iter()
                .map(|(_, id)| id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids("Dami pls call Mrs Adeyemi"), vec![1]);
        // A word that opens messages, a name two can start, one too short, or not first: no one.
        assert!(ids("Can you send the deck?").is_empty());
        assert!(ids("Da pls call them").is_empty());
        let mut two = team.clone();
        two.push(p(5, "Damian"));
        assert!(people_in("Dami pls call them", &two).is_empty());
        assert!(ids("ok Dami pls call them").is_empty());
    }

    #[test]
    fn a_message_opening_with_a_nickname_names_its_one_member() {
        let mut dustin = p(1, "Dustin");
        dustin.username = Some("dustyw".into());
        let team = vec![dustin, p(2, "Rebecca"), p(3, "Kerry"), p(4, "Shane")];
        let ids = |t: &str| {
            people_in(t, &team)
                .into_iter()
                .map(|(_, id)| id)
                .collect::<Vec<_>>()
        };
        // Cut with an affectionate ending, cut after the first syllable, a username's first part.
        assert_eq!(ids("Dusty can you hose out the yards Monday"), vec![1]);
        assert_eq!(ids("Bec can we go thru the EOFY checklist"), vec![2]);
        assert_eq!(ids("Dustyw can you hose out the yards"), vec![1]);
        // A word that opens messages is no name.
        assert!(ids("Sorry can't make it").is_empty());
    }

    #[test]
    fn an_english_name_cut_short_names_the_one_person_it_starts() {
        let team = vec![
            p(1, "Kevin"),
            p(2, "Samantha"),
            p(3, "Samuel"),
            p(4, "Bernadette"),
        ];
        assert_eq!(resolve("Kev", &team), vec![1]);
        assert_eq!(resolve("bern", &team), vec![4]);
        assert_eq!(resolve("Samu", &team), vec![3]);
        // too short to tell, or nobody: no one
        assert!(resolve("Ke", &team).is_empty());
        assert!(resolve("Zed", &team).is_empty());
        // two people start so: no one
        let mut two = team.clone();
        two.push(p(5, "Bernard"));
        assert!(resolve("Bern", &two).is_empty());
    }

    #[test]
    fn a_name_asked_about_is_found_clipped_at_its_front_written_whole_or_by_handle() {
        let mut tash = p(1, "Natasha");
        tash.username = Some("tn_adl".into());
        let mut ma = p(2, "Marc-André");
        ma.last_name = Some("Gagnon".into());
        let mut gv = p(3, "Geneviève");
        gv.username = Some("gen_tremblay".into());
        let team = vec![tash, ma, gv, p(4, "Rebecca"), p(5, "Marcus")];
        assert_eq!(resolve("Tash", &team), vec![1]);
        assert_eq!(resolve("Bec", &team), vec![4]);
        assert_eq!(resolve("Marc-André", &team), vec![2]);
        assert_eq!(resolve("marc-andre gagnon", &team), vec![2]);
        assert_eq!(resolve("gen", &team), vec![3]);
        // a name of one syllable has no front to drop; nobody else is found by accident
        assert!(resolve("Zed", &team).is_empty());
        assert_eq!(without_first_syllable("kevin"), "vin");
        assert_eq!(without_first_syllable("sam"), "");
    }

    #[test]
    fn full_names_in_na_have_their_affectionate_forms() {
        let p = vec![Person {
            id: 1,
            first_name: "Кристина".into(),
            last_name: None,
            username: None,
        }];
        assert_eq!(resolve("Кристиночка", &p), vec![1]);
        assert_eq!(resolve("Кристиночке", &p), vec![1]);
    }

    #[test]
    fn fast_tokens_split_and_fold_like_the_shared_tokenizer() {
        for text in [
            "",
            "Всё готово, I'll ship! Ёлка ЁЖ",
            "dogs' toys, l'a ’x 'quoted' rock'n'roll",
            "Ǆemal İstanbul STRASSE ß 123abc 15:00 1,5",
            "эмодзи 👍 и\u{0301}кона — тире… «кавычки» @user_1",
            "Ünïcödé ÀÉÎ ΣΑΣ Ⅻ ٣",
        ] {
            assert_eq!(
                fast_tokens(text),
                super::super::words::tokens(text),
                "{text}"
            );
        }
    }

    #[test]
    fn changed_people_get_fresh_matchers() {
        let mut team = vec![Person {
            id: 1,
            first_name: "Лена".into(),
            last_name: None,
            username: None,
        }];
        assert_eq!(people_in("Лена, глянь", &team).len(), 1);
        team[0].first_name = "Олег".into();
        assert!(people_in("Лена, глянь", &team).is_empty());
        assert_eq!(people_in("Олег, глянь", &team).len(), 1);
        team[0].id = 2;
        assert_eq!(people_in("Олег, глянь", &team), vec![(0..8, 2)]);
    }

    fn person(id: i64, first: &str, last: &str, user: &str) -> Person {
        Person {
            id,
            first_name: first.to_string(),
            last_name: (!last.is_empty()).then(|| last.to_string()),
            username: (!user.is_empty()).then(|| user.to_string()),
        }
    }

    fn team() -> Vec<Person> {
        vec![
            person(1, "Анна", "Смирнова", "anna"),
            person(2, "Дмитрий", "Кузнецов", "dima"),
            person(3, "Елена", "Павлова", "lena"),
            person(4, "Игорь", "Соколов", "igor"),
            person(5, "Светлана", "Кравец", "sveta_k"),
            person(6, "Павел", "Орлов", ""),
            person(7, "Вера", "Лебедева", ""),
            person(8, "Ben", "Carter", "ben"),
            person(9, "Michael", "Reed", "mreed"),
            person(10, "William", "Stone", ""),
            person(11, "Роман", "Белов", ""),
        ]
    }

    fn ids(text: &str) -> Vec<i64> {
        people_in(text, &team())
            .into_iter()
            .map(|(_, id)| id)
            .collect()
    }

    #[test]
    fn first_names_are_found_in_every_case() {
        for t in ["Лена", "у Лены", "Лене", "с Леной", "про Лену"] {
            assert_eq!(ids(t), vec![3], "{t}");
        }
        for t in [
            "Дмитрий",
            "Дмитрия",
            "Дмитрию",
            "с Дмитрием",
            "Игорь",
            "Игоря",
            "Игорем",
        ] {
            assert!(!ids(t).is_empty(), "{t}");
        }
        assert_eq!(ids("скажи Павлу"), vec![6]);
        assert_eq!(ids("у Павла"), vec![6]);
    }

    #[test]
    fn diminutives_point_to_the_full_name() {
        assert_eq!(ids("Дима, глянь"), vec![2]);
        assert_eq!(ids("спроси у Димы"), vec![2]);
        assert_eq!(ids("передай Диме"), vec![2]);
        assert_eq!(ids("паша сделает"), vec![6]);
        assert_eq!(ids("Светы нет"), vec![5]);
        assert_eq!(ids("Аня"), vec![1]);
        assert_eq!(ids("mike, can you"), vec![9]);
        assert_eq!(ids("ask Bill"), vec![10]);
        // "Ксюша" for Оксана as well as Ксения, "Серый" for Сергей.
        let others = [
            person(21, "Оксана", "Гайдук", ""),
            person(22, "Сергей", "Лысенко", ""),
            person(23, "Гульнара", "Хасанова", ""),
        ];
        let of = |t: &str| -> Vec<i64> {
            people_in(t, &others)
                .into_iter()
                .map(|(_, id)| id)
                .collect()
        };
        assert_eq!(of("Ксюш, глянь"), vec![21]);
        assert_eq!(of("Серый, на Вихре карбюратор перебрать надо"), vec![22]);
        // Tatar names have theirs: "Гуля" for Гульнара.
        assert_eq!(of("Гуля, подбери для Денты образцов"), vec![23]);
        assert_eq!(of("Гуль, образцы забрала"), vec![23]);
    }

    #[test]
    fn lowercase_names_are_found_too() {
        assert_eq!(ids("лена, подготовь кп"), vec![3]);
        assert_eq!(ids("Ленок, можешь глянуть акт сверки?"), vec![3]);
        assert_eq!(ids("отдай диме"), vec![2]);
    }

    #[test]
    fn colloquial_vocatives_are_names() {
        assert_eq!(ids("Паш, отвезёшь документы?"), vec![6]);
        assert_eq!(ids("лен, глянь"), vec![3]);
        assert_eq!(ids("Дим, привет"), vec![2]);
        assert_eq!(ids("Димон, глянь"), vec![2]);
        assert!(ids("лен и хлопок").is_empty());
    }

    #[test]
    fn patronymic_and_surname_extend_the_mention() {
        let text = "Дмитрий Сергеевич, добрый день";
        let found = people_in(text, &team());
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].0.clone()], "Дмитрий Сергеевич");
        let text = "у Светланы Кравец";
        let found = people_in(text, &team());
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].0.clone()], "Светланы Кравец");
    }

    #[test]
    fn surnames_alone_are_found_in_any_case() {
        assert_eq!(ids("спросите Кузнецова"), vec![2]);
        assert_eq!(ids("у Павловой"), vec![3]);
        assert_eq!(ids("кузнецову передай"), vec![2]);
        assert_eq!(ids("Кравец прислала"), vec![5]);
    }

    #[test]
    fn usernames_are_found_with_the_at_sign() {
        assert_eq!(ids("@dima глянь"), vec![2]);
        assert_eq!(ids("@sveta_k, акты?"), vec![5]);
        assert_eq!(ids("mail me at x@dima.ru"), Vec::<i64>::new());
    }

    #[test]
    fn common_words_are_not_names() {
        assert!(ids("дым из трубы").is_empty());
        assert!(ids("sit on the bench").is_empty());
        assert!(ids("я верю, вера в успех").is_empty());
        assert!(ids("роман читаю").is_empty());
        assert!(ids("i will send it").is_empty());
        assert!(ids("света нет в цеху").is_empty());
        assert!(ids("лень").is_empty());
        assert_eq!(ids("Вера, привет"), vec![7]);
        assert_eq!(ids("спроси Романа"), vec![11]);
        assert_eq!(ids("Will, send it"), vec![10]);
    }

    #[test]
    fn shared_first_names_give_every_candidate_unless_a_surname_decides() {
        let mut people = team();
        people.push(person(12, "Дима", "Волков", ""));
        let found: Vec<i64> = people_in("Дима, глянь", &people)
            .into_iter()
            .map(|(_, id)| id)
            .collect();
        assert_eq!(found, vec![2, 12]);
        let found: Vec<i64> = people_in("Дима Волков, глянь", &people)
            .into_iter()
            .map(|(_, id)| id)
            .collect();
        assert_eq!(found, vec![12]);
    }

    #[test]
    fn resolve_understands_cases_usernames_and_full_names() {
        let team = team();
        assert_eq!(resolve("Лены", &team), vec![3]);
        assert_eq!(resolve("Диму", &team), vec![2]);
        assert_eq!(resolve("@dima", &team), vec![2]);
        assert_eq!(resolve("dima", &team), vec![2]);
        assert_eq!(resolve("Светланы Кравец", &team), vec![5]);
        assert_eq!(resolve("Кузнецова", &team), vec![2]);
        assert_eq!(resolve("Дмитрий Сергеевич", &team), vec![2]);
        assert_eq!(resolve("Benjamin", &team), vec![8]);
        assert_eq!(resolve("Ben's", &team), vec![8]);
        assert_eq!(resolve("веры", &team), vec![7]);
        assert!(resolve("Петра", &team).is_empty());
        assert!(resolve("", &team).is_empty());
        assert!(resolve("Лены Кузнецовой", &team).is_empty());
    }

    #[test]
    fn latin_spellings_find_russian_names_and_back() {
        let team = team();
        assert_eq!(ids("Dima, can you check the webhooks?"), vec![2]);
        assert_eq!(ids("ask Dmitry"), vec![2]);
        assert_eq!(ids("Dmitriy Kuznetsov"), vec![2]);
        assert_eq!(ids("sveta, send the acts"), vec![5]);
        assert_eq!(ids("Pasha will bring it"), vec![6]);
        assert_eq!(ids("Lena's report"), vec![3]);
        assert_eq!(ids("Elena"), vec![3]);
        assert_eq!(resolve("Dima", &team), vec![2]);
        assert_eq!(resolve("Svetlana", &team), vec![5]);
        assert_eq!(resolve("Pasha", &team), vec![6]);
        assert_eq!(resolve("Kuznetsov", &team), vec![2]);
        let latin = vec![
            person(1, "Dmitry", "Volkov", "dima_v"),
            person(2, "Natalia", "Ershova", ""),
            person(3, "Ekaterina", "", ""),
            person(4, "Nikolai", "", ""),
            person(5, "Aleksandr", "", ""),
        ];
        assert_eq!(resolve("Дима", &latin), vec![1]);
        assert_eq!(resolve("Диму", &latin), vec![1]);
        assert_eq!(resolve("Dima", &latin), vec![1]);
        assert_eq!(resolve("Волков", &latin), vec![1]);
        assert_eq!(resolve("Наташа", &latin), vec![2]);
        assert_eq!(resolve("Katya", &latin), vec![3]);
        assert_eq!(resolve("Катя", &latin), vec![3]);
        assert_eq!(resolve("Kolya", &latin), vec![4]);
        assert_eq!(resolve("Sasha", &latin), vec![5]);
        let found: Vec<i64> = people_in("Коля, глянь", &latin)
            .into_iter()
            .map(|(_, id)| id)
            .collect();
        assert_eq!(found, vec![4]);
    }

    #[test]
    fn english_names_in_cyrillic_and_back_are_found() {
        let en = vec![
            person(1, "Jake", "", ""),
            person(2, "Matt", "", ""),
            person(3, "Chris", "", ""),
            person(4, "Джейк", "", ""),
        ];
        assert_eq!(resolve("Джейка", &en), vec![1, 4]);
        assert_eq!(resolve("Мэтт", &en), vec![2]);
        assert_eq!(resolve("Крису", &en), vec![3]);
        assert_eq!(resolve("Jake", &en), vec![1, 4]);
        let found: Vec<i64> = people_in("Мэтт, глянь курс доллара", &en)
            .into_iter()
            .map(|(_, id)| id)
            .collect();
        assert_eq!(found, vec![2]);
    }

    #[test]
    fn latin_words_are_not_russian_names() {
        let mut people = team();
        people.push(person(20, "Марина", "", ""));
        people.push(person(21, "Ирина", "", ""));
        let found = |t: &str| people_in(t, &people);
        assert!(found("we'll dock at the marina").is_empty());
        assert!(found("the dim light of the lane").is_empty());
        assert!(found("send the deck to the team").is_empty());
        assert!(found("the roman numerals").is_empty());
        assert!(resolve("Den", &people).is_empty());
    }

    fn office() -> Vec<Person> {
        [
            "Марина",
            "Ксения",
            "Денис",
            "Дарья",
            "Георгий",
            "Мария",
            "Наталья",
            "Екатерина",
            "Татьяна",
            "Ольга",
            "Александр",
            "Василий",
            "Полина",
            "Леонид",
            "Артём",
            "Тимур",
            "Елизавета",
            "Юлия",
            "Галина",
            "Николай",
        ]
        .iter()
        .enumerate()
        .map(|(k, first)| person(k as i64 + 1, first, "", ""))
        .collect()
    }

    /// Who the text names among [`office`], by first name.
    fn office_names(text: &str) -> Vec<String> {
        let people = office();
        people_in(text, &people)
            .into_iter()
            .map(|(_, id)| people[id as usize - 1].first_name.clone())
            .collect()
    }

    #[test]
    fn colloquial_forms_of_address_find_the_person() {
        for (text, who, span) in [
            (
                "Мариш, посчитаешь 6-НДФЛ для Вектора к среде?",
                "Марина",
                "Мариш",
            ),
            (
                "кстати, Ксюш, счёт Вектору за январь выстави сегодня плз",
                "Ксения",
                "Ксюш",
            ),
            (
                "Дэн, первичку Вектора в 1с занесёшь послезавтра?",
                "Денис",
                "Дэн",
            ),
            (
                "Дашенька, протоколы качества по второй партии пришлёшь мне завтра?",
                "Дарья",
                "Дашенька",
            ),
            (
                "Гоша, посмотришь сегодня третью дорожку?",
                "Георгий",
                "Гоша",
            ),
        ] {
            let people = office();
            let found = people_in(text, &people);
            assert_eq!(found.len(), 1, "{text}: {found:?}");
            let (range, id) = found[0].clone();
            assert_eq!(people[id as usize - 1].first_name, who, "{text}");
            assert_eq!(&text[range], span, "{text}");
        }
    }

    #[test]
    fn every_diminutive_has_its_truncated_vocative() {
        for (text, who) in [
            ("Ксюш, глянь акт", "Ксения"),
            ("Маш, глянь акт", "Мария"),
            ("Даш, глянь акт", "Дарья"),
            ("Наташ, глянь акт", "Наталья"),
            ("Мариш, глянь акт", "Марина"),
            ("Катюш, глянь акт", "Екатерина"),
            ("Тань, глянь акт", "Татьяна"),
            ("Оль, глянь акт", "Ольга"),
            ("Дашуль, глянь акт", "Дарья"),
            ("Марусь, глянь акт", "Мария"),
            ("ну что, Саш, глянешь?", "Александр"),
            ("Тём, глянь акт", "Артём"),
            ("Лёнь, глянь акт", "Леонид"),
            // Without the comma, a verb speaking to them says they are called.
            ("венки живые хотят. Наташ сможешь к четвергу?", "Наталья"),
            ("Тань глянь акт", "Татьяна"),
            (
                "Тань по Ромашке 12 коробок, когда сможешь отгрузить?",
                "Татьяна",
            ),
        ] {
            assert_eq!(office_names(text), vec![who], "{text}");
        }
    }

    #[test]
    fn truncated_vocatives_need_the_comma_and_are_never_plain_words() {
        for text in [
            "даш знать, когда будет готово",
            "Даш знать?",
            "дашь знать, как будет",
            "кстати маш, глянь",
            "Маш",
            // A name in -я keeps its soft sign: "Вась", never "Вас".
            "Вас, коллеги, прошу сдать отчёты",
            "Пол, стены и потолок покрасим в среду",
            "Кол, на который вешаем табличку",
            // Truncated vocatives that are words need a "ё" to be a name.
            "Тем, кто не сдал отчёт, напомню завтра",
            "Лень, конечно, но сделаю",
        ] {
            assert!(
                office_names(text).is_empty(),
                "{text}: {:?}",
                office_names(text)
            );
        }
    }

    #[test]
    fn affectionate_forms_of_diminutives_are_names() {
        for (text, who) in [
            ("Дашенька, пришли протоколы", "Дарья"),
            ("передай Дашеньке протоколы", "Дарья"),
            ("Дашуля сделает", "Дарья"),
            ("с Дашулей договорились", "Дарья"),
            ("дашка обещала", "Дарья"),
            ("Машенька, глянь", "Мария"),
            ("Сашенька, глянь", "Александр"),
            ("Танечка, глянь", "Татьяна"),
            ("спроси у Танечки", "Татьяна"),
            ("Лизонька, глянь", "Елизавета"),
            ("Лизочка сделает", "Елизавета"),
            ("Юлечка, спасибо", "Юлия"),
            ("Ксюшенька, глянь", "Ксения"),
            ("Наташенька, глянь", "Наталья"),
            ("Коленька, глянь", "Николай"),
            ("Маришка, глянь", "Марина"),
            ("маринка сделает", "Марина"),
        ] {
            assert_eq!(office_names(text), vec![who], "{text}");
        }
    }

    #[test]
    fn affectionate_forms_that_are_words_are_not_names() {
        // "галька" (pebbles), "колечка" (a ring's genitive) and "семка" ("семки", seeds) are
        // not made at all; "полька" (a dance, a Polish woman) is a name only with a capital or
        // as the opening vocative.
        let mut people = office();
        people.push(person(21, "Семён", "", ""));
        people.push(person(22, "Яна", "", ""));
        for text in [
            "галька на пляже",
            "Гальки не осталось",
            "колечка нет",
            "купил семки",
            "американские янки",
            "танцуем польку",
            "we danced the polka",
        ] {
            assert!(people_in(text, &people).is_empty(), "{text}");
        }
        assert_eq!(office_names("Полька, глянь"), vec!["Полина"]);
        assert_eq!(office_names("Поля, глянь"), vec!["Полина"]);
        // "галочка" is a tick mark: Галя's affectionate forms are made with -ечка/-енька only.
        assert!(office_names("Галочка, глянь").is_empty());
        assert_eq!(office_names("Галя, глянь"), vec!["Галина"]);
    }

    #[test]
    fn common_diminutives_of_the_table() {
        let people: Vec<Person> = [
            "Денис",
            "Кирилл",
            "Никита",
            "Тимур",
            "Оксана",
            "Кристина",
            "Олег",
            "Руслан",
            "Егор",
            "Яна",
            "Полина",
            "Вера",
            "Нина",
            "Глеб",
            "Марина",
            "Дарья",
        ]
        .iter()
        .enumerate()
        .map(|(k, first)| person(k as i64 + 1, first, "", ""))
        .collect();
        let who = |text: &str| -> Vec<String> {
            people_in(text, &people)
                .into_iter()
                .map(|(_, id)| people[id as usize - 1].first_name.clone())
                .collect()
        };
        for (text, name) in [
            ("Дэн, глянь", "Денис"),
            ("передай Дэну", "Денис"),
            ("Ден, глянь", "Денис"),
            ("Дениска сделает", "Денис"),
            ("денчик обещал", "Денис"),
            ("Киря, глянь", "Кирилл"),
            ("никитос обещал", "Никита"),
            ("Тима, глянь", "Тимур"),
            ("Ксана, глянь", "Оксана"),
            ("Кристя, глянь", "Кристина"),
            ("олежка обещал", "Олег"),
            ("Руся, глянь", "Руслан"),
            ("егорка обещал", "Егор"),
            ("Янка, глянь", "Яна"),
            ("полинка обещала", "Полина"),
            ("верочка обещала", "Вера"),
            ("ниночка обещала", "Нина"),
            ("Глебушка, глянь", "Глеб"),
            ("маринка обещала", "Марина"),
            ("Мариша, глянь", "Марина"),
            ("дашенька обещала", "Дарья"),
        ] {
            assert_eq!(who(text), vec![name], "{text}");
        }
        // "Den" is an English word; "Dan" is Daniel's, not Денис's.
        assert!(who("meet me in the den").is_empty());
        assert_eq!(who("Den, can you check?"), vec!["Денис"]);
        assert!(who("I'll send the memo to Dan").is_empty());
        assert!(resolve("Dan", &people).is_empty());
        assert_eq!(resolve("Den", &people), vec![1]);
        assert_eq!(resolve("Dashenka", &people), vec![16]);
        assert!(who("история древней руси").is_empty());
        assert_eq!(resolve("Дэна", &people), vec![1]);
        assert_eq!(resolve("Мариши", &people), vec![15]);
        assert_eq!(resolve("Дашеньки", &people), vec![16]);
    }

    #[test]
    fn odd_input_never_panics() {
        let team = team();
        for t in [
            "",
            "@",
            "@@",
            "👍",
            "а",
            "Ё",
            "@_",
            "x@",
            "\u{301}",
            "Лена@",
        ] {
            let _ = people_in(t, &team);
            let _ = resolve(t, &team);
        }
        let _ = people_in("Лена", &[]);
    }
}
