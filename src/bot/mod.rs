//! The Telegram side: one `schema()` handler tree over a plain `Bot`, thin handlers that turn an
//! update into a domain call and the result into a reply, command menus, and the live runner.

mod handlers;
mod outbox;

use std::sync::Arc;

use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;
use teloxide::utils::command::BotCommands;

pub use handlers::BotIdentity;
pub use outbox::BotOutbox;

use crate::app::App;

#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("telegram request failed")]
    Telegram(#[from] teloxide::RequestError),
    #[error("storage")]
    Store(#[from] crate::store::StoreError),
    #[error("ingest")]
    Ingest(#[from] crate::ingest::IngestError),
    #[error("answer")]
    Answer(#[from] crate::answer::AnswerError),
    #[error("update is not valid JSON for teloxide")]
    BadUpdate(#[source] serde_json::Error),
}

/// The commands kept understands. Menus are registered from the locale files (`set_menus`).
#[derive(BotCommands, Clone, Debug, PartialEq, Eq)]
#[command(rename_rule = "lowercase")]
pub enum Command {
    Start,
    Help,
    Link,
    Role(String),
    Lang(String),
    Me,
    Priorities,
    Promises,
    Team,
    Forget(String),
    Remember(String),
}

/// The one handler tree: the live dispatcher and the deterministic replay path both use it.
pub fn schema() -> UpdateHandler<BotError> {
    dptree::entry()
        .branch(Update::filter_message().endpoint(handlers::on_message))
        .branch(Update::filter_edited_message().endpoint(handlers::on_edit))
        .branch(Update::filter_my_chat_member().endpoint(handlers::on_my_chat_member))
        .branch(Update::filter_callback_query().endpoint(handlers::on_callback))
}

/// Runs one update (JSON text, as Telegram sends it) through the tree to completion, replies
/// included. Errors are logged and swallowed like the live dispatcher does: one bad update never
/// stops the bot.
pub async fn dispatch_json(
    bot: &Bot,
    app: &Arc<App>,
    me: &Arc<BotIdentity>,
    json: &str,
) -> Result<(), BotError> {
    let update: Update = serde_json::from_str(json).map_err(BotError::BadUpdate)?;
    let result = schema()
        .dispatch(dptree::deps![bot.clone(), app.clone(), me.clone(), update])
        .await;
    if let std::ops::ControlFlow::Break(Err(e)) = result {
        tracing::error!(error = %e, cause = ?std::error::Error::source(&e), "update handling failed");
    }
    Ok(())
}

/// Registers the command menus in both languages.
pub async fn set_menus(bot: &Bot, app: &App) -> Result<(), BotError> {
    use teloxide::types::BotCommand;
    for lang in [crate::domain::Lang::Ru, crate::domain::Lang::En] {
        let cmds: Vec<BotCommand> = [
            "start",
            "help",
            "priorities",
            "promises",
            "me",
            "team",
            "lang",
            "link",
            "role",
            "forget",
        ]
        .iter()
        .map(|c| BotCommand::new(*c, app.i18n.s(lang, &format!("cmd-{c}"))))
        .collect();
        let req = bot.set_my_commands(cmds);
        match lang {
            crate::domain::Lang::Ru => req.language_code("ru").await?,
            crate::domain::Lang::En => req.await?,
        };
    }
    Ok(())
}

pub mod live;
