//! Clauses: a message cut into the parts that can each carry a finding, and the findings of
//! the parts and of the whole combined into what the message says.

use super::*;

/// Does a finding start or assign new work?
pub(super) fn is_new_work(f: &Finding) -> bool {
    matches!(
        f,
        Finding::Made { .. } | Finding::Request { .. } | Finding::Offer { .. }
    )
}

/// Merge the whole-message reading with the per-clause readings.
pub(super) fn combine(
    input: &MessageInput<'_>,
    m: &Msg,
    whole: Vec<Finding>,
    segs: &[Range<usize>],
    parts: &[Msg],
    per: Vec<Vec<Finding>>,
) -> Vec<Finding> {
    // The deadline of a clause that says nothing else ("…, к четвергу надо") belongs to its
    // neighbour; a date in a clause with its own finding does not.
    // So does a bare "…, сделаю до конца недели" / "…, will have it by the 24th" after the work.
    // "руся отбой по маякам на юрша, палыч говорит садик перенес монтаж на март. не
    // заказывай": a call-off said first, then why, told of others. Their move or retelling is
    // the reason, not the speaker's own change.
    if let [Finding::Cancelled { words }] = per.first().map(Vec::as_slice).unwrap_or(&[])
        && !words.is_empty()
        && whole.iter().all(|f| matches!(f, Finding::Moved { .. }))
        // A call-off ordered ("отбой", "cancel the van"), not told ("CPS cancelled on us,
        // rescheduling the interview to next week" is the speaker's move).
        && parts.first().is_some_and(|p| !tells_past(p))
        && per[1..].iter().flatten().all(|f| !is_new_work(f))
        && parts[1..].iter().all(|p| !speaker_acts(p))
    {
        return per[0].clone();
    }
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
                    // "…text the customers? by thurs is fine", "удлинители купишь? до пт": a
                    // date said right after the question asks by when.
                    .filter(|&j| {
                        same_sentence(input.text, &segs[j.min(k)])
                            || j == k + 1 && matches!(f, Finding::Request { .. })
                    })
                    .find(|&j| clause_has_date(input, &segs[j]));
                if let Some(j) = neighbour {
                    let own = per[j].first().and_then(Finding::due);
                    set_due(
                        &mut f,
                        own.or(whole_due).or_else(|| clause_due(input, &segs[j])),
                    );
                }
            }
            // "…inspection Thursday at 10. Darren, can you make sure the binder is up to date
            // before then?": "then" is the date said before.
            let then = parts.get(k).is_some_and(|p| {
                (1..p.n()).any(|i| {
                    word_list!("then.txt").contains(&p.w(i))
                        && word_list!("before_then.txt").contains(&p.w(i - 1))
                })
            });
            if f.due().is_none()
                && is_new_work(&f)
                && then
                && let Some(j) = (0..k).rev().find(|&j| clause_has_date(input, &segs[j]))
            {
                set_due(&mut f, clause_due(input, &segs[j]));
            }
            // "в декабре заходим на 5 этаж": a team's plan told in passing is no promise unless
            // the whole message already read one.
            // A "we" that promises work by a day ("фермы завтра с утра отдадим на покраску")
            // is the speaker's side promising.
            // Not under a condition or a hedge ("если ответят, может успеем в понедельник").
            let hedge = word_list!("hedge.txt");
            // "бордюры поставим к среде, плитку начнём в чт если основание успеет": the
            // condition holds its own clause, and the one before a clause it opens ("…
            // сделаем, если ниже 45 не будет").
            // "успеем, шторы в детсад до конца месяца повесим": a deadline set with "до"/"к"
            // binds the team however far it is.
            let by_deadline = || {
                parts.get(k).is_some_and(|p| {
                    (0..p.n()).any(|i| {
                        word_list!("deadline_markers.txt").contains(&p.w(i))
                            && (i + 1..p.n().min(i + 4))
                                .any(|j| p.has_f(j, DATE | MONTH) || is_number(p.w(j)))
                    })
                })
            };
            let dated_we = f.due().is_some_and(|d| {
                d.date <= input.now.date_naive() + Duration::days(7) || by_deadline()
            }) && !parts.get(k).is_some_and(is_conditional)
                && !(parts
                    .get(k + 1)
                    .is_some_and(|p| opens_condition(p) && is_conditional(p))
                    && same_sentence(input.text, &segs[k]))
                && parts
                    .get(k)
                    .is_some_and(|p| (0..p.n()).all(|i| !hedge.contains(&p.w(i))));
            if matches!(f, Finding::Made { .. })
                && !whole.iter().any(|w| w.label() == "made")
                && !parts.get(k).is_some_and(singular_promise)
                && !dated_we
            {
                continue;
            }
            // "кстати если успею, заскочу на Ленина, гляну узел": a clause that is only a
            // condition holds what follows it in its sentence.
            if is_new_work(&f) && under_condition(input.text, segs, parts, &per, k) {
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
    // "АКБ проверил, там норм. Стартер закажу сегодня, поставлю через 2 дня", "Принял. Замеры
    // закончим к среде, акт подготовлю к пятнице": a report or a yes first, then promises. The
    // promises are read as if the message began with them, and the report or yes stays before.
    let lead = whole
        .iter()
        .take_while(|f| matches!(f, Finding::Accept { .. } | Finding::Done { .. }))
        .count();
    if lead > 0 && lead < whole.len() && matches!(whole[lead], Finding::Made { .. }) {
        let mut out = combine(input, m, whole[lead..].to_vec(), segs, parts, per.clone());
        let promises = out.iter().filter(|f| is_new_work(f)).count();
        let accepts = whole[..lead]
            .iter()
            .any(|f| matches!(f, Finding::Accept { .. }));
        if promises >= 2 || !accepts {
            let reported = out.iter().any(|f| matches!(f, Finding::Done { .. }));
            for f in whole[..lead].iter().rev() {
                if !(reported && matches!(f, Finding::Done { .. })) {
                    out.insert(0, f.clone());
                }
            }
            return out;
        }
    }
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
            // "надо песком посыпать. завтра куплю мешок": no part asks anything (a wish, whose
            // date came from the next sentence), and a part promises: the parts are right.
            // The promising part speaks in the first person and asks nothing ("Will you be free
            // this afternoon, say from 3 to 4?" promises nothing in any of its parts).
            let promising = per.iter().zip(parts).any(|(fs, p)| {
                fs.iter().any(|f| matches!(f, Finding::Made { .. }))
                    && !p.question.iter().any(|&q| q)
                    && (ru_promise(p).is_some()
                        || en_promise(p).is_some()
                            && (0..p.n()).any(|k| {
                                p.has_f(k, SUBJ)
                                    || p.w(k).starts_with("i'")
                                    || p.w(k).starts_with("we'")
                            }))
            });
            if matches!(first, Finding::Request { .. })
                && !flat.iter().any(|f| matches!(f, Finding::Request { .. }))
                && promising
            {
                flat.retain(|f| is_new_work(f) || matches!(f, Finding::Done { .. }));
                return flat;
            }
            // "sent the quote to Harper, can you check the margins?": a report before the
            // request is kept beside it.
            if matches!(first, Finding::Request { .. })
                && matches!(flat.first(), Some(Finding::Done { words }) if !words.is_empty())
                && flat.iter().skip(1).any(is_new_work)
            {
                flat.retain(|f| is_new_work(f) || matches!(f, Finding::Done { .. }));
                return flat;
            }
            // Two promises, each in a clause of its own with a date of its own ("сегодня
            // обзвоню всех, и корма закажу до среды"): both.
            let dated: Vec<(&String, Due)> = flat
                .iter()
                .filter_map(|f| match f {
                    Finding::Made {
                        content,
                        due: Some(d),
                    } => Some((content, *d)),
                    _ => None,
                })
                .collect();
            let made_parts = flat
                .iter()
                .filter(|f| matches!(f, Finding::Made { .. }))
                .count();
            // A numbered list ("сегодня: 1) приму машины 2) сушилку гляну"): one promise per
            // item, each by the date the whole message gives unless it names its own.
            if matches!(first, Finding::Made { .. }) && made_parts >= 2 && numbered(input.text) {
                flat.retain(|f| is_new_work(f) || matches!(f, Finding::Done { .. }));
                for f in &mut flat {
                    if f.due().is_none() && is_new_work(f) {
                        set_due(f, whole_due);
                    }
                }
                return flat;
            }
            // "today I'm on the fork rebuilds and I'll call the guy w/ the cracked frame":
            // promises each said in the speaker's own voice in a clause of its own, joined by
            // "and", are as many promises; one with no date of its own keeps the one before it.
            // (", I'll have numbers tmrw" after "let me check the loads" is the same work's end.)
            let own_voice = per
                .iter()
                .zip(parts)
                .enumerate()
                .filter(|(k, (fs, p))| {
                    fs.iter().any(|f| matches!(f, Finding::Made { .. }))
                        && en_promise(p).is_some()
                        && !p.question.iter().any(|&q| q)
                        && (*k == 0
                            || joined_by_and(input.text, &segs[*k])
                            // "I'll get the BAS draft to Priya by Friday, I'll finish the
                            // transfers today": after a promise in the speaker's own voice, a
                            // clause after a comma that says "I'll" again is a turn of its own
                            // ("let me sort the CO2 order, I'll place it by thursday" is one).
                            || after_comma(input.text, &segs[*k])
                                && opens_own_voice(p)
                                && says_own_future(&parts[*k - 1])
                            // "I will service Troopy 3 tomorrow. Brake pads also I will
                            // change": a sentence of its own adding work.
                            || after_sentence(input.text, &segs[*k])
                                && (0..p.n()).any(|i| word_list!("en/also.txt").contains(&p.w(i))))
                })
                .count();
            // "судейство возьму на себя, секундомеры проверю до пятницы", "…гляну как там
            // зимуют, а канди в чемал через пару дней закину": in Russian, a later clause that
            // promises a thing of its own by a date of its own, or set against the one before
            // by "а", is a promise of its own; one with neither ("позвоню завтра, сообщу про
            // колодки") goes on with the work before it.
            // A sentence of its own after one that is a promise whole, ending its own sentence
            // ("удалю этот форк. И сделаю новый"; not after "акт сделаю, как только
            // подпишут договор.").
            let after_whole_promise = |k: usize| {
                after_sentence(input.text, &segs[k])
                    && (0..k)
                        .rev()
                        .find(|&j| per[j].iter().any(|f| matches!(f, Finding::Made { .. })))
                        .is_some_and(|j| !same_sentence(input.text, &segs[j]))
            };
            let own_ru: Vec<usize> = (0..per.len())
                .filter(|&k| {
                    per[k].iter().any(|f| matches!(f, Finding::Made { .. }))
                        && !parts[k].question.iter().any(|&q| q)
                        // A dated "we" first ("Рёниш сделаем 11 января, …") promises too.
                        && (ru_own_thing(
                            &parts[k],
                            k == 0
                                && per[k]
                                    .iter()
                                    .any(|f| matches!(f, Finding::Made { due: Some(_), .. })),
                        )
                            // "Завтра дочитаю главу. Завтра отпишусь": a sentence of its own
                            // with a date of its own is a turn of its own.
                            || (k == 0 || after_whole_promise(k))
                                && singular_promise(&parts[k])
                                // "Отчёт сделаю. Пришлю его вечером" goes on with the same.
                                && !(0..parts[k].n()).any(|i| {
                                    word_list!("ru/object_pron.txt").contains(&parts[k].w(i))
                                })
                                && per[k].iter().any(|f| f.due().is_some()))
                        && (k == 0
                            || parallel_parts(input.text, &segs[k], &parts[k - 1], &parts[k])
                            // "удалю этот форк. И сделаю новый с ветками": a sentence of its
                            // own promising a thing of its own.
                            || after_whole_promise(k)
                            || after_comma(input.text, &segs[k])
                                && (per[k].iter().any(|f| f.due().is_some())
                                    // "список скину сегодня, объёмы с Пашей согласую": a thing
                                    // put before its verb again is another piece of work.
                                    || thing_first(&parts[k]) && thing_first(&parts[k - 1])
                                    // "Рёниш сделаем 11 января, Вайнерам я сам позвоню": a
                                    // clause that names its speaker again is a turn of its own.
                                    || names_speaker(&parts[k])))
                })
                .collect();
            if matches!(first, Finding::Made { .. })
                && own_ru.len() >= 2
                && (0..per.len()).all(|k| {
                    own_ru.contains(&k)
                        || !per[k].iter().any(is_new_work)
                        || !clause_has_date(input, &segs[k])
                })
            {
                let mut out: Vec<Finding> = Vec::new();
                for &k in &own_ru {
                    for f in &per[k] {
                        if matches!(f, Finding::Made { .. }) && !out.contains(f) {
                            out.push(f.clone());
                        }
                    }
                }
                let mut contents: Vec<String> = out
                    .iter()
                    .filter_map(|f| match f {
                        Finding::Made { content, .. } => Some(content.clone()),
                        _ => None,
                    })
                    .collect();
                contents.sort();
                contents.dedup();
                if contents.len() == out.len() {
                    return out;
                }
            }
            let mut contents: Vec<&String> = flat
                .iter()
                .filter_map(|f| match f {
                    Finding::Made { content, .. } => Some(content),
                    _ => None,
                })
                .collect();
            contents.sort();
            contents.dedup();
            if matches!(first, Finding::Made { .. })
                && made_parts >= 2
                && own_voice == made_parts
                && contents.len() == made_parts
            {
                flat.retain(|f| is_new_work(f) || matches!(f, Finding::Done { .. }));
                let mut before = None;
                for f in &mut flat {
                    if matches!(f, Finding::Made { .. }) {
                        if f.due().is_none() {
                            set_due(f, before.or(whole_due));
                        }
                        before = f.due();
                    }
                }
                return flat;
            }
            if matches!(first, Finding::Made { .. })
                && made_parts == 2
                && dated.len() == 2
                && dated[0].0 != dated[1].0
                && dated[0].1 != dated[1].1
            {
                flat.retain(|f| is_new_work(f) || matches!(f, Finding::Done { .. }));
                return flat;
            }
            // "забрал РИПы и акб, в обед завезу на школу": other work reported done in a clause
            // before the one promise keeps its report.
            let report = flat
                .iter()
                .position(|f| matches!(f, Finding::Done { words } if !words.is_empty()));
            let promise = flat.iter().position(is_new_work);
            if let (Finding::Made { content, .. }, Some(r), Some(p)) = (first, report, promise)
                && whole.len() == 1
                && r < p
                && let Finding::Done { words } = &flat[r]
                && significant_stems(content)
                    .iter()
                    .all(|s| !words.contains(s))
            {
                let done = flat[r].clone();
                let mut out = own_due(whole, &flat, true);
                out.insert(0, done);
                return out;
            }
            // "I'll update the policy doc (the -25 rule + warm-up breaks) and share it before
            // the AGM, by jan 29": the date stands in a clause of the promise's own sentence
            // that says nothing else, and stays the promise's.
            let even_none = !date_beside_in_sentence(input, segs, &per);
            own_due(whole, &flat, even_none)
        }
        Finding::Accept { .. } | Finding::Done { .. } if whole.len() == 1 => {
            // "я вчера выложила пост, а стори сниму в пятницу": a report beside a promise.
            if new_in_parts >= 1 && !flat.iter().any(|f| matches!(f, Finding::Accept { .. })) {
                return flat;
            }
            // "завтра к 8 подъеду, памятник Ворониным на газель загружу": a yes (or a coming
            // by) and, in a later clause, work named in full: both, the work by the yes's date.
            if let [Finding::Accept { due, own: None }, rest @ ..] = flat.as_slice()
                && let [Finding::Made { content, due: own }] = rest
                && content.split_whitespace().count() > 2
            {
                let made = Finding::Made {
                    content: content.clone(),
                    due: own.or(*due),
                };
                return vec![flat[0].clone(), made];
            }
            // "Fairview done. Vacuum pump not ready yet, I'll get it tomorrow": a report of one
            // thing, then the speaker's word about another: both.
            // Only a report in words of finishing ("Петровы перезвонили, просят пораньше.
            // Сделаем в среду" tells of others, and moves the promise it answers).
            let told_done = |words: &Vec<String>| {
                per.iter().zip(parts).any(|(fs, p)| {
                    matches!(fs.as_slice(), [Finding::Done { words: w }] if w == words)
                        && (0..p.n()).any(|i| p.has_f(i, DONE))
                        // "PAT testing's only half done, I'll finish it Tuesday" goes on.
                        && (0..p.n()).all(|i| !word_list!("part_done.txt").contains(&p.w(i)))
                })
            };
            if let Finding::Accept { own: Some(_), .. } = first
                && let [
                    Finding::Done { words },
                    Finding::Accept { own: Some(_), .. },
                ] = flat.as_slice()
                && !words.is_empty()
                && told_done(words)
            {
                return flat;
            }
            // "шкаф готов, комод упаковал": two things reported done, each in its own clause
            // and naming its own work, close one promise each.
            let dones: Vec<&Vec<String>> = flat
                .iter()
                .filter_map(|f| match f {
                    Finding::Done { words } if !words.is_empty() => Some(words),
                    _ => None,
                })
                .collect();
            if matches!(first, Finding::Done { .. })
                && dones.len() >= 2
                && dones
                    .iter()
                    .enumerate()
                    .all(|(k, w)| dones[..k].iter().all(|o| o.iter().all(|x| !w.contains(x))))
            {
                flat.retain(|f| matches!(f, Finding::Done { .. }));
                return flat;
            }
            own_due(whole, &flat, false)
        }
        // "can't get it done by Thurs, the portal's down till the weekend. Monday ok?": the date
        // offered in place of a refused one is the whole message's to tell.
        Finding::Moved { .. } if whole.len() == 1 && moved::other_date(m).is_some() => whole,
        // "рефакторинг уведомлений не успел, переношу на понедельник. доку по апи дописал": a
        // move and a later report of other work; each keeps its words.
        Finding::Moved { .. }
            if whole.len() == 1
                && let Some(out) = move_beside_report(input.text, first, segs, parts, &per) =>
        {
            out
        }
        Finding::Moved { .. } if whole.len() == 1 => {
            let mut out = own_due(whole, &flat, false);
            out.extend(aside_promise(input.text, segs, parts, &per));
            out
        }
        // "сегодня 2 рейса отменили — гололёд. объявления завтра с утра развешу": what is
        // called off is told in its own sentence, and the promise in another stands beside it;
        // each keeps only its own words. So does a report ("Договор с Памятью подписал 🤝.
        // Наташ, КП для них отбой").
        Finding::Cancelled { .. }
            if whole.len() == 1
                && per.iter().zip(segs).any(|(fs, r)| {
                    let made = fs.iter().any(|f| matches!(f, Finding::Made { .. }));
                    let done = fs.iter().any(|f| matches!(f, Finding::Done { .. }));
                    (made || done)
                        && segs.iter().zip(&per).any(|(o, ofs)| {
                            m_sentence_differs(input.text, o, r)
                                // Beside a report the call-off must name its own thing: a bare
                                // "отбой" after "родители сами привезли" is about that.
                                && ofs.iter().any(|f| {
                                    matches!(f, Finding::Cancelled { words }
                                        if made || !words.is_empty())
                                })
                        })
                }) =>
        {
            flat.retain(|f| {
                matches!(
                    f,
                    Finding::Made { .. } | Finding::Cancelled { .. } | Finding::Done { .. }
                )
            });
            flat
        }
        // "предзаказы собрал, 14 позиций. заказ отправлю в чт, Дима, подтверди остатки": a
        // report, a promise by a date of its own and a request, each in a clause of its own.
        // The whole message reads only the report and the request (with the promise's date);
        // the clauses read all three.
        Finding::Done { .. }
            if !whole.iter().any(|w| matches!(w, Finding::Made { .. }))
                && flat.iter().any(|f| matches!(f, Finding::Made { .. }))
                && per.iter().all(|fs| fs.len() <= 1)
                && per.iter().zip(segs).any(|(fs, r)| {
                    fs.iter().any(|f| matches!(f, Finding::Made { .. }))
                        && clause_has_date(input, r)
                }) =>
        {
            flat.retain(|f| is_new_work(f) || matches!(f, Finding::Done { .. }));
            flat
        }
        _ => whole,
    }
}

