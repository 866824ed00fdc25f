//! The log pane's rows: the sequence picture, the selection in words and the list of messages
//! (`data-testid="log"`), drawn by the views' module (src/web/views/mod.rs) from a copy of the
//! page's log, so that their code is not in the page's wasm (docs/size-rules.md, 12); and the
//! latest reply beside the verdicts, whose "Show in the log" selects a row there.
//!
//! The page's side ([`RowsHost`], [`Rows`], [`LastReply`]) loads the module when the log first has
//! an entry, tells it what changed ([`ToViews::Log`]) and does what a row asks: Reply and Answer
//! put the client's next message in the editor ([`FromViews::LogReply`], [`FromViews::LogAnswer`]).
//! The module's side is [`rows`] (with [`row`], one entry, and [`copy`], the copy of the log).

use crate::web::kit::prelude::*;

use std::rc::Rc;

use crate::exchange::{Direction, Log};
use crate::web::kit::log_words::sentence;
use crate::web::kit::log_words::SHOWN;
use crate::web::kit::views_port::{FromViews, LogRows as Changes, ToViews};
use crate::web::page::exchange::use_log;
use crate::web::page::module_host::{notify, ModuleHost};
use crate::web::page::state::{use_app, AppState, NoticeLevel};

/// The host of the log's rows in the views' module: `#/log` scrolls to it and focuses it,
/// "Show in the log" asks it to select a row and bring it into view.
#[derive(Clone, Copy)]
pub struct RowsHost(pub ModuleHost);

/// Provides [`RowsHost`] to the page (App, after the log).
pub fn provide() -> RowsHost {
    let host = RowsHost(ModuleHost::new());
    provide_context(host);
    host
}

/// The log pane's rows, from the views' module: loaded when the log first has an entry, told
/// what changed in the newest [`SHOWN`] entries once mounted and on every change of the log
/// (only the entries it has not seen at their revision), and asked by a row's Reply or Answer
/// to put the client's next message in the editor. Until mounted: "loading", or why it failed
/// with a retry.
#[component]
pub fn Rows() -> impl IntoView {
    let app = use_app();
    let log = use_log().log;
    let RowsHost(host) = expect_context::<RowsHost>();
    host.listen(Rc::new(move |message| match message {
        FromViews::LogReply { raw } => reply_in_editor(app, &raw),
        FromViews::LogAnswer { key, mock } => retry_in_editor(app, log, key, mock),
        FromViews::Notify { error, text } => notify(app, error, text),
        FromViews::Ready
        | FromViews::OpenInPlayground { .. }
        | FromViews::LoadApi { .. }
        | FromViews::CopyToLog { .. }
        | FromViews::ProbeApi { .. }
        | FromViews::ProbeApiCancel
        | FromViews::FetchApi { .. }
        | FromViews::UnloadApi
        | FromViews::DiscoverApi => {}
    }));
    Effect::new(move |_| {
        if log.with(|l| !l.is_empty()) {
            host.load_once();
        }
    });
    // The (key, revision) of each entry the module has, in key order.
    let sent = StoredValue::new(Vec::<(u64, u32)>::new());
    Effect::new(move |_| {
        if !host.ready() {
            sent.set_value(Vec::new());
            return;
        }
        let changes = log.with(|l| {
            let tail = l.tail(SHOWN);
            let changed = sent.with_value(|sent| {
                tail.iter()
                    .filter(|e| sent.binary_search(&(e.key, e.rev)).is_err())
                    .cloned()
                    .collect()
            });
            sent.set_value(tail.iter().map(|e| (e.key, e.rev)).collect());
            Changes {
                from: tail.first().map_or(l.next_key(), |e| e.key),
                changed,
                total: l.len(),
            }
        });
        host.send(&ToViews::Log(changes));
    });
    view! {
        {move || host.status("list of messages", "The log's list of messages needs it")}
        <div class="xl-rows" data-later-views="log" node_ref=host.element></div>
    }
}

/// The latest message from the server, in words, beside the verdicts where the learner looks
/// after Send (`data-testid="last-reply"`, a polite live region: a screen reader hears it too);
/// "Show in the log" selects it there and scrolls it into view.
#[component]
pub fn LastReply() -> impl IntoView {
    let log = use_log().log;
    let RowsHost(host) = expect_context::<RowsHost>();
    // The newest entry from the server, read from the log where it is needed (no memo type of
    // its own: docs/size-rules.md, 4).
    let last_key = move |log: &Log| {
        log.entries()
            .iter()
            .rev()
            .find(|e| e.direction == Direction::In)
            .map(|e| e.key)
    };
    let show = move |_| {
        if let Some(key) = log.with_untracked(last_key) {
            host.send(&ToViews::LogShow { key });
        }
    };
    view! {
        <div class="last-reply" data-testid="last-reply" hidden=move || log.with(|l| last_key(l).is_none())>
            <p aria-live="polite">
                <span class="label">"Latest reply: "</span>
                {move || log.with(|l| last_key(l).and_then(|key| l.get(key)).map(sentence).unwrap_or_default())}
            </p>
            <button type="button" data-testid="last-reply-show" on:click=show>"Show in the log"</button>
        </div>
    }
}

/// Puts the retry of the input-required result `key` in the editor (one undoable edit), to be
/// sent where the result came from (the mock, else the live link); says why not when it cannot
/// be built.
fn retry_in_editor(app: AppState, log: RwSignal<Log>, key: u64, mock: bool) {
    use crate::web::page::state::Target;
    match log.with_untracked(|l| l.retry_for(key)) {
        Ok(retry) => {
            app.replace_text_undoably(&retry);
            app.target
                .set(if mock { Target::Mock } else { Target::Link });
        }
        Err(e) => app.notify(
            NoticeLevel::Error,
            format!("Cannot answer this round: {e}."),
        ),
    }
}

/// Puts a client's answer to the server's request `raw` in the editor (one undoable edit), to be
/// edited and sent to the mock.
fn reply_in_editor(app: AppState, raw: &str) {
    if let Some(answer) = crate::client::reply_to(raw) {
        app.replace_text_undoably(&answer);
        app.target.set(crate::web::page::state::Target::Mock);
    }
}
