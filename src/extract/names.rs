//! People named in text: first names in any case, diminutives, patronymics, surnames, @usernames.
//!
//! Russian names decline ("Лена", "Лены", "Леной"), so a name is matched as a base plus one of the
//! endings of its declension class rather than through a list of every form. Diminutives and full
//! names ("Дима" / "Дмитрий", "Ben" / "Benjamin") live in one compact table of groups. Names that
//! are also ordinary words ("Вера", "Роман", "Will", "Mark") only count when written with a
//! capital letter or used as the vocative that opens a message.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
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
    &["анастасия", "настя", "настена", "настюша"],
    &["анатолий", "толя"],
    &["андрей", "андрюша", "андрюха"],
    &["анна", "аня", "анюта", "анечка", "анька"],
    &["антон", "антоша", "тоха"],
    &["арсений", "сеня"],
    &["артем", "тема"],
    &["борис", "боря"],
    &["вадим", "вадик"],
    &["валентин", "валя"],
    &["валентина", "валя"],
    &["валерий", "валера"],
    &["василий", "вася"],
    &["вера"],
    &["вероника", "ника"],
    &["виктор", "витя"],
    &["виктория", "вика"],
    &["владимир", "вова", "володя", "вовчик", "вован"],
    &["владислав", "влад", "слава"],
    &["вячеслав", "слава"],
    &["галина", "галя"],
    &["геннадий", "гена"],
    &["георгий", "жора", "гоша"],
    &["глеб"],
    &["григорий", "гриша"],
    &["дарья", "даша"],
    &["денис"],
    &["дмитрий", "дима", "митя", "димон", "димка"],
    &["евгений", "женя", "женька", "жека"],
    &["евгения", "женя"],
    &["егор"],
    &["екатерина", "катя", "катюша", "катенька", "катька"],
    &["елена", "лена", "леночка", "ленка", "ленуся"],
    &["елизавета", "лиза"],
    &["иван", "ваня", "ванька", "ванечка"],
    &["игорь", "игорек"],
    &["илья", "илюша"],
    &["ирина", "ира", "иришка"],
    &["кирилл"],
    &["константин", "костя", "костик"],
    &["кристина"],
    &["ксения", "ксюша", "ксюха"],
    &["лев", "лева"],
    &["леонид", "леня"],
    &["любовь", "люба"],
    &["людмила", "люда", "мила"],
    &["максим", "макс"],
    &["маргарита", "рита"],
    &["марина"],
    &["мария", "маша", "машенька", "машка", "маруся"],
    &["марк"],
    &["матвей"],
    &["михаил", "миша", "мишаня", "мишка"],
    &["надежда", "надя"],
    &["наталья", "наталия", "наташа", "наташка"],
    &["никита"],
    &["николай", "коля", "колян", "колька"],
    &["нина"],
    &["оксана"],
    &["олег"],
    &["ольга", "оля", "олечка", "оленька", "олька"],
    &["павел", "паша", "пашка", "павлик"],
    &["петр", "петя"],
    &["полина", "поля"],
    &["роман", "рома"],
    &["руслан"],
    &["светлана", "света", "светик", "светочка"],
    &["семен", "сеня"],
    &["сергей", "сережа", "серега", "серж", "сережка"],
    &["софия", "софья", "соня"],
    &["станислав", "стас"],
    &["степан", "степа"],
    &["татьяна", "таня", "танюша", "танька"],
    &["тимофей", "тима"],
    &["тимур"],
    &["федор", "федя"],
    &["эдуард", "эдик"],
    &["юлия", "юля", "юленька", "юлька"],
    &["юрий", "юра"],
    &["яна"],
    &["ярослав", "слава"],
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

/// The colloquial vocative of a short name: "Паш", "Лен", "Дим", "Оль", "Тань".
fn truncated_vocative(tok: &str, name: &str) -> bool {
    if name.ends_with("ия") || name.ends_with("ья") {
        return false;
    }
    let base = if let Some(b) = name.strip_suffix('а') {
        b
    } else if let Some(b) = name.strip_suffix('я') {
        if tok.strip_suffix('ь') == Some(b) {
            return b.chars().count() >= 2;
        }
        b
    } else {
        return false;
    };
    tok == base && base.chars().count() >= 3
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

/// Russian letters in Latin, one common spelling each (other characters kept); [`fold`] then
/// merges the other spellings. Node slugs use it too.
pub fn translit(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 2);
    for c in s.chars() {
        let l = match c {
            'а' => "a",
            'б' => "b",
            'в' => "v",
            'г' => "g",
            'д' => "d",
            'е' | 'ё' | 'э' => "e",
            'ж' => "zh",
            'з' => "z",
            'и' => "i",
            'й' | 'ы' => "y",
            'к' => "k",
            'л' => "l",
            'м' => "m",
            'н' => "n",
            'о' => "o",
            'п' => "p",
            'р' => "r",
            'с' => "s",
            'т' => "t",
            'у' => "u",
            'ф' => "f",
            'х' => "kh",
            'ц' => "ts",
            'ч' => "ch",
            'ш' => "sh",
            'щ' => "shch",
            'ъ' | 'ь' => "",
            'ю' => "yu",
            'я' => "ya",
            other => {
                out.push(other);
                continue;
            }
        };
        out.push_str(l);
    }
    out
}

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

