//! `/away 1.12–10.12`, `/away off`: an absence (no reminders, not idle).

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.away(&arg).await?).await
}
