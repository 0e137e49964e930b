//! The bot's own membership changed: a person blocked or unblocked it (their DM closes or
//! opens), or it was removed from a group (the group is marked inactive).

use std::sync::Arc;

use teloxide::types::ChatMemberUpdated;

use super::context::HandlerResult;
use crate::app::App;
use crate::domain::{self, UserId as Uid};

pub(super) async fn run(app: Arc<App>, upd: ChatMemberUpdated) -> HandlerResult {
    let chat = domain::ChatId(upd.chat.id.0);
    let gone = upd.new_chat_member.is_left() || upd.new_chat_member.is_banned();
    if upd.chat.is_private() {
        app.store.set_dm_open(Uid(upd.chat.id.0), !gone).await?;
    } else if gone {
        tracing::info!(
            chat_id = chat.0,
            "bot removed from the chat: marked inactive"
        );
        app.store.set_chat_active(chat, false).await?;
    }
    Ok(())
}
