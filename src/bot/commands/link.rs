//! `/link`: in a group, links it to the director's org (`crate::bot::group`); in a DM,
//! `/link NODE RELATION NODE` adds an edge to the graph.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    if arg.trim().is_empty() {
        return dm.say("link-in-group").await;
    }
    let a = dm.answerer().await?;
    dm.reply(a.link_nodes(&arg).await?).await
}
