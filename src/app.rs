//! What every handler and job shares: the store, the clock, messages, settings and the default org.

use std::sync::Arc;

use crate::clock::SharedClock;
use crate::config::Settings;
use crate::domain::{Lang, OrgId, UserId};
use crate::i18n::{I18n, I18nError};
use crate::store::{Org, Store, StoreError, UserProfile};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("storage")]
    Store(#[from] StoreError),
    #[error("locales")]
    I18n(#[from] I18nError),
    #[error("configuration")]
    Config(#[from] crate::config::ConfigError),
    #[error("the model client")]
    Llm(#[from] crate::llm::LlmError),
}

#[derive(Debug)]
pub struct App {
    pub store: Store,
    pub clock: SharedClock,
    pub i18n: I18n,
    pub settings: Settings,
    /// The org admins direct and new groups join on /link.
    pub default_org: OrgId,
    /// The configured model; `None`: rules and templates only.
    pub llm: Option<crate::llm::Llm>,
}

impl App {
    pub async fn new(
        store: Store,
        clock: SharedClock,
        settings: Settings,
    ) -> Result<Arc<App>, AppError> {
        let default_org = store
            .default_org(
                &settings.org.name,
                settings.org.timezone,
                settings.org.locale,
                clock.now(),
            )
            .await?;
        let llm = crate::llm::Llm::from_settings(&settings.llm)?;
        Ok(Arc::new(App {
            store,
            clock,
            i18n: I18n::new()?,
            settings,
            default_org,
            llm,
        }))
    }

    pub fn is_admin(&self, user: UserId) -> bool {
        self.settings.admins.contains(&user.0)
    }

    /// The language to answer a person in: their /lang choice, their Telegram language, the org's.
    pub fn lang_for(&self, user: Option<&UserProfile>, org: Option<&Org>) -> Lang {
        user.and_then(|u| {
            u.lang_override
                .or_else(|| u.language_code.as_deref().and_then(Lang::from_code))
        })
        .or(org.map(|o| o.locale))
        .unwrap_or(Lang::Ru)
    }
}
