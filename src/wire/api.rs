//! What the page (and the views' module, through the page) and the API's worker say to each
//! other: an OpenRPC document loaded, the editor's text checked under it, the mock's replies, the
//! Probe under a document. The page asks [`ApiRequest`]s; the worker answers [`ApiAnswer`]s.

use serde::{Deserialize, Serialize};

use super::probe::ApiProbe;
use super::Passed;

/// Where the document came from, and its text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    pub text: String,
    /// The URL it was fetched from (a share link carries that instead of the text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// How the user gave it: a file name, "pasted", the URL, "rpc.discover".
    #[serde(default)]
    pub name: String,
}

/// What the page asks. Externally tagged (serde's default): an internally tagged enum buffers its
/// content first, which a [`Passed`] payload cannot be read from (tests/wire.rs).
#[derive(Serialize, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum ApiRequest {
    /// Load `text` as the document (it replaces the one loaded, if it is valid).
    Load { text: String },
    /// Forget the document.
    Unload,
    /// Check the editor's `text` under `profile` (`jsonrpc`, `mcp:<version>`) as `jrpc check`
    /// does: under an MCP profile the MCP schemas in the text (tool arguments, structuredContent,
    /// elicitation answers: [`crate::tool_schemas`]), then the document when one is loaded; `fp`
    /// is the page's fingerprint of the text, echoed in the answer.
    Check {
        fp: String,
        text: String,
        profile: String,
    },
    /// The mock's reply to one client document (a message or a batch).
    Mock { message: String },
    /// The Probe under an OpenRPC document: `probe` as the Probe wrote it (the page passes it on
    /// unread: docs/size-rules.md 16), under `document` (the document's text; `None`: the one the
    /// server's `rpc.discover` returns). Answered [`ApiAnswer::Probing`] at once, its outcome
    /// posted later as the Probe's worker posts it; an unreadable `probe` is answered
    /// [`ApiAnswer::Failed`].
    Probe {
        probe: Passed<ApiProbe>,
        document: Option<String>,
    },
    /// Stop the probe running, if any.
    ProbeCancel,
}

/// What the API answers.
#[derive(Serialize, Deserialize, Debug)]
// Externally tagged (serde's default): the page reads it without buffering it first, which
// an internally tagged enum needs (docs/size-rules.md, 10).
#[serde(rename_all = "snake_case")]
pub enum ApiAnswer {
    /// The document is loaded: its reference.
    Loaded {
        reference: LoadedReference,
    },
    /// The document was refused: what is wrong with it, located.
    Refused {
        errors: Vec<DocumentError>,
    },
    Unloaded,
    /// The analysis of the text with fingerprint `fp` (the page's `Analysis::encode` text, which the
    /// page decodes).
    Checked {
        fp: String,
        analysis: String,
    },
    /// The mock's reply (`None`: nothing is answered, e.g. a notification).
    Replied {
        reply: Option<String>,
    },
    /// A probe was started or cancelled (its outcome comes as a Probe event).
    Probing,
    /// The request could not be served (no document, an unreadable request).
    Failed {
        error: String,
    },
}

/// One problem of a document, located in its text.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct DocumentError {
    pub rule: String,
    pub message: String,
    /// The JSON pointer of the value it is about.
    pub pointer: String,
    /// 1-based line and column of that value in the document.
    pub line: usize,
    pub column: usize,
}

/// The API a document describes, for the reference view.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Reference {
    pub title: String,
    pub version: String,
    pub description: Option<String>,
    pub methods: Vec<MethodReference>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct MethodReference {
    pub name: String,
    pub summary: Option<String>,
    pub description: Option<String>,
    /// `by-name`, `by-position` or `either`.
    pub param_structure: String,
    pub params: Vec<DescriptorReference>,
    /// `None`: a notification (no result).
    pub result: Option<DescriptorReference>,
    pub errors: Vec<ErrorReference>,
    pub examples: Vec<ExampleReference>,
}

/// A param or a result: its name and its schema, `$ref`s followed at the top, as indented JSON.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct DescriptorReference {
    pub name: String,
    pub required: bool,
    pub summary: Option<String>,
    /// The schema in a few words (`object`, `array of string`, `one of 2`).
    pub kind: String,
    pub schema: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ErrorReference {
    pub code: i64,
    pub message: String,
}

/// An example call of a method: its name, the request (as it goes into the editor) and the
/// result the document pairs with it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ExampleReference {
    pub name: String,
    pub call: String,
    pub result: Option<String>,
}

/// A loaded document's [`Reference`] as it crosses the page: the few words the page says of the
/// document, and the reference itself as JSON text, which the page passes on to the views' module
/// (its reader) unread (docs/size-rules.md 16).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct LoadedReference {
    pub title: String,
    pub version: String,
    /// How many methods it describes.
    pub methods: usize,
    /// The [`Reference`], passed on unread.
    pub json: Passed<Reference>,
}

impl LoadedReference {
    /// `reference` as it crosses the page.
    pub fn new(reference: &Reference) -> serde_json::Result<LoadedReference> {
        Ok(LoadedReference {
            title: reference.title.clone(),
            version: reference.version.clone(),
            methods: reference.methods.len(),
            json: Passed::new(reference)?,
        })
    }
}
