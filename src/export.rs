//! Everything kept holds about a person, as they may see it, in a file they can read and edit:
//! Markdown for people, JSON for scripts (`kept export`, `/export` in a private chat).

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::app::App;
use crate::domain::{Lang, UserId};
use crate::render::format::{self, message_link};
use crate::store::{Commitment, Memory, Scope, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("storage")]
    Store(#[from] StoreError),
    #[error("user {0} is not a member of any org")]
    NotAMember(UserId),
}

/// One person's rows: their profile, every promise (current versions), every other memory,
/// open tasks, owned graph nodes and daily reflections. A person sees all of their own memory
/// (DESIGN section 4), so nothing is filtered out here.
struct Held {
    lang: Lang,
    name: String,
    about: String,
    role: String,
    org: String,
    tz: chrono_tz::Tz,
    commitments: Vec<Commitment>,
    memories: Vec<Memory>,
    tasks: Vec<crate::store::Task>,
    nodes: Vec<crate::store::Node>,
    reflections: Vec<crate::store::Reflection>,
}

async fn held(app: &App, user: UserId) -> Result<Held, ExportError> {
    let org_id = app
        .store
        .org_of_user(user)
        .await?
        .ok_or(ExportError::NotAMember(user))?;
    let org = app.store.org(org_id).await?;
    let profile = app
        .store
        .user(user)
        .await?
        .ok_or(ExportError::NotAMember(user))?;
    let member = app
        .store
        .member(org_id, user)
        .await?
        .ok_or(ExportError::NotAMember(user))?;
    let lang = app.lang_for(Some(&profile), Some(&org));
    let epoch = DateTime::<Utc>::UNIX_EPOCH;
    let commitments = app
        .store
        .commitments_for(org_id, user, Scope::Full, epoch)?;
    let memories = app
        .store
        .memories_for(org_id, user, Scope::Full, i64::from(i32::MAX), 0)
        .await?;
    let role = match member.position.as_deref().map(str::trim) {
        Some(p) if !p.is_empty() => p.to_string(),
        _ => app.i18n.s(lang, &format!("role-{}", member.role)),
    };
    Ok(Held {
        lang,
        name: profile.full_name(),
        about: format::about(&app.i18n, lang, &profile),
        role,
        org: org.name.clone(),
        tz: org.timezone,
        commitments,
        memories,
        tasks: app.store.open_tasks(org_id, user).await?,
        nodes: app.store.nodes_owned_by(org_id, user).await?,
        reflections: app.store.reflections_of(user, 1_000).await?,
    })
}

fn source(
    c_chat: Option<crate::domain::ChatId>,
    c_msg: Option<crate::domain::MessageId>,
) -> Option<String> {
    message_link(c_chat?, c_msg?)
}

