//! `/forget N`: drops one of the asker's memories.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.forget(&arg).await?).await
}