/// The name variants a person answers to (normalised): their own first name plus every member
/// of each group it belongs to, and the Latin spellings of the Russian ones ("Dima" for
/// "Дмитрий"); a Latin first name of a Russian ("Dmitry") joins the Russian group too.
struct Variants {
    own: String,
    groups: Vec<Group>,
    /// Folded Latin spellings of the Cyrillic variants.
    latin: Vec<String>,
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
        let mut v = Variants {
            own,
            groups,
            latin: Vec::new(),
        };
        let latin: Vec<String> = v
            .iter()
            .filter(|n| is_cyrillic(n))
            .map(|n| fold(&translit(n)))
            .collect();
        v.latin = latin;
        v
    }

    fn iter(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.own.as_str())
            .chain(self.groups.iter().flat_map(|g| g.iter().copied()))
            .filter(|v| !v.is_empty())
    }

    /// The Cyrillic variant a Latin token spells ("Dima" → "дима"), if any.
    fn latin_match(&self, tok: &str) -> Option<&str> {
        let tok = tok
            .strip_suffix("'s")
            .or_else(|| tok.strip_suffix("’s"))
            .unwrap_or(tok);
        if !is_latin_word(tok) || tok.chars().count() < 3 {
            return None;
        }
        let key = fold(tok);
        let k = self.latin.iter().position(|l| *l == key)?;
        self.iter().filter(|n| is_cyrillic(n)).nth(k)
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
    keys: Vec<VariantKeys>,
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
struct VariantKeys {
    /// `english_sound` of a Latin variant, when [`sounds_alike`] may use it.
    en_sound: Option<String>,
    /// `cyrillic_sound` of a Cyrillic variant, when [`sounds_alike`] may use it.
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
    let keys = first.iter().map(VariantKeys::new).collect();
    let surname = p
        .last_name
        .as_deref()
        .map(|s| normalize(s.trim()))
        .filter(|s| !s.is_empty());
    let sur = surname.as_deref().unwrap_or("");
    Matcher {
        id: p.id,
        first,
        keys,
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
    /// `fold` of the token without a possessive, for [`Variants::latin_match`].
    latin_key: OnceCell<Option<String>>,
    /// `english_sound` of a Latin token, for [`sounds_alike`].
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

/// [`matched_variant`] with the token's and the variants' keys worked out beforehand.
fn matched_variant_keyed<'m>(m: &'m Matcher, tk: &TokKeys) -> Option<&'m str> {
    let tok = tk.tok;
    let c = first_char(tok)?;
    if let Some(v) = m
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
    m.first
        .iter()
        .zip(&m.keys)
        .find(|(_, vk)| sounds_alike_keyed(tk, vk))
        .map(|(v, _)| v)
}

/// [`sounds_alike`] through precomputed sound keys.
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
                if m.first.iter().any(|v| truncated_vocative(tok, v)) {
                    f |= HIT_TRUNCATED;
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
    let c = first_char(tok)?;
    m.first
        .iter()
        .find(|v| first_char(v) == Some(c) && first_name_matches(tok, v))
        .or_else(|| m.first.latin_match(tok))
        .or_else(|| m.first.iter().find(|v| sounds_alike(tok, v)))
}

/// An English name written in Cyrillic or a Russian one in Latin, as Russians transcribe them:
/// "Джейк"/"Джейка" ↔ Jake, "Мэтт" ↔ Matt, "Крис"/"Крису" ↔ Chris.
fn sounds_alike(tok: &str, name: &str) -> bool {
    let (cyr, latin) = if is_cyrillic(tok) && is_latin_word(name) {
        (tok, name)
    } else if is_latin_word(tok) && is_cyrillic(name) {
        (name, tok)
    } else {
        return false;
    };
    if cyr.chars().count() < 3 || latin.len() < 3 {
        return false;
    }
    let want = english_sound(&normalize(latin));
    if want.chars().count() < 3 {
        return false;
    }
    let mut forms = vec![cyr.to_string()];
    // Russian case endings on a foreign name: "Джейка", "Крису", "Мэттом".
    if is_cyrillic(tok) {
        for end in ["ом", "ем", "ой", "ей", "а", "у", "е", "ю", "я", "ы"] {
            if let Some(base) = cyr.strip_suffix(end)
                && base.chars().count() >= 3
            {
                forms.push(base.to_string());
            }
        }
    }
    forms.iter().any(|f| cyrillic_sound(f) == want)
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
            let truncated = comma_after && (i == 0 || capital) && f & HIT_TRUNCATED != 0;
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
    ms.iter()
        .filter(|m| {
            let mut named = false;
            let all = toks.iter().all(|t| {
                let by_name = matched_variant(m, &t.norm).is_some()
                    || m.surname.as_deref().is_some_and(|s| {
                        surname_matches(&t.norm, s) || surname_across_scripts(&t.norm, s)
                    })
                    || m.username.as_deref() == Some(t.norm.as_str());
                named |= by_name;
                by_name || is_patronymic(&t.norm)
            });
            all && named
        })
        .map(|m| m.id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn lowercase_names_are_found_too() {
        assert_eq!(ids("лена, подготовь кп"), vec![3]);
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
