//! The OpenRPC catalogue entries (see [`super::catalogue`]): what a document itself must be, and
//! what a message owes the API a document describes. The checks that raise them are the engine's
//! `openrpc` module (feature `openrpc`: it needs a JSON Schema engine); the entries are data, here
//! beside the others. Explanations are ours; the specification is at <https://spec.open-rpc.org/>.

use super::rule::{rule, Rule, Section};

const fn spec(name: &'static str, title: &'static str, url: &'static str) -> Section {
    Section { name, title, url }
}

pub const OPENRPC_OBJECT: Section = spec(
    "OpenRPC 1.3 OpenRPC Object",
    "The root object of a document",
    "https://spec.open-rpc.org/#openrpc-object",
);
pub const REFERENCE_OBJECT: Section = spec(
    "OpenRPC 1.3 Reference Object",
    "$ref to another part of the document",
    "https://spec.open-rpc.org/#reference-object",
);
pub const METHOD_OBJECT: Section = spec(
    "OpenRPC 1.3 Method Object",
    "A method: its name, params, result and errors",
    "https://spec.open-rpc.org/#method-object",
);
pub const CONTENT_DESCRIPTOR: Section = spec(
    "OpenRPC 1.3 Content Descriptor Object",
    "A param or a result with its schema",
    "https://spec.open-rpc.org/#content-descriptor-object",
);
pub const ERROR_OBJECT: Section = spec(
    "OpenRPC 1.3 Error Object",
    "The application errors a method declares",
    "https://spec.open-rpc.org/#error-object",
);

pub const INFO_OBJECT: Section = spec(
    "OpenRPC 1.3 Info Object",
    "The API's title, version and description",
    "https://spec.open-rpc.org/#info-object",
);
pub const CONTACT_OBJECT: Section = spec(
    "OpenRPC 1.3 Contact Object",
    "Who to contact about the API",
    "https://spec.open-rpc.org/#contact-object",
);
pub const LICENSE_OBJECT: Section = spec(
    "OpenRPC 1.3 License Object",
    "The API's licence",
    "https://spec.open-rpc.org/#license-object",
);
pub const SERVER_OBJECT: Section = spec(
    "OpenRPC 1.3 Server Object",
    "A server of the API",
    "https://spec.open-rpc.org/#server-object",
);
pub const LINK_OBJECT: Section = spec(
    "OpenRPC 1.3 Link Object",
    "A design-time link from a result to another call",
    "https://spec.open-rpc.org/#link-object",
);
pub const EXTERNAL_DOCUMENTATION_OBJECT: Section = spec(
    "OpenRPC 1.3 External Documentation Object",
    "A link to documentation elsewhere",
    "https://spec.open-rpc.org/#external-documentation-object",
);
pub const TAG_OBJECT: Section = spec(
    "OpenRPC 1.3 Tag Object",
    "A tag grouping methods",
    "https://spec.open-rpc.org/#tag-object",
);
pub const EXAMPLE_PAIRING_OBJECT: Section = spec(
    "OpenRPC 1.3 Example Pairing Object",
    "Example params with their result",
    "https://spec.open-rpc.org/#example-pairing-object",
);
pub const EXAMPLE_OBJECT: Section = spec(
    "OpenRPC 1.3 Example Object",
    "One example value",
    "https://spec.open-rpc.org/#example-object",
);

/// The section about the object a definition of the OpenRPC meta-schema describes
/// (`methodObject`: the Method Object), if there is one.
pub fn section_of_definition(definition: &str) -> Option<Section> {
    Some(match definition {
        "referenceObject" => REFERENCE_OBJECT,
        "errorObject" => ERROR_OBJECT,
        "licenseObject" => LICENSE_OBJECT,
        "contactObject" => CONTACT_OBJECT,
        "infoObject" => INFO_OBJECT,
        "serverObject" => SERVER_OBJECT,
        "linkObject" => LINK_OBJECT,
        "externalDocumentationObject" => EXTERNAL_DOCUMENTATION_OBJECT,
        "methodObject" => METHOD_OBJECT,
        "tagObject" => TAG_OBJECT,
        "exampleObject" => EXAMPLE_OBJECT,
        "examplePairingObject" => EXAMPLE_PAIRING_OBJECT,
        "contentDescriptorObject" => CONTENT_DESCRIPTOR,
        _ => return None,
    })
}

