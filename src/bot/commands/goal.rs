//! `/goal TITLE до DATE — steps @owner`: a goal and its planned steps.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.goal_command(&arg).await?).await
}
