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
    #[error("export")]
    Export(#[from] crate::export::ExportError),
    #[error("update is not valid JSON for teloxide")]
    BadUpdate(#[source] serde_json::Error),
}

/// The commands kept understands. Menus are registered from the locale files (`set_menus`).
#[derive(BotCommands, Clone, Debug, PartialEq, Eq)]
#[command(rename_rule = "lowercase")]
pub enum Command {
    Start,
    Help,
    Link(String),
    Role(String),
    Lang(String),
    Me,
    Priorities,
    Promises,
    Team,
    Forget(String),
    Remember(String),
    Gender(String),
    Export,
    Away(String),
    Node(String),
    Nodes(String),
    Task(String),
    Fix(String),
    Goal(String),
    Goals,
    Digest(String),
}

/// The one handler tree: the live dispatcher and the deterministic replay path both use it.
pub fn schema() -> UpdateHandler<BotError> {
    dptree::entry()
        .branch(Update::filter_message().endpoint(
            |bot: Bot, app: Arc<App>, me: Arc<BotIdentity>, upd: Update, msg: Message| {
                guarded("message", upd.id, handlers::on_message(bot, app, me, msg))
            },
        ))
        .branch(Update::filter_edited_message().endpoint(
            |app: Arc<App>, upd: Update, msg: Message| {
                guarded("edit", upd.id, handlers::on_edit(app, msg))
            },
        ))
        .branch(Update::filter_my_chat_member().endpoint(
            |app: Arc<App>, upd: Update, member: teloxide::types::ChatMemberUpdated| {
                guarded(
                    "chat member",
                    upd.id,
                    handlers::on_my_chat_member(app, member),
                )
            },
        ))
        .branch(Update::filter_callback_query().endpoint(
            |bot: Bot, app: Arc<App>, upd: Update, q: CallbackQuery| {
                guarded("button", upd.id, handlers::on_callback(bot, app, q))
            },
        ))
}

/// Runs a handler on a task of its own, so that a panic anywhere in it (a bug met by some text
/// nobody foresaw) costs that one update, logged, instead of the dispatcher's worker for the
/// chat and every update queued behind it.
pub async fn guarded<F>(
    what: &'static str,
    update: teloxide::types::UpdateId,
    handler: F,
) -> Result<(), BotError>
where
    F: std::future::Future<Output = Result<(), BotError>> + Send + 'static,
{
    use tracing::Instrument;
    metrics::counter!("kept_updates_total", "kind" => what).increment(1);
    // Every span of the update (message, ingest, answer) sits under this one.
    let span = tracing::info_span!("update", update_id = update.0, kind = what);
    match tokio::spawn(handler.instrument(span)).await {
        Ok(result) => result,
        Err(e) if e.is_panic() => {
            metrics::counter!("kept_handler_panics_total").increment(1);
            tracing::error!(
                update = what,
                "handler panicked: this update is skipped, the bot goes on"
            );
            Ok(())
        }
        Err(e) => {
            tracing::error!(update = what, error = %e, "handler task was cancelled");
            Ok(())
        }
    }
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
            "gender",
            "export",
            "away",
            "node",
            "nodes",
            "task",
            "fix",
            "goal",
            "goals",
            "digest",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicking_handler_costs_only_its_update() {
        let r = guarded("message", teloxide::types::UpdateId(1), async {
            let v: Vec<u8> = Vec::new();
            let _ = v[std::hint::black_box(3)];
            Ok(())
        })
        .await;
        assert!(r.is_ok());
        // The runtime goes on with the next one.
        assert!(
            guarded("message", teloxide::types::UpdateId(1), async { Ok(()) })
                .await
                .is_ok()
        );
        let failed = guarded("message", teloxide::types::UpdateId(1), async {
            Err(BotError::BadUpdate(
                serde_json::from_str::<u8>("x").unwrap_err(),
            ))
        })
        .await;
        assert!(failed.is_err(), "errors still reach the error handler");
    }
}
