//! The API's reference (`data-testid="api-reference"`, at the top of the reference view when a
//! document is loaded): each method with its summary, params and result (their schemas in a few
//! words and in full), errors and examples, each example with a "Try it" that loads its call
//! into the editor.

use crate::web::kit::prelude::*;

use crate::web::views::page_handle::Page;
use crate::wire::api::{DescriptorReference, MethodReference};

fn descriptor(d: DescriptorReference, what: &'static str) -> impl IntoView {
    let name = d.name.clone();
    view! {
        <li data-testid=what data-name=name>
            <code>{d.name}</code>
            {if d.required { " (required)" } else { "" }}
            ": "
            <span class="kind" data-testid="schema-kind">{d.kind}</span>
            {d.summary.map(|s| view! { <span class="summary">{format!(" — {s}")}</span> })}
            <details>
                <summary>"Schema"</summary>
                <pre>{d.schema}</pre>
            </details>
        </li>
    }
}

fn method(page: Page, m: MethodReference) -> impl IntoView {
    let name = m.name.clone();
    let examples = m
        .examples
        .into_iter()
        .map(|e| {
            let call = e.call.clone();
            let what = format!("an example call of {name} ({})", e.name);
            let try_it = move |_| page.open_in_playground(&call, page.profile.get_untracked(), &what);
            view! {
                <li data-testid="api-example">
                    <h5>{e.name}</h5>
                    <pre>{e.call}</pre>
                    {e.result.map(|r| view! { <p>"Result:"</p><pre data-testid="api-example-result">{r}</pre> })}
                    <button type="button" data-testid="api-try" on:click=try_it>"Try it"</button>
                </li>
            }
        })
        .collect_view();
    let errors = (!m.errors.is_empty()).then(|| {
        let items = m
            .errors
            .into_iter()
            .map(|e| view! { <li data-testid="api-error"><code>{e.code}</code>{format!(" {}", e.message)}</li> })
            .collect_view();
        view! { <h5>"Errors"</h5><ul>{items}</ul> }
    });
    let id = format!("api-{}", m.name);
    view! {
        <li class="api-method" data-testid="api-method" data-method=name id=id>
            <h4><code>{m.name}</code></h4>
            {m.summary.map(|s| view! { <p class="summary">{s}</p> })}
            {m.description.map(|s| view! { <p>{s}</p> })}
            <p class="structure">{format!("Params {}", m.param_structure)}</p>
            <h5>"Params"</h5>
            {if m.params.is_empty() {
                view! { <p>"none"</p> }.into_any()
            } else {
                let params = m.params.into_iter().map(|p| descriptor(p, "api-param")).collect_view();
                view! { <ul>{params}</ul> }.into_any()
            }}
            <h5>"Result"</h5>
            {match m.result {
                Some(r) => view! { <ul>{descriptor(r, "api-result")}</ul> }.into_any(),
                None => view! { <p>"none: a notification"</p> }.into_any(),
            }}
            {errors}
            <h5>"Examples"</h5>
            <ul class="api-examples">{examples}</ul>
        </li>
    }
}

/// The loaded API's methods (nothing without a document).
#[component]
pub(crate) fn ApiReference(page: Page) -> impl IntoView {
    move || {
        page.api.get().map(|r| {
            let methods = r
                .methods
                .into_iter()
                .map(|m| method(page, m))
                .collect_view();
            view! {
                <section class="api-reference" data-testid="api-reference" aria-labelledby="api-reference-title">
                    <h2 id="api-reference-title">{format!("Your API: {} {}", r.title, r.version)}</h2>
                    {r.description.map(|d| view! { <p>{d}</p> })}
                    <ol class="api-methods">{methods}</ol>
                </section>
            }
        })
    }
}
