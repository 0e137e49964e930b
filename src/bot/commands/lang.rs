//! `/lang ru|en`: the language kept writes to the asker in.

use crate::answer::Reply;
use crate::bot::context::{Dm, HandlerResult};
use crate::domain::Lang;

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    match arg.parse::<Lang>() {
        Ok(l) => {
            dm.app.store.set_lang_override(dm.user(), l).await?;
            dm.reply(Reply::text(dm.app.i18n.s(l, "lang-set"))).await
        }
        Err(_) => dm.say("lang-usage").await,
    }
}
