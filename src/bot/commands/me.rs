//! `/me`: what kept knows about the asker.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.about_me().await?).await
}
