//! The business graph from Telegram: `/node <type> <title> [@owner]` (director, lead) adds a
//! node, `/nodes [type]` lists them, `/link <node> depends_on <node>` relates two; "что зависит
//! от X" answers from the edges; an owner heard in a group ("за CRM отвечает Дима") waits for a
//! director's button. Slugs follow DESIGN ("Топливные баки" → `toplivnye-baki`).

use std::sync::OnceLock;

use super::{AnswerError, Answerer, Reply};
use crate::render::format::esc;
use chrono::{DateTime, Utc};

use crate::app::App;
use crate::domain::{ChatId, MessageId, NodeType, OrgId, Relation, Role, UserId};
use crate::extract::{intent, names, words};
use crate::ingest::extract_people;
use crate::store::{NewNode, Node, StoreError};

fn aliases() -> &'static Vec<(NodeType, Vec<String>)> {
    static LIST: OnceLock<Vec<(NodeType, Vec<String>)>> = OnceLock::new();
    LIST.get_or_init(|| {
        include_str!("../../lexicon/node_types.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                let t = w.next()?.parse::<NodeType>().ok()?;
                Some((
                    t,
                    std::iter::once(t.to_string())
                        .chain(w.map(words::normalize))
                        .collect(),
                ))
            })
            .collect()
    })
}

/// A node type by its name or an alias ("продукт", "клиенты" → customer by stem).
pub fn node_type(word: &str) -> Option<NodeType> {
    let w = words::normalize(word);
    let stem = words::stem(&w);
    aliases().iter().find_map(|(t, names)| {
        names
            .iter()
            .any(|n| *n == w || words::stem(n) == stem)
            .then_some(*t)
    })
}

impl Answerer<'_> {
    /// `/node TYPE TITLE [@owner]`.
    pub async fn add_node(&self, arg: &str) -> Result<Reply, AnswerError> {
        if self.viewer.role == Role::Member {
            return Ok(Reply::text(self.s("node-refused")));
        }
        let mut parts = arg.split_whitespace();
        let Some(t) = parts.next().and_then(node_type) else {
            return Ok(Reply::text(self.s("node-usage")));
        };
        let rest: Vec<&str> = parts.collect();
        // A last word starting with @ names the owner.
        let (title, owner) = match rest.split_last() {
            Some((last, head)) if last.starts_with('@') && !head.is_empty() => {
                let people = extract_people(&self.people);
                match names::resolve(last, &people)[..] {
                    [one] => (head.join(" "), Some(UserId(one))),
                    _ => {
                        return Ok(Reply::text(
                            self.t("node-unknown-owner", &[("who", esc(last).into())]),
                        ));
                    }
                }
            }
            _ => (rest.join(" "), None),
        };
        let title = title.trim();
        if title.is_empty() {
            return Ok(Reply::text(self.s("node-usage")));
        }
        let node = self
            .app
            .store
            .insert_node(&NewNode {
                org_id: self.org.id,
                node_type: t,
                title,
                description: None,
                owner,
                at: self.now,
            })
            .await?;
        let owner_name = owner.map(|o| esc(&self.name(o))).unwrap_or_default();
        Ok(Reply::text(self.t(
            if owner.is_some() {
                "node-added-owned"
            } else {
                "node-added"
            },
            &[
                ("title", esc(&node.title).into()),
                ("type", self.s(&format!("node-{}", node.node_type)).into()),
                ("slug", esc(&node.slug).into()),
                ("owner", owner_name.into()),
            ],
        )))
    }

    /// `/nodes [TYPE]`: the org's graph (team items: everyone may see it).
    pub async fn list_nodes(&self, arg: &str) -> Result<Reply, AnswerError> {
        let filter = arg.split_whitespace().next().map(node_type);
        if let Some(None) = filter {
            return Ok(Reply::text(self.s("node-usage")));
        }
        let nodes: Vec<_> = self
            .app
            .store
            .nodes(self.org.id)
            .await?
            .into_iter()
            .filter(|n| filter.flatten().is_none_or(|t| n.node_type == t))
            .collect();
        if nodes.is_empty() {
            return Ok(Reply::text(self.s("nodes-none")));
        }
        let mut text = self.t("nodes-header", &[("n", (nodes.len() as i64).into())]);
        for n in &nodes {
            text.push_str(&format!(
                "\n• {} ({})",
                esc(&n.title),
                self.s(&format!("node-{}", n.node_type))
            ));
            if let Some(o) = n.owner {
                text.push_str(&format!(" — {}", esc(&self.name(o))));
            }
        }
        Ok(Reply::text(text))
    }
}

