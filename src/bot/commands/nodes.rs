//! `/nodes [type]`: the org's graph, by type.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.list_nodes(&arg).await?).await
}
