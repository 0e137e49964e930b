//! Settings: a TOML file (`--config PATH`, else `./kept.toml`), overlaid by `KEPT__SECTION__KEY`
//! environment variables (env wins); the bot token also from `TELOXIDE_TOKEN`.
//!
//! Secrets never appear in logs or `Debug` output.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use std::net::SocketAddr;

use chrono::NaiveDate;
use chrono_tz::Tz;
use serde::{Deserialize, Deserializer};

use crate::domain::{CronSpec, Lang};

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config file {path} is not valid TOML")]
    Toml {
        path: PathBuf,
        #[source]
        source: Box<toml::de::Error>,
    },
    /// A value of the wrong shape or one that does not parse as what it stands for (a
    /// timezone, a cron expression, an address); toml's message names the key.
    #[error("invalid configuration: {}", .0.to_string().trim_end())]
    Shape(Box<toml::de::Error>),
    #[error("{key}: {message}")]
    Invalid { key: String, message: String },
}

/// A secret string: usable, never printed.
#[derive(Clone, Deserialize, PartialEq, Eq)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Self {
        Secret(s.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What `check-config` prints for an optional secret: `***`, or `(not set)`.
    pub fn shown(s: &Option<Secret>) -> String {
        match s {
            Some(s) if !s.0.is_empty() => "***".to_string(),
            _ => "(not set)".to_string(),
        }
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"***\"")
    }
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TelegramSettings {
    /// From @BotFather. Also read from `TELOXIDE_TOKEN`.
    pub token: Option<Secret>,
    /// Bot API server; the official one by default.
    pub api_url: Option<String>,
    /// React with 👀 to a message where a promise was captured (off by default).
    #[serde(default)]
    pub acknowledge_with_reaction: bool,
    /// Webhook mode: the public HTTPS URL Telegram posts updates to (polling when unset).
    #[serde(default)]
    pub webhook_url: Option<url::Url>,
    /// Webhook mode: the local address that URL reaches (default `0.0.0.0:8443`).
    #[serde(default)]
    pub listen: Option<SocketAddr>,
}

/// Where the webhook server listens when `telegram.listen` is not set.
pub const DEFAULT_WEBHOOK_LISTEN: SocketAddr = SocketAddr::V4(std::net::SocketAddrV4::new(
    std::net::Ipv4Addr::UNSPECIFIED,
    8443,
));

/// An IANA timezone name ("Europe/Moscow").
fn timezone<'de, D: Deserializer<'de>>(d: D) -> Result<Tz, D::Error> {
    let name = String::deserialize(d)?;
    name.parse()
        .map_err(|_| serde::de::Error::custom(format!("unknown IANA timezone {name:?}")))
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OrgSettings {
    pub name: String,
    #[serde(deserialize_with = "timezone")]
    pub timezone: Tz,
    pub locale: Lang,
    /// Days with no reminders or summaries, besides weekends.
    pub holidays: Vec<NaiveDate>,
}

impl Default for OrgSettings {
    fn default() -> Self {
        OrgSettings {
            name: "Org".into(),
            timezone: chrono_tz::Europe::Moscow,
            locale: Lang::Ru,
            holidays: Vec::new(),
        }
    }
}

/// Cron expressions (5 fields, in the org's timezone) for each scheduled job.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScheduleSettings {
    pub reminders_morning: CronSpec,
    pub reminders_day_before: CronSpec,
    pub reflection: CronSpec,
    pub daily_summary: CronSpec,
    pub weekly_digest: CronSpec,
}

impl Default for ScheduleSettings {
    fn default() -> Self {
        // Constants (the test below parses them).
        let cron = |s: &str| s.parse::<CronSpec>().expect("a default schedule parses");
        ScheduleSettings {
            reminders_morning: cron("30 9 * * 1-5"),
            reminders_day_before: cron("0 16 * * 1-5"),
            reflection: cron("0 19 * * 1-5"),
            daily_summary: cron("30 19 * * 1-5"),
            weekly_digest: cron("0 18 * * 5"),
        }
    }
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct LogSettings {
    pub json: bool,
}

/// The operator's HTTP endpoint (`/healthz`, `/metrics`): off unless `listen` is set.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct HttpSettings {
    /// Address to listen on, such as `127.0.0.1:9090`.
    pub listen: Option<SocketAddr>,
}

