//! A DM that is not a command: an absence announced ("я в отпуске с 1 по 10"), a plain
//! assignment from a director or lead ("Павел, переделай смету до завтра"), or a question.

use super::commands::deliver_assignment;
use super::context::{Dm, HandlerResult};
use crate::answer::Reply;

/// Someone kept has not met in any org.
pub(super) async fn stranger(s: super::context::Stranger) -> HandlerResult {
    super::context::send(&s.bot, s.msg.chat.id, Some(s.msg.id), &Reply::text(s.reply)).await
}

/// A message with no text (a sticker, a photo without a caption).
pub(super) async fn empty(dm: Dm) -> HandlerResult {
    dm.say("empty-message").await
}

/// A `/word` that is no command of kept's.
pub(super) async fn unknown_command(dm: Dm) -> HandlerResult {
    dm.say("unknown-command").await
}

pub(super) async fn text(dm: Dm) -> HandlerResult {
    let a = dm.answerer().await?;
    let text = dm.text();
    if let Some(reply) = a.announced_absence(text).await? {
        return dm.reply(reply).await;
    }
    if let Some(assigned) = a.plain_assignment(text).await? {
        deliver_assignment(&dm.bot, &assigned).await;
        return dm.reply(assigned.reply).await;
    }
    dm.reply(a.question(text).await?).await
}