/// The document the message rules' examples are checked under: `add` (two required integers by
/// position or name, an integer result, error 1 declared), `find` (by name), `log` (by position,
/// no result: a notification).
pub const EXAMPLE_DOCUMENT: &str = r#"{
  "openrpc": "1.3.2",
  "info": {"title": "Example", "version": "1.0.0"},
  "methods": [
    {"name": "add",
     "params": [{"name": "a", "required": true, "schema": {"type": "integer"}},
                {"name": "b", "required": true, "schema": {"type": "integer"}}],
     "result": {"name": "sum", "schema": {"type": "integer"}},
     "errors": [{"code": 1, "message": "Overflow"}]},
    {"name": "find", "paramStructure": "by-name",
     "params": [{"name": "query", "required": true, "schema": {"type": "string"}}],
     "result": {"name": "hits", "schema": {"type": "array"}}},
    {"name": "log", "paramStructure": "by-position",
     "params": [{"name": "line", "schema": {"type": "string"}}]}
  ]
}"#;

// ---- the document itself ----------------------------------------------------------------------

rule!(OpenRpc, OPENRPC_DOCUMENT_INVALID, "openrpc-document-invalid", Error, OPENRPC_OBJECT,
    "An OpenRPC document must follow the OpenRPC meta-schema.",
    "Tools read a document by its meta-schema: an info object with a title and a version, a methods list whose methods have a name and params, content descriptors with a name and a schema. A document that breaks it cannot be trusted to describe the API; fix the member the finding points at.",
    bad: r#"{"openrpc": "1.3.2", "info": {"title": "Example"}, "methods": []}"#,
    good: r#"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": []}"#,
    document: "");

rule!(OpenRpc, OPENRPC_REFERENCE_UNRESOLVED, "openrpc-reference-unresolved", Error, REFERENCE_OBJECT,
    "Every $ref of a document must point at something in it.",
    "A $ref such as #/components/schemas/Pet is replaced by what it points at; one pointing at nothing (a typo, a removed component) or outside the document (which is not fetched) leaves the param, result or schema undefined.",
    bad: r##"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": [{"name": "get", "params": [], "result": {"$ref": "#/components/contentDescriptors/Pet"}}]}"##,
    good: r##"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": [{"name": "get", "params": [], "result": {"$ref": "#/components/contentDescriptors/Pet"}}], "components": {"contentDescriptors": {"Pet": {"name": "pet", "schema": {"type": "object"}}}}}"##,
    document: "");

rule!(OpenRpc, OPENRPC_REFERENCE_CYCLE, "openrpc-reference-cycle", Error, REFERENCE_OBJECT,
    "A $ref must not lead back to itself through other $refs alone.",
    "When A is only a $ref to B and B only a $ref to A, neither ever names a value: the chain has no end. (A schema that contains itself deeper down, such as a tree whose children are trees, is fine.)",
    bad: r##"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": [{"name": "get", "params": [{"name": "x", "schema": {"$ref": "#/components/schemas/A"}}]}], "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}}}"##,
    good: r##"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": [{"name": "get", "params": [{"name": "x", "schema": {"$ref": "#/components/schemas/A"}}]}], "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"type": "string"}}}}"##,
    document: "");

rule!(OpenRpc, OPENRPC_VERSION_UNKNOWN, "openrpc-version-unknown", Error, OPENRPC_OBJECT,
    "The openrpc member names a released version of the OpenRPC specification.",
    "Each version of the specification has its own rules (1.0 to 1.2 require every method to have a result; 1.3 lets a method without one be a notification). A version that was never released (1.99.0) cannot be read by any version's rules: give the one the document follows. The versions known are those the official 1.3 meta-schema lists: 1.0.0-rc0 to 1.3.2.",
    bad: r#"{"openrpc": "1.99.0", "info": {"title": "Example", "version": "1.0.0"}, "methods": []}"#,
    good: r#"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": []}"#,
    document: "");