/// Which model API `[llm]` speaks.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum LlmProvider {
    /// No model: every feature runs on rules and templates.
    #[default]
    None,
    /// Any OpenAI-compatible Chat Completions server (OpenAI, OpenRouter, Ollama, vLLM,
    /// llama.cpp's `llama-server`, LM Studio).
    Openai,
    /// Anthropic's Messages API.
    Anthropic,
}

impl LlmProvider {
    pub fn as_str(self) -> &'static str {
        match self {
            LlmProvider::None => "none",
            LlmProvider::Openai => "openai",
            LlmProvider::Anthropic => "anthropic",
        }
    }
}

/// The optional model (`[llm]`, CONTRACT.md). A provider comes with what it needs (a model
/// name; Anthropic's key), or the section does not parse.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LlmSettings {
    pub provider: LlmProvider,
    /// The API root: `http://127.0.0.1:8080/v1` for a local server; the vendor's by default.
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// Also `KEPT__LLM__API_KEY`; optional for a local server.
    pub api_key: Option<Secret>,
    /// One request's limit, connecting included.
    pub timeout_s: u64,
    /// The most tokens one answer may use.
    pub max_tokens: u32,
    /// Further attempts after a 429, a 5xx, a timeout or a dropped connection.
    pub retries: u32,
    /// The longest wait a `retry-after` is honoured for; a longer one ends the call.
    pub max_retry_wait_s: u64,
    /// Tokens (prompt + answer) one org may spend a day; then rules only until midnight. 0: no limit.
    pub daily_token_budget: u64,
    /// Append every prompt sent to this file as JSON lines (audits and the end-to-end test; it
    /// holds message text, so keep it off in production).
    pub prompt_log: Option<PathBuf>,
}

impl Default for LlmSettings {
    fn default() -> Self {
        LlmSettings {
            provider: LlmProvider::None,
            base_url: None,
            model: None,
            api_key: None,
            timeout_s: 30,
            max_tokens: 700,
            retries: 2,
            max_retry_wait_s: 20,
            daily_token_budget: 200_000,
            prompt_log: None,
        }
    }
}

impl LlmSettings {
    pub fn enabled(&self) -> bool {
        self.provider != LlmProvider::None
    }

    /// The API root in use.
    pub fn base_url(&self) -> String {
        let default = match self.provider {
            LlmProvider::Anthropic => "https://api.anthropic.com",
            _ => "https://api.openai.com/v1",
        };
        self.base_url
            .clone()
            .unwrap_or_else(|| default.to_string())
            .trim_end_matches('/')
            .to_string()
    }
}

/// `[llm]` with what its provider needs (Settings reads the section through this).
fn llm<'de, D: Deserializer<'de>>(d: D) -> Result<LlmSettings, D::Error> {
    let s = LlmSettings::deserialize(d)?;
    s.check().map_err(serde::de::Error::custom)?;
    Ok(s)
}

impl LlmSettings {
    /// A provider comes with a model name, Anthropic with a key, and a URL that parses.
    fn check(&self) -> Result<(), String> {
        if !self.enabled() {
            return Ok(());
        }
        if self.model.as_deref().is_none_or(|m| m.trim().is_empty()) {
            return Err(format!(
                "llm.model: a model name is needed with provider {}",
                self.provider.as_str()
            ));
        }
        if self.provider == LlmProvider::Anthropic
            && self.api_key.as_ref().is_none_or(|k| k.expose().is_empty())
        {
            return Err(
                "llm.api_key: the Anthropic API needs a key (or KEPT__LLM__API_KEY)".into(),
            );
        }
        if let Some(url) = &self.base_url {
            url::Url::parse(url).map_err(|e| format!("llm.base_url: {e}"))?;
        }
        if self.timeout_s == 0 {
            return Err("llm.timeout_s: must be at least 1".into());
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    pub telegram: TelegramSettings,
    /// Telegram user ids who become directors of the default org on /start.
    pub admins: Vec<i64>,
    pub data_dir: PathBuf,
    pub org: OrgSettings,
    pub schedule: ScheduleSettings,
    pub log: LogSettings,
    pub http: HttpSettings,
    #[serde(deserialize_with = "llm")]
    pub llm: LlmSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            telegram: TelegramSettings::default(),
            admins: Vec::new(),
            data_dir: PathBuf::from("./data"),
            org: OrgSettings::default(),
            schedule: ScheduleSettings::default(),
            log: LogSettings::default(),
            http: HttpSettings::default(),
            llm: LlmSettings::default(),
        }
    }
}

