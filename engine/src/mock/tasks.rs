//! The Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) of MCP 2026-07-28: a server
//! may answer a `tools/call` with a task handle (`resultType: "task"`, a `CreateTaskResult`: the
//! task's id, status, timestamps, `ttlMs` and `pollIntervalMs`, flat) instead of the tool's result,
//! and the client follows the task with `tasks/get` (the task, with its `result`, `error` or
//! outstanding `inputRequests` inlined), answers what it asks with `tasks/update`
//! (`inputResponses` by key; an empty acknowledgement) and stops it with `tasks/cancel` (an empty
//! acknowledgement, the same for a task already finished). There is no `tasks/result` and no
//! `tasks/list` (-32601).
//!
//! Only a request whose `_meta` declares the extension in its client capabilities gets a task (each
//! request on its own: 2026-07-28 has no session); `tasks/*` from a request that does not declare
//! it are refused with -32021 naming the extension. A tool that can only run as a task refuses such
//! a client the same way; one that can also run at once answers it with its plain result.
//!
//! The store ([`TaskStore`]) is shared by every mock server of a process (a stateless POST's
//! server lives for one request; the task must outlive it), and it is bounded: at most
//! [`MAX_TASKS`] tasks, each kept [`TASK_TTL_MS`] from its creation; a new task past the bound
//! pushes out the oldest finished one, and when all are still running it is refused (-32603). An
//! answer to an input request is kept only up to [`MAX_ANSWER_BYTES`]; nothing else a client sends
//! is stored. Task ids are 128 bits of HMAC-SHA-256 under the server's state key
//! ([`MockServer::set_state_key`], random per process in `jrpc serve`): not guessable.
//!
//! Time is the store's clock (milliseconds since the Unix epoch, given by the transport: the
//! engine reads no clock of its own). A task does its work as time passes: its status is brought
//! up to date whenever the store is read, so a task due at T is completed by the first read after T.
//! <https://modelcontextprotocol.io/extensions/tasks> (SEP-2663)

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::json::{parse_document, Json, Node};
use crate::rpc::errors::{INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};

use super::ask;
use super::params::required_str;
use super::{describe, MockServer, Outcome, RpcError, MISSING_REQUIRED_CLIENT_CAPABILITY};

/// The extension's identifier (`capabilities.extensions`, and a client's per-request
/// `clientCapabilities.extensions`).
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// The most tasks a store keeps.
pub const MAX_TASKS: usize = 64;
/// How long a task is kept from its creation (its `ttlMs`).
pub const TASK_TTL_MS: u64 = 15 * 60 * 1000;
/// How often a client is asked to poll (`pollIntervalMs`).
pub const POLL_INTERVAL_MS: u64 = 500;
/// The largest answer to an input request a task keeps (its compact JSON text).
pub const MAX_ANSWER_BYTES: usize = 4096;
/// How long a task works on after its last input arrived.
const RESUME_MS: u64 = 100;
/// The methods of the extension.
pub(super) const METHODS: [&str; 3] = ["tasks/get", "tasks/update", "tasks/cancel"];

/// Milliseconds since the Unix epoch.
pub type Clock = fn() -> u64;

/// The tasks of a process, shared by its mock servers ([`MockServer::serve_tasks`]).
#[derive(Clone)]
pub struct TaskStore(Arc<Mutex<Table>>);

impl fmt::Debug for TaskStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TaskStore({} tasks)", self.lock().tasks.len())
    }
}

struct Table {
    clock: Clock,
    tasks: Vec<Task>,
    /// How many task ids were made (each id's MAC covers its number).
    minted: u64,
}

/// What a task does: it works `run_ms`, or first asks the client `asks` (key, `{method, params}`)
/// and works `RESUME_MS` once every one is answered; then `finish` makes its outcome from `note`
/// (what it was called with, short) and the answers: a result completes it, an error fails it.
pub(super) struct Job {
    pub(super) run_ms: u64,
    pub(super) asks: Vec<(&'static str, Json)>,
    pub(super) note: String,
    pub(super) finish: fn(&str, &Answers) -> Outcome,
}

/// The answers a task received, by key (compact JSON, each at most [`MAX_ANSWER_BYTES`]).
#[derive(Default)]
pub(super) struct Answers(Vec<(String, String)>);

impl Answers {
    fn has(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k == key)
    }

