//! Sending queued deliveries through the Bot API, mapping Telegram's errors to the sender's.

use teloxide::prelude::*;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup, InputFile, ParseMode};
use teloxide::{ApiError, RequestError};

use crate::schedule::sender::{Outbox, Part, SendError};

#[derive(Clone)]
pub struct BotOutbox(pub Bot);

pub fn keyboard(rows: &[Vec<(String, String)>]) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new(rows.iter().map(|row| {
        row.iter()
            .map(|(label, data)| InlineKeyboardButton::callback(label.clone(), data.clone()))
            .collect::<Vec<_>>()
    }))
}

pub fn classify(e: RequestError) -> SendError {
    // The Bot API's error code where the error says it, else where it happened.
    let code = match &e {
        RequestError::RetryAfter(_) => "429",
        RequestError::Api(
            ApiError::BotBlocked
            | ApiError::UserDeactivated
            | ApiError::CantInitiateConversation
            | ApiError::BotKicked
            | ApiError::BotKickedFromSupergroup,
        ) => "403",
        RequestError::Api(ApiError::Unknown(s)) if s.starts_with("Forbidden") => "403",
        RequestError::Api(ApiError::Unknown(s))
            if s.contains("Internal") || s.contains("Gateway") =>
        {
            "5xx"
        }
        RequestError::Api(ApiError::InvalidToken) => "401",
        RequestError::Api(_) => "400",
        RequestError::Network(_) => "network",
        RequestError::Io(_) => "io",
        _ => "other",
    };
    metrics::counter!("kept_telegram_errors_total", "code" => code).increment(1);
    match e {
        RequestError::RetryAfter(s) => SendError::RetryAfter(s.seconds()),
        RequestError::Api(ApiError::BotBlocked)
        | RequestError::Api(ApiError::UserDeactivated)
        | RequestError::Api(ApiError::CantInitiateConversation)
        | RequestError::Api(ApiError::BotKicked)
        | RequestError::Api(ApiError::BotKickedFromSupergroup) => {
            SendError::Forbidden(e.to_string())
        }
        RequestError::Api(ApiError::Unknown(ref s)) if s.starts_with("Forbidden") => {
            SendError::Forbidden(e.to_string())
        }
        RequestError::Network(_) | RequestError::Io(_) => SendError::Temporary(e.to_string()),
        RequestError::Api(ApiError::Unknown(ref s))
            if s.contains("Internal") || s.contains("Gateway") =>
        {
            SendError::Temporary(e.to_string())
        }
        other => SendError::Refused(other.to_string()),
    }
}

impl Outbox for BotOutbox {
    async fn send(&self, part: &Part<'_>) -> Result<i64, SendError> {
        let chat = ChatId(part.chat.0);
        let result = match part.photo {
            Some(png) => {
                let mut req = self
                    .0
                    .send_photo(
                        chat,
                        InputFile::memory(png.to_vec()).file_name("digest.png"),
                    )
                    .parse_mode(ParseMode::Html);
                if !part.text.trim().is_empty() {
                    req = req.caption(part.text.to_string());
                }
                if !part.buttons.is_empty() {
                    req = req.reply_markup(keyboard(part.buttons));
                }
                req.await
            }
            None => {
                let mut req = self
                    .0
                    .send_message(chat, part.text.to_string())
                    .parse_mode(ParseMode::Html);
                if !part.buttons.is_empty() {
                    req = req.reply_markup(keyboard(part.buttons));
                }
                req.await
            }
        };
        result.map(|m| m.id.0 as i64).map_err(classify)
    }
}