/// A move and, in later sentences, reports of other work: the move keeps the words no report
/// names, each report its own. `None` when there is no such report, or nothing is left to name
/// the moved work. A report before the move is progress on the same work ("chased the
/// invoices, 2 paid. will try them again tmrw"); a move asked ("mind if I move the handout to
/// friday? the talk got pushed") is told again in what follows; a sentence with a word of moving
/// gives the reason ("the club talk got pushed"), not a report.
fn move_beside_report(
    text: &str,
    moved: &Finding,
    segs: &[Range<usize>],
    parts: &[Msg],
    per: &[Vec<Finding>],
) -> Option<Vec<Finding>> {
    let Finding::Moved {
        due,
        words,
        otherwise,
    } = moved
    else {
        return None;
    };
    let at = per
        .iter()
        .position(|fs| fs.iter().any(|f| matches!(f, Finding::Moved { .. })))?;
    if parts[at].question.iter().any(|&q| q) {
        return None;
    }
    // "457я готова, сцепление поменял. логан не успел, завтра с утра": a report before the
    // move is other work when the move's own sentence names its work and the report none of it.
    let move_names: Vec<String> = {
        // Its things, not its verbs ("will try them again tmrw" names nothing), read from the
        // clauses of its sentence as they were read already.
        let stems: Vec<String> = segs
            .iter()
            .zip(parts)
            .filter(|(r, _)| !m_sentence_differs(text, r, &segs[at]))
            .flat_map(|(_, sm)| {
                (0..sm.n())
                    .filter(|&k| {
                        sm.verb(k).is_none()
                            && !sm.has_f(k, EN_VERB | MOVE | NEG | DATE | REST)
                            && !(k > 0 && word_list!("en/modal.txt").contains(&sm.w(k - 1)))
                    })
                    .flat_map(|k| significant_stems(sm.w(k)))
                    .collect::<Vec<_>>()
            })
            .collect();
        words
            .iter()
            .filter(|w| stems.contains(w))
            .cloned()
            .collect()
    };
    let dones: Vec<&Vec<String>> = per
        .iter()
        .zip(segs)
        .zip(parts)
        .filter(|((fs, r), _)| {
            r.start > segs[at].start
                || !move_names.is_empty()
                    && fs.iter().all(|f| match f {
                        Finding::Done { words } => words.iter().all(|w| !move_names.contains(w)),
                        _ => true,
                    })
        })
        .filter(|((_, r), p)| {
            m_sentence_differs(text, r, &segs[at]) && !(0..p.n()).any(|i| p.has_f(i, MOVE))
        })
        .flat_map(|((fs, _), _)| fs)
        .filter_map(|f| match f {
            Finding::Done { words } if !words.is_empty() => Some(words),
            _ => None,
        })
        .collect();
    let own: Vec<String> = words
        .iter()
        .filter(|w| !dones.iter().any(|d| d.contains(w)))
        .filter(|w| move_names.is_empty() || move_names.contains(w))
        .cloned()
        .collect();
    if dones.is_empty() || own.is_empty() {
        return None;
    }
    let mut out = vec![Finding::Moved {
        due: *due,
        words: own,
        otherwise: otherwise.clone(),
    }];
    out.extend(
        dones
            .into_iter()
            .map(|w| Finding::Done { words: w.clone() }),
    );
    Some(out)
}

