//! `/node TYPE TITLE [@owner]`: a node of the org's graph.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.add_node(&arg).await?).await
}
