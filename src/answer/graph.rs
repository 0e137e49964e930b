//! The business graph from Telegram: `/node <type> <title> [@owner]` (director, lead) adds a
//! node, `/nodes [type]` lists them. Slugs follow DESIGN ("Топливные баки" → `toplivnye-baki`).

use std::sync::OnceLock;

use super::{AnswerError, Answerer, Reply};
use crate::answer::format::esc;
use crate::domain::{NodeType, Role, UserId};
use crate::extract::{names, words};
use crate::ingest::extract_people;
use crate::store::NewNode;

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
}