rule!(OpenRpc, OPENRPC_RESULT_REQUIRED, "openrpc-result-required", Error, METHOD_OBJECT,
    "Under OpenRPC 1.0 to 1.2 every method has a result.",
    "Until 1.3 the Method Object's result is REQUIRED; 1.3 made it optional (a method without one is a notification). A document that says it follows an older version and leaves a result out breaks that version: add the result, or say \"openrpc\": \"1.3.2\".",
    bad: r#"{"openrpc": "1.2.6", "info": {"title": "Example", "version": "1.0.0"}, "methods": [{"name": "log", "params": []}]}"#,
    good: r#"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": [{"name": "log", "params": []}]}"#,
    document: "");

rule!(OpenRpc, OPENRPC_METHOD_DUPLICATE, "openrpc-method-duplicate", Error, METHOD_OBJECT,
    "Each method of a document has a name of its own.",
    "The specification requires method names to be unique: a call names its method, so a second method of the same name can never be told from the first. The finding is at the second; the first is named in it.",
    bad: r#"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": [{"name": "get", "params": [], "result": {"name": "a", "schema": {}}}, {"name": "get", "params": [], "result": {"name": "b", "schema": {}}}]}"#,
    good: r#"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": [{"name": "get", "params": [], "result": {"name": "a", "schema": {}}}, {"name": "put", "params": [], "result": {"name": "b", "schema": {}}}]}"#,
    document: "");

rule!(OpenRpc, OPENRPC_EXAMPLE_INVALID, "openrpc-example-invalid", Warning, METHOD_OBJECT,
    "An example pairing's params and result match the method's schemas.",
    "Examples are what readers copy and what tools send (the probe calls a method with its examples' params; the mock answers them with their result): one that breaks its own schema teaches a call the API refuses. Each example param is matched to the method's param of its name.",
    bad: r#"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": [{"name": "add", "params": [{"name": "a", "schema": {"type": "integer"}}], "result": {"name": "sum", "schema": {"type": "integer"}}, "examples": [{"name": "one", "params": [{"name": "a", "value": "1"}], "result": {"name": "sum", "value": 1}}]}]}"#,
    good: r#"{"openrpc": "1.3.2", "info": {"title": "Example", "version": "1.0.0"}, "methods": [{"name": "add", "params": [{"name": "a", "schema": {"type": "integer"}}], "result": {"name": "sum", "schema": {"type": "integer"}}, "examples": [{"name": "one", "params": [{"name": "a", "value": 1}], "result": {"name": "sum", "value": 1}}]}]}"#,
    document: "");

// ---- a message under the document --------------------------------------------------------------

rule!(OpenRpc, OPENRPC_METHOD_UNKNOWN, "openrpc-method-unknown", Error, METHOD_OBJECT,
    "A call names a method the document describes.",
    "The document lists every method of the API; a server answers any other name with -32601 (Method not found). The finding names the document's nearest methods, as a typo usually is one of them.",
    bad: r#"{"jsonrpc": "2.0", "method": "ad", "params": [1, 2], "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "add", "params": [1, 2], "id": 1}"#,
    document: EXAMPLE_DOCUMENT);

rule!(OpenRpc, OPENRPC_PARAMS_BY_NAME, "openrpc-params-by-name", Error, METHOD_OBJECT,
    "A method whose paramStructure is \"by-name\" takes its params as an object.",
    "paramStructure says how the server reads params: \"by-name\" an object whose members are the params' names, \"by-position\" an array in the params' order, \"either\" (the default) both. An array sent to a by-name method has no names to match.",
    bad: r#"{"jsonrpc": "2.0", "method": "find", "params": ["pets"], "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "find", "params": {"query": "pets"}, "id": 1}"#,
    document: EXAMPLE_DOCUMENT);