/// The node a command or question names: by slug or title exactly, else the only node whose
/// title shares the words. `Err` with the candidates when it is not one.
pub fn find_node<'n>(nodes: &'n [Node], text: &str) -> Result<&'n Node, Vec<&'n Node>> {
    let t = text
        .trim()
        .trim_matches(|c: char| "«»\"'?.!,".contains(c))
        .trim();
    let lower = t.to_lowercase();
    if let Some(n) = nodes
        .iter()
        .find(|n| n.slug == lower || n.title.to_lowercase() == lower)
    {
        return Ok(n);
    }
    let want = intent::topic_stems(t);
    if want.is_empty() {
        return Err(Vec::new());
    }
    let hits: Vec<&Node> = nodes
        .iter()
        .filter(|n| {
            let have = intent::topic_stems(&n.title);
            want.iter().all(|w| names_word(&have, w))
        })
        .collect();
    match hits[..] {
        [one] => Ok(one),
        _ => Err(hits),
    }
}

/// Whether a node title's stems name the word `w` (the stem itself, or one it starts, for three
/// letters or more: "бил" finds "биллинг").
pub fn names_word(title_stems: &[String], w: &str) -> bool {
    title_stems
        .iter()
        .any(|h| h == w || (w.chars().count() >= 3 && h.starts_with(w)))
}

/// The relation a word of `/link` names (`depends_on`, "зависит"), by `lexicon/command_words.txt`.
fn relation(word: &str) -> Option<Relation> {
    words::command_word_in("relation-", word)?
        .strip_prefix("relation-")?
        .parse()
        .ok()
}

/// Words between a relation and its node that belong to neither ("зависит от", "depends on").
const LINK_PREPOSITIONS: &[&str] = &["от", "на", "за", "on", "of", "for", "to", "at", "with"];

