//! Prompt templates: text files in `src/llm/prompts/`, with `{name}` placeholders the caller
//! fills. Editing a prompt means editing its file, not code.

/// A template and its placeholders.
#[derive(Debug, Clone, Copy)]
pub struct Template(&'static str);

pub const ANSWER_SYSTEM: Template = Template(include_str!("prompts/answer_system.txt"));
pub const ANSWER_USER: Template = Template(include_str!("prompts/answer_user.txt"));
pub const REFLECTION_SYSTEM: Template = Template(include_str!("prompts/reflection_system.txt"));
pub const REFLECTION_USER: Template = Template(include_str!("prompts/reflection_user.txt"));
pub const REFINE_SYSTEM: Template = Template(include_str!("prompts/refine_system.txt"));
pub const REFINE_USER: Template = Template(include_str!("prompts/refine_user.txt"));
pub const GOAL_SYSTEM: Template = Template(include_str!("prompts/goal_system.txt"));
pub const GOAL_USER: Template = Template(include_str!("prompts/goal_user.txt"));

/// The language named in a prompt's instructions ("Answer in Russian").
pub fn language(lang: crate::domain::Lang) -> &'static str {
    match lang {
        crate::domain::Lang::Ru => "Russian",
        crate::domain::Lang::En => "English",
    }
}

impl Template {
    /// The text with every `{name}` of `vars` replaced in one pass: a value that itself holds
    /// `{…}` (a chat message can) is never substituted again. Unknown placeholders stay as written.
    pub fn fill(&self, vars: &[(&str, &str)]) -> String {
        let mut out = String::with_capacity(self.0.len() + 256);
        let mut rest = self.0;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let hit = after.find('}').and_then(|close| {
                let name = &after[..close];
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (close, *v))
            });
            match hit {
                Some((close, value)) => {
                    out.push_str(value);
                    rest = &after[close + 1..];
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    pub fn text(&self) -> &'static str {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn placeholders_fill_once() {
        let t = Template("a {x} b {y} {z}");
        assert_eq!(t.fill(&[("x", "{y}"), ("y", "2")]), "a {y} b 2 {z}");
    }

    #[test]
    fn every_template_names_its_placeholders() {
        for (t, names) in [
            (ANSWER_USER, &["question", "context", "found", "today"][..]),
            (REFLECTION_USER, &["person", "day", "events"][..]),
            (REFINE_USER, &["messages"][..]),
            (GOAL_USER, &["goal", "due", "description", "context"][..]),
            (GOAL_SYSTEM, &["language"][..]),
            (ANSWER_SYSTEM, &["language"][..]),
        ] {
            for n in names {
                assert!(t.text().contains(&format!("{{{n}}}")), "{n} missing");
            }
        }
    }

    proptest! {
        #[test]
        fn filling_any_text_never_panics(t in "\\PC{0,80}", v in "\\PC{0,40}") {
            let leaked: &'static str = Box::leak(t.into_boxed_str());
            let _ = Template(leaked).fill(&[("x", &v)]);
        }
    }
}
