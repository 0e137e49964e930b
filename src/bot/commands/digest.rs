//! `/digest off|on|неделя|HH`: what the asker receives, and when.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.digest_command(&arg).await?).await
}
