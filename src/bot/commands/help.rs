//! `/help`: what kept does, with examples in the asker's language.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.help_text()).await
}
