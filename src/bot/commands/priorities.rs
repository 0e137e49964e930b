//! `/priorities`: the asker's open promises and tasks, most pressing first.

use crate::bot::context::{Dm, HandlerResult};
use crate::extract::intent::Intent;

pub(in crate::bot) async fn run(dm: Dm) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.intent(Intent::MyPriorities).await?).await
}