rule!(OpenRpc, OPENRPC_PARAMS_BY_POSITION, "openrpc-params-by-position", Error, METHOD_OBJECT,
    "A method whose paramStructure is \"by-position\" takes its params as an array.",
    "\"by-position\" means the server reads params as an array in the order the document lists them; an object's member names mean nothing to it.",
    bad: r#"{"jsonrpc": "2.0", "method": "log", "params": {"line": "started"}}"#,
    good: r#"{"jsonrpc": "2.0", "method": "log", "params": ["started"]}"#,
    document: EXAMPLE_DOCUMENT);

rule!(OpenRpc, OPENRPC_PARAM_MISSING, "openrpc-param-missing", Error, CONTENT_DESCRIPTOR,
    "Every param the document marks \"required\": true is sent.",
    "A content descriptor with \"required\": true must be present: by position, every required param up to the last one; by name, a member of that name.",
    bad: r#"{"jsonrpc": "2.0", "method": "add", "params": [1], "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "add", "params": [1, 2], "id": 1}"#,
    document: EXAMPLE_DOCUMENT);

rule!(OpenRpc, OPENRPC_PARAM_UNEXPECTED, "openrpc-param-unexpected", Error, METHOD_OBJECT,
    "A call sends no params beyond those the document lists.",
    "By position, an element past the last listed param; by name, a member no param is named: the server has nowhere to put it, and many reject the call with -32602 (Invalid params).",
    bad: r#"{"jsonrpc": "2.0", "method": "add", "params": [1, 2, 3], "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "add", "params": [1, 2], "id": 1}"#,
    document: EXAMPLE_DOCUMENT);

rule!(OpenRpc, OPENRPC_PARAM_INVALID, "openrpc-param-invalid", Error, CONTENT_DESCRIPTOR,
    "Each param's value matches the param's schema.",
    "A content descriptor's schema (JSON Schema, draft-07 style) says what the value may be. The finding names the failing keyword, the place in the value and where the schema is in the document.",
    bad: r#"{"jsonrpc": "2.0", "method": "add", "params": ["1", 2], "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "add", "params": [1, 2], "id": 1}"#,
    document: EXAMPLE_DOCUMENT);

rule!(OpenRpc, OPENRPC_RESULT_INVALID, "openrpc-result-invalid", Error, CONTENT_DESCRIPTOR,
    "A result matches the result schema of the method it answers.",
    "The reply is paired with its request by id (in a transcript, the request the other side sent); the method's result content descriptor says what the result may be.",
    bad: "--> {\"jsonrpc\": \"2.0\", \"method\": \"add\", \"params\": [1, 2], \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": \"3\", \"id\": 1}",
    good: "--> {\"jsonrpc\": \"2.0\", \"method\": \"add\", \"params\": [1, 2], \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": 3, \"id\": 1}",
    document: EXAMPLE_DOCUMENT);

rule!(OpenRpc, OPENRPC_ERROR_UNDECLARED, "openrpc-error-undeclared", Error, ERROR_OBJECT,
    "An error response carries a code the method declares (or one JSON-RPC reserves).",
    "A method's errors list the application errors a client should expect and handle; a code outside them is one no client was told about, so the reply breaks the API the document describes. JSON-RPC reserves -32768 to -32000 for itself (-32700, -32600 to -32603 and the implementation-defined server errors -32099 to -32000): any method may answer with those.",
    bad: "--> {\"jsonrpc\": \"2.0\", \"method\": \"add\", \"params\": [1, 2], \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"error\": {\"code\": 7, \"message\": \"Busy\"}, \"id\": 1}",
    good: "--> {\"jsonrpc\": \"2.0\", \"method\": \"add\", \"params\": [1, 2], \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"error\": {\"code\": 1, \"message\": \"Overflow\"}, \"id\": 1}",
    document: EXAMPLE_DOCUMENT);

