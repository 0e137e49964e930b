//! `/fix N срок|владелец|текст|готово|отмена|не обещание …`: a person's correction of a promise.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.fix(&arg).await?).await
}