/// Are the clauses `a` and `b` in different sentences (a hard break between them)?
/// Does the message's deadline stand in a clause with no finding of its own, in the same
/// sentence as a clause with a promise?
fn date_beside_in_sentence(
    input: &MessageInput<'_>,
    segs: &[Range<usize>],
    per: &[Vec<Finding>],
) -> bool {
    let lang = input.lang.unwrap_or_else(|| Lang::detect(input.text));
    let Some((span, _)) = crate::extract::dates::deadline(input.text, input.now, lang) else {
        return false;
    };
    let Some(k) = segs
        .iter()
        .position(|r| r.start <= span.start && span.start < r.end)
    else {
        return false;
    };
    per[k].is_empty()
        && segs.iter().zip(per).any(|(r, fs)| {
            fs.iter().any(|f| matches!(f, Finding::Made { .. }))
                && !m_sentence_differs(input.text, r, &segs[k])
        })
}

fn m_sentence_differs(text: &str, a: &Range<usize>, b: &Range<usize>) -> bool {
    let (first, second) = if a.start <= b.start { (a, b) } else { (b, a) };
    text.get(first.start..second.start)
        .is_some_and(|between| between.contains(['.', '!', '?', '\n']))
}

/// Does the text hold a numbered list ("1) …, 2) …", or lines "1. …" "2. …")?
pub(super) fn numbered(text: &str) -> bool {
    let b = text.as_bytes();
    (1..b.len()).filter(|&i| b[i] == b')').any(|i| {
        let digits = b[..i]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .count();
        (1..=2).contains(&digits) && (i == digits || b[i - digits - 1].is_ascii_whitespace())
    }) && text.matches(')').count() >= 2
        || dotted_items(text) >= 2
}