/// The opening of a graph question and which way its edges go.
fn graph_question(text: &str) -> Option<(&'static str, String)> {
    static LIST: std::sync::OnceLock<Vec<(&'static str, Vec<String>)>> = std::sync::OnceLock::new();
    let list =
        LIST.get_or_init(|| words::keyed_lists(include_str!("../../lexicon/graph_questions.txt")));
    let norm = words::normalize(text.trim());
    let norm = norm.trim_end_matches(['?', '.', '!']).trim().to_string();
    let ws: Vec<&str> = norm.split_whitespace().collect();
    for (key, openings) in list {
        for o in openings {
            let ow: Vec<&str> = o.split_whitespace().collect();
            // "what does X depend on": the opening's last two words close the question.
            if o.starts_with("what does") {
                if ws.len() > 4
                    && ws[..2] == ["what", "does"]
                    && ws[ws.len() - 2..] == ["depend", "on"]
                {
                    return Some((key, ws[2..ws.len() - 2].join(" ")));
                }
                continue;
            }
            if ws.len() > ow.len() && ws[..ow.len()] == ow[..] {
                return Some((key, ws[ow.len()..].join(" ")));
            }
        }
    }
    None
}

impl Answerer<'_> {
    /// `/link NODE RELATION NODE` (director, lead): "/link CRM depends_on Биллинг".
    pub async fn link_nodes(&self, arg: &str) -> Result<Reply, AnswerError> {
        if self.viewer.role == Role::Member {
            return Ok(Reply::text(self.s("node-refused")));
        }
        let ws: Vec<&str> = arg.split_whitespace().collect();
        let Some((i, rel)) = ws
            .iter()
            .enumerate()
            .find_map(|(i, w)| relation(w).map(|r| (i, r)))
        else {
            return Ok(Reply::text(self.s("link-nodes-usage")));
        };
        let mut right = &ws[i + 1..];
        if let Some((first, rest)) = right.split_first()
            && LINK_PREPOSITIONS.contains(&words::normalize(first).as_str())
        {
            right = rest;
        }
        let (left, right) = (ws[..i].join(" "), right.join(" "));
        if left.is_empty() || right.is_empty() {
            return Ok(Reply::text(self.s("link-nodes-usage")));
        }
        let nodes = self.app.store.nodes(self.org.id).await?;
        let (from, to) = match (find_node(&nodes, &left), find_node(&nodes, &right)) {
            (Ok(a), Ok(b)) if a.id != b.id => (a, b),
            (Ok(_), Ok(_)) => return Ok(Reply::text(self.s("link-nodes-usage"))),
            (Err(c), _) => return Ok(self.not_one_node(&left, &c)),
            (_, Err(c)) => return Ok(self.not_one_node(&right, &c)),
        };
        self.app
            .store
            .add_edge(self.org.id, from.id, to.id, rel, self.now)
            .await?;
        Ok(Reply::text(self.t(
            "link-nodes-done",
            &[
                ("from", esc(&from.title).into()),
                ("to", esc(&to.title).into()),
                ("relation", self.s(&format!("relation-{rel}")).into()),
            ],
        )))
    }

    fn not_one_node(&self, named: &str, candidates: &[&Node]) -> Reply {
        if candidates.is_empty() {
            return Reply::text(self.t("node-not-found", &[("name", esc(named).into())]));
        }
        let list: Vec<String> = candidates.iter().map(|n| esc(&n.slug)).collect();
        Reply::text(self.t(
            "node-ambiguous",
            &[
                ("name", esc(named).into()),
                ("list", list.join(", ").into()),
            ],
        ))
    }

    /// "что зависит от CRM?", "от чего зависит CRM?": the graph's answer, or `None` when the
    /// question is not one of these (or names no node).
    pub(super) async fn graph_answer(&self, text: &str) -> Result<Option<Reply>, AnswerError> {
        let Some((key, topic)) = graph_question(text) else {
            return Ok(None);
        };
        let nodes = self.app.store.nodes(self.org.id).await?;
        let Ok(node) = find_node(&nodes, &topic) else {
            return Ok(None);
        };
        let incoming = key == "depends-on-it";
        let linked = self
            .app
            .store
            .linked_nodes(self.org.id, node.id, Relation::DependsOn, !incoming)
            .await?;
        let title = esc(&node.title);
        if linked.is_empty() {
            let k = if incoming {
                "depends-on-none"
            } else {
                "depends-none"
            };
            return Ok(Some(Reply::text(self.t(k, &[("node", title.into())]))));
        }
        let k = if incoming {
            "depends-on-header"
        } else {
            "depends-header"
        };
        let mut text = self.t(k, &[("node", title.into())]);
        for n in &linked {
            text.push_str(&format!("\n• {}", esc(&n.title)));
            if let Some(o) = n.owner {
                text.push_str(&format!(" — {}", esc(&self.name(o))));
            }
        }
        Ok(Some(Reply::text(text)))
    }
}

/// A button on an owner proposal: `o:yes:ID` / `o:no:ID`.
pub fn proposal_data(id: i64, yes: bool) -> String {
    crate::domain::callback::CallbackData::Owner { proposal: id, yes }.to_string()
}

/// An owner heard in a group message: the proposal is recorded and each director is asked,
/// with buttons. Returns the DMs to send (none when the message says no such thing, the owner
/// is already so, or the same proposal is open).
pub async fn heard_owner(
    app: &App,
    ing: &crate::ingest::Ingest<'_>,
    text: &str,
    from: UserId,
    source: (ChatId, MessageId),
    at: DateTime<Utc>,
) -> Result<Vec<(UserId, Reply)>, StoreError> {
    // The team's name table ingest already built for this message.
    let (org, people) = (ing.org.id, ing.people);
    let Some((owner, what)) = crate::ingest::analyze_guarded(source, || {
        crate::extract::owner::statement(text, ing.names)
    }) else {
        return Ok(Vec::new());
    };
    let owner = UserId(owner);
    let nodes = app.store.nodes(org).await?;
    let node = find_node(&nodes, &what).ok();
    if node.is_some_and(|n| n.owner == Some(owner)) {
        return Ok(Vec::new());
    }
    // A new thing is named in the nominative ("за бухгалтерию отвечает Лена" → «бухгалтерия»).
    let title = node.map_or_else(|| crate::morph::nominative(&what), |n| n.title.clone());
    let Some(id) = app
        .store
        .propose_owner(org, node.map(|n| n.id), &title, owner, from, source, at)
        .await?
    else {
        return Ok(Vec::new());
    };
    // A director who says it is not asked to confirm it.
    if people
        .iter()
        .any(|p| p.profile.id == from && p.member.role == Role::Director)
    {
        let lang = app.lang_for(None, None);
        settle_proposal(app, org, from, id, true, lang, at).await?;
        return Ok(Vec::new());
    }
    let name = |u: UserId| crate::render::format::name_of(people, u);
    Ok(people
        .iter()
        .filter(|p| p.member.role == Role::Director && p.member.active && p.profile.dm_open)
        .map(|d| {
            let lang = app.lang_for(Some(&d.profile), None);
            let key = if node.is_some() {
                "owner-proposal"
            } else {
                "owner-proposal-new"
            };
            (
                d.profile.id,
                Reply {
                    text: app.i18n.t(
                        lang,
                        key,
                        &[
                            ("by", esc(&name(from)).into()),
                            ("owner", esc(&name(owner)).into()),
                            ("what", esc(&title).into()),
                        ],
                    ),
                    buttons: vec![vec![
                        (
                            app.i18n.s(lang, "button-owner-yes"),
                            proposal_data(id, true),
                        ),
                        (
                            app.i18n.s(lang, "button-owner-no"),
                            proposal_data(id, false),
                        ),
                    ]],
                },
            )
        })
        .collect())
}