impl Settings {
    /// Loads `path` (or `./kept.toml` when present), then the environment.
    pub fn load(path: Option<&Path>) -> Result<Settings, ConfigError> {
        let vars: Vec<(String, String)> = std::env::vars().collect();
        Self::load_from(path, &vars)
    }

    /// As [`Settings::load`], with the environment given (tests).
    pub fn load_from(
        path: Option<&Path>,
        env: &[(String, String)],
    ) -> Result<Settings, ConfigError> {
        let default_path = Path::new("kept.toml");
        let path = match path {
            Some(p) => Some(p),
            None if default_path.exists() => Some(default_path),
            None => None,
        };
        let mut root = match path {
            Some(p) => {
                let text = std::fs::read_to_string(p).map_err(|source| ConfigError::Read {
                    path: p.to_path_buf(),
                    source,
                })?;
                text.parse::<toml::Table>()
                    .map_err(|source| ConfigError::Toml {
                        path: p.to_path_buf(),
                        source: Box::new(source),
                    })?
            }
            None => toml::Table::new(),
        };
        for (key, value) in env {
            if key == "TELOXIDE_TOKEN" {
                set_path(
                    &mut root,
                    &["telegram", "token"],
                    toml::Value::String(value.clone()),
                );
            }
        }
        // KEPT__ variables last: they win over the file and TELOXIDE_TOKEN.
        for (key, value) in env {
            if let Some(rest) = key.strip_prefix("KEPT__") {
                let parts: Vec<String> = rest.split("__").map(|p| p.to_ascii_lowercase()).collect();
                let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
                set_path(&mut root, &parts, env_value(value));
            }
        }
        let settings: Settings = toml::Value::Table(root)
            .try_into()
            .map_err(|e| ConfigError::Shape(Box::new(e)))?;
        Ok(settings)
    }

    pub fn database_path(&self) -> PathBuf {
        self.data_dir.join("kept.db")
    }

    /// Creates the data directory if missing and proves it writable.
    pub fn ensure_data_dir(&self) -> Result<(), ConfigError> {
        let bad = |e: std::io::Error| ConfigError::Invalid {
            key: "data_dir".into(),
            message: format!(
                "{} is not a writable directory: {e}",
                self.data_dir.display()
            ),
        };
        std::fs::create_dir_all(&self.data_dir).map_err(bad)?;
        let probe = self.data_dir.join(".kept-write-test");
        std::fs::write(&probe, b"ok").map_err(bad)?;
        let _ = std::fs::remove_file(probe);
        Ok(())
    }

