//! `/goals`: each goal's progress, who moves it and who stalls.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.list_goals().await?).await
}
