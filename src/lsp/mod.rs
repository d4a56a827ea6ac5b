//! `warpscope lsp`: the language server.
//!
//! A thin layer over the library. It is built on `lsp-server` (the JSON-RPC
//! message types and framing that rust-analyzer and ruff use, over
//! crossbeam channels, no async runtime) and `lsp-types` (the protocol's
//! types); the stdio reader is ours ([`transport`]) so that a malformed
//! message is skipped instead of ending the connection. Everything the
//! editor is told comes from library calls in [`backend`]; this module maps
//! positions ([`position`]), keeps documents ([`document`]) and routes
//! messages ([`handlers`]).
//!
//! ## The loop
//! One thread handles every message in order. Edits only mark a document
//! stale; stale documents are re-analysed and their diagnostics published
//! when no message is waiting, so a burst of `didChange` costs one analysis,
//! and a re-analysis lowers and analyses only the kernels the edits changed
//! (`warpscope::incremental`: the others' analyses are reused, moved).
//! A request that needs a stale document's facts analyses it first (the
//! diagnostics of that version are still published when the loop is idle).
//!
//! ## Robustness (architecture invariants)
//! - No message makes the server stop, except `exit`: unknown requests get
//!   `MethodNotFound`, malformed parameters `InvalidParams`, unknown
//!   notifications are ignored, requests after `shutdown` get
//!   `InvalidRequest`.
//! - `$/cancelRequest` for a request still waiting in the queue answers it
//!   with `RequestCancelled` without running it; a cancel for a request
//!   already answered is ignored.
//! - A panic inside a handler (a library bug on some input) is caught: the
//!   request gets `InternalError`, the document's facts become one
//!   "internal error" diagnostic (until the next edit), and the server goes on.
//! - A message that is not JSON-RPC is logged to stderr and skipped
//!   ([`transport`]).
//! - Positions are UTF-8 when the client offers it (`general.positionEncodings`),
//!   UTF-16 otherwise; both directions clamp (see [`position`]).

pub mod backend;
pub mod document;
pub mod handlers;
pub mod index;
pub mod position;
pub mod transport;

use document::Documents;
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use position::Encoding;
use serde_json::Value;
use std::collections::VecDeque;
use transport::{Connection, Outgoing};

/// User settings (initializationOptions or workspace configuration).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Show sectors per request at the end of each global access line.
    pub inlay_hints: bool,
    /// URL template for a code's documentation, with `{code}` and `{name}`
    /// placeholders; sent as `codeDescription.href` when set.
    pub explain_url: Option<String>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            inlay_hints: true,
            explain_url: None,
        }
    }
}

impl Settings {
    /// Updates from a JSON object shaped `{"inlayHints": {"enable": bool},
    /// "explainUrl": "..."}`, also accepted under a `warpscope` key and with
    /// `"inlayHints": bool`.
    pub fn update(&mut self, v: &Value) {
        let v = v.get("warpscope").unwrap_or(v);
        match v.get("inlayHints") {
            Some(Value::Bool(b)) => self.inlay_hints = *b,
            Some(o) => {
                if let Some(b) = o.get("enable").and_then(Value::as_bool) {
                    self.inlay_hints = b;
                }
            }
            None => {}
        }
        if let Some(u) = v.get("explainUrl") {
            self.explain_url = u.as_str().filter(|s| !s.is_empty()).map(String::from);
        }
    }
}

/// The server's state.
pub struct Server {
    sender: crossbeam_channel::Sender<Outgoing>,
    /// Open documents.
    pub docs: Documents,
    /// Negotiated position encoding.
    pub encoding: Encoding,
    /// User settings.
    pub settings: Settings,
    /// The client can be asked to refresh inlay hints.
    inlay_refresh: bool,
    /// The client asks for settings with `workspace/configuration`.
    pull_config: bool,
    next_id: i32,
    shutting_down: bool,
}

/// Runs the server over stdin/stdout until `exit`. Returns the process exit
/// status the protocol asks for (0 after `shutdown`, 1 otherwise).
pub fn run_stdio() -> Result<i32, Box<dyn std::error::Error + Send + Sync>> {
    let (connection, io_threads) = transport::stdio();
    let code = run(&connection)?;
    drop(connection);
    io_threads.join()?;
    Ok(code)
}

