//! The module's side of the log's rows: the sequence picture, the selection in words and the list,
//! drawn from its copy of the page's log ([`LogCopy`]), mounted into the page's host
//! ([`super::Rows`]).

use crate::web::kit::prelude::*;

use crate::exchange::Status;
use crate::web::kit::log_words::describe_at;
use crate::web::kit::log_words::is_reply;
use crate::web::kit::log_words::latency;
use crate::web::kit::log_words::status_text;
use crate::web::kit::log_words::SHOWN;
use crate::web::kit::views_port::{FromViews, ToViews};
use crate::web::views::log_rows::copy::LogCopy;
use crate::web::views::log_rows::row::LogRow;
use crate::web::views::picture::SequencePicture;

/// The rows of the log (`data-testid="log"`), the sequence picture above them and the
/// selection, mounted by the module into the page's log pane (`host`).
#[component]
pub fn LogRows(host: web_sys::HtmlElement) -> impl IntoView {
    let copy = LogCopy::new(host);
    provide_context(copy);
    copy.port.listen(move |told| match told {
        ToViews::Log(changes) => copy.take(changes),
        ToViews::LogShow { key } => copy.show(key),
        _ => {}
    });
    copy.ask(FromViews::Ready);
    // The rows: keyed by entry and revision, so an append builds one row.
    let rows = move || {
        copy.log.with(|l| {
            l.tail(SHOWN)
                .iter()
                .map(|e| (e.key, e.rev))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <SequencePicture log=copy.log selected=copy.selected total=copy.total />
        <Selection />
        <ol class="xl-list" data-testid="log" aria-label="Messages, oldest first" node_ref=copy.list>
            <For
                each=rows
                key=|k| (k.0 << 24) ^ u64::from(k.1)
                children=|(key, _rev): (u64, u32)| view! { <LogRow entry=key /> }
            />
        </ol>
    }
}

/// What the selected message is and, when paired, its partner and the latency.
#[component]
fn Selection() -> impl IntoView {
    let copy = expect_context::<LogCopy>();
    // Read where it is needed (no memo type of its own: docs/size-rules.md, 4).
    let described = move || -> Option<(String, Option<f64>)> {
        let at = copy.selected.get()?;
        copy.log.with(|log| {
            let entry = log.get(at.key)?;
            let msg = entry.msgs.get(at.item)?;
            let me = describe_at(entry, at.item);
            Some(match msg.status {
                Status::Paired { with, latency_ms } => {
                    let other = log
                        .get(with.key)
                        .map(|e| describe_at(e, with.item))
                        .unwrap_or_default();
                    let (req, res) = if is_reply(msg) {
                        (other, me)
                    } else {
                        (me, other)
                    };
                    (
                        format!("{res} answers {req} — latency {}", latency(latency_ms)),
                        Some(latency_ms),
                    )
                }
                status => (format!("{me}: {}", status_text(entry, msg, &status)), None),
            })
        })
    };
    view! {
        <p
            class="xl-selection"
            data-testid="log-selection"
            aria-live="polite"
            hidden=move || described().is_none()
            data-latency-ms=move || described().and_then(|(_, l)| l.map(|l| crate::json::fixed(l, 3)))
        >
            {move || described().map(|(t, _)| t).unwrap_or_default()}
        </p>
    }
}
