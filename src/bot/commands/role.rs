//! `/role @user director|lead|member [position]` (directors only).

use crate::bot::context::{Dm, HandlerResult};

pub(in crate::bot) async fn run(dm: Dm, arg: String) -> HandlerResult {
    let a = dm.answerer().await?;
    dm.reply(a.set_role(&arg).await?).await
}
