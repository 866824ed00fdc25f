//! The formats of state kept outside the page: share links (the URL fragment) and drafts
//! (localStorage). Pure: the browser compresses and stores, this module says what the bytes
//! are, so every format rule is tested natively.
//!
//! A share link's fragment is `#s=<version>.<payload>` where, for version 1, `payload` is
//! base64url without padding (RFC 4648 §5) of the raw DEFLATE (RFC 1951, the browser's
//! `CompressionStream("deflate-raw")`) of the JSON object `{"profile": P, "text": T}`.
//! A draft is the JSON object `{"v": 1, "profile": P, "text": T, "log": L, "saved": MS}`.
//! `P` is a [`Profile`] as text: `"jsonrpc"` or `"mcp:<protocol version>"`.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::json;
use crate::rpc::{McpVersion, Profile};

/// The share-link format this build writes (and the only one it reads).
pub const LINK_VERSION: u32 = 1;
/// The draft format this build writes (and the only one it reads).
pub const DRAFT_VERSION: u64 = 1;
/// The most text a link may inflate to (a decompression bomb stops here).
pub const MAX_LINK_TEXT: usize = 4 << 20;

/// A profile as link and draft text: `"jsonrpc"` or `"mcp:2025-11-25"`.
pub fn profile_to_string(profile: Profile) -> String {
    match profile {
        Profile::JsonRpc => "jsonrpc".to_string(),
        Profile::Mcp(v) => format!("mcp:{v}"),
    }
}

/// The inverse of [`profile_to_string`].
pub fn profile_from_str(s: &str) -> Result<Profile, FormatError> {
    if s == "jsonrpc" {
        return Ok(Profile::JsonRpc);
    }
    s.strip_prefix("mcp:")
        .and_then(|v| v.parse::<McpVersion>().ok())
        .map(Profile::Mcp)
        .ok_or_else(|| FormatError::UnknownProfile(s.to_string()))
}

/// Why a share link or a draft cannot be read. Each says what the user can do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// The fragment is not a share link of this playground.
    Foreign,
    /// A share link of a version this build does not know.
    UnknownVersion(String),
    /// The payload is not base64url (the byte offset of the first bad character).
    BadBase64(usize),
    /// The payload does not inflate (the browser's message).
    BadDeflate(String),
    /// The payload inflates past [`MAX_LINK_TEXT`].
    TooLarge,
    /// The content is not the JSON this format expects (what is wrong).
    BadJson(String),
    /// A profile that is neither JSON-RPC nor a known MCP version.
    UnknownProfile(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Foreign => {
                f.write_str("the part after # is not a share link of this playground")
            }
            FormatError::UnknownVersion(v) => {
                write!(f, "it is in format version {}, which this playground does not read (made by a newer one?)", json::quote(v))
            }
            FormatError::BadBase64(at) => {
                write!(f, "it is damaged (not base64url at character {at}); was it cut short or changed when copied?")
            }
            FormatError::BadDeflate(why) => {
                write!(f, "it is damaged (its compressed data does not decompress: {why}); was it cut short when copied?")
            }
            FormatError::TooLarge => {
                write!(f, "it holds more than {} MB of text", MAX_LINK_TEXT >> 20)
            }
            FormatError::BadJson(why) => write!(f, "its content is not readable ({why})"),
            FormatError::UnknownProfile(p) => write!(
                f,
                "it names an unknown profile {} (known: jsonrpc, mcp:<version>)",
                json::quote(p)
            ),
        }
    }
}

impl std::error::Error for FormatError {}

// ---------------------------------------------------------------------------------------------
// base64url (RFC 4648 §5), no padding on output; padding accepted on input.

const B64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding.
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(B64URL[(n >> (18 - 6 * i)) as usize & 63] as char);
        }
    }
    out
}

