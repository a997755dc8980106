//! What the driver answers (session.md §1). It stands in for a model with
//! one fixed strategy, so a test can tell from out/result.txt that every
//! step of the protocol worked:
//!
//! - the last message is the user's task and the request lists tools:
//!   call the first tool with `{"text": <task>}` (stop_reason `tool_call`,
//!   id `call-<turn>`);
//! - the request ends with tool results: end the turn with one line
//!   `<tool> answered: <text>` per result, naming the tool from the
//!   assistant message's matching tool_call;
//! - no tools: end the turn repeating the task.
//!
//! Each answer's text is also emitted as a chunk. A request that is not
//! the protocol's JSON gets the shipped drivers' error answer: status
//! error, `{"error": <message>, "stop_reason": "error"}`.

use crate::json::{self, obj, str, Value};

#[derive(Clone, Copy)]
pub enum Status {
    Passed = 0,
    Error = 2,
}

pub struct Answer {
    pub status: Status,
    pub summary: String,
    pub data: String,
}

pub fn answer(data: Option<&str>, emit_chunk: fn(&str)) -> Answer {
    match respond(data) {
        Ok((text, response)) => {
            emit_chunk(&text);
            Answer { status: Status::Passed, summary: "driver-rust turn".to_string(), data: response.to_json() }
        }
        Err(msg) => Answer {
            status: Status::Error,
            data: obj(vec![("error", str(&msg)), ("stop_reason", str("error"))]).to_json(),
            summary: msg,
        },
    }
}

/// respond is the answer's text and the response JSON.
fn respond(data: Option<&str>) -> Result<(String, Value), String> {
    let req = json::parse(data.ok_or("no request: the driver expects the request JSON as data")?)
        .map_err(|e| format!("request is not JSON: {}", e))?;
    let messages = req.get("messages").ok_or("request has no messages")?.as_arr();
    let task = messages.first().filter(|m| role(m) == "user").ok_or("request does not start with the user's task")?;
    let turn = messages.iter().filter(|m| role(m) == "assistant").count() + 1;

    let results: Vec<&Value> = messages.iter().rev().take_while(|m| role(m) == "tool").collect();
    if !results.is_empty() {
        let calls = messages.iter().rev().find(|m| role(m) == "assistant").map(|m| blocks(m)).unwrap_or(&[]);
        let lines: Vec<String> = results
            .iter()
            .rev()
            .map(|r| {
                let id = r.get("tool_call_id").and_then(Value::as_str).unwrap_or("");
                let name = calls
                    .iter()
                    .find(|b| b.get("id").and_then(Value::as_str) == Some(id))
                    .and_then(|b| b.get("name").and_then(Value::as_str))
                    .unwrap_or("an unknown tool");
                format!("{} answered: {}", name, text_of(r))
            })
            .collect();
        return Ok(end_turn(lines.join("\n")));
    }

    let task_text = text_of(task);
    let tool = req.get("tools").map(Value::as_arr).unwrap_or(&[]).first();
    match tool.and_then(|t| t.get("name")).and_then(Value::as_str) {
        Some(name) => {
            let text = format!("Asking {}.", name);
            let call = obj(vec![
                ("type", str("tool_call")),
                ("id", str(&format!("call-{}", turn))),
                ("name", str(name)),
                ("input", obj(vec![("text", str(&task_text))])),
            ]);
            let content = Value::Arr(vec![text_block(&text), call]);
            Ok((text, obj(vec![("stop_reason", str("tool_call")), ("content", content)])))
        }
        None => Ok(end_turn(format!("No tools to ask; the task was: {}", task_text))),
    }
}

fn end_turn(text: String) -> (String, Value) {
    let response = obj(vec![("stop_reason", str("end_turn")), ("content", Value::Arr(vec![text_block(&text)]))]);
    (text, response)
}

fn text_block(text: &str) -> Value {
    obj(vec![("type", str("text")), ("text", str(text))])
}

fn role(m: &Value) -> &str {
    m.get("role").and_then(Value::as_str).unwrap_or("")
}

fn blocks(m: &Value) -> &[Value] {
    m.get("content").map(Value::as_arr).unwrap_or(&[])
}

/// text_of joins a message's text blocks with newlines, as the runtime
/// does for a final answer.
fn text_of(m: &Value) -> String {
    let texts: Vec<&str> = blocks(m)
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    texts.join("\n")
}
