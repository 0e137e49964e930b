//! `/team`: who is in the team and what each has open, as the asker may see it.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.team().await?).await
}
