//! The Telegram side: one `schema()` handler tree over a plain `Bot`, thin handlers that turn an
//! update into a domain call and the result into a reply, command menus, and the live runner.
//!
//! The tree routes by update kind, then chat kind, then command (`case![Command::…]`, one file
//! per DM command in `commands/`) or button kind (`buttons.rs`); the values each endpoint
//! starts from (`context.rs`) are built by steps of the tree.

mod buttons;
mod commands;
mod context;
mod dm;
mod edit;
mod group;
mod members;
mod outbox;

use std::sync::Arc;

use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;
use teloxide::utils::command::BotCommands;

pub use context::BotIdentity;
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
    use context::{Dm, Press, Private, Sender};
    use dptree::case;
    let private = dptree::filter(|m: Message| m.chat.is_private())
        .filter_map_async(Private::read)
        .branch(
            dptree::filter_map(Private::known)
                .branch(dptree::filter(|dm: Dm| dm.text().is_empty()).endpoint(dm::empty))
                .branch(commands::branch())
                .branch(
                    dptree::filter(|dm: Dm| dm.text().starts_with('/'))
                        .endpoint(dm::unknown_command),
                )
                .endpoint(dm::text),
        )
        .branch(dptree::filter_map(Private::stranger).endpoint(dm::stranger));
    let group = dptree::filter(|m: Message| m.chat.is_group() || m.chat.is_supergroup())
        .branch(
            dptree::filter(|m: Message, me: Arc<BotIdentity>| {
                matches!(context::command(&m, &me), Some(Command::Link(_)))
            })
            .endpoint(group::link),
        )
        .filter_map_async(group::Group::read)
        .filter_map_async(group::Group::capture)
        .branch(
            dptree::filter_map(group::Heard::command)
                .branch(case![Command::Help].endpoint(group::help))
                .branch(case![Command::Start].endpoint(group::help))
                .branch(case![Command::Digest(arg)].endpoint(group::digest))
                .endpoint(group::command_in_dm),
        )
        .branch(dptree::filter(group::Heard::addressed).endpoint(group::question));
    dptree::entry()
        .branch(
            Update::filter_message()
                .chain(isolated("message"))
                .filter_map(Sender::of)
                .branch(
                    dptree::filter_map(|m: Message| m.migrate_to_chat_id().copied())
                        .endpoint(group::migrated),
                )
                .filter_async(Sender::remembered)
                .branch(private)
                .branch(group),
        )
        .branch(
            Update::filter_edited_message()
                .chain(isolated("edit"))
                .filter(|m: Message| !m.chat.is_private())
                .filter_map(Sender::of)
                .endpoint(edit::run),
        )
        .branch(
            Update::filter_my_chat_member()
                .chain(isolated("chat member"))
                .endpoint(members::run),
        )
        .branch(
            Update::filter_callback_query()
                .chain(isolated("button"))
                .filter_map_async(Press::read)
                .chain(buttons::branch()),
        )
}

/// A step of the tree that runs the rest of the update's branch with its panics caught, so that a
/// panic anywhere in it (a bug met by some text nobody foresaw) costs that one update, logged,
/// instead of the dispatcher's worker for the chat and every update queued behind it. Every span
/// of the update (ingest, answer) sits under the one opened here, with the update's id, chat and
/// sender.
fn isolated(what: &'static str) -> UpdateHandler<BotError> {
    use dptree::HandlerDescription;
    dptree::from_fn_with_description(
        teloxide::dispatching::DpHandlerDescription::entry(),
        move |deps: dptree::di::DependencyMap, cont| async move {
            let update: Arc<Update> = deps.get();
            let span = tracing::info_span!(
                "update",
                update_id = update.id.0,
                kind = what,
                chat_id = update.chat().map(|c| c.id.0),
                user_id = update.from().map(|u| u.id.0),
            );
            use tracing::Instrument;
            metrics::counter!("kept_updates_total", "kind" => what).increment(1);
            use futures_util::FutureExt;
            // Caught where it runs, not on a task of its own: a spawned task costs every update
            // a wake of another worker thread and back (a fifth of a replay's time).
            match std::panic::AssertUnwindSafe(cont(deps).instrument(span))
                .catch_unwind()
                .await
            {
                Ok(flow) => flow,
                Err(_) => {
                    metrics::counter!("kept_handler_panics_total").increment(1);
                    tracing::error!(
                        update = what,
                        "handler panicked: this update is skipped, the bot goes on"
                    );
                    std::ops::ControlFlow::Break(Ok(()))
                }
            }
        },
        // It needs the update (for the span) and adds nothing; an entry signature would not
        // chain after a filter.
        dptree::HandlerSignature::Other {
            obligations: [(dptree::Type::of::<Update>(), std::panic::Location::caller())].into(),
            guaranteed_outcomes: Default::default(),
            conditional_outcomes: Default::default(),
            continues: true,
        },
    )
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
    // Built once: the tree checks its types as it is built, which costs more than an update.
    static TREE: std::sync::LazyLock<UpdateHandler<BotError>> = std::sync::LazyLock::new(schema);
    let update: Update = serde_json::from_str(json).map_err(BotError::BadUpdate)?;
    let result = TREE
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

    fn update() -> Update {
        // From text, as Telegram's arrive (teloxide reads an update's kind from raw JSON).
        serde_json::from_str(
            &serde_json::json!({
                "update_id": 7,
                "message": {
                    "message_id": 1, "date": 1_764_000_000,
                    "chat": {"id": 5, "type": "private", "first_name": "A"},
                    "from": {"id": 5, "is_bot": false, "first_name": "A"},
                    "text": "hi"
                }
            })
            .to_string(),
        )
        .unwrap()
    }

    #[tokio::test]
    async fn a_panicking_handler_costs_only_its_update() {
        let tree: UpdateHandler<BotError> = Update::filter_message()
            .chain(isolated("message"))
            .endpoint(|| async {
                let v: Vec<u8> = Vec::new();
                let _ = v[std::hint::black_box(3)];
                Ok(())
            });
        let r = tree.dispatch(dptree::deps![update()]).await;
        assert!(matches!(r, std::ops::ControlFlow::Break(Ok(()))), "{r:?}");
        // The runtime goes on with the next one, and an error still reaches the error handler.
        let failing: UpdateHandler<BotError> =
            dptree::entry()
                .chain(isolated("message"))
                .endpoint(|| async {
                    Err(BotError::BadUpdate(
                        serde_json::from_str::<u8>("x").unwrap_err(),
                    ))
                });
        let r = failing.dispatch(dptree::deps![update()]).await;
        assert!(matches!(r, std::ops::ControlFlow::Break(Err(_))), "{r:?}");
    }
}
