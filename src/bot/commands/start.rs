//! `/start`: the welcome, with the help buttons; a director whose bot cannot read group
//! messages (privacy mode) is told how to fix it, since nothing in a group would show it.

use crate::answer::Reply;
use crate::bot::context::{Dm, HandlerResult};
use crate::domain::Role;
use crate::render::format::esc;

pub(in crate::bot) async fn run(dm: Dm) -> HandlerResult {
    let a = dm.answerer().await?;
    let i18n = &dm.app.i18n;
    let mut text = i18n.t(
        dm.lang,
        "start-welcome",
        &[("name", esc(&dm.from.first_name).into())],
    );
    if a.viewer.role == Role::Director && !dm.me.reads_group_messages {
        text.push_str("\n\n");
        text.push_str(&i18n.t(
            dm.lang,
            "start-privacy-mode",
            &[("bot", esc(&dm.me.username).into())],
        ));
    }
    dm.reply(Reply {
        text,
        buttons: a.help().buttons,
    })
    .await
}