    /// The effective configuration as TOML-like lines, secrets masked (`kept check-config`).
    pub fn describe(&self) -> String {
        let mut lines = BTreeMap::new();
        lines.insert("telegram.token", Secret::shown(&self.telegram.token));
        lines.insert(
            "telegram.api_url",
            self.telegram
                .api_url
                .clone()
                .unwrap_or_else(|| "https://api.telegram.org".into()),
        );
        lines.insert(
            "telegram.acknowledge_with_reaction",
            self.telegram.acknowledge_with_reaction.to_string(),
        );
        lines.insert(
            "telegram.webhook_url",
            self.telegram
                .webhook_url
                .as_ref()
                .map_or_else(|| "(off: long polling)".into(), url::Url::to_string),
        );
        if self.telegram.webhook_url.is_some() {
            lines.insert(
                "telegram.listen",
                self.telegram
                    .listen
                    .unwrap_or(DEFAULT_WEBHOOK_LISTEN)
                    .to_string(),
            );
        }
        lines.insert("admins", format!("{:?}", self.admins));
        lines.insert("data_dir", self.data_dir.display().to_string());
        lines.insert("database", self.database_path().display().to_string());
        lines.insert("org.name", self.org.name.clone());
        lines.insert("org.timezone", self.org.timezone.name().to_string());
        lines.insert("org.locale", self.org.locale.code().to_string());
        lines.insert("org.holidays", format!("{:?}", self.org.holidays));
        lines.insert(
            "schedule.reminders_morning",
            self.schedule.reminders_morning.to_string(),
        );
        lines.insert(
            "schedule.reminders_day_before",
            self.schedule.reminders_day_before.to_string(),
        );
        lines.insert("schedule.reflection", self.schedule.reflection.to_string());
        lines.insert(
            "schedule.daily_summary",
            self.schedule.daily_summary.to_string(),
        );
        lines.insert(
            "schedule.weekly_digest",
            self.schedule.weekly_digest.to_string(),
        );
        lines.insert("log.json", self.log.json.to_string());
        lines.insert(
            "http.listen",
            self.http
                .listen
                .map_or_else(|| "(off)".into(), |a| a.to_string()),
        );
        let llm = &self.llm;
        lines.insert("llm.provider", llm.provider.as_str().to_string());
        if llm.enabled() {
            lines.insert("llm.base_url", llm.base_url());
            lines.insert("llm.model", llm.model.clone().unwrap_or_default());
            lines.insert("llm.api_key", Secret::shown(&llm.api_key));
            lines.insert("llm.timeout_s", llm.timeout_s.to_string());
            lines.insert("llm.max_tokens", llm.max_tokens.to_string());
            lines.insert("llm.retries", llm.retries.to_string());
            lines.insert(
                "llm.daily_token_budget",
                match llm.daily_token_budget {
                    0 => "unlimited".to_string(),
                    n => n.to_string(),
                },
            );
        }
        lines
            .into_iter()
            .map(|(k, v)| format!("{k} = {v}\n"))
            .collect()
    }
}

