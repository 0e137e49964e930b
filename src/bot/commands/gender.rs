//! `/gender m|f|auto`, or `/gender @user …` for a director: how names inflect.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.set_gender(&arg).await?).await
}
