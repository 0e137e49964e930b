//! `/export`: everything kept holds about the asker, as a Markdown file.

use teloxide::prelude::*;
use teloxide::types::{InputFile, ReplyParameters};

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm) -> HandlerResult {
    let user = dm.user();
    let md = crate::export::markdown(&dm.app, user).await?;
    dm.bot
        .send_document(
            dm.msg.chat.id,
            InputFile::memory(md.into_bytes()).file_name(format!("kept-{}.md", user.0)),
        )
        .caption(dm.app.i18n.s(dm.lang, "export-caption"))
        .reply_parameters(ReplyParameters::new(dm.msg.id).allow_sending_without_reply())
        .await?;
    Ok(())
}
