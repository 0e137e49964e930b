//! An edited group message: the stored text changes, and what the edit says of promises is
//! read again (dates against the original message's time).

use std::sync::Arc;

use teloxide::prelude::*;

use super::context::{HandlerResult, Sender, mentions, text_of, uid};
use crate::app::App;
use crate::domain::{self, MessageId as MsgId};
use crate::ingest::{self, Incoming, Ingest};

pub(super) async fn run(app: Arc<App>, msg: Message, from: Sender) -> HandlerResult {
    let chat = domain::ChatId(msg.chat.id.0);
    let Some(linked) = app.store.chat(chat).await?.filter(|c| c.active) else {
        return Ok(());
    };
    let text = text_of(&msg).unwrap_or("");
    let at = msg.edit_date().copied().unwrap_or_else(|| app.clock.now());
    let id = MsgId(msg.id.0 as i64);
    if app.store.edit_message(chat, id, text, at).await?.is_none() {
        return Ok(());
    }
    let org = app.store.org(linked.org_id).await?;
    let people = app.store.people(org.id).await?;
    let names = ingest::extract_people(&people);
    let ments = mentions(&msg);
    let ing = Ingest {
        store: &app.store,
        org: &org,
        people: &people,
        names: &names,
        refine: app.llm.is_some(),
    };
    let stored = app.store.message(chat, id).await?;
    let reply_to = stored.as_ref().and_then(|m| m.reply_to);
    // Dates in an edit resolve against the original message's time.
    let date = stored.map(|m| m.date).unwrap_or(msg.date);
    ing.edit(&Incoming {
        chat,
        message: id,
        from: uid(&from.0),
        date,
        text,
        reply_to,
        mentions: &ments,
    })
    .await?;
    Ok(())
}