/// Waits for `initialize`: other requests get `ServerNotInitialized`, other
/// notifications are dropped; `exit` (or the end of input) ends the server.
fn initialize_start(connection: &Connection) -> Option<(RequestId, Value)> {
    loop {
        match connection.receiver.recv().ok()? {
            Message::Request(r) if r.method == "initialize" => return Some((r.id, r.params)),
            Message::Request(r) => {
                let e = Response::new_err(
                    r.id,
                    ErrorCode::ServerNotInitialized as i32,
                    "the server is not initialized yet".into(),
                );
                let _ = connection.sender.send(Outgoing::Message(e.into()));
            }
            Message::Notification(n) if n.method == "exit" => return None,
            _ => {}
        }
    }
}

/// Runs the server over a connection.
pub fn run(connection: &Connection) -> Result<i32, Box<dyn std::error::Error + Send + Sync>> {
    let Some((id, params)) = initialize_start(connection) else {
        return Ok(1);
    };
    let (encoding, mut settings, inlay_refresh, pull_config) = negotiate(&params);
    if let Some(opts) = params.get("initializationOptions") {
        settings.update(opts);
    }
    let result = serde_json::json!({
        "capabilities": handlers::capabilities(encoding),
        "serverInfo": { "name": "warpscope", "version": env!("CARGO_PKG_VERSION") },
    });
    // `initialized` is handled (ignored) by the main loop, so a client that
    // sends it late or not at all is still served.
    connection
        .sender
        .send(Outgoing::Message(Response::new_ok(id, result).into()))?;
    let mut server = Server {
        sender: connection.sender.clone(),
        docs: Documents::default(),
        encoding,
        settings,
        inlay_refresh,
        pull_config,
        next_id: 0,
        shutting_down: false,
    };
    server.main_loop(&connection.receiver)
}