fn set_path(root: &mut toml::Table, parts: &[&str], value: toml::Value) {
    let Some((last, dirs)) = parts.split_last() else {
        return;
    };
    let mut table = root;
    for dir in dirs {
        let entry = table
            .entry(dir.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if !entry.is_table() {
            *entry = toml::Value::Table(toml::Table::new());
        }
        let toml::Value::Table(t) = entry else { return };
        table = t;
    }
    table.insert(last.to_string(), value);
}

/// An environment value is read as a TOML literal when it is one (`[1, 2]`, `true`, `42`), else as text.
fn env_value(raw: &str) -> toml::Value {
    format!("v = {raw}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(raw.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn environment_overrides_the_file_and_secrets_are_masked() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("kept.toml");
        std::fs::write(&file, "admins = [1]\n[org]\ntimezone = \"Europe/Berlin\"\n").unwrap();
        let s = Settings::load_from(
            Some(&file),
            &env(&[
                ("KEPT__ORG__TIMEZONE", "Asia/Vladivostok"),
                ("KEPT__ADMINS", "[7, 8]"),
                ("TELOXIDE_TOKEN", "123:secret"),
            ]),
        )
        .unwrap();
        assert_eq!(s.org.timezone, chrono_tz::Asia::Vladivostok);
        assert_eq!(s.admins, vec![7, 8]);
        assert_eq!(s.telegram.token.as_ref().unwrap().expose(), "123:secret");
        assert!(!format!("{s:?}").contains("secret"));
        assert!(!s.describe().contains("secret"));
    }

    #[test]
    fn the_llm_section_parses_into_a_provider_and_masks_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("kept.toml");
        std::fs::write(
            &file,
            "[llm]\nprovider = \"openai\"\nbase_url = \"http://127.0.0.1:8080/v1/\"\nmodel = \"smollm2\"\ntimeout_s = 5\n",
        )
        .unwrap();
        let s = Settings::load_from(Some(&file), &env(&[("KEPT__LLM__API_KEY", "sk-topsecret")]))
            .unwrap();
        assert_eq!(s.llm.provider, LlmProvider::Openai);
        assert_eq!(s.llm.base_url(), "http://127.0.0.1:8080/v1");
        assert_eq!(s.llm.timeout_s, 5);
        assert_eq!(s.llm.api_key.as_ref().unwrap().expose(), "sk-topsecret");
        let described = s.describe();
        assert!(described.contains("llm.api_key = ***"), "{described}");
        assert!(!described.contains("topsecret") && !format!("{s:?}").contains("topsecret"));
        // No section: no model, and nothing else is asked for.
        let none = Settings::load_from(None, &[]).unwrap();
        assert!(!none.llm.enabled());
        assert!(none.describe().contains("llm.provider = none"));
    }

    #[test]
    fn an_llm_section_without_what_it_needs_names_the_key() {
        for (vars, key) in [
            (vec![("KEPT__LLM__PROVIDER", "openai")], "llm.model"),
            (
                vec![
                    ("KEPT__LLM__PROVIDER", "anthropic"),
                    ("KEPT__LLM__MODEL", "claude"),
                ],
                "llm.api_key",
            ),
            (
                vec![("KEPT__LLM__PROVIDER", "gemini")],
                "invalid configuration",
            ),
        ] {
            let err = Settings::load_from(None, &env(&vars)).unwrap_err();
            let text = format!("{err} {:?}", err);
            assert!(text.contains(key), "{key}: {text}");
        }
    }

    #[test]
    fn unknown_timezone_names_the_key() {
        let err =
            Settings::load_from(None, &env(&[("KEPT__ORG__TIMEZONE", "Mars/Base")])).unwrap_err();
        assert!(err.to_string().contains("org.timezone"), "{err}");
    }

    #[test]
    fn the_defaults_parse_and_values_come_typed() {
        let s = Settings::load_from(None, &[]).unwrap();
        assert_eq!(s.schedule, ScheduleSettings::default());
        assert_eq!(s.schedule.weekly_digest.as_str(), "0 18 * * 5");
        let s = Settings::load_from(
            None,
            &env(&[
                ("KEPT__ORG__LOCALE", "en"),
                ("KEPT__HTTP__LISTEN", "127.0.0.1:9090"),
                (
                    "KEPT__TELEGRAM__WEBHOOK_URL",
                    "https://kept.example.com/telegram",
                ),
                ("KEPT__SCHEDULE__WEEKLY_DIGEST", "0 17 * * 5"),
            ]),
        )
        .unwrap();
        assert_eq!(s.org.locale, Lang::En);
        assert_eq!(s.http.listen, Some("127.0.0.1:9090".parse().unwrap()));
        assert_eq!(
            s.telegram.webhook_url.as_ref().map(url::Url::as_str),
            Some("https://kept.example.com/telegram")
        );
        assert_eq!(s.schedule.weekly_digest.as_str(), "0 17 * * 5");
        assert!(s.describe().contains("schedule.weekly_digest = 0 17 * * 5"));
        for (key, value, named) in [
            ("KEPT__ORG__LOCALE", "de", "org.locale"),
            ("KEPT__HTTP__LISTEN", "localhost", "http.listen"),
            (
                "KEPT__TELEGRAM__WEBHOOK_URL",
                "not a url",
                "telegram.webhook_url",
            ),
        ] {
            let err = Settings::load_from(None, &env(&[(key, value)])).unwrap_err();
            assert!(err.to_string().contains(named), "{named}: {err}");
        }
    }

    #[test]
    fn bad_cron_names_the_key() {
        let err = Settings::load_from(None, &env(&[("KEPT__SCHEDULE__REFLECTION", "every day")]))
            .unwrap_err();
        assert!(err.to_string().contains("schedule.reflection"), "{err}");
    }
}
