//! Settings: a TOML file (`--config PATH`, else `./kept.toml`), overlaid by `KEPT__SECTION__KEY`
//! environment variables (env wins); the bot token also from `TELOXIDE_TOKEN`.
//!
//! Secrets never appear in logs or `Debug` output.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use chrono_tz::Tz;
use serde::Deserialize;

use crate::domain::Lang;

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
    #[error("invalid configuration")]
    Shape(#[source] Box<toml::de::Error>),
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
    pub webhook_url: Option<String>,
    /// Webhook mode: the local address that URL reaches (default `0.0.0.0:8443`).
    #[serde(default)]
    pub listen: Option<String>,
}

/// Where the webhook server listens when `telegram.listen` is not set.
pub const DEFAULT_WEBHOOK_LISTEN: &str = "0.0.0.0:8443";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OrgSettings {
    pub name: String,
    pub timezone: String,
    pub locale: String,
    /// Days with no reminders or summaries, besides weekends.
    pub holidays: Vec<NaiveDate>,
}

impl Default for OrgSettings {
    fn default() -> Self {
        OrgSettings {
            name: "Org".into(),
            timezone: "Europe/Moscow".into(),
            locale: "ru".into(),
            holidays: Vec::new(),
        }
    }
}

/// Cron expressions (5 fields, in the org's timezone) for each scheduled job.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScheduleSettings {
    pub reminders_morning: String,
    pub reminders_day_before: String,
    pub reflection: String,
    pub daily_summary: String,
    pub weekly_digest: String,
}

impl Default for ScheduleSettings {
    fn default() -> Self {
        ScheduleSettings {
            reminders_morning: "30 9 * * 1-5".into(),
            reminders_day_before: "0 16 * * 1-5".into(),
            reflection: "0 19 * * 1-5".into(),
            daily_summary: "30 19 * * 1-5".into(),
            weekly_digest: "0 18 * * 5".into(),
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
    pub listen: Option<String>,
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
        settings.validate()?;
        Ok(settings)
    }

    /// Checks values the types cannot: timezone, locale, cron expressions.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.timezone()?;
        self.locale()?;
        let s = &self.schedule;
        for (key, expr) in [
            ("schedule.reminders_morning", &s.reminders_morning),
            ("schedule.reminders_day_before", &s.reminders_day_before),
            ("schedule.reflection", &s.reflection),
            ("schedule.daily_summary", &s.daily_summary),
            ("schedule.weekly_digest", &s.weekly_digest),
        ] {
            crate::schedule::parse_cron(expr).map_err(|e| ConfigError::Invalid {
                key: key.into(),
                message: e.to_string(),
            })?;
        }
        if let Some(url) = &self.telegram.webhook_url {
            url::Url::parse(url).map_err(|e| ConfigError::Invalid {
                key: "telegram.webhook_url".into(),
                message: e.to_string(),
            })?;
        }
        for (key, addr) in [
            ("telegram.listen", &self.telegram.listen),
            ("http.listen", &self.http.listen),
        ] {
            if let Some(a) = addr
                && a.parse::<std::net::SocketAddr>().is_err()
            {
                return Err(ConfigError::Invalid {
                    key: key.into(),
                    message: format!("{a:?} is not an address such as 127.0.0.1:9090"),
                });
            }
        }
        Ok(())
    }

    pub fn timezone(&self) -> Result<Tz, ConfigError> {
        self.org
            .timezone
            .parse::<Tz>()
            .map_err(|_| ConfigError::Invalid {
                key: "org.timezone".into(),
                message: format!("unknown IANA timezone {:?}", self.org.timezone),
            })
    }

    pub fn locale(&self) -> Result<Lang, ConfigError> {
        self.org
            .locale
            .parse::<Lang>()
            .map_err(|e| ConfigError::Invalid {
                key: "org.locale".into(),
                message: e.to_string(),
            })
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
        let token = match &self.telegram.token {
            Some(t) if !t.expose().is_empty() => "***".to_string(),
            _ => "(not set)".to_string(),
        };
        lines.insert("telegram.token", token);
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
                .clone()
                .unwrap_or_else(|| "(off: long polling)".into()),
        );
        if self.telegram.webhook_url.is_some() {
            lines.insert(
                "telegram.listen",
                self.telegram
                    .listen
                    .clone()
                    .unwrap_or_else(|| DEFAULT_WEBHOOK_LISTEN.into()),
            );
        }
        lines.insert("admins", format!("{:?}", self.admins));
        lines.insert("data_dir", self.data_dir.display().to_string());
        lines.insert("database", self.database_path().display().to_string());
        lines.insert("org.name", self.org.name.clone());
        lines.insert("org.timezone", self.org.timezone.clone());
        lines.insert("org.locale", self.org.locale.clone());
        lines.insert("org.holidays", format!("{:?}", self.org.holidays));
        lines.insert(
            "schedule.reminders_morning",
            self.schedule.reminders_morning.clone(),
        );
        lines.insert(
            "schedule.reminders_day_before",
            self.schedule.reminders_day_before.clone(),
        );
        lines.insert("schedule.reflection", self.schedule.reflection.clone());
        lines.insert(
            "schedule.daily_summary",
            self.schedule.daily_summary.clone(),
        );
        lines.insert(
            "schedule.weekly_digest",
            self.schedule.weekly_digest.clone(),
        );
        lines.insert("log.json", self.log.json.to_string());
        lines.insert(
            "http.listen",
            self.http.listen.clone().unwrap_or_else(|| "(off)".into()),
        );
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
        assert_eq!(s.org.timezone, "Asia/Vladivostok");
        assert_eq!(s.admins, vec![7, 8]);
        assert_eq!(s.telegram.token.as_ref().unwrap().expose(), "123:secret");
        assert!(!format!("{s:?}").contains("secret"));
        assert!(!s.describe().contains("secret"));
    }

    #[test]
    fn unknown_timezone_names_the_key() {
        let err =
            Settings::load_from(None, &env(&[("KEPT__ORG__TIMEZONE", "Mars/Base")])).unwrap_err();
        assert!(err.to_string().contains("org.timezone"), "{err}");
    }

    #[test]
    fn bad_cron_names_the_key() {
        let err = Settings::load_from(None, &env(&[("KEPT__SCHEDULE__REFLECTION", "every day")]))
            .unwrap_err();
        assert!(err.to_string().contains("schedule.reflection"), "{err}");
    }
}
