//! The commands of a DM, one small file each, and the branch of `schema()` that routes a
//! command to its file. Access rules and writes are the domain's (`crate::answer`); a file
//! here reads the argument, calls it and sends what it returns.

mod away;
mod digest;
mod export;
mod fix;
mod forget;
mod gender;
mod goal;
mod goals;
mod help;
mod lang;
mod link;
mod me;
mod node;
mod nodes;
mod priorities;
mod promises;
mod remember;
mod role;
mod start;
mod task;
mod team;

use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;

use super::context::{Dm, send};
use super::{BotError, Command};

/// A DM's command to its handler (after [`Dm`] is read; a text that is no command falls through).
pub(super) fn branch() -> UpdateHandler<BotError> {
    use dptree::case;
    dptree::filter_map(Dm::command)
        .branch(case![Command::Start].endpoint(start::run))
        .branch(case![Command::Help].endpoint(help::run))
        .branch(case![Command::Lang(arg)].endpoint(lang::run))
        .branch(case![Command::Me].endpoint(me::run))
        .branch(case![Command::Priorities].endpoint(priorities::run))
        .branch(case![Command::Promises].endpoint(promises::run))
        .branch(case![Command::Team].endpoint(team::run))
        .branch(case![Command::Forget(arg)].endpoint(forget::run))
        .branch(case![Command::Remember(arg)].endpoint(remember::run))
        .branch(case![Command::Role(arg)].endpoint(role::run))
        .branch(case![Command::Gender(arg)].endpoint(gender::run))
        .branch(case![Command::Away(arg)].endpoint(away::run))
        .branch(case![Command::Node(arg)].endpoint(node::run))
        .branch(case![Command::Nodes(arg)].endpoint(nodes::run))
        .branch(case![Command::Fix(arg)].endpoint(fix::run))
        .branch(case![Command::Task(arg)].endpoint(task::run))
        .branch(case![Command::Export].endpoint(export::run))
        .branch(case![Command::Link(arg)].endpoint(link::run))
        .branch(case![Command::Goal(arg)].endpoint(goal::run))
        .branch(case![Command::Goals].endpoint(goals::run))
        .branch(case![Command::Digest(arg)].endpoint(digest::run))
}

/// The assignee's DM of a new task. A failure (they blocked the bot since) is logged: the
/// assigner's own reply still goes out, and the task waits in the assignee's list.
pub(super) async fn deliver_assignment(bot: &Bot, assigned: &crate::answer::tasks::Assigned) {
    if let Some((to, reply)) = &assigned.to_assignee
        && let Err(e) = send(bot, ChatId(to.0), None, reply).await
    {
        tracing::warn!(user_id = to.0, error = %e, "could not send a task to its assignee");
    }
}
