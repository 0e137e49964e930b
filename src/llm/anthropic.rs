//! Anthropic's Messages API: structured output as a forced tool call whose input is the answer.

use serde_json::json;

use super::{
    CallError, CallFuture, Completion, Endpoint, LlmError, Provider, Request, Usage, send,
};

pub const API_VERSION: &str = "2023-06-01";

#[derive(Debug)]
pub struct Anthropic(pub Endpoint);

pub fn body(model: &str, req: &Request) -> serde_json::Value {
    json!({
        "model": model,
        "max_tokens": req.max_tokens,
        "temperature": 0,
        "system": req.system,
        "messages": [{"role": "user", "content": req.user}],
        "tools": [{
            "name": req.schema_name,
            "description": "Give the answer in exactly this shape.",
            "input_schema": req.schema,
        }],
        "tool_choice": {"type": "tool", "name": req.schema_name},
    })
}

/// The forced tool call's input (or, from a model that answered in text, that text).
pub fn completion(v: &serde_json::Value) -> Result<Completion, CallError> {
    let usage = Usage {
        input: v["usage"]["input_tokens"].as_i64().unwrap_or(0),
        output: v["usage"]["output_tokens"].as_i64().unwrap_or(0),
    };
    let fail = |error| CallError {
        error,
        retry_after: None,
        usage,
    };
    if v["stop_reason"] == "refusal" {
        return Err(fail(LlmError::Refused("stop_reason: refusal".into())));
    }
    let blocks = v["content"].as_array().cloned().unwrap_or_default();
    if let Some(tool) = blocks.iter().find(|b| b["type"] == "tool_use") {
        return Ok(Completion {
            json: tool["input"].to_string(),
            usage,
        });
    }
    let text: String = blocks
        .iter()
        .filter(|b| b["type"] == "text")
        .filter_map(|b| b["text"].as_str())
        .collect();
    if text.trim().is_empty() {
        return Err(fail(LlmError::Invalid("the answer has no content".into())));
    }
    Ok(Completion { json: text, usage })
}

impl Provider for Anthropic {
    fn complete<'a>(&'a self, req: &'a Request) -> CallFuture<'a> {
        Box::pin(async move {
            let e = &self.0;
            let mut http = e
                .client
                .post(format!("{}/v1/messages", e.base))
                .header("anthropic-version", API_VERSION)
                .json(&body(&e.model, req));
            if let Some(key) = &e.key {
                http = http.header("x-api-key", key.expose());
            }
            let (v, _) = send(http, e.timeout_s).await?;
            completion(&v)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tool_input_is_the_answer() {
        let ok = json!({
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "answer",
                         "input": {"answer": "ok"}}],
            "stop_reason": "tool_use", "stop_sequence": null,
            "usage": {"input_tokens": 20, "output_tokens": 7}
        });
        let c = completion(&ok).unwrap();
        assert_eq!(c.json, r#"{"answer":"ok"}"#);
        assert_eq!(
            c.usage,
            Usage {
                input: 20,
                output: 7
            }
        );
        let refused = json!({"type": "message", "content": [], "stop_reason": "refusal",
            "usage": {"input_tokens": 4, "output_tokens": 0}});
        assert!(matches!(
            completion(&refused).unwrap_err().error,
            LlmError::Refused(_)
        ));
        let text = json!({"content": [{"type": "text", "text": "{\"answer\": \"t\"}"}],
            "usage": {"input_tokens": 1, "output_tokens": 1}});
        assert_eq!(completion(&text).unwrap().json, "{\"answer\": \"t\"}");
    }
}
