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

use super::ask::{self, missing_extension};
use super::params::required_str;
use super::{describe, MockServer, Outcome, RpcError};

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

    /// The field `field` of the form accepted under `key`: a string as it is, another value as
    /// its JSON text (`true`, `3`); `None` when there is no answer, or it was not accepted.
    pub(super) fn accepted_field(&self, key: &str, field: &str) -> Option<String> {
        let (_, text) = self.0.iter().find(|(k, _)| k == key)?;
        let (parsed, _) = parse_document(text.as_bytes(), 0).ok()?;
        let (action, content) = ask::elicited(&parsed.root).ok()?;
        let value = content.filter(|_| action == "accept")?.get(field)?;
        Some(match value.as_str() {
            Some(s) => s.to_string(),
            None => Json::from_node(value).compact(),
        })
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
mod tests;