/// How many lines open with an item's number and a full stop ("1. смета", "2. call Bob").
pub(super) fn dotted_items(text: &str) -> usize {
    text.lines().filter(|l| dotted_marker(l).is_some()).count()
}

/// The length of a line's leading "1. " (spaces before it included), if it has one.
pub(super) fn dotted_marker(line: &str) -> Option<usize> {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = t.get(digits..)?;
    ((1..=2).contains(&digits) && rest.starts_with(". ")).then(|| line.len() - t.len() + digits + 2)
}

/// Does the clause tell of the past: a Russian past tense, or an English "-ed" word?
fn tells_past(m: &Msg) -> bool {
    (0..m.n()).any(|i| {
        m.verb(i).is_some_and(|v| matches!(v.form, Form::Past))
            || (m.w(i).ends_with("ed") && m.w(i).chars().count() > 4)
    })
}

/// Does the clause say the speaker (or their side) does something: a first-person future or
/// an imperative ("перенесу", "переносим", "move it"), or an English "I"/"we"?
fn speaker_acts(m: &Msg) -> bool {
    (0..m.n()).any(|i| {
        m.verb(i)
            .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl | Form::Imp))
            || word_list!("en/persons_first.txt").contains(&m.w(i))
            || crate::morph::first_person_verb(m.w(i))
    })
}

