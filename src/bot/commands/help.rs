//! `/help`: what kept does, with examples in the asker's language.

use crate::answer::Reply;
use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm) -> HandlerResult {
    let a = dm.answerer().await?;
    let text = dm
        .app
        .i18n
        .t(dm.lang, "help", &[("examples", a.examples().into())]);
    dm.reply(Reply::text(text)).await
}
