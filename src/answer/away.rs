//! Absences from a DM: `/away 1.12–10.12`, `/away до понедельника`, `/away off`, or a plain
//! "я в отпуске с 1 по 10 декабря" to the bot. (In a group, ingest records the same sentence.)

use super::{AnswerError, Answerer, Reply};
use crate::domain::Lang;
use crate::extract::absence;
use crate::render::format;

impl Answerer<'_> {
    /// `/away ARG`.
    pub async fn away(&self, arg: &str) -> Result<Reply, AnswerError> {
        let arg = arg.trim();
        let local = self.now.with_timezone(&self.org.timezone);
        if crate::extract::words::command_word_in("away-", arg) == Some("away-off") {
            let n = self
                .app
                .store
                .end_absences(self.org.id, self.viewer.asker, local.date_naive(), self.now)
                .await?;
            let key = if n > 0 { "away-off" } else { "away-none" };
            return Ok(Reply::text(self.s(key)));
        }
        // No days given: from today, as long as an absence with no end said lasts.
        let today = local.date_naive();
        let open = absence::Absence {
            from: today,
            to: today + chrono::Duration::days(absence::OPEN_DAYS - 1),
        };
        let days = if arg.is_empty() {
            Some(open)
        } else {
            absence::days(arg, local, Lang::detect(arg))
        };
        match days {
            Some(a) => self.record(a).await,
            None => Ok(Reply::text(self.s("away-usage"))),
        }
    }

    /// A DM that announces the asker's absence ("I'm off until Monday"), recorded and confirmed.
    pub async fn announced_absence(&self, text: &str) -> Result<Option<Reply>, AnswerError> {
        let local = self.now.with_timezone(&self.org.timezone);
        match absence::absence(text, local, Lang::detect(text)) {
            Some(a) => Ok(Some(self.record(a).await?)),
            None => Ok(None),
        }
    }

    async fn record(&self, a: absence::Absence) -> Result<Reply, AnswerError> {
        self.app
            .store
            .add_absence(
                self.org.id,
                self.viewer.asker,
                a.from,
                a.to,
                self.source,
                self.now,
            )
            .await?;
        let i18n = &self.app.i18n;
        Ok(Reply::text(self.t(
            "away-set",
            &[
                ("from", format::date(i18n, self.lang, a.from).into()),
                ("to", format::date(i18n, self.lang, a.to).into()),
            ],
        )))
    }
}