    /// The field `field` of the form accepted under `key` (`None`: no answer, or not accepted).
    pub(super) fn accepted_field(&self, key: &str, field: &str) -> Option<String> {
        let (_, text) = self.0.iter().find(|(k, _)| k == key)?;
        let (parsed, _) = parse_document(text.as_bytes(), 0).ok()?;
        let (action, content) = ask::elicited(&parsed.root).ok()?;
        (action == "accept")
            .then(|| ask::form_text(content, field))
            .flatten()
    }
}

enum State {
    Working { due_ms: u64 },
    InputRequired,
    Completed(Json),
    Failed(Json),
    Cancelled,
}

struct Task {
    id: String,
    created_ms: u64,
    updated_ms: u64,
    job: Job,
    answers: Answers,
    state: State,
}

impl Task {
    fn terminal(&self) -> bool {
        matches!(
            self.state,
            State::Completed(_) | State::Failed(_) | State::Cancelled
        )
    }

    /// The input requests not answered yet.
    fn pending(&self) -> impl Iterator<Item = &(&'static str, Json)> {
        self.job.asks.iter().filter(|(k, _)| !self.answers.has(k))
    }

    /// Does the work due by `now`.
    fn advance(&mut self, now: u64) {
        if let State::Working { due_ms } = self.state {
            if now >= due_ms {
                self.state = match (self.job.finish)(&self.job.note, &self.answers) {
                    Ok(result) => State::Completed(result),
                    Err(error) => State::Failed(error.to_json()),
                };
                self.updated_ms = due_ms;
            }
        }
    }

    fn status(&self) -> &'static str {
        match self.state {
            State::Working { .. } => "working",
            State::InputRequired => "input_required",
            State::Completed(_) => "completed",
            State::Failed(_) => "failed",
            State::Cancelled => "cancelled",
        }
    }

    /// The task as `resultType` says: `"task"` a `CreateTaskResult` (the task alone), `"complete"`
    /// a `tasks/get` result (with its result, error or outstanding input requests inlined).
    fn to_json(&self, result_type: &str) -> Json {
        let message = match &self.state {
            State::Working { .. } => "The task is working.".to_string(),
            State::InputRequired => {
                let keys: Vec<&str> = self.pending().map(|(k, _)| *k).collect();
                format!(
                    "The task waits for the client's answers to {}: send them with tasks/update.",
                    keys.join(", ")
                )
            }
            State::Completed(_) => "The task completed: its result is inlined.".to_string(),
            State::Failed(error) => format!(
                "The task failed: {}",
                match error.get("message") {
                    Some(Json::String(m)) => m.as_str(),
                    _ => "a JSON-RPC error",
                }
            ),
            State::Cancelled => "The task was cancelled (tasks/cancel).".to_string(),
        };
        let mut task = Json::obj([
            ("resultType", Json::from(result_type)),
            ("taskId", Json::from(self.id.as_str())),
            ("status", Json::from(self.status())),
            ("statusMessage", Json::String(message)),
            ("createdAt", Json::String(iso8601(self.created_ms))),
            ("lastUpdatedAt", Json::String(iso8601(self.updated_ms))),
            ("ttlMs", Json::from(TASK_TTL_MS)),
            ("pollIntervalMs", Json::from(POLL_INTERVAL_MS)),
        ]);
        if result_type == "task" {
            return task;
        }
        match &self.state {
            State::InputRequired => task.set(
                "inputRequests",
                Json::obj(self.pending().map(|(k, request)| (*k, request.clone()))),
            ),
            State::Completed(result) => task.set("result", result.clone()),
            State::Failed(error) => task.set("error", error.clone()),
            State::Working { .. } | State::Cancelled => {}
        }
        task
    }
}

impl TaskStore {
    /// An empty store reading time from `clock`.
    pub fn new(clock: Clock) -> Self {
        TaskStore(Arc::new(Mutex::new(Table {
            clock,
            tasks: Vec::new(),
            minted: 0,
        })))
    }

    /// How many tasks it keeps now.
    pub fn len(&self) -> usize {
        self.lock().tasks.len()
    }

