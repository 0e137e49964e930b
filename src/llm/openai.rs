//! OpenAI-compatible Chat Completions (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp's
//! `llama-server`, LM Studio): structured output through `response_format` with a JSON Schema.

use serde_json::json;

use super::{
    CallError, CallFuture, Completion, Endpoint, LlmError, Provider, Request, Usage, send,
};

#[derive(Debug)]
pub struct OpenAi(pub Endpoint);

/// The request body (public to the module's tests and the fake server's).
pub fn body(model: &str, req: &Request) -> serde_json::Value {
    json!({
        "model": model,
        "messages": [
            {"role": "system", "content": req.system},
            {"role": "user", "content": req.user},
        ],
        "max_tokens": req.max_tokens,
        "temperature": 0,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": req.schema_name, "strict": true, "schema": req.schema},
        },
    })
}

/// A completion from the response body: the message's content, or why there is none.
pub fn completion(v: &serde_json::Value) -> Result<Completion, CallError> {
    let usage = Usage {
        input: v["usage"]["prompt_tokens"].as_i64().unwrap_or(0),
        output: v["usage"]["completion_tokens"].as_i64().unwrap_or(0),
    };
    let fail = |error| CallError {
        error,
        retry_after: None,
        usage,
    };
    let choice = &v["choices"][0];
    let message = &choice["message"];
    if let Some(refusal) = message["refusal"].as_str() {
        return Err(fail(LlmError::Refused(refusal.to_string())));
    }
    if choice["finish_reason"] == "content_filter" {
        return Err(fail(LlmError::Refused("content filter".into())));
    }
    match message["content"].as_str() {
        Some(text) if !text.trim().is_empty() => Ok(Completion {
            json: text.to_string(),
            usage,
        }),
        _ => Err(fail(LlmError::Invalid("the answer has no content".into()))),
    }
}

impl Provider for OpenAi {
    fn complete<'a>(&'a self, req: &'a Request) -> CallFuture<'a> {
        Box::pin(async move {
            let e = &self.0;
            let mut http = e
                .client
                .post(format!("{}/chat/completions", e.base))
                .json(&body(&e.model, req));
            if let Some(key) = e.key.as_ref().filter(|k| !k.expose().is_empty()) {
                http = http.bearer_auth(key.expose());
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
    fn content_usage_and_refusals_are_read_from_the_wire_shape() {
        let ok = json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": "{\"answer\":\"ok\"}", "refusal": null}}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}
        });
        let c = completion(&ok).unwrap();
        assert_eq!(c.json, "{\"answer\":\"ok\"}");
        assert_eq!(
            c.usage,
            Usage {
                input: 12,
                output: 5
            }
        );
        let refused = json!({"choices": [{"finish_reason": "stop",
            "message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2}});
        let e = completion(&refused).unwrap_err();
        assert!(matches!(e.error, LlmError::Refused(_)));
        assert_eq!(e.usage.input, 3);
        assert!(completion(&json!({})).is_err());
    }
}
