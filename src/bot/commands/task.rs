//! `/task @user WHAT [до DATE] [!срочно]` (directors, leads for their reports): a task the
//! assignee is asked to accept.

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    let assigned = a.task_command(&arg).await?;
    super::deliver_assignment(&dm.bot, &assigned).await;
    dm.reply(assigned.reply).await
}
