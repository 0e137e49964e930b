//! The command line: `run`, `demo`, `replay`, `import`, `when`, `ask`, `digest`, `migrate`, `check-config`.
//!
//! Results go to stdout through [`Stdout`] only: a reader that goes away (`kept demo | head -1`)
//! ends the command quietly with exit 0, where `println!` would panic.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::fmt::Display;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, bail};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use clap::{Parser, Subcommand, ValueEnum};

use crate::app::App;
use crate::clock::{DrivenClock, SharedClock, SystemClock};
use crate::config::Settings;
use crate::domain::{Lang, OrgId, UserId};
use crate::store::Store;

#[derive(Debug, Parser)]
#[command(
    name = "kept",
    version,
    about = "The memory of a small team, as a Telegram bot"
)]
pub struct Cli {
    /// Configuration file (default: ./kept.toml when present).
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// Print the bot's messages as the HTML sent to Telegram instead of readable text
    /// (demo, replay, ask, digest; `--json` always keeps HTML).
    #[arg(long, global = true)]
    pub html: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LangArg {
    Ru,
    En,
}

impl From<LangArg> for Lang {
    fn from(l: LangArg) -> Lang {
        match l {
            LangArg::Ru => Lang::Ru,
            LangArg::En => Lang::En,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum OrgAction {
    /// A new org; its director links the org's groups with /link.
    Add {
        name: String,
        #[arg(long, default_value = "Europe/Moscow")]
        tz: String,
        #[arg(long, value_enum, default_value = "ru")]
        locale: LangArg,
        /// Telegram user id of the org's director.
        #[arg(long)]
        director: i64,
    },
    /// Every org with its timezone, people and linked chats.
    List,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Md,
    Json,
}

/// Which model a command uses.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum LlmArg {
    /// None: rules and templates only.
    None,
    /// The config file's `[llm]` section (`--config PATH`, else `./kept.toml`, overlaid by
    /// `KEPT__LLM__…`), as `kept run` reads it.
    Config,
}

impl LlmArg {
    fn settings(
        self,
        config: Option<&std::path::Path>,
    ) -> anyhow::Result<crate::config::LlmSettings> {
        Ok(match self {
            LlmArg::None => crate::config::LlmSettings::default(),
            LlmArg::Config => {
                let s =
                    Settings::load(config).context("--llm config: reading the configuration")?;
                if !s.llm.enabled() {
                    bail!(
                        "--llm config: the configuration has no [llm] provider (provider = \"none\")"
                    );
                }
                s.llm
            }
        })
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum DigestKind {
    Daily,
    Weekly,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the bot for real (long polling).
    Run,
    /// Replay the bundled demo week and print the transcript (no token, no network).
    Demo {
        #[arg(long, value_enum, default_value = "ru")]
        lang: LangArg,
        /// Where to write the weekly chart.
        #[arg(long, default_value = "kept-demo-chart.png")]
        png: PathBuf,
    },
    /// Run a scenario through the real bot against the sandbox.
    Replay {
        scenario: PathBuf,
        #[arg(long)]
        json: Option<PathBuf>,
        #[arg(long, default_value = "Europe/Moscow")]
        tz: String,
        /// `config`: use the model of the config file's `[llm]` section.
        #[arg(long, value_enum, default_value = "none")]
        llm: LlmArg,
        /// Keep the replayed database in this (new) file.
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Import a Telegram Desktop chat export (JSON) into the database.
    Import {
        /// `result.json` of one chat, or of the whole account (its group chats are imported).
        export: PathBuf,
        /// The database (default: the configured one).
        #[arg(long)]
        db: Option<PathBuf>,
        /// The org to import into (default: the default org).
        #[arg(long)]
        org: Option<i64>,
        /// Skip messages sent before this day (YYYY-MM-DD, the org's timezone).
        #[arg(long, value_parser = crate::import::parse_day)]
        since: Option<chrono::NaiveDate>,
    },
    /// Resolve date expressions (one per stdin line without TEXT).
    When {
        #[arg(long)]
        now: String,
        #[arg(long)]
        tz: String,
        #[arg(long, value_enum)]
        lang: Option<LangArg>,
        text: Option<String>,
    },
    /// Answer a question from an existing database, as USER_ID would be answered.
    Ask {
        #[arg(long)]
        db: PathBuf,
        #[arg(long = "as")]
        as_user: i64,
        /// Print the context block the answer was built from.
        #[arg(long)]
        explain: bool,
        /// `config`: a question no template answers goes to the configured model.
        #[arg(long, value_enum, default_value = "none")]
        llm: LlmArg,
        question: String,
    },
    /// Print the daily summary or weekly digest that would be sent.
    Digest {
        kind: DigestKind,
        #[arg(long)]
        db: PathBuf,
        #[arg(long)]
        org: i64,
        #[arg(long)]
        at: String,
        #[arg(long)]
        png: Option<PathBuf>,
    },
    /// Write a consistent copy of the database while the bot runs.
    Backup {
        out: PathBuf,
        /// The database (default: the configured one).
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Database, orgs, people, open promises, the delivery queue, last and next job runs.
    Status {
        #[arg(long)]
        db: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Everything kept holds about a person, as they may see it (Markdown or JSON).
    Export {
        #[arg(long = "as")]
        as_user: i64,
        #[arg(long)]
        db: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "md")]
        format: ExportFormat,
    },
    /// Orgs served by this bot: add one with its director, or list them.
    Org {
        #[command(subcommand)]
        action: OrgAction,
        #[arg(long, global = true)]
        db: Option<PathBuf>,
    },
    /// Run database migrations and exit.
    Migrate,
    /// Print the effective configuration (secrets masked); non-zero on invalid values.
    CheckConfig,
}

/// Whether messages print as HTML (`--html`) or as text a terminal reads.
static HTML: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A message (or a transcript of them) as the command prints it.
fn shown(text: &str) -> String {
    if HTML.load(std::sync::atomic::Ordering::Relaxed) {
        text.to_string()
    } else {
        crate::render::plain(text)
    }
}

/// Entry point for the binary.
pub fn main(cli: Cli) -> ExitCode {
    HTML.store(cli.html, std::sync::atomic::Ordering::Relaxed);
    let quiet = matches!(
        cli.command,
        Command::When { .. }
            | Command::Replay { .. }
            | Command::Import { .. }
            | Command::Demo { .. }
            | Command::Ask { .. }
            | Command::Digest { .. }
            | Command::Backup { .. }
            | Command::Status { .. }
            | Command::Export { .. }
            | Command::Org { .. }
    );
    // The subscriber is installed once, so `log.json` has to be known before the first log line;
    // a configuration error is reported by `dispatch` below.
    let json = matches!(cli.command, Command::Run)
        && Settings::load(cli.config.as_deref()).is_ok_and(|s| s.log.json);
    crate::telemetry::init(json, if quiet { "warn" } else { "info,sqlx=warn" });
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            error_line(format_args!("error: cannot start the runtime: {e}"));
            return ExitCode::FAILURE;
        }
    };
    let result = rt.block_on(dispatch(cli));
    // Whatever is still running after the command is done (a request that ignored the stop) is
    // not waited for.
    rt.shutdown_timeout(std::time::Duration::from_millis(500));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<StdoutClosed>() => ExitCode::SUCCESS,
        Err(e) => {
            error_line(format_args!("error: {e}"));
            for cause in e.chain().skip(1) {
                error_line(format_args!("  caused by: {cause}"));
            }
            ExitCode::FAILURE
        }
    }
}

/// One line on stderr; a closed stderr has nobody to tell, so the line is dropped.
fn error_line(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The reader of stdout went away: the command stops there, and that is not a failure.
#[derive(Debug, thiserror::Error)]
#[error("stdout was closed")]
struct StdoutClosed;

/// Buffered stdout for a command's results. Every write maps a broken pipe to [`StdoutClosed`].
struct Stdout(std::io::BufWriter<std::io::Stdout>);

impl Stdout {
    fn new() -> Stdout {
        Stdout(std::io::BufWriter::new(std::io::stdout()))
    }

    fn print(&mut self, text: impl Display) -> anyhow::Result<()> {
        let r = write!(self.0, "{text}");
        Self::check(r)
    }

    fn line(&mut self, text: impl Display) -> anyhow::Result<()> {
        let r = writeln!(self.0, "{text}");
        Self::check(r)
    }

    /// Flushes what is buffered; call it before returning, since dropping loses the error.
    fn done(mut self) -> anyhow::Result<()> {
        let r = self.0.flush();
        Self::check(r)
    }

    fn check(r: std::io::Result<()>) -> anyhow::Result<()> {
        match r {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(StdoutClosed.into()),
            Err(e) => Err(anyhow::Error::new(e).context("writing to stdout")),
        }
    }
}

fn load(cli_config: Option<&std::path::Path>) -> anyhow::Result<Settings> {
    Settings::load(cli_config).context("configuration")
}

async fn dispatch(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run => {
            let settings = load(cli.config.as_deref())?;
            if settings.log.json {
                crate::telemetry::init(true, "info,sqlx=warn");
            }
            settings.ensure_data_dir()?;
            let store = Store::open(&settings.database_path())
                .await
                .context("opening the database")?;
            let app = App::new(store, Arc::new(SystemClock) as SharedClock, settings).await?;
            let token = crate::bot::live::token(&app)?;
            crate::bot::live::run(app, token).await?;
        }
        Command::Demo { lang, png } => {
            let lang: Lang = lang.into();
            let text = match lang {
                Lang::Ru => include_str!("../demo/demo-ru.jsonl"),
                Lang::En => include_str!("../demo/demo-en.jsonl"),
            };
            let out = crate::replay::run_text(
                text,
                crate::replay::Options {
                    tz: chrono_tz::Europe::Moscow,
                    lang,
                    db: None,
                    llm: Default::default(),
                },
            )
            .await?;
            // Files first: a reader that stops early still gets them.
            let chart = out.chart.is_some();
            if let Some(bytes) = out.chart {
                std::fs::write(&png, bytes)
                    .with_context(|| format!("writing {}", png.display()))?;
            }
            let mut stdout = Stdout::new();
            stdout.line(shown(&out.transcript))?;
            if chart {
                stdout.line(format_args!("weekly chart written to {}", png.display()))?;
            }
            stdout.done()?;
        }
        Command::Replay {
            scenario,
            json,
            tz,
            llm,
            db,
        } => {
            let llm = llm.settings(cli.config.as_deref())?;
            let tz: Tz = tz
                .parse()
                .map_err(|_| anyhow::anyhow!("--tz: unknown timezone {tz:?}"))?;
            let out = crate::replay::run_file(
                &scenario,
                crate::replay::Options {
                    tz,
                    lang: Lang::Ru,
                    db,
                    llm,
                },
            )
            .await?;
            if let Some(path) = json {
                let text = serde_json::to_string_pretty(&out.json)?;
                std::fs::write(&path, text)
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            let mut stdout = Stdout::new();
            stdout.print(shown(&out.transcript))?;
            stdout.done()?;
        }
        Command::Import {
            export,
            db,
            org,
            since,
        } => {
            let settings = load(cli.config.as_deref())?;
            let opts = crate::import::Options {
                org: org.map(OrgId),
                since,
                progress: true,
            };
            let summary = crate::import::run(&export, db.as_deref(), &settings, &opts)
                .await
                .with_context(|| format!("importing {}", export.display()))?;
            let mut stdout = Stdout::new();
            stdout.print(summary)?;
            stdout.done()?;
        }
        Command::When {
            now,
            tz,
            lang,
            text,
        } => when(&now, &tz, lang.map(Lang::from), text)?,
        Command::Ask {
            db,
            as_user,
            explain,
            llm,
            question,
        } => {
            let llm = llm.settings(cli.config.as_deref())?;
            ask(
                cli.config.as_deref(),
                &db,
                UserId(as_user),
                explain,
                llm,
                &question,
            )
            .await?
        }
        Command::Digest {
            kind,
            db,
            org,
            at,
            png,
        } => digest(cli.config.as_deref(), kind, &db, OrgId(org), &at, png).await?,
        Command::Backup { out, db } => {
            let db = db_or_configured(cli.config.as_deref(), db)?;
            let app = open_existing(cli.config.as_deref(), &db, None).await?;
            app.store
                .backup_into(&out)
                .await
                .with_context(|| format!("backing up {} to {}", db.display(), out.display()))?;
            let mut stdout = Stdout::new();
            stdout.line(format_args!("{} → {}", db.display(), out.display()))?;
            stdout.done()?;
        }
        Command::Status { db, json } => {
            let db = db_or_configured(cli.config.as_deref(), db)?;
            status(cli.config.as_deref(), &db, json).await?
        }
        Command::Export {
            as_user,
            db,
            format,
        } => {
            let db = db_or_configured(cli.config.as_deref(), db)?;
            let app = open_existing(cli.config.as_deref(), &db, None).await?;
            let text = match format {
                ExportFormat::Md => crate::export::markdown(&app, UserId(as_user)).await?,
                ExportFormat::Json => serde_json::to_string_pretty(
                    &crate::export::json(&app, UserId(as_user)).await?,
                )?,
            };
            let mut stdout = Stdout::new();
            stdout.line(text)?;
            stdout.done()?;
        }
        Command::Org { action, db } => {
            let db = db_or_configured(cli.config.as_deref(), db)?;
            org(cli.config.as_deref(), &db, action).await?
        }
        Command::Migrate => {
            let settings = load(cli.config.as_deref())?;
            settings.ensure_data_dir()?;
            let store = Store::open(&settings.database_path())
                .await
                .context("migrating")?;
            store.close().await;
            let mut stdout = Stdout::new();
            stdout.line(format_args!(
                "migrations applied to {}",
                settings.database_path().display()
            ))?;
            stdout.done()?;
        }
        Command::CheckConfig => {
            let settings = load(cli.config.as_deref())?;
            settings.ensure_data_dir()?;
            let mut stdout = Stdout::new();
            stdout.print(settings.describe())?;
            stdout.done()?;
        }
    }
    Ok(())
}

fn when(now: &str, tz: &str, lang: Option<Lang>, text: Option<String>) -> anyhow::Result<()> {
    let tz: Tz = tz
        .parse()
        .map_err(|_| anyhow::anyhow!("--tz: unknown timezone {tz:?}"))?;
    let now = DateTime::parse_from_rfc3339(now)
        .map_err(|e| anyhow::anyhow!("--now: not an RFC 3339 time ({e})"))?
        .with_timezone(&tz);
    let one = |t: &str| {
        let l = lang.unwrap_or_else(|| Lang::detect(t));
        let v = crate::extract::dates::resolve(t, now, l);
        let f =
            |d: Option<chrono::NaiveDateTime>| d.map(|d| d.format("%Y-%m-%dT%H:%M:%S").to_string());
        serde_json::json!({
            "text": t,
            "start": v.as_ref().and_then(|v| f(v.start)),
            "end": v.as_ref().and_then(|v| f(v.end)),
            "grain": v.as_ref().map(|v| v.grain.as_str()),
        })
    };
    let mut out = Stdout::new();
    match text {
        Some(t) => out.line(one(&t))?,
        None => {
            for line in std::io::stdin().lock().lines() {
                let line = line?;
                out.line(one(line.trim_end_matches('\r')))?;
            }
        }
    }
    out.done()
}

/// `--db`, else the database `kept run` uses.
fn db_or_configured(
    config: Option<&std::path::Path>,
    db: Option<PathBuf>,
) -> anyhow::Result<PathBuf> {
    match db {
        Some(db) => Ok(db),
        None => Ok(load(config)?.database_path()),
    }
}

/// `kept org add|list`.
async fn org(
    config: Option<&std::path::Path>,
    db: &std::path::Path,
    action: OrgAction,
) -> anyhow::Result<()> {
    if let OrgAction::Add { .. } = action
        && let Some(dir) = db.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    if let OrgAction::Add { .. } = action
        && !db.exists()
    {
        // A first org may be added before the bot ever ran.
        Store::open(db)
            .await
            .with_context(|| format!("creating {}", db.display()))?
            .close()
            .await;
    }
    let app = open_existing(config, db, None).await?;
    let now = app.clock.now();
    let mut out = Stdout::new();
    match action {
        OrgAction::Add {
            name,
            tz,
            locale,
            director,
        } => {
            let tz: Tz = tz
                .parse()
                .map_err(|_| anyhow::anyhow!("--tz: unknown timezone {tz:?}"))?;
            if director <= 0 {
                bail!("--director: {director} is not a Telegram user id");
            }
            let id = app
                .store
                .create_org(name.trim(), tz, locale.into(), now)
                .await?;
            let user = UserId(director);
            if app.store.user(user).await?.is_none() {
                // Their names arrive with their first message to the bot.
                app.store
                    .upsert_user(user, &format!("User {director}"), None, None, None, now)
                    .await?;
            }
            app.store
                .set_member(id, user, crate::domain::Role::Director, None, None, now)
                .await?;
            out.line(format_args!(
                "org {id} {name:?} added with director {director}: they send /start to the bot, then /link in each of the org's groups"
            ))?;
        }
        OrgAction::List => {
            for id in app.store.orgs().await? {
                let o = app.store.org(id).await?;
                let people = app.store.people(id).await?;
                let directors: Vec<String> = people
                    .iter()
                    .filter(|p| p.member.role == crate::domain::Role::Director)
                    .map(|p| format!("{} ({})", p.profile.full_name(), p.profile.id))
                    .collect();
                out.line(format_args!(
                    "{id}\t{}\t{}\t{}\tpeople {}\tchats {}\tdirectors: {}",
                    o.name,
                    o.timezone.name(),
                    o.locale.code(),
                    people.len(),
                    app.store.linked_chat_count(id).await?,
                    if directors.is_empty() {
                        "none".into()
                    } else {
                        directors.join(", ")
                    }
                ))?;
            }
        }
    }
    out.done()
}

/// `kept status`: what an operator checks first.
async fn status(
    config: Option<&std::path::Path>,
    db: &std::path::Path,
    json: bool,
) -> anyhow::Result<()> {
    let app = open_existing(config, db, None).await?;
    // What the model would be: `kept run`'s configuration (the app here never calls it).
    let llm = Settings::load(config).map(|s| s.llm).unwrap_or_default();
    let now = app.clock.now();
    let size = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    let wal = PathBuf::from(format!("{}-wal", db.display()));
    let (messages, memories) = app.store.row_counts().await?;
    let queue = app.store.queue_status().await?;
    let mut orgs = Vec::new();
    for id in app.store.orgs().await? {
        let org = app.store.org(id).await?;
        let today = now.with_timezone(&org.timezone).date_naive();
        let st = app.store.org_status(id, &today.to_string()).await?;
        let table = crate::schedule::Timetable::new(
            &org,
            &app.settings.schedule,
            &app.settings.org.holidays,
        );
        let upcoming = table.runs_between(now, now + chrono::Duration::days(14));
        let jobs: Vec<serde_json::Value> = crate::domain::JobKind::ALL
            .iter()
            .map(|job| {
                let last = st.last_runs.iter().find(|(j, _)| j == job).map(|(_, t)| *t);
                let next = upcoming.iter().find(|(_, j)| j == job).map(|(t, _)| *t);
                let local = |t: DateTime<Utc>| t.with_timezone(&org.timezone).format("%Y-%m-%d %H:%M").to_string();
                serde_json::json!({"job": job.as_str(), "last": last.map(local), "next": next.map(local)})
            })
            .collect();
        let usage = app.store.llm_usage(id, today).await?;
        let backlog = app.store.refine_backlog(id).await?;
        orgs.push(serde_json::json!({
            "id": id.0, "name": st.name, "timezone": org.timezone.name(),
            "people": st.people, "open_promises": st.open_promises, "overdue_promises": st.overdue_promises,
            "jobs": jobs,
            "llm_today": {"calls": usage.calls, "failures": usage.failures, "tokens_in": usage.tokens_in,
                          "tokens_out": usage.tokens_out, "refine_backlog": backlog},
        }));
    }
    let report = serde_json::json!({
        "database": {"path": db.display().to_string(), "bytes": size(db), "wal_bytes": size(&wal)},
        "messages": messages,
        "memories": memories,
        "queue": {"queued": queue.queued, "failed": queue.failed, "sent": queue.sent},
        "orgs": orgs,
        "llm": if llm.enabled() {
            serde_json::json!({"provider": llm.provider.as_str(), "model": llm.model, "base_url": llm.base_url(),
                               "daily_token_budget": llm.daily_token_budget})
        } else {
            serde_json::Value::Null
        },
    });
    let mut out = Stdout::new();
    if json {
        out.line(serde_json::to_string_pretty(&report)?)?;
        return out.done();
    }
    let mb = |b: u64| b as f64 / 1_048_576.0;
    out.line(format_args!(
        "database  {}  {:.1} MB (WAL {:.1} MB)",
        db.display(),
        mb(size(db)),
        mb(size(&wal))
    ))?;
    out.line(format_args!(
        "rows      {messages} messages, {memories} memories"
    ))?;
    out.line(format_args!(
        "queue     {} queued, {} failed, {} sent",
        queue.queued, queue.failed, queue.sent
    ))?;
    for o in &orgs {
        out.line(format_args!(
            "org {}    {} ({}): people {}, open promises {} (overdue {})",
            o["id"],
            text(&o["name"]),
            text(&o["timezone"]),
            o["people"],
            o["open_promises"],
            o["overdue_promises"]
        ))?;
        if llm.enabled() {
            let u = &o["llm_today"];
            let spent =
                u["tokens_in"].as_i64().unwrap_or(0) + u["tokens_out"].as_i64().unwrap_or(0);
            let budget = match llm.daily_token_budget {
                0 => "no limit".to_string(),
                b => format!("of {b}"),
            };
            out.line(format_args!(
                "  model today: {} calls ({} failed), {spent} tokens {budget}, {} messages to refine",
                u["calls"], u["failures"], u["refine_backlog"]
            ))?;
        }
        for j in o["jobs"].as_array().into_iter().flatten() {
            out.line(format_args!(
                "  {:<22} last {:<16}  next {}",
                text(&j["job"]),
                j["last"].as_str().unwrap_or("never"),
                j["next"].as_str().unwrap_or("none in 14 days")
            ))?;
        }
    }
    if llm.enabled() {
        out.line(format_args!(
            "llm       {} {} at {}",
            llm.provider.as_str(),
            llm.model.as_deref().unwrap_or(""),
            llm.base_url()
        ))?;
    } else {
        out.line("llm       not configured (rules only)")?;
    }
    out.done()
}

fn text(v: &serde_json::Value) -> &str {
    v.as_str().unwrap_or("")
}

async fn open_existing(
    config: Option<&std::path::Path>,
    db: &std::path::Path,
    at: Option<DateTime<Utc>>,
) -> anyhow::Result<Arc<App>> {
    open_with(config, db, at, crate::config::LlmSettings::default()).await
}

/// As [`open_existing`], with the model given (none unless a command asked for `--llm config`).
async fn open_with(
    config: Option<&std::path::Path>,
    db: &std::path::Path,
    at: Option<DateTime<Utc>>,
    llm: crate::config::LlmSettings,
) -> anyhow::Result<Arc<App>> {
    if !db.exists() {
        bail!("no database at {}", db.display());
    }
    let mut settings = Settings::load(config).unwrap_or_default();
    settings.llm = llm;
    let store = Store::open(db)
        .await
        .with_context(|| format!("opening {}", db.display()))?;
    let clock: SharedClock = match at {
        Some(t) => Arc::new(DrivenClock::new(t)),
        None => Arc::new(SystemClock),
    };
    Ok(App::new(store, clock, settings).await?)
}

async fn ask(
    config: Option<&std::path::Path>,
    db: &std::path::Path,
    user: UserId,
    explain: bool,
    llm: crate::config::LlmSettings,
    question: &str,
) -> anyhow::Result<()> {
    let app = open_with(config, db, None, llm).await?;
    let org_id = app
        .store
        .org_of_user(user)
        .await?
        .with_context(|| format!("user {user} is not a member of any org"))?;
    let org = app.store.org(org_id).await?;
    let profile = app.store.user(user).await?;
    let lang = app.lang_for(profile.as_ref(), Some(&org));
    let a = crate::answer::Answerer::new(&app, &org, user, false, lang).await?;
    let reply = a.question(question).await?;
    let mut out = Stdout::new();
    out.line(shown(&reply.text))?;
    for row in &reply.buttons {
        out.line(format_args!(
            "[{}]",
            row.iter()
                .map(|b| b.0.as_str())
                .collect::<Vec<_>>()
                .join("] [")
        ))?;
    }
    if explain {
        out.line("\n--- context ---")?;
        if let Some(p) = a.people.iter().find(|p| p.profile.id == user) {
            let ctx =
                crate::context::read(&app.store, &a.viewer, p, app.clock.now(), org.timezone)?;
            out.print(crate::context::render(&ctx))?;
        }
    }
    out.done()
}

async fn digest(
    config: Option<&std::path::Path>,
    kind: DigestKind,
    db: &std::path::Path,
    org: OrgId,
    at: &str,
    png: Option<PathBuf>,
) -> anyhow::Result<()> {
    let at = DateTime::parse_from_rfc3339(at)
        .map_err(|e| anyhow::anyhow!("--at: not an RFC 3339 time ({e})"))?
        .with_timezone(&Utc);
    let app = open_existing(config, db, Some(at)).await?;
    let o = app
        .store
        .org(org)
        .await
        .with_context(|| format!("org {org}"))?;
    let table =
        crate::schedule::Timetable::new(&o, &app.settings.schedule, &app.settings.org.holidays);
    let people = app.store.people(org).await?;
    let recipient = crate::digest::summary_recipients(&people)
        .into_iter()
        .next()
        .context("the org has no director or lead to address the digest to")?;
    let mut out = Stdout::new();
    match kind {
        DigestKind::Daily => {
            out.line(shown(
                &crate::digest::daily_text(&app, &table.cal, at, recipient).await?,
            ))?;
        }
        DigestKind::Weekly => {
            let (text, chart) = crate::digest::weekly(&app, &table.cal, at, recipient).await?;
            // The file first: a reader that stops early still gets it.
            if let Some(path) = &png {
                let bytes = crate::digest::chart::render_png(&chart)?;
                std::fs::write(path, bytes)
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            out.line(shown(&text))?;
            if let Some(path) = png {
                out.line(format_args!("chart written to {}", path.display()))?;
            }
        }
    }
    out.done()
}