/// Does the text promise in the first person singular ("сделаю", "I'll send")?
pub(super) fn singular_promise(m: &Msg) -> bool {
    en_promise(m).is_some()
        || ru_promise(m).is_some_and(|(i, _, _)| {
            m.toks
                .get(i)
                .and_then(|t| t.verb)
                .is_none_or(|v| v.form != Form::Fut1Pl)
        })
}

/// Does the clause end inside its sentence (no full stop, "?", "!" or line break after it)?
pub(super) fn same_sentence(text: &str, r: &Range<usize>) -> bool {
    let part = text.get(r.clone()).unwrap_or("");
    let tail = part.trim_end_matches(|c: char| !c.is_alphanumeric());
    let gap = part.get(tail.len()..).unwrap_or("");
    !is_hard_break(gap)
}

/// "оплачу на этой неделе, сегодня в банке лимит": the date of the clause that holds the
/// finding wins over a date elsewhere in the message.
/// With `even_none`, a clause without a date clears one read from another sentence ("fyi Sysco
/// delivers tmrw. also I can take the call" offers no date).
pub(super) fn own_due(mut whole: Vec<Finding>, parts: &[Finding], even_none: bool) -> Vec<Finding> {
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
            // The part's words start the whole's ("поехать в шебалино" of "поехать в шебалино
            // глянуть как там зимуют", a trip and its purpose).
            let starts = |c: Option<String>| {
                c.zip(mine.as_ref())
                    .is_some_and(|(c, mine)| c == *mine || mine.starts_with(&format!("{c} ")))
            };
            let mut hits = same.iter().filter(|f| starts(content_of(f)));
            match (hits.next(), hits.next()) {
                (Some(f), None) if f.due().is_some() => Some(*f),
                _ => None,
            }
        }
        _ => None,
    };
    // A part that names only its verb ("…: 6 бут и помпа. поставишь?") leaves the work and
    // its date to the sentence before it.
    // So does one of a light verb and "it" ("…instead of the standard tour. could you set it
    // up?", "can you do that?").
    let bare = one.and_then(content_of).is_some_and(|c| {
        c.split_whitespace().count() <= 1
            || c.split_whitespace().all(|w| {
                let w = w.to_lowercase();
                let w = w.as_str();
                word_list!("en/light_verbs.txt").contains(&w)
                    || word_list!("en/pron.txt").contains(&w)
                    || word_list!("en/set_up.txt").contains(&w)
            })
    });
    if let Some(one) = one
        && (even_none && !bare || one.due().is_some())
    {
        set_due(first, one.due());
    }
    whole
}

