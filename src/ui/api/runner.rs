//! Where the API runs: requests and answers cross as JSON text, one answer per request, in order.

use crate::ui::prelude::spawn_local;

use crate::api::{ApiAnswer, ApiRequest};

/// What gets an answer.
pub type Then = Box<dyn FnOnce(ApiAnswer)>;

/// The API's runner.
pub struct Runner {}

impl Runner {
    pub fn new() -> Runner {
        Runner {}
    }

    /// Sends `request`; `then` gets its answer later (never before this returns). `failed` is
    /// told why when the runner cannot answer.
    pub fn ask(&mut self, request: ApiRequest, then: Then, failed: impl FnOnce(String) + 'static) {
        let Ok(json) = serde_json::to_string(&request) else {
            failed("the request could not be written".into());
            return;
        };
        spawn_local(async move {
            match serde_json::from_str::<ApiAnswer>(&crate::api::answer_json(&json)) {
                Ok(answer) => then(answer),
                Err(e) => failed(format!("the API's answer is not readable: {e}")),
            }
        });
    }
}