rule!(OpenRpc, OPENRPC_NOTIFICATION_ONLY, "openrpc-notification-only", Error, METHOD_OBJECT,
    "A method without a result is called as a notification (no id).",
    "OpenRPC 1.3: when a method's result is undefined, the method must only be used as a notification. A request (with an id) waits for an answer the API does not promise.",
    bad: r#"{"jsonrpc": "2.0", "method": "log", "params": ["started"], "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "log", "params": ["started"]}"#,
    document: EXAMPLE_DOCUMENT);

rule!(OpenRpc, OPENRPC_RESULT_UNHEARD, "openrpc-result-unheard", Warning, METHOD_OBJECT,
    "A method that has a result is called as a request, so its result is heard.",
    "The document gives the method a result; sent as a notification (no id), the server must not answer, so the result and any error are lost. Add an id.",
    bad: r#"{"jsonrpc": "2.0", "method": "add", "params": [1, 2]}"#,
    good: r#"{"jsonrpc": "2.0", "method": "add", "params": [1, 2], "id": 1}"#,
    document: EXAMPLE_DOCUMENT);

/// The document [`OPENRPC_SCHEMA_TOO_COSTLY`]'s examples are checked under: `loop` takes a param
/// whose schema applies itself at the same place (no value can be checked against it), `echo` a
/// string.
pub const COSTLY_DOCUMENT: &str = r##"{
  "openrpc": "1.3.2",
  "info": {"title": "Example", "version": "1.0.0"},
  "methods": [
    {"name": "loop",
     "params": [{"name": "x", "schema": {"$ref": "#/components/schemas/Loop"}}],
     "result": {"name": "x", "schema": {}}},
    {"name": "echo",
     "params": [{"name": "x", "schema": {"type": "string"}}],
     "result": {"name": "x", "schema": {"type": "string"}}}
  ],
  "components": {"schemas": {"Loop": {"allOf": [{"$ref": "#/components/schemas/Loop"}]}}}
}"##;

rule!(OpenRpc, OPENRPC_SCHEMA_TOO_COSTLY, "openrpc-schema-too-costly", Warning, CONTENT_DESCRIPTOR,
    "A value is checked against its schema only when the check's cost is bounded.",
    "A small schema can ask for an enormous check: $refs that fan out (each level an allOf of two references to the level below) apply 2^n subschemas at one place, and a loop of them never ends. Before a value is checked, the subschemas the schema can apply at each place of the value are counted (every branch, each weighed by what it reads there); past 4,194,304 steps the value is not judged and this warning says so instead. Simplify the schema at the place named.",
    bad: r#"{"jsonrpc": "2.0", "method": "loop", "params": [1], "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "echo", "params": ["hi"], "id": 1}"#,
    document: COSTLY_DOCUMENT);

/// Every OpenRPC rule, the document's first.
pub static RULES: &[&Rule] = &[
    &OPENRPC_DOCUMENT_INVALID,
    &OPENRPC_REFERENCE_UNRESOLVED,
    &OPENRPC_REFERENCE_CYCLE,
    &OPENRPC_VERSION_UNKNOWN,
    &OPENRPC_RESULT_REQUIRED,
    &OPENRPC_METHOD_DUPLICATE,
    &OPENRPC_EXAMPLE_INVALID,
    &OPENRPC_METHOD_UNKNOWN,
    &OPENRPC_PARAMS_BY_NAME,
    &OPENRPC_PARAMS_BY_POSITION,
    &OPENRPC_PARAM_MISSING,
    &OPENRPC_PARAM_UNEXPECTED,
    &OPENRPC_PARAM_INVALID,
    &OPENRPC_RESULT_INVALID,
    &OPENRPC_ERROR_UNDECLARED,
    &OPENRPC_NOTIFICATION_ONLY,
    &OPENRPC_RESULT_UNHEARD,
    &OPENRPC_SCHEMA_TOO_COSTLY,
];