/// The inverse of [`base64url_encode`]; trailing `=` padding is accepted. An error names the
/// offset of the first character that cannot be there.
pub fn base64url_decode(text: &str) -> Result<Vec<u8>, FormatError> {
    let body = text.trim_end_matches('=');
    if text.len() - body.len() > 2 {
        return Err(FormatError::BadBase64(body.len() + 2));
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (at, c) in body.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' => 62,
            b'_' => 63,
            _ => return Err(FormatError::BadBase64(at)),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if body.len() % 4 == 1 {
        return Err(FormatError::BadBase64(body.len()));
    }
    // The unused low bits of the last character must be zero (one text per byte string).
    if acc != 0 {
        return Err(FormatError::BadBase64(body.len() - 1));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Share links.

/// What a share link holds (version 1): `{"profile": P, "text": T}`, and, when the page uses an
/// OpenRPC document, `"openrpc": {"url": U}` (it came from that URL) or `{"text": D}` (the
/// document itself). Links without it (all older ones) read as before; an older build reading a
/// newer link ignores the member.
#[derive(Serialize, Deserialize)]
struct LinkContent<'a> {
    profile: Cow<'a, str>,
    text: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    openrpc: Option<LinkDocument>,
}

/// The OpenRPC document a share link carries: its URL, or its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkDocument {
    Url(String),
    Text(String),
}

/// The JSON a share link compresses: `{"profile": P, "text": T}`.
pub fn link_json(text: &str, profile: Profile) -> String {
    link_json_with(text, profile, None)
}

/// [`link_json`] with the OpenRPC document the page uses, if any.
pub fn link_json_with(text: &str, profile: Profile, openrpc: Option<LinkDocument>) -> String {
    let content = LinkContent {
        profile: profile_to_string(profile).into(),
        text: text.into(),
        openrpc,
    };
    serde_json::to_string(&content).unwrap_or_default()
}

/// The fragment (without `#`) for compressed `deflated` bytes.
pub fn link_fragment(deflated: &[u8]) -> String {
    format!("s={LINK_VERSION}.{}", base64url_encode(deflated))
}

/// What the URL fragment (with or without its `#`) holds: `Ok(None)` when there is none,
/// the compressed bytes of a link, or why it is not a link this build can read.
pub fn parse_fragment(fragment: &str) -> Result<Option<Vec<u8>>, FormatError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.is_empty() {
        return Ok(None);
    }
    let Some(rest) = fragment.strip_prefix("s=") else {
        return Err(FormatError::Foreign);
    };
    let (version, payload) = rest.split_once('.').ok_or(FormatError::Foreign)?;
    if version != LINK_VERSION.to_string() {
        return Err(FormatError::UnknownVersion(
            version.chars().take(20).collect(),
        ));
    }
    base64url_decode(payload).map(Some)
}

/// The text and profile of an inflated share link.
pub fn read_link_json(inflated: &[u8]) -> Result<(String, Profile), FormatError> {
    read_link_content(inflated).map(|(text, profile, _)| (text, profile))
}

/// The text, profile and OpenRPC document (if it has one) of an inflated share link.
pub fn read_link_content(
    inflated: &[u8],
) -> Result<(String, Profile, Option<LinkDocument>), FormatError> {
    // As text first: every other reader of the app's data reads from a `str`, so serde_json's
    // reader is compiled once (`from_slice` would compile a second one for this call alone:
    // docs/size-rules.md, 6).
    let inflated = std::str::from_utf8(inflated)
        .map_err(|e| FormatError::BadJson(format!("not UTF-8 text at byte {}", e.valid_up_to())))?;
    let content: LinkContent = serde_json::from_str(inflated).map_err(bad_json)?;
    let profile = profile_from_str(&content.profile)?;
    Ok((content.text.into_owned(), profile, content.openrpc))
}

/// serde's word on content that is not what a format expects, with where (line and column).
fn bad_json(e: serde_json::Error) -> FormatError {
    FormatError::BadJson(e.to_string())
}

/// A draft: the editor's text, its profile, the log (as [`crate::exchange::Log`] stores it) and
/// when it was saved (ms since the epoch).
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub text: String,
    pub profile: Profile,
    pub log: Option<String>,
    pub saved: f64,
}

/// A draft as stored: `{"v": 1, "profile": P, "text": T, "log": L, "saved": MS}`.
#[derive(Serialize, Deserialize)]
struct DraftFile<'a> {
    v: u64,
    profile: Cow<'a, str>,
    text: Cow<'a, str>,
    #[serde(default)]
    log: Option<Cow<'a, str>>,
    #[serde(default)]
    saved: f64,
}

/// The version of a stored value, read before the rest (a newer format may differ in any other
/// member): `{"v": N, …}`.
#[derive(Deserialize)]
pub(crate) struct Version {
    pub v: Option<u64>,
}

