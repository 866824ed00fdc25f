//! The verdict pane: one card per document, batch elements nested in their batch's card.

use std::sync::Arc;

use leptos::prelude::*;

use super::analysis::{Finding, Keyed, Verdict};

/// The list of verdict cards.
#[component]
pub fn Verdicts() -> impl IntoView {
    let analysis = super::use_app().analysis;
    view! {
        <section class="verdicts" data-testid="verdicts" aria-label="Verdicts" aria-live="polite">
            <For
                each=move || analysis.with(|a| a.verdicts.clone())
                key=|keyed: &Keyed| keyed.key
                children=|keyed: Keyed| view! { <VerdictCard verdict=keyed.verdict /> }
            />
        </section>
    }
}

/// One top-level document.
#[component]
fn VerdictCard(
    /// What the engine said about the document.
    verdict: Arc<Verdict>,
) -> impl IntoView {
    let kind = verdict.kind.as_str();
    let items = verdict.items.iter().map(|item| view! { <BatchItem item=item.clone() /> }).collect_view();
    view! {
        <article class=format!("verdict kind-{kind}") data-testid="verdict" data-kind=kind>
            <Summary verdict=verdict.clone() />
            <Findings findings=verdict.findings.clone() />
            <ol class="batch-items">{items}</ol>
        </article>
    }
}

/// One element of a batch.
#[component]
fn BatchItem(
    /// What the engine said about the element.
    item: Verdict,
) -> impl IntoView {
    let kind = item.kind.as_str();
    let findings = item.findings.clone();
    view! {
        <li class=format!("batch-item kind-{kind}") data-testid="batch-item" data-kind=kind>
            <Summary verdict=Arc::new(item) />
            <Findings findings />
        </li>
    }
}

/// Kind, method, id and position of a document.
#[component]
fn Summary(verdict: Arc<Verdict>) -> impl IntoView {
    let method = verdict.method.clone().map(|m| view! { <span class="method" data-testid="method">{m}</span> });
    let id = verdict.id.clone().map(|id| view! { <span class="id" data-testid="id">"id " {id}</span> });
    view! {
        <header class="summary">
            <span class="kind">{verdict.kind.as_str()}</span>
            {method}
            {id}
            <span class="at">{format!("{}:{}", verdict.at.line, verdict.at.column)}</span>
        </header>
    }
}

/// The broken rules of one document (not of its batch elements).
#[component]
fn Findings(findings: Vec<Finding>) -> impl IntoView {
    let rows = findings
        .into_iter()
        .map(|f| {
            let severity = f.severity.as_str();
            let path = f.path.clone();
            view! {
                <li
                    class=format!("violation {severity}")
                    data-testid="violation"
                    data-rule=f.rule
                    data-severity=severity
                    data-path=path
                >
                    <span class="at">{format!("{}:{}", f.at.line, f.at.column)}</span>
                    <span class="severity">{severity}</span>
                    <code class="rule">{f.rule}</code>
                    <span class="message">{f.message}</span>
                    <code class="path">{f.path}</code>
                </li>
            }
        })
        .collect_view();
    view! { <ul class="violations">{rows}</ul> }
}