    /// True when it keeps none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        // A panic while the lock was held cannot leave a task half-changed in a way that matters
        // more than losing the store: go on with what is there.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Table {
    /// The time now, the expired tasks forgotten and the others brought up to date.
    fn now(&mut self) -> u64 {
        let now = (self.clock)();
        self.tasks
            .retain(|t| now < t.created_ms.saturating_add(TASK_TTL_MS));
        for task in &mut self.tasks {
            task.advance(now);
        }
        now
    }

    fn find(&mut self, id: &str) -> Result<&mut Task, RpcError> {
        self.tasks
            .iter_mut()
            .find(|t| t.id == id)
            .ok_or_else(|| task_not_found(id))
    }
}

fn task_not_found(id: &str) -> RpcError {
    RpcError::new(INVALID_PARAMS, "Failed to retrieve task: Task not found").with_errors([(
        "/params/taskId",
        format!(
            "no task {} here: task ids come from a CreateTaskResult, and a task is kept {} min from its creation",
            crate::json::quote(id),
            TASK_TTL_MS / 60_000
        ),
    )])
}

/// -32021 naming the extension: the request needs it and its `_meta` did not declare it.
pub(super) fn missing_extension(why: &str) -> RpcError {
    RpcError {
        code: MISSING_REQUIRED_CLIENT_CAPABILITY,
        message: format!(
            "Missing required client capability: the extension {TASKS_EXTENSION} ({why}; declare it in io.modelcontextprotocol/clientCapabilities.extensions)"
        ),
        data: Some(Json::obj([(
            "requiredCapabilities",
            Json::obj([(
                "extensions",
                Json::obj([(TASKS_EXTENSION, Json::Object(Vec::new()))]),
            )]),
        )])),
    }
}

type HmacSha256 = Hmac<Sha256>;

impl MockServer {
    /// Serves the Tasks extension from `store` (shared with the other servers of the process):
    /// `server/discover` declares it, and task-supporting tools make tasks for a client that
    /// declares it. Without a store (the default) the extension is not served.
    pub fn serve_tasks(&mut self, store: TaskStore) {
        self.tasks = Some(store);
    }

    /// The store, when the extension is served.
    pub fn task_store(&self) -> Option<&TaskStore> {
        self.tasks.as_ref()
    }

    /// Whether this request may get a task: the extension is served, and the request is a
    /// 2026-07-28 one declaring it.
    pub(super) fn may_create_task(&self) -> bool {
        self.tasks.is_some() && self.request.modern && self.request.client_can.tasks
    }

    /// Starts `job` as a task: its `CreateTaskResult` (the task is in the store before this
    /// returns, so a `tasks/get` for its id resolves at once).
    pub(super) fn start_task(&self, job: Job) -> Outcome {
        let Some(store) = &self.tasks else {
            return Err(RpcError::new(
                INTERNAL_ERROR,
                "This mock server keeps no tasks (no task store was given to it)",
            ));
        };
        let mut table = store.lock();
        let now = table.now();
        if table.tasks.len() >= MAX_TASKS {
            let oldest_finished = table
                .tasks
                .iter()
                .enumerate()
                .filter(|(_, t)| t.terminal())
                .min_by_key(|(_, t)| t.updated_ms)
                .map(|(i, _)| i);
            match oldest_finished {
                Some(i) => {
                    table.tasks.remove(i);
                }
                None => {
                    return Err(RpcError::new(
                        INTERNAL_ERROR,
                        format!("Too many tasks: this server keeps at most {MAX_TASKS}, and all are still running; cancel one (tasks/cancel) or wait for one to finish"),
                    ))
                }
            }
        }
        table.minted += 1;
        let id = self.task_id(table.minted, now);
        let state = if job.asks.is_empty() {
            State::Working {
                due_ms: now.saturating_add(job.run_ms),
            }
        } else {
            State::InputRequired
        };
        let mut task = Task {
            id,
            created_ms: now,
            updated_ms: now,
            job,
            answers: Answers::default(),
            state,
        };
        task.advance(now);
        let created = task.to_json("task");
        table.tasks.push(task);
        Ok(created)
    }