pub(super) fn set_due(f: &mut Finding, d: Option<Due>) {
    match f {
        Finding::Made { due, .. }
        | Finding::Request { due, .. }
        | Finding::Offer { due, .. }
        | Finding::Accept { due, .. }
        | Finding::Moved { due, .. } => *due = d,
        Finding::Done { .. } | Finding::Cancelled { .. } => {}
    }
}

pub(super) fn clause_has_date(input: &MessageInput<'_>, r: &Range<usize>) -> bool {
    clause_due(input, r).is_some()
}

/// The deadline the clause `r` names by itself.
pub(super) fn clause_due(input: &MessageInput<'_>, r: &Range<usize>) -> Option<Due> {
    let text = input.text.get(r.clone()).unwrap_or("");
    let lang = input.lang.unwrap_or_else(|| Lang::detect(text));
    crate::extract::dates::deadline(text, input.now, lang).map(|(_, due)| due)
}

/// Byte ranges of the independent clauses of a message. A clause that only addresses or agrees
/// ("Дима,", "ok team,") or sets a condition ("если успею,") stays with the next one; one that
/// qualifies the previous ("…, если успею", "…, but no promises", "…, к четвергу надо") stays
/// with it.
pub(super) fn segments(m: &Msg, names: &NameIndex) -> Vec<Range<usize>> {
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
    let opens_condition = |i: usize| word_set!("condition_openers.txt").contains(m.w(i));
    let qualifies = |r: &Range<usize>| {
        let i = r.start;
        opens_condition(i)
            || word_set!("qualifier_openers.txt").contains(m.w(i))
            || m.w(i).starts_with("котор")
            || r.clone().all(|k| {
                let t = &m.toks[k];
                t.f & (DATE | PREP | NEED | PLEASE | FILL | AGREE | APPROVE | NUMW | MONTH | URGE)
                    != 0
                    || is_number(&t.norm)
                    || word_list!("date_ordinal.txt").contains(&t.norm.as_str())
            })
    };
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut pending: Option<usize> = None;
    for r in runs {
        let start = pending.take().unwrap_or(r.start);
        let joined = start..r.end;
        let same_sent = |x: usize, y: usize| m.sent_of(x) == m.sent_of(y);
        // "седня гляну шланги, если сам не найду — звоню в сервис": a condition that a dash
        // joins to what follows it is that clause's condition, not the one's before it.
        let leads_on = opens_condition(r.start)
            && r.end < m.n()
            && same_sent(r.start, r.end)
            && text
                .get(m.toks[r.end - 1].span.end..m.toks[r.end].span.start)
                .is_some_and(|g| g.contains(['—', '–']) || g.contains(" - "));
        if let Some(last) = out.last_mut()
            && same_sent(last.start, r.start)
            && pending.is_none()
            && start == r.start
            && qualifies(&r)
            && !leads_on
        {
            last.end = r.end;
            continue;
        }
        if r.end < m.n() && (lead_only(&joined) || start == r.start && opens_condition(r.start)) {
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
    let out = split_at_and(m, out);
    // Token runs to byte ranges: each clause keeps the punctuation after it ("?" matters).
    let mut spans = Vec::with_capacity(out.len());
    for (k, r) in out.iter().enumerate() {
        // "…, and @arjun pls flash the boards": the joining word belongs to neither clause.
        let first = if k > 0 && r.len() > 1 && word_list!("and_joins.txt").contains(&m.w(r.start)) {
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

/// "корсет Арутюнян ушью и подол у Гриценко подрежу": two things, each said before its own
/// verb in the future first person, the first verb right before "и" — a list of two pieces
/// of work ("приеду и сделаю", "документы заберу и отвезу в банк" are one).
pub(super) fn parallel_ru(m: &Msg, k: usize) -> bool {
    k >= 2 && ends_in_work(m, k) && work_from(m, k + 1)
}

/// The clause `cur` (at `r` in `text`, after an "и") and the one before it, `prev`, are such
/// a list.
fn parallel_parts(text: &str, r: &Range<usize>, prev: &Msg, cur: &Msg) -> bool {
    let before = text.get(..r.start).map_or("", str::trim_end);
    before
        .strip_suffix('и')
        .is_some_and(|b| b.ends_with(char::is_whitespace))
        && ends_in_work(prev, prev.n())
        && work_from(cur, 0)
}

/// A thing, then a verb in the future first person, right before token `k`. The speaker's
/// own: "трассу проложим и блоки повесим" is a crew's one job told step by step.
fn ends_in_work(m: &Msg, k: usize) -> bool {
    k >= 2 && fut1_at(m, k - 1) && thing_at(m, k - 2)
}

/// A thing at `k`, then a verb in the future first person in the same clause.
fn work_from(m: &Msg, k: usize) -> bool {
    thing_at(m, k)
        && (k + 1..m.n())
            .take_while(|&j| !m.clause_start(j))
            .any(|j| fut1_at(m, j))
}

fn fut1_at(m: &Msg, j: usize) -> bool {
    m.toks
        .get(j)
        .and_then(|t| t.verb)
        .is_some_and(|v| v.form == Form::Fut1)
}

fn thing_at(m: &Msg, j: usize) -> bool {
    m.toks.get(j).is_some_and(|t| {
        t.verb.is_none()
            && t.f & (STOP | PRON | DATE | PREP | AGREE | FILL | GREET | NEG) == 0
            && t.norm.chars().count() >= 3
            && t.norm.chars().all(char::is_alphabetic)
    })
}

/// "скину прайс во вторник и на следующей неделе согласуем макет": a bare "и"/"а" between two
/// promises, each with a verb in the future first person and a date of its own, joins two
/// clauses (`combine` then keeps both promises when their dates differ). In English, "and"
/// (or "and then") before a new first-person subject ends a dated first-person promise: "I'll
/// deliver Wed and then I can do the review if you want" is a promise and an offer.
fn split_at_and(m: &Msg, runs: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let dated = |r: Range<usize>| r.clone().any(|k| m.has_f(k, DATE));
    let ru_promises = |r: Range<usize>| {
        r.clone().any(|k| {
            m.toks[k]
                .verb
                .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl))
        })
    };
    let en_promises = |r: Range<usize>| says_i_will(m, r);
    let first_person = |w: &str| word_list!("en/first_person.txt").contains(&w);
    let cuts_at = |r: &Range<usize>, k: usize| {
        let left = r.start..k;
        match m.w(k) {
            "и" | "а" => {
                ru_promises(left.clone())
                    && dated(left)
                    && ru_promises(k + 1..r.end)
                    && dated(k + 1..r.end)
                    || m.w(k) == "и" && parallel_ru(m, k)
            }
            "and" => {
                let subject = if m.w(k + 1) == "then" { k + 2 } else { k + 1 };
                // "I'll send the variation today and book the sparky for thu": a verb of work
                // with a date of its own carries the promise over to a second piece of work.
                // A time the first work takes ("I'll review it over the weekend and send
                // comments by monday") is no deadline of its own: one piece of work.
                let over = word_list!("en/during.txt");
                let spans_time = (r.start..k).any(|j| {
                    let d = j + 1 + usize::from(m.w(j + 1) == "the");
                    over.contains(&m.w(j)) && m.has_f(d, DATE)
                });
                // "I'll come in early tmrw and rotate the dairy stock": a first verb that names
                // no work alone hands its date to the work after it.
                let alone = word_list!("en/not_work_alone.txt");
                let idle_left =
                    (r.start + 1..k).any(|j| alone.contains(&m.w(j)) && en_promises(j - 1..j));
                let verb = m.has_f(subject, EN_VERB) || request::wide_en_verb(m, subject);
                let carried = verb && (dated(k + 1..r.end) || idle_left) && !spans_time;
                // "…, and I'll call the guy w/ the cracked frame": a promise said anew is a
                // second one, dated or not.
                let anew = word_list!("en/will_contracted.txt").contains(&m.w(subject))
                    || word_list!("en/subj.txt").contains(&m.w(subject))
                        && m.w(subject + 1) == "will";
                // The first clause may promise without a "will" ("today I'm on the rebuilds").
                anew && en_promise(&m.slice(left.clone())).is_some()
                    || (first_person(m.w(subject)) || carried)
                        && dated(left.clone())
                        && en_promises(left)
            }
            _ => false,
        }
    };
    let mut out = Vec::with_capacity(runs.len());
    for r in runs {
        match (r.start + 2..r.end.saturating_sub(2)).find(|&k| cuts_at(&r, k)) {
            Some(k) => {
                out.push(r.start..k);
                out.push(k..r.end);
            }
            None => out.push(r),
        }
    }
    out
}

/// Do tokens `r` say "I'll" / "we will" (whatever follows: "I'll come in early" too)?
pub(super) fn says_i_will(m: &Msg, r: Range<usize>) -> bool {
    r.clone().any(|k| {
        word_list!("en/will_contracted.txt").contains(&m.w(k))
            || word_list!("en/subj.txt").contains(&m.w(k))
                && word_list!("en/will_shall.txt").contains(&m.w(k + 1))
    })
}

/// "…today and book the sparky for thu", "…, then ring blum about the hinges": a clause that
/// opens with a verb of work after one that promises in English is promised too; its text
/// with the promise put back ("I'll book the sparky for thu").
/// `and` says the clause was joined by "and": then a verb of the full word list before what it
/// works on carries the promise too ("…today and swing by the Ballito site friday"); after a
/// bare comma only a verb of work does ("…, use the 2nd floor one for now" tells the listener).
pub(super) fn carried_promise(prev: &Msg, part: &Msg, and: bool) -> Option<String> {
    if !(en_promise(prev).is_some() || says_i_will(prev, 0..prev.n())) || en_promise(part).is_some()
    {
        return None;
    }
    // The joining "and" is already left out of the clause (see `segments`); "then" is not.
    let mut k = usize::from(part.w(0) == "then");
    // "…today, and tomorrow follow up with their bank": the date may come first.
    let dated_from = k;
    while k < part.n() && part.has_f(k, DATE | PREP) && part.verb(k).is_none() {
        k += 1;
    }
    let date_words = part
        .toks
        .get(dated_from)
        .zip(part.toks.get(k))
        .and_then(|(a, b)| part.text.get(a.span.start..b.span.start))
        .map(str::trim)
        .unwrap_or("");
    // "…, tell me about allergies by tmrw pls": asked of the others, not promised.
    // "…, check your email before monday": the listener's own thing, theirs to do.
    if !(part.has_f(k, EN_VERB) || and && request::wide_en_verb(part, k))
        || word_list!("en/listener_objects.txt").contains(&part.w(k + 1))
        || (0..part.n()).any(|i| part.has_f(i, PLEASE))
    {
        return None;
    }
    let from = part.toks.get(k)?.span.start;
    let rest = part.text.get(from..)?;
    Some(if date_words.is_empty() {
        format!("I'll {rest}")
    } else {
        format!("I'll {rest} {date_words}")
    })
}

/// The text without the words addressing someone (a team member's name, a name and
/// patronymic), when there are any.
pub(super) fn without_address(m: &Msg, names: &NameIndex) -> Option<String> {
    let text = m.text;
    let named = names.people_in(text);
    let patronymic = |i: usize| crate::extract::names::is_patronymic_word(m.w(i));
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

/// Is the clause at `r` joined to the one before it by "and" (the last word before it, or its
/// own first)?
/// "судейство возьму на себя, секундомеры проверю до пятницы": a Russian clause that promises
/// in the first person singular and names a thing of its own beside its verb is a promise of
/// its own ("…, всё сделаю" names nothing and is the same work's end).
fn ru_own_thing(p: &Msg, we_too: bool) -> bool {
    let Some((v, _, _)) = ru_promise(p) else {
        return false;
    };
    (we_too || singular_promise(p))
        && (0..p.n()).any(|i| i != v && thing_at(p, i) && p.w(i).chars().count() >= 4)
}

/// "не успеем, … Рёниш сделаем 11 января, Вайнерам я сам позвоню": a last clause after a
/// comma that names its speaker again and a thing of its own is a promise beside the move.
fn aside_promise(
    text: &str,
    segs: &[Range<usize>],
    parts: &[Msg],
    per: &[Vec<Finding>],
) -> Option<Finding> {
    let k = per.len().checked_sub(1).filter(|&k| k > 0)?;
    let p = parts.get(k)?;
    match per[k].as_slice() {
        [f @ Finding::Made { due: None, .. }]
            if after_comma(text, &segs[k])
                && !p.question.iter().any(|&q| q)
                && names_speaker(p)
                && ru_own_thing(p, false) =>
        {
            Some(f.clone())
        }
        _ => None,
    }
}

/// The clause opens with the thing it is about, then its verb of the speaker's future
/// ("объёмы с Пашей согласую", "рефлектограмму скину сразу после").
fn thing_first(p: &Msg) -> bool {
    // "фото с прошлого отчётника возьму": what is taken for the work before is no work of
    // its own.
    ru_promise(p).is_some_and(|(v, _, _)| v > 0 && p.verb(v).is_some_and(|x| !x.take))
        && thing_at(p, 0)
        && p.w(0).chars().count() >= 4
        // "сразу скину", "заодно сверю": an adverb first is how, not another thing.
        && (crate::morph::likely_noun(p.w(0)) || !crate::morph::known_word(p.w(0)))
        && !crate::morph::proper_name_form(p.w(0))
}

/// Is clause `k` under a condition said before it in its sentence, in a clause of its own
/// that finds nothing ("если успею, заскочу на Ленина")?
fn under_condition(
    text: &str,
    segs: &[Range<usize>],
    parts: &[Msg],
    per: &[Vec<Finding>],
    k: usize,
) -> bool {
    // Back over the speaker's own promises the condition also holds ("…, заскочу на Ленина,
    // гляну узел"), to the condition; anything else between ("если будут вопросы, пишите,
    // отчёт пришлю завтра") or a sentence's end frees the clause.
    for j in (0..k).rev() {
        let ends_sentence = text
            .get(segs[j].clone())
            .is_some_and(|s| s.contains(['.', '!', '?', '\n']));
        if ends_sentence {
            return false;
        }
        if per[j].is_empty() {
            // The condition alone: "если будут вопросы, пишите" says what to do then.
            let p = &parts[j];
            let alone = (1..p.n()).all(|i| !p.clause_start(i));
            return alone && opens_condition(p) && is_conditional(p);
        }
        if !per[j].iter().all(|f| matches!(f, Finding::Made { .. })) {
            return false;
        }
    }
    false
}

/// The clause opens with a condition ("кстати если успею", "if it rains"), after fillers only.
fn opens_condition(p: &Msg) -> bool {
    // A hedge ("…, возможно запросим информацию") holds only its own clause.
    let hedge = word_list!("hedge.txt");
    (0..p.n())
        .find(|&i| !p.has_f(i, FILL | AGREE | GREET))
        .is_some_and(|i| p.has_f(i, COND) && !hedge.contains(&p.w(i)))
}

/// Does the clause name its speaker ("я", "мы")?
fn names_speaker(p: &Msg) -> bool {
    (0..p.n()).any(|i| word_list!("ru/subj.txt").contains(&p.w(i)))
}

/// Does the clause open with the speaker's own future ("I'll …", "we will …")?
fn opens_own_voice(p: &Msg) -> bool {
    own_future_at(p, 0)
}

/// Does the clause say "I'll" / "I will" / "we'll" anywhere ("Office: I'll get the draft …")?
fn says_own_future(p: &Msg) -> bool {
    (0..p.n()).any(|i| own_future_at(p, i))
}

/// Does the speaker's own future ("I'll", "we will") stand at token `i`?
fn own_future_at(p: &Msg, i: usize) -> bool {
    says_i_will(p, i..i + 1)
}

/// Is the clause at `r` set off from the one before by a comma or by "а" (not by "и", a
/// bracket or a dash)?
fn after_comma(text: &str, r: &Range<usize>) -> bool {
    let before = text.get(..r.start).map_or("", str::trim_end);
    before.ends_with(',')
        || before
            .strip_suffix('а')
            .is_some_and(|b| b.is_empty() || b.ends_with(|c: char| !c.is_alphanumeric()))
}

/// Does the clause at `r` open a sentence of its own?
fn after_sentence(text: &str, r: &Range<usize>) -> bool {
    let before = text.get(..r.start).map_or("", str::trim_end);
    // "…форк. И сделаю новый": a sentence may open with "и", "а", "and".
    let before = word_list!("sentence_and.txt")
        .iter()
        .find_map(|c| {
            before
                .strip_suffix(c)
                .filter(|b| b.ends_with(char::is_whitespace))
        })
        .map_or(before, str::trim_end);
    !before.is_empty() && before.ends_with(['.', '!', '\n'])
}

pub(super) fn joined_by_and(text: &str, r: &Range<usize>) -> bool {
    // "…, then I'll take Troopy 4 for a wash after": one job after another.
    let word = |w: Option<&str>| {
        w.is_some_and(|w| {
            word_list!("en/and_then.txt")
                .iter()
                .any(|x| w.eq_ignore_ascii_case(x))
        })
    };
    let before = text.get(..r.start).unwrap_or("");
    let own = text.get(r.clone()).unwrap_or("");
    word(
        before
            .split(|c: char| !c.is_alphanumeric())
            .rfind(|w| !w.is_empty()),
    ) || word(
        own.split(|c: char| !c.is_alphanumeric())
            .find(|w| !w.is_empty()),
    )
}