/// Markdown escaping for text that came from chats: the characters that would start markup.
fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '*' | '_' | '`' | '[' | ']' | '#' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The person's memory as a Markdown document in their language.
pub async fn markdown(app: &App, user: UserId) -> Result<String, ExportError> {
    let h = held(app, user).await?;
    let t = |k: &str| app.i18n.s(h.lang, k);
    let mut out = format!(
        "# {}\n\n{} · {}\n",
        app.i18n.t(
            h.lang,
            "export-title",
            &[
                ("about", h.about.clone().into()),
                ("name", h.name.clone().into())
            ]
        ),
        md(&h.role),
        md(&h.org)
    );
    let (open, closed): (Vec<&Commitment>, Vec<&Commitment>) = h
        .commitments
        .iter()
        .partition(|c| c.state == crate::domain::CommitmentState::Open);
    for (title, list) in [("export-open", open), ("export-closed", closed)] {
        if list.is_empty() {
            continue;
        }
        out.push_str(&format!("\n## {}\n\n", t(title)));
        for c in list {
            let mark = if c.state == crate::domain::CommitmentState::Done {
                "x"
            } else {
                " "
            };
            let mut line = format!("- [{mark}] {}", md(&c.content));
            if let Some(d) = c.due {
                line.push_str(&format!(" — {}", format::due(&app.i18n, h.lang, d)));
            }
            if c.state != crate::domain::CommitmentState::Open {
                line.push_str(&format!(" ({})", t(crate::answer::state_key(c.state))));
            }
            if let Some(link) = source(c.source_chat, c.source_message) {
                line.push_str(&format!(" · [{}]({link})", t("source-message")));
            }
            out.push_str(&line);
            out.push('\n');
        }
    }
    for kind in [
        crate::domain::MemoryKind::Fact,
        crate::domain::MemoryKind::Preference,
        crate::domain::MemoryKind::Trait,
        crate::domain::MemoryKind::Context,
    ] {
        let rows: Vec<&Memory> = h.memories.iter().filter(|m| m.kind == kind).collect();
        if rows.is_empty() {
            continue;
        }
        out.push_str(&format!("\n## {}\n\n", t(&format!("kind-{kind}"))));
        for m in rows {
            let mut line = format!(
                "- {} ({} {:.0} %, {}, #{})",
                md(&m.content),
                t("confidence"),
                m.confidence.value() * 100.0,
                m.created_at.with_timezone(&h.tz).format("%Y-%m-%d"),
                m.id
            );
            if let Some(link) = source(m.source_chat, m.source_message) {
                line.push_str(&format!(" · [{}]({link})", t("source-message")));
            }
            out.push_str(&line);
            out.push('\n');
        }
    }
    if !h.tasks.is_empty() {
        out.push_str(&format!(
            "\n## {}\n\n",
            t("status-tasks").trim_end_matches(':')
        ));
        for task in &h.tasks {
            out.push_str(&format!(
                "- {} ({})\n",
                md(&task.title),
                t(&format!("priority-{}", task.priority))
            ));
        }
    }
    if !h.nodes.is_empty() {
        out.push_str(&format!(
            "\n## {}\n\n",
            t("status-owns").trim_end_matches(':')
        ));
        for n in &h.nodes {
            out.push_str(&format!("- {}\n", md(&n.title)));
        }
    }
    if !h.reflections.is_empty() {
        out.push_str(&format!("\n## {}\n\n", t("export-reflections")));
        for r in &h.reflections {
            out.push_str(&format!("- {}: {}\n", r.day, md(&r.summary)));
        }
    }
    if h.commitments.is_empty() && h.memories.is_empty() && h.tasks.is_empty() && h.nodes.is_empty()
    {
        out.push_str(&format!("\n{}\n", t("me-nothing")));
    }
    Ok(out)
}

/// The same rows as JSON, for scripts.
pub async fn json(app: &App, user: UserId) -> Result<Value, ExportError> {
    let h = held(app, user).await?;
    let commitments: Vec<Value> = h
        .commitments
        .iter()
        .map(|c| {
            json!({
                "id": c.origin_id.0, "text": c.content, "state": c.state.as_str(),
                "due": c.due.map(|d| d.date.to_string()),
                "due_time": c.due.and_then(|d| d.time).map(|t| t.format("%H:%M").to_string()),
                "confidence": c.confidence.value(), "author": c.author.to_string(),
                "source": source(c.source_chat, c.source_message),
                "made_at": c.created_at.to_rfc3339(), "changed_at": c.valid_from.to_rfc3339(),
            })
        })
        .collect();
    let memories: Vec<Value> = h
        .memories
        .iter()
        .map(|m| {
            json!({
                "id": m.id.0, "kind": m.kind.as_str(), "content": m.content,
                "confidence": m.confidence.value(), "author": m.author.to_string(),
                "visibility": m.visibility.as_str(), "evidence": m.evidence,
                "source": source(m.source_chat, m.source_message),
                "created_at": m.created_at.to_rfc3339(),
            })
        })
        .collect();
    Ok(json!({
        "user": user.0, "name": h.name, "role": h.role, "org": h.org,
        "commitments": commitments,
        "memories": memories,
        "tasks": h.tasks.iter().map(|t| json!({"id": t.id, "title": t.title, "status": t.status, "priority": t.priority,
            "due": t.due.map(|d| d.date.to_string())})).collect::<Vec<_>>(),
        "owns": h.nodes.iter().map(|n| json!({"id": n.id, "title": n.title, "slug": n.slug})).collect::<Vec<_>>(),
        "reflections": h.reflections.iter().map(|r| json!({"day": r.day, "summary": r.summary, "highlights": r.highlights,
            "commitments": r.commitments, "risks": r.risks})).collect::<Vec<_>>(),
    }))
}