impl Draft {
    /// The draft as one JSON object (written with one `setItem`).
    pub fn to_json(&self) -> String {
        let file = DraftFile {
            v: DRAFT_VERSION,
            profile: profile_to_string(self.profile).into(),
            text: self.text.as_str().into(),
            log: self.log.as_deref().map(Cow::from),
            // To the microsecond: what a clock in ms can tell.
            saved: (self.saved * 1000.0).round() / 1000.0,
        };
        serde_json::to_string(&file).unwrap_or_default()
    }

    /// The inverse of [`Draft::to_json`]; anything else is an error (never a partial draft).
    pub fn from_json(json: &str) -> Result<Draft, FormatError> {
        let version: Version = serde_json::from_str(json).map_err(bad_json)?;
        match version.v {
            Some(DRAFT_VERSION) => {}
            Some(v) => return Err(FormatError::UnknownVersion(v.to_string())),
            None => return Err(FormatError::BadJson("no version \"v\"".into())),
        }
        let file: DraftFile = serde_json::from_str(json).map_err(bad_json)?;
        Ok(Draft {
            profile: profile_from_str(&file.profile)?,
            text: file.text.into_owned(),
            log: file.log.map(Cow::into_owned),
            saved: if file.saved.is_finite() {
                file.saved
            } else {
                0.0
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_round_trip_through_text() {
        let mut all = vec![Profile::JsonRpc];
        all.extend(McpVersion::ALL.map(Profile::Mcp));
        for p in all {
            assert_eq!(profile_from_str(&profile_to_string(p)), Ok(p));
        }
        assert_eq!(
            profile_to_string(Profile::Mcp(McpVersion::V2025_11_25)),
            "mcp:2025-11-25"
        );
    }

    #[test]
    fn unknown_profiles_are_errors() {
        for s in [
            "",
            "JSON-RPC",
            "mcp",
            "mcp:",
            "mcp:2020-01-01",
            "mcp:2025-11-25 ",
        ] {
            assert_eq!(
                profile_from_str(s),
                Err(FormatError::UnknownProfile(s.to_string())),
                "{s:?}"
            );
        }
    }

    #[test]
    fn base64url_matches_rfc_4648_vectors() {
        // RFC 4648 §10, without padding.
        let cases = [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ];
        for (raw, enc) in cases {
            assert_eq!(base64url_encode(raw.as_bytes()), enc);
            assert_eq!(base64url_decode(enc).unwrap(), raw.as_bytes());
        }
        assert_eq!(base64url_decode("Zg==").unwrap(), b"f");
    }

    #[test]
    fn base64url_uses_the_url_alphabet() {
        assert_eq!(base64url_encode(&[0xfb, 0xff, 0xbf]), "-_-_");
        assert_eq!(base64url_decode("-_-_").unwrap(), [0xfb, 0xff, 0xbf]);
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(base64url_decode(&base64url_encode(&all)).unwrap(), all);
    }

    #[test]
    fn base64url_rejects_bad_characters_with_their_offset() {
        assert_eq!(base64url_decode("Zm9v+mFy"), Err(FormatError::BadBase64(4)));
        assert_eq!(base64url_decode("Zm9v/mFy"), Err(FormatError::BadBase64(4)));
        assert_eq!(base64url_decode("Zm 9"), Err(FormatError::BadBase64(2)));
        assert_eq!(base64url_decode("Zm9vY"), Err(FormatError::BadBase64(5)));
        assert_eq!(
            base64url_decode("Zh"),
            Err(FormatError::BadBase64(1)),
            "non-zero trailing bits"
        );
        assert_eq!(base64url_decode("Zg==="), Err(FormatError::BadBase64(4)));
    }

    #[test]
    fn a_link_fragment_carries_its_version() {
        assert_eq!(link_fragment(b"foo"), "s=1.Zm9v");
        assert_eq!(parse_fragment("#s=1.Zm9v"), Ok(Some(b"foo".to_vec())));
        assert_eq!(parse_fragment("s=1.Zm9v"), Ok(Some(b"foo".to_vec())));
    }

    #[test]
    fn no_fragment_is_no_link() {
        assert_eq!(parse_fragment(""), Ok(None));
        assert_eq!(parse_fragment("#"), Ok(None));
    }

    #[test]
    fn foreign_and_future_fragments_are_named() {
        assert_eq!(parse_fragment("#top"), Err(FormatError::Foreign));
        assert_eq!(parse_fragment("#s=1"), Err(FormatError::Foreign));
        assert_eq!(
            parse_fragment("#s=2.Zm9v"),
            Err(FormatError::UnknownVersion("2".into()))
        );
        assert_eq!(
            parse_fragment("#s=.Zm9v"),
            Err(FormatError::UnknownVersion("".into()))
        );
        assert_eq!(parse_fragment("#s=1.Zm9v!"), Err(FormatError::BadBase64(4)));
    }

    #[test]
    fn link_json_round_trips_text_exactly() {
        let text = "{\"id\": 1.0, \"x\": \"é\u{2028}\"}\n<-- \0";
        let p = Profile::Mcp(McpVersion::V2025_06_18);
        assert_eq!(
            read_link_json(link_json(text, p).as_bytes()),
            Ok((text.to_string(), p))
        );
        assert_eq!(
            link_json("x", Profile::JsonRpc),
            r#"{"profile":"jsonrpc","text":"x"}"#
        );
    }

    #[test]
    fn a_link_carries_the_openrpc_document_or_its_url_and_old_links_have_none() {
        let url = LinkDocument::Url("https://example.org/openrpc.json".into());
        let json = link_json_with("x", Profile::JsonRpc, Some(url.clone()));
        assert_eq!(
            json,
            r#"{"profile":"jsonrpc","text":"x","openrpc":{"url":"https://example.org/openrpc.json"}}"#
        );
        assert_eq!(
            read_link_content(json.as_bytes()),
            Ok(("x".to_string(), Profile::JsonRpc, Some(url)))
        );
        let doc = LinkDocument::Text(r#"{"openrpc": "1.3.2"}"#.into());
        let json = link_json_with("x", Profile::JsonRpc, Some(doc.clone()));
        assert_eq!(read_link_content(json.as_bytes()).unwrap().2, Some(doc));
        assert_eq!(
            read_link_content(br#"{"profile":"jsonrpc","text":"x"}"#),
            Ok(("x".to_string(), Profile::JsonRpc, None))
        );
    }

    #[test]
    fn bad_link_json_is_named() {
        assert!(matches!(read_link_json(b"{"), Err(FormatError::BadJson(_))));
        assert_eq!(
            read_link_json(b"{\"text\":\"\xff\"}"),
            Err(FormatError::BadJson("not UTF-8 text at byte 9".into()))
        );
        assert!(matches!(
            read_link_json(b"[]"),
            Err(FormatError::BadJson(_))
        ));
        assert!(matches!(
            read_link_json(br#"{"profile":"jsonrpc"}"#),
            Err(FormatError::BadJson(m)) if m == "missing field `text` at line 1 column 21"
        ));
        assert!(matches!(
            read_link_json(br#"{"profile":"jsonrpc","text":1}"#),
            Err(FormatError::BadJson(m)) if m.starts_with("invalid type: integer `1`, expected a string")
        ));
        assert_eq!(
            read_link_json(br#"{"profile":"soap","text":""}"#),
            Err(FormatError::UnknownProfile("soap".into()))
        );
    }

    #[test]
    fn drafts_round_trip() {
        let d = Draft {
            text: "a\nb".into(),
            profile: Profile::Mcp(McpVersion::V2024_11_05),
            log: Some("[1]".into()),
            saved: 1.5e12,
        };
        assert_eq!(Draft::from_json(&d.to_json()), Ok(d.clone()));
        let no_log = Draft { log: None, ..d };
        assert_eq!(Draft::from_json(&no_log.to_json()), Ok(no_log));
    }

    #[test]
    fn corrupt_or_future_drafts_are_errors() {
        assert!(matches!(
            Draft::from_json("{\"v\":1,\"text\":\"x\""),
            Err(FormatError::BadJson(_))
        ));
        assert!(matches!(
            Draft::from_json("null"),
            Err(FormatError::BadJson(_))
        ));
        assert_eq!(
            Draft::from_json(r#"{"text":"x","profile":"jsonrpc"}"#),
            Err(FormatError::BadJson("no version \"v\"".into()))
        );
        assert_eq!(
            Draft::from_json(r#"{"v":2,"text":"x","profile":"jsonrpc"}"#),
            Err(FormatError::UnknownVersion("2".into()))
        );
        assert!(matches!(
            Draft::from_json(r#"{"v":1,"profile":"jsonrpc"}"#),
            Err(FormatError::BadJson(m)) if m.starts_with("missing field `text`")
        ));
    }
}