    /// A task id: 128 bits of the MAC of its number and time under the server's key, in hex.
    fn task_id(&self, number: u64, now: u64) -> String {
        let mut mac =
            HmacSha256::new_from_slice(&self.state_key).expect("HMAC takes any key length");
        mac.update(b"task\0");
        mac.update(&number.to_le_bytes());
        mac.update(&now.to_le_bytes());
        let tag = mac.finalize().into_bytes();
        tag[..16].iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// `tasks/get`, `tasks/update` or `tasks/cancel` (a 2026-07-28 request).
pub(super) fn serve(server: &MockServer, method: &str, params: Option<&Node<'_>>) -> Outcome {
    let Some(store) = &server.tasks else {
        return Err(RpcError::new(METHOD_NOT_FOUND, "Method not found"));
    };
    if !server.request.client_can.tasks {
        return Err(missing_extension(&format!(
            "{method} is a method of the Tasks extension"
        )));
    }
    let id = required_str(params, "taskId", "the task, from its CreateTaskResult")?;
    let mut table = store.lock();
    let now = table.now();
    let task = table.find(id)?;
    match method {
        "tasks/get" => Ok(task.to_json("complete")),
        "tasks/update" => {
            update(task, params, now)?;
            Ok(Json::Object(Vec::new()))
        }
        _ => {
            if !task.terminal() {
                task.state = State::Cancelled;
                task.updated_ms = now;
            }
            Ok(Json::Object(Vec::new()))
        }
    }
}

/// Takes the answers of `tasks/update` to the task's outstanding input requests (others are
/// ignored, as the extension says); once none is outstanding the task works again.
fn update(task: &mut Task, params: Option<&Node<'_>>, now: u64) -> Result<(), RpcError> {
    let responses = params.and_then(|p| p.get("inputResponses"));
    let Some(responses) = responses.filter(|r| r.is_object()) else {
        return Err(RpcError::invalid_params([(
            "/params/inputResponses",
            match responses {
                Some(r) => format!(
                    "\"inputResponses\" must be an object of the answers by the keys of the task's inputRequests, found {}",
                    describe(r)
                ),
                None => "\"inputResponses\" is missing (the answers by the keys of the task's inputRequests)".to_string(),
            },
        )]));
    };
    if !matches!(task.state, State::InputRequired) {
        return Ok(());
    }
    let mut taken = Vec::new();
    for (key, request) in task.pending() {
        let Some(answer) = responses.get(key) else {
            continue;
        };
        let path = format!("/params/inputResponses/{}", crate::json::escape_token(key));
        let is_elicitation = request.get("method") == Some(&Json::from("elicitation/create"));
        if is_elicitation {
            if let Err(problem) = ask::elicited(answer) {
                return Err(RpcError::invalid_params([(path, problem)]));
            }
        }
        let text = Json::from_node(answer).compact();
        if text.len() > MAX_ANSWER_BYTES {
            return Err(RpcError::invalid_params([(
                path,
                format!(
                    "the answer is {} bytes; a task keeps answers of at most {MAX_ANSWER_BYTES}",
                    text.len()
                ),
            )]));
        }
        taken.push((key.to_string(), text));
    }
    if taken.is_empty() {
        return Ok(());
    }
    task.answers.0.extend(taken);
    task.updated_ms = now;
    if task.pending().next().is_none() {
        task.state = State::Working {
            due_ms: now.saturating_add(RESUME_MS),
        };
    }
    Ok(())
}

/// `ms` since the Unix epoch as an ISO 8601 UTC timestamp to the millisecond
/// (`2026-07-28T09:30:00.000Z`). The civil date from the day count is Howard Hinnant's
/// `civil_from_days` (public domain), for the proleptic Gregorian calendar.
fn iso8601(ms: u64) -> String {
    let days = (ms / 86_400_000) as i64;
    let in_day = ms % 86_400_000;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000
    )
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use serde_json::{json, Value};

    use super::*;

    thread_local! {
        /// The test's clock (each test runs on a thread of its own).
        static NOW: Cell<u64> = const { Cell::new(1_785_231_000_000) };
    }

    fn now() -> u64 {
        NOW.with(Cell::get)
    }

    fn wait(ms: u64) {
        NOW.with(|n| n.set(n.get() + ms));
    }

    /// A server keeping tasks in a store of its own, on the test's clock.
    fn server() -> MockServer {
        let mut server = MockServer::new();
        server.serve_tasks(TaskStore::new(now));
        server
    }

    fn job(run_ms: u64) -> Job {
        Job {
            run_ms,
            asks: Vec::new(),
            note: "n".into(),
            finish: |note, _| Ok(Json::obj([("text", Json::String(format!("done {note}")))])),
        }
    }

    fn asking() -> Job {
        let form = |field: &str| {
            Json::obj([
                ("method", Json::from("elicitation/create")),
                ("params", Json::obj([("message", Json::from(field))])),
            ])
        };
        Job {
            run_ms: 0,
            asks: vec![("a", form("a")), ("b", form("b"))],
            note: String::new(),
            finish: |_, answers| {
                let a = answers.accepted_field("a", "v").unwrap_or_default();
                let b = answers.accepted_field("b", "v").unwrap_or_default();
                Ok(Json::obj([("text", Json::String(format!("{a}+{b}")))]))
            },
        }
    }

    fn value(json: &Json) -> Value {
        serde_json::from_str(&json.compact()).expect("JSON")
    }

    fn start(server: &MockServer, job: Job) -> Value {
        value(&server.start_task(job).expect("a task"))
    }

    /// `method` with `params`, in a 2026-07-28 envelope declaring the extension when `declared`.
    fn call(server: &mut MockServer, method: &str, mut params: Value, declared: bool) -> Value {
        let extensions = if declared {
            json!({"extensions": {TASKS_EXTENSION: {}}})
        } else {
            json!({})
        };
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": extensions,
        });
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let reply = server
            .handle(request.to_string().as_bytes())
            .expect("a reply");
        serde_json::from_str(&reply).expect("JSON")
    }

    fn get(server: &mut MockServer, id: &Value) -> Value {
        call(server, "tasks/get", json!({"taskId": id}), true)
    }

    #[test]
    fn a_created_task_is_a_flat_create_task_result() {
        let created = start(&server(), job(1000));
        assert_eq!(created["resultType"], "task");
        assert_eq!(created["status"], "working");
        assert_eq!(created["ttlMs"], TASK_TTL_MS);
        assert_eq!(created["pollIntervalMs"], POLL_INTERVAL_MS);
        assert_eq!(created["createdAt"], "2026-07-28T09:30:00.000Z");
        assert_eq!(created["lastUpdatedAt"], created["createdAt"]);
        for absent in ["task", "result", "error", "inputRequests", "requestState"] {
            assert!(created.get(absent).is_none(), "{absent} in {created}");
        }
        let id = created["taskId"].as_str().unwrap();
        assert!(
            id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
            "{id}"
        );
    }

    #[test]
    fn a_created_task_resolves_at_once_as_working() {
        let mut server = server();
        let created = start(&server, job(1000));
        let got = get(&mut server, &created["taskId"]);
        assert_eq!(got["result"]["resultType"], "complete", "{got}");
        assert_eq!(got["result"]["taskId"], created["taskId"]);
        assert_eq!(got["result"]["status"], "working");
        assert!(got["result"].get("result").is_none());
    }

    #[test]
    fn task_ids_differ() {
        let server = server();
        let a = start(&server, job(1000));
        let b = start(&server, job(1000));
        assert_ne!(a["taskId"], b["taskId"]);
    }

    #[test]
    fn a_working_task_completes_when_its_time_comes_with_its_result_inlined() {
        let mut server = server();
        let created = start(&server, job(1000));
        wait(999);
        assert_eq!(
            get(&mut server, &created["taskId"])["result"]["status"],
            "working"
        );
        wait(5000);
        let got = get(&mut server, &created["taskId"])["result"].clone();
        assert_eq!(got["status"], "completed");
        assert_eq!(got["result"], json!({"text": "done n"}));
        assert_eq!(got["lastUpdatedAt"], "2026-07-28T09:30:01.000Z");
        assert!(got.get("error").is_none());
    }

    #[test]
    fn a_job_that_errs_fails_with_the_error_inlined_and_no_result() {
        let mut server = server();
        let created = start(
            &server,
            Job {
                finish: |_, _| Err(RpcError::new(INTERNAL_ERROR, "broke")),
                ..job(10)
            },
        );
        wait(10);
        let got = get(&mut server, &created["taskId"])["result"].clone();
        assert_eq!(got["status"], "failed");
        assert_eq!(got["error"], json!({"code": -32603, "message": "broke"}));
        assert!(got.get("result").is_none());
    }

    #[test]
    fn an_unknown_task_id_is_invalid_params_for_every_method() {
        let mut server = server();
        for (method, params) in [
            ("tasks/get", json!({"taskId": "nope"})),
            (
                "tasks/update",
                json!({"taskId": "nope", "inputResponses": {}}),
            ),
            ("tasks/cancel", json!({"taskId": "nope"})),
        ] {
            let reply = call(&mut server, method, params, true);
            assert_eq!(reply["error"]["code"], -32602, "{method}: {reply}");
        }
    }

    #[test]
    fn a_task_id_that_is_not_a_string_is_invalid_params() {
        let reply = call(&mut server(), "tasks/get", json!({"taskId": 7}), true);
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert_eq!(
            reply["error"]["data"]["errors"][0]["path"],
            "/params/taskId"
        );
    }

    #[test]
    fn tasks_methods_without_the_extension_are_refused_naming_it() {
        let mut server = server();
        let created = start(&server, job(1000));
        for method in METHODS {
            let params = json!({"taskId": created["taskId"], "inputResponses": {}});
            let reply = call(&mut server, method, params, false);
            assert_eq!(reply["error"]["code"], -32021, "{method}: {reply}");
            assert_eq!(
                reply["error"]["data"]["requiredCapabilities"],
                json!({"extensions": {TASKS_EXTENSION: {}}})
            );
        }
    }

    #[test]
    fn tasks_methods_are_unknown_without_a_store() {
        let reply = call(
            &mut MockServer::new(),
            "tasks/get",
            json!({"taskId": "x"}),
            true,
        );
        assert_eq!(reply["error"]["code"], -32601, "{reply}");
    }

    #[test]
    fn removed_tasks_methods_are_unknown() {
        for method in ["tasks/result", "tasks/list"] {
            let reply = call(&mut server(), method, json!({"taskId": "x"}), true);
            assert_eq!(reply["error"]["code"], -32601, "{method}: {reply}");
        }
    }

    #[test]
    fn cancel_of_a_working_task_acks_empty_and_cancels_it() {
        let mut server = server();
        let created = start(&server, job(60_000));
        let ack = call(
            &mut server,
            "tasks/cancel",
            json!({"taskId": created["taskId"]}),
            true,
        );
        assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
        for absent in ["taskId", "status", "result", "error", "inputRequests"] {
            assert!(ack["result"].get(absent).is_none(), "{absent} in {ack}");
        }
        wait(120_000);
        assert_eq!(
            get(&mut server, &created["taskId"])["result"]["status"],
            "cancelled"
        );
    }

    #[test]
    fn cancel_of_a_finished_task_acks_and_keeps_its_status() {
        let mut server = server();
        let created = start(&server, job(10));
        wait(10);
        let ack = call(
            &mut server,
            "tasks/cancel",
            json!({"taskId": created["taskId"]}),
            true,
        );
        assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
        let got = get(&mut server, &created["taskId"])["result"].clone();
        assert_eq!(got["status"], "completed");
        assert_eq!(got["result"], json!({"text": "done n"}));
    }

    #[test]
    fn an_asking_task_lists_its_outstanding_input_requests() {
        let mut server = server();
        let created = start(&server, asking());
        assert_eq!(created["status"], "input_required");
        assert!(created.get("inputRequests").is_none(), "{created}");
        let got = get(&mut server, &created["taskId"])["result"].clone();
        assert_eq!(got["status"], "input_required");
        let keys: Vec<&String> = got["inputRequests"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(got["inputRequests"]["a"]["method"], "elicitation/create");
    }

    #[test]
    fn a_partial_update_keeps_the_task_waiting_for_the_rest_only() {
        let mut server = server();
        let id = start(&server, asking())["taskId"].clone();
        let answer = json!({"action": "accept", "content": {"v": "1"}});
        let ack = call(
            &mut server,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"a": answer}}),
            true,
        );
        assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
        assert!(ack["result"].get("status").is_none());
        let got = get(&mut server, &id)["result"].clone();
        assert_eq!(got["status"], "input_required");
        let keys: Vec<&String> = got["inputRequests"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["b"]);
    }

    #[test]
    fn the_last_answer_resumes_the_task_to_completion_with_the_answers() {
        let mut server = server();
        let id = start(&server, asking())["taskId"].clone();
        let answer = |v: &str| json!({"action": "accept", "content": {"v": v}});
        call(
            &mut server,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"a": answer("1")}}),
            true,
        );
        call(
            &mut server,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"b": answer("2")}}),
            true,
        );
        assert_eq!(get(&mut server, &id)["result"]["status"], "working");
        wait(RESUME_MS);
        let got = get(&mut server, &id)["result"].clone();
        assert_eq!(got["status"], "completed");
        assert_eq!(got["result"], json!({"text": "1+2"}));
    }

    #[test]
    fn answers_to_keys_not_outstanding_are_ignored() {
        let mut server = server();
        let id = start(&server, asking())["taskId"].clone();
        let first = json!({"action": "accept", "content": {"v": "1"}});
        call(
            &mut server,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"a": first}}),
            true,
        );
        let again = json!({"action": "accept", "content": {"v": "changed"}});
        let ack = call(
            &mut server,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"a": again, "never-asked": {"x": 1}}}),
            true,
        );
        assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
        let got = get(&mut server, &id)["result"].clone();
        assert_eq!(got["status"], "input_required");
        assert_eq!(got["inputRequests"].as_object().unwrap().len(), 1);
    }

    #[test]
    fn input_responses_that_are_not_an_object_are_invalid_params() {
        let mut server = server();
        let id = start(&server, asking())["taskId"].clone();
        let reply = call(
            &mut server,
            "tasks/update",
            json!({"taskId": id, "inputResponses": [1]}),
            true,
        );
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert_eq!(
            reply["error"]["data"]["errors"][0]["path"],
            "/params/inputResponses"
        );
    }

    #[test]
    fn an_answer_that_is_no_elicitation_result_is_invalid_params_and_not_taken() {
        let mut server = server();
        let id = start(&server, asking())["taskId"].clone();
        let reply = call(
            &mut server,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"a": {"v": 1}}}),
            true,
        );
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert_eq!(
            reply["error"]["data"]["errors"][0]["path"],
            "/params/inputResponses/a"
        );
        let got = get(&mut server, &id)["result"].clone();
        assert_eq!(got["inputRequests"].as_object().unwrap().len(), 2);
    }

    #[test]
    fn an_answer_over_the_bound_is_refused() {
        let mut server = server();
        let id = start(&server, asking())["taskId"].clone();
        let big = json!({"action": "accept", "content": {"v": "x".repeat(MAX_ANSWER_BYTES)}});
        let reply = call(
            &mut server,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"a": big}}),
            true,
        );
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert_eq!(
            get(&mut server, &id)["result"]["inputRequests"]
                .as_object()
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn past_the_bound_of_running_tasks_a_new_one_is_refused() {
        let server = server();
        for _ in 0..MAX_TASKS {
            start(&server, job(60_000));
        }
        let refused = server.start_task(job(60_000)).unwrap_err();
        assert_eq!(refused.code, INTERNAL_ERROR);
        assert_eq!(server.task_store().unwrap().len(), MAX_TASKS);
    }

    #[test]
    fn past_the_bound_the_oldest_finished_task_makes_room() {
        let mut server = server();
        let first = start(&server, job(10));
        let second = start(&server, job(10));
        for _ in 2..MAX_TASKS {
            start(&server, job(60_000));
        }
        wait(10);
        start(&server, job(60_000));
        assert_eq!(server.task_store().unwrap().len(), MAX_TASKS);
        // Both finished at the same time: the first in the list goes.
        assert_eq!(get(&mut server, &first["taskId"])["error"]["code"], -32602);
        assert_eq!(
            get(&mut server, &second["taskId"])["result"]["status"],
            "completed"
        );
    }

    #[test]
    fn a_task_is_forgotten_once_its_ttl_has_passed() {
        let mut server = server();
        let created = start(&server, job(10));
        wait(TASK_TTL_MS - 1);
        assert_eq!(
            get(&mut server, &created["taskId"])["result"]["status"],
            "completed"
        );
        wait(1);
        assert_eq!(
            get(&mut server, &created["taskId"])["error"]["code"],
            -32602
        );
        assert!(server.task_store().unwrap().is_empty());
    }

    #[test]
    fn timestamps_are_iso_8601_utc_to_the_millisecond() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso8601(1_785_231_000_123), "2026-07-28T09:30:00.123Z");
        assert_eq!(iso8601(4_102_444_799_999), "2099-12-31T23:59:59.999Z");
    }
}