/// Reads the client's capabilities: position encodings, refresh support.
fn negotiate(params: &Value) -> (Encoding, Settings, bool, bool) {
    let caps = params.get("capabilities");
    let offers_utf8 = caps
        .and_then(|c| c.pointer("/general/positionEncodings"))
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|e| e.as_str() == Some("utf-8")));
    let refresh = caps
        .and_then(|c| c.pointer("/workspace/inlayHint/refreshSupport"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let pull = caps
        .and_then(|c| c.pointer("/workspace/configuration"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let enc = if offers_utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    (enc, Settings::default(), refresh, pull)
}

impl Server {
    fn main_loop(
        &mut self,
        receiver: &crossbeam_channel::Receiver<Message>,
    ) -> Result<i32, Box<dyn std::error::Error + Send + Sync>> {
        let mut queue: VecDeque<Message> = VecDeque::new();
        if self.pull_config {
            self.request_configuration();
        }
        loop {
            let msg = match queue.pop_front() {
                Some(m) => m,
                None => match receiver.try_recv() {
                    Ok(m) => m,
                    Err(_) => {
                        // Idle: bring every stale document up to date.
                        self.publish_stale();
                        match receiver.recv() {
                            Ok(m) => m,
                            Err(_) => return Ok(1),
                        }
                    }
                },
            };
            // Take in what has already arrived, so that a cancel can
            // overtake the request it cancels.
            while let Ok(m) = receiver.try_recv() {
                let is_exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                queue.push_back(m);
                if is_exit {
                    break;
                }
            }
            match msg {
                Message::Request(req) => self.on_request(req),
                Message::Notification(n) if n.method == "exit" => {
                    return Ok(if self.shutting_down { 0 } else { 1 });
                }
                Message::Notification(n) if n.method == "$/cancelRequest" => {
                    if let Some(id) = cancel_id(&n.params) {
                        let pos = queue
                            .iter()
                            .position(|m| matches!(m, Message::Request(r) if r.id == id));
                        if let Some(pos) = pos {
                            queue.remove(pos);
                            self.respond(Response::new_err(
                                id,
                                ErrorCode::RequestCanceled as i32,
                                "cancelled".into(),
                            ));
                        }
                    }
                }
                Message::Notification(n) => self.on_notification(n),
                Message::Response(r) => self.on_response(r),
            }
        }
    }

    fn on_request(&mut self, req: Request) {
        if self.shutting_down {
            let r = Response::new_err(
                req.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".into(),
            );
            return self.respond(r);
        }
        if req.method == "shutdown" {
            self.shutting_down = true;
            return self.respond(Response::new_ok(req.id, ()));
        }
        let id = req.id.clone();
        let method = req.method.clone();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            handlers::request(self, req)
        }));
        let response = match outcome {
            Ok(r) => r,
            Err(_) => {
                // The facts of any document may be half-built: drop them all.
                for (_, d) in self.docs.iter_mut() {
                    if d.facts.is_none() {
                        d.facts = Some(backend::Facts::internal_error());
                    }
                }
                Response::new_err(
                    id,
                    ErrorCode::InternalError as i32,
                    format!("internal error while handling {method}"),
                )
            }
        };
        self.respond(response);
    }

    fn on_notification(&mut self, n: Notification) {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            handlers::notification(self, n)
        }));
        if outcome.is_err() {
            for (_, d) in self.docs.iter_mut() {
                if d.facts.is_none() {
                    d.facts = Some(backend::Facts::internal_error());
                }
            }
        }
    }

    fn on_response(&mut self, r: Response) {
        // The only requests the server sends: `workspace/configuration`
        // (answered with one settings object) and refreshes (answered null).
        if let Ok(Value::Array(items)) = r.response_result {
            let before = self.settings.clone();
            for item in items.iter().filter(|i| !i.is_null()) {
                self.settings.update(item);
            }
            if self.settings != before {
                self.refresh_inlay_hints();
            }
        }
    }

    /// Sends a response.
    pub fn respond(&self, r: Response) {
        let _ = self.sender.send(Outgoing::Message(r.into()));
    }

    /// Sends a notification, serialised straight to JSON text.
    pub fn notify(&self, method: &str, params: impl serde::Serialize) {
        #[derive(serde::Serialize)]
        struct Note<'a, P> {
            jsonrpc: &'static str,
            method: &'a str,
            params: P,
        }
        let note = Note {
            jsonrpc: "2.0",
            method,
            params,
        };
        match serde_json::to_string(&note) {
            Ok(text) => {
                let _ = self.sender.send(Outgoing::Raw(text));
            }
            Err(e) => eprintln!("warpscope lsp: could not serialise {method}: {e}"),
        }
    }

    /// Sends a request to the client (its answer comes to `on_response`).
    fn send_request(&mut self, method: &str, params: Value) {
        self.next_id += 1;
        let id = RequestId::from(format!("warpscope-{}", self.next_id));
        let _ = self.sender.send(Outgoing::Message(
            Request::new(id, method.to_string(), params).into(),
        ));
    }

    /// Asks the client for the `warpscope` settings section.
    pub fn request_configuration(&mut self) {
        self.send_request(
            "workspace/configuration",
            serde_json::json!({ "items": [{ "section": "warpscope" }] }),
        );
    }

    /// Asks the client to re-request inlay hints, if it can.
    pub fn refresh_inlay_hints(&mut self) {
        if self.inlay_refresh {
            self.send_request("workspace/inlayHint/refresh", Value::Null);
        }
    }

    /// Analyses every stale document and publishes its diagnostics.
    pub fn publish_stale(&mut self) {
        for uri in self.docs.stale() {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                handlers::publish(self, &uri)
            }));
            if outcome.is_err() {
                if let Some(d) = self.docs.get_mut(&uri) {
                    d.facts = Some(backend::Facts::internal_error());
                }
                // Publish the internal error itself.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    handlers::publish(self, &uri)
                }));
            }
        }
    }
}

fn cancel_id(params: &Value) -> Option<RequestId> {
    match params.get("id")? {
        Value::Number(n) => n
            .as_i64()
            .and_then(|i| i32::try_from(i).ok())
            .map(RequestId::from),
        Value::String(s) => Some(RequestId::from(s.clone())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_accept_every_documented_shape() {
        let mut s = Settings::default();
        s.update(&serde_json::json!({"inlayHints": {"enable": false}}));
        assert!(!s.inlay_hints);
        s.update(&serde_json::json!({"warpscope": {"inlayHints": true, "explainUrl": "https://x/{code}"}}));
        assert!(s.inlay_hints);
        assert_eq!(s.explain_url.as_deref(), Some("https://x/{code}"));
        s.update(&serde_json::json!({"explainUrl": ""}));
        assert_eq!(s.explain_url, None);
        // Unrelated or malformed settings change nothing.
        let before = s.clone();
        s.update(&serde_json::json!({"inlayHints": "yes", "other": 1}));
        s.update(&serde_json::json!(null));
        assert_eq!(s, before);
    }
}