/// A director's answer to an owner proposal: confirmed, the node gets its owner (a new node,
/// of type concept, when none had that name); ignored, nothing changes. The note says which.
pub async fn settle_proposal(
    app: &App,
    org: OrgId,
    user: UserId,
    id: i64,
    yes: bool,
    lang: crate::domain::Lang,
    at: DateTime<Utc>,
) -> Result<String, StoreError> {
    let Some(p) = app.store.owner_proposal(id).await?.filter(|p| p.org == org) else {
        return Ok(app.i18n.s(lang, "button-unknown"));
    };
    let director = app
        .store
        .member(org, user)
        .await?
        .is_some_and(|m| m.role == Role::Director);
    if !director {
        return Ok(app.i18n.s(lang, "owner-proposal-refused"));
    }
    // Settled first: of two presses (two directors, a double tap) only one acts.
    if p.status != "open" || !app.store.settle_owner_proposal(id, yes).await? {
        return Ok(app.i18n.s(lang, "owner-proposal-settled"));
    }
    if !yes {
        return Ok(app.i18n.t(
            lang,
            "owner-proposal-ignored",
            &[("what", esc(&p.title).into())],
        ));
    }
    let node = match p.node {
        Some(n) => {
            app.store.set_node_owner(org, n, p.owner, at).await?;
            n
        }
        None => {
            app.store
                .insert_node(&NewNode {
                    org_id: org,
                    node_type: NodeType::Concept,
                    title: &p.title,
                    description: None,
                    owner: Some(p.owner),
                    at,
                })
                .await?
                .id
        }
    };
    app.store.name_proposal_node(id, node).await?;
    let owner = app
        .store
        .user(p.owner)
        .await?
        .map(|u| u.full_name())
        .unwrap_or_default();
    Ok(app.i18n.t(
        lang,
        "owner-proposal-confirmed",
        &[
            ("what", esc(&p.title).into()),
            ("owner", esc(&owner).into()),
        ],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_types_by_name_alias_and_case_form() {
        assert_eq!(node_type("product"), Some(NodeType::Product));
        assert_eq!(node_type("Продукт"), Some(NodeType::Product));
        assert_eq!(node_type("клиенты"), Some(NodeType::Customer));
        assert_eq!(node_type("supplier"), Some(NodeType::Supplier));
        assert_eq!(node_type("поставщики"), Some(NodeType::Supplier));
        assert_eq!(node_type("банан"), None);
    }

    #[test]
    fn graph_questions_and_relations() {
        assert_eq!(
            graph_question("Что зависит от CRM?"),
            Some(("depends-on-it", "crm".into()))
        );
        assert_eq!(
            graph_question("what does the billing service depend on?"),
            Some(("it-depends-on", "the billing service".into()))
        );
        assert_eq!(graph_question("что у Димы?"), None);
        assert_eq!(relation("depends_on"), Some(Relation::DependsOn));
        assert_eq!(relation("зависит"), Some(Relation::DependsOn));
        assert_eq!(relation("банан"), None);
    }

    proptest::proptest! {
        #[test]
        fn graph_questions_never_panic(s in "\\PC{0,120}") {
            let _ = graph_question(&s);
        }
    }
}
