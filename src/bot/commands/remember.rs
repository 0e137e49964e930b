//! `/remember TEXT`: a fact the asker wants kept.

use crate::bot::context::{Dm, HandlerResult};
use crate::extract::intent::Intent;

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.intent(Intent::Remember { content: arg }).await?)
        .await
}
