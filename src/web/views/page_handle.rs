//! The teaching views' handle on the page ([`super`]'s module): what the page told them (its
//! profile, the mock's settings, the API document's reference) and the way to ask it for what
//! only the page does, through its host's [`PagePort`]. Apart from the views' module so
//! that the views (reference, quiz, lessons) and the module that mounts them import it without
//! importing each other.

use std::rc::Rc;

use crate::exchange::mock_worker::{Record, Session};
use crate::mock::Fixtures;
use crate::rpc::Profile;
use crate::saved::profile_to_string;
use crate::web::kit::mock_client::Took;
use crate::web::kit::notice::NoticeLevel;
use crate::web::kit::prelude::*;
use crate::web::kit::views_port::{FromViews, PagePort};
use crate::wire::api::Reference;
use crate::wire::api::Source;
use crate::wire::Passed;

/// What the views have of the page: what it told them (its profile, the mock's settings, the API
/// document's reference) and the way to ask it for the rest.
#[derive(Clone, Copy)]
pub(crate) struct Page {
    port: PagePort,
    /// The editor's profile.
    pub profile: RwSignal<Profile>,
    fixtures: RwSignal<Fixtures>,
    auto_answer: RwSignal<bool>,
    /// The API document's reference, when one is in use.
    pub api: RwSignal<Option<Reference>>,
    /// The lessons' mock server (a worker started on the first Run).
    mock: StoredValue<crate::web::kit::mock_client::MockWorkers, LocalStorage>,
}

impl Page {
    /// `told` gets every message the page tells the teaching views.
    pub(crate) fn listen(&self, told: impl Fn(crate::web::kit::views_port::ToViews) + 'static) {
        self.port.listen(told);
    }

    /// Asks the page for `message`.
    pub(crate) fn ask(&self, message: FromViews) {
        self.port.ask(message);
    }

    /// A notice on the page.
    pub fn notify(&self, level: NoticeLevel, text: impl Into<String>) {
        self.port.notify(level, text);
    }

    /// Puts `text` into the editor with `profile` and shows the playground, saying so with `what`.
    pub fn open_in_playground(&self, text: &str, profile: Profile, what: &str) {
        self.ask(FromViews::OpenInPlayground {
            text: text.to_string(),
            profile: profile_to_string(profile),
            what: what.to_string(),
        });
    }

    /// Loads `source` as the API document (`report`: a notice says how that went).
    pub fn load_api(&self, source: Source, report: bool) {
        self.ask(FromViews::LoadApi { source, report });
    }

    /// Copies a lesson run's `records` to the page's log, under `peer`.
    pub fn copy_to_log(&self, peer: String, records: Vec<Record>) {
        self.ask(FromViews::CopyToLog { peer, records });
    }

    /// Sends each client document of `text` to the lessons' mock session (`fresh`: a new one
    /// first, a lesson's Run), serving what the page's mock serves; `took` gets what crossed.
    /// Returns how many were sent.
    pub fn send_in_lesson(&self, text: &str, profile: Profile, fresh: bool, took: Took) -> usize {
        let this = *self;
        let notify: crate::web::kit::mock_client::Notify =
            Rc::new(move |level, text| this.notify(level, text));
        crate::web::kit::mock_client::send_documents(
            self.mock,
            notify,
            Session::Lesson,
            self.fixtures.get_untracked(),
            fresh,
            text,
            profile,
            self.auto_answer.get_untracked(),
            took,
            Rc::new(|| {}),
        )
    }
}

impl Page {
    /// The handle for the views mounted in `host`, before the page has told them anything.
    pub(crate) fn new(host: web_sys::HtmlElement) -> Self {
        Page {
            port: PagePort::new(host),
            profile: RwSignal::new(Profile::JsonRpc),
            fixtures: RwSignal::new(Fixtures::default()),
            auto_answer: RwSignal::new(false),
            api: RwSignal::new(None),
            mock: crate::web::kit::mock_client::worker(
                crate::web::kit::mock_client::SchemaChecks::ConformanceOnly,
            ),
        }
    }

    /// Takes what the page tells the views of itself (`api`: the API document's reference as
    /// the API's worker wrote it, read here; one that cannot be read is said in a notice).
    pub(crate) fn told(
        &self,
        profile: Profile,
        fixtures: Fixtures,
        auto_answer: bool,
        api: Option<Passed<Reference>>,
    ) {
        self.profile.set(profile);
        self.fixtures.set(fixtures);
        self.auto_answer.set(auto_answer);
        let api = api.and_then(|json| {
            json.read()
                .map_err(|e| {
                    let why = format!("The API document's reference could not be read ({e}).");
                    self.notify(NoticeLevel::Error, why);
                })
                .ok()
        });
        self.api.set(api);
    }
}
