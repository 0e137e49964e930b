//! Just enough multipart/form-data parsing to read the text fields of `sendPhoto` and
//! `sendDocument`, and a document's text (a photo's bytes are skipped).

use axum::body::Bytes;
use serde_json::{Map, Value};

/// Text fields of a multipart body as a JSON object; a text file's content goes under
/// `_document` (a binary file part is skipped).
pub fn fields(content_type: &str, body: &Bytes) -> Value {
    let mut out = Map::new();
    let Some(boundary) = content_type
        .split(';')
        .filter_map(|p| p.trim().strip_prefix("boundary="))
        .next()
    else {
        return Value::Object(out);
    };
    let boundary = format!("--{}", boundary.trim_matches('"'));
    let body = String::from_utf8_lossy(body);
    for part in body.split(boundary.as_str()) {
        let Some((head, value)) = part.split_once("\r\n\r\n") else {
            continue;
        };
        if head.contains("filename=") {
            // Lossy decoding turned a binary part (a PNG) into replacement characters.
            if !value.contains('\u{FFFD}') {
                let value = value.strip_suffix("\r\n").unwrap_or(value);
                out.insert("_document".into(), Value::String(value.to_string()));
            }
            continue;
        }
        let Some(name) = head
            .split(';')
            .filter_map(|h| h.trim().strip_prefix("name="))
            .next()
        else {
            continue;
        };
        let name = name
            .lines()
            .next()
            .unwrap_or("")
            .trim_matches('"')
            .to_string();
        let value = value.strip_suffix("\r\n").unwrap_or(value);
        let v = match name.as_str() {
            "chat_id" => value
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or_else(|_| Value::String(value.to_string())),
            _ => Value::String(value.to_string()),
        };
        out.insert(name, v);
    }
    Value::Object(out)
}
