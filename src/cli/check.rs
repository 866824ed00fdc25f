//! `jrpc check`: lint messages, streams and transcripts; render the engine's report as compiler-style
//! text or as the JSON report (the contract scripts rely on).

use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;

use crate::json::{LineIndex, Span};
use crate::rpc::{check, Document, McpVersion, Profile, Report, Severity, Violation};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(Debug, PartialEq)]
struct Options {
    profile: Profile,
    format: Format,
    files: Vec<String>,
}

/// A usage error: what was wrong with the command line.
#[derive(Debug, PartialEq)]
struct Usage(String);

fn parse_args(args: &[String]) -> Result<Options, Usage> {
    let mut profile_name: Option<String> = None;
    let mut version: Option<McpVersion> = None;
    let mut format = Format::Text;
    let mut files = Vec::new();
    let mut i = 0;
    let mut only_files = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_files || arg == "-" || !arg.starts_with('-') {
            files.push(arg.clone());
            continue;
        }
        if arg == "--" {
            only_files = true;
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String, Usage> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            let v = args
                .get(i)
                .cloned()
                .ok_or_else(|| Usage(format!("{name} needs a value")))?;
            i += 1;
            Ok(v)
        };
        match flag {
            "--profile" => profile_name = Some(value("--profile")?),
            "--mcp-version" => {
                let v = value("--mcp-version")?;
                version = Some(v.parse().map_err(|e| Usage(format!("{e}")))?);
            }
            "--format" => {
                format = match value("--format")?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    other => return Err(Usage(format!("unknown format {other:?} (text or json)"))),
                }
            }
            _ => return Err(Usage(format!("unknown option {arg}"))),
        }
    }
    let profile = match (profile_name.as_deref(), version) {
        (None | Some("jsonrpc"), None) => Profile::JsonRpc,
        (Some("jsonrpc"), Some(_)) => {
            return Err(Usage("--mcp-version needs --profile mcp".into()))
        }
        (None | Some("mcp"), v) => Profile::Mcp(v.unwrap_or_default()),
        (Some(other), _) => {
            return Err(Usage(format!("unknown profile {other:?} (jsonrpc or mcp)")))
        }
    };
    if files.is_empty() {
        files.push("-".into());
    }
    Ok(Options {
        profile,
        format,
        files,
    })
}

fn read_input(name: &str) -> io::Result<Vec<u8>> {
    if name == "-" {
        let mut buf = Vec::new();
        io::stdin().lock().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(name)
    }
}

/// Runs `jrpc check` with its arguments.
pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", super::USAGE);
        println!("\nChecks JSON-RPC 2.0 messages: one message, a batch, a stream of documents, or a transcript");
        println!("(lines starting with --> for client to server and <-- for server to client).");
        println!("Reads standard input when no FILE (or -) is given. Exit: 0 no errors, 1 errors, 2 usage or I/O.");
        return ExitCode::SUCCESS;
    }
    let options = match parse_args(args) {
        Ok(o) => o,
        Err(Usage(message)) => {
            eprintln!("jrpc check: {message}\n{}", super::USAGE);
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let color = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut io_failed = false;
    let mut errors = false;
    // The JSON report is streamed document by document (no serde_json::Value tree; see rpc::report).
    let mut json_docs = 0usize;
    if options.format == Format::Json {
        let _ = out.write_all(br#"{"documents":["#);
    }
    for name in &options.files {
        let src = match read_input(name) {
            Ok(src) => src,
            Err(e) => {
                let shown = if name == "-" { "standard input" } else { name };
                eprintln!("jrpc check: cannot read {shown}: {e}");
                io_failed = true;
                continue;
            }
        };
        let report = check(&src, options.profile);
        errors |= report.has_errors();
        let lines = LineIndex::new(&src);
        match options.format {
            Format::Json => {
                for d in &report.documents {
                    if json_docs > 0 {
                        let _ = out.write_all(b",");
                    }
                    let _ = Report::write_document_json(d, &src, &lines, Some(name), &mut out);
                    json_docs += 1;
                }
            }
            Format::Text => {
                let _ = render_text(&mut out, name, &src, &lines, &report, color);
            }
        }
    }
    if options.format == Format::Json {
        let _ = match options.profile {
            Profile::JsonRpc => writeln!(out, r#"],"profile":{{"name":"jsonrpc"}}}}"#),
            Profile::Mcp(v) => writeln!(
                out,
                r#"],"profile":{{"name":"mcp","mcp_version":"{}"}}}}"#,
                v.as_str()
            ),
        };
    }
    let _ = out.flush();
    if io_failed {
        ExitCode::from(2)
    } else if errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

struct Style {
    on: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

fn severity_style(s: Severity) -> &'static str {
    match s {
        Severity::Error => "1;31",
        Severity::Warning => "1;33",
    }
}

/// Renders one input's report like a compiler: each violation with its source line underlined.
fn render_text(
    out: &mut impl Write,
    name: &str,
    src: &[u8],
    lines: &LineIndex,
    report: &Report,
    color: bool,
) -> io::Result<()> {
    let style = Style { on: color };
    let shown = if name == "-" { "<stdin>" } else { name };
    let mut errors = 0;
    let mut warnings = 0;
    let mut walk: Vec<&Document> = Vec::new();
    for d in &report.documents {
        walk.push(d);
        walk.extend(d.items.iter());
    }
    for d in &walk {
        for v in &d.violations {
            match v.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            render_violation(out, &style, shown, src, lines, v)?;
        }
    }
    let kinds: Vec<String> = report
        .documents
        .iter()
        .map(|d| match d.kind {
            crate::rpc::Kind::Batch => format!("batch of {}", d.items.len()),
            k => k.as_str().to_string(),
        })
        .collect();
    let verdict = match (errors, warnings) {
        (0, 0) => style.paint("1;32", "ok"),
        (e, w) => format!(
            "{} error{}, {} warning{}",
            e,
            if e == 1 { "" } else { "s" },
            w,
            if w == 1 { "" } else { "s" }
        ),
    };
    let n = report.documents.len();
    writeln!(
        out,
        "{}: {} document{}{}{}: {}",
        style.paint("1", shown),
        n,
        if n == 1 { "" } else { "s" },
        if report.transcript {
            " (transcript)"
        } else {
            ""
        },
        if kinds.is_empty() {
            String::new()
        } else {
            format!(" ({})", kinds.join(", "))
        },
        verdict
    )
}

fn render_violation(
    out: &mut impl Write,
    style: &Style,
    name: &str,
    src: &[u8],
    lines: &LineIndex,
    v: &Violation,
) -> io::Result<()> {
    let sev = v.severity.as_str();
    writeln!(
        out,
        "{}{} {}",
        style.paint(severity_style(v.severity), &format!("{sev}[{}]", v.rule.id)),
        style.paint("1", ":"),
        style.paint("1", &v.message)
    )?;
    let pos = lines.position(src, v.span.start);
    let gutter = pos.line.to_string().len();
    let pad = " ".repeat(gutter);
    writeln!(
        out,
        "{pad}{} {name}:{}:{}",
        style.paint("1;34", "-->"),
        pos.line,
        pos.column
    )?;
    snippet(
        out,
        style,
        src,
        lines,
        v.span,
        &pad,
        severity_style(v.severity),
    )?;
    let blue = |t: &str| style.paint("1;34", t);
    writeln!(
        out,
        "{pad} {} at {}",
        blue("="),
        if v.path.is_empty() {
            "the document root"
        } else {
            &v.path
        }
    )?;
    for (span, message) in &v.related {
        let p = lines.position(src, span.start);
        writeln!(
            out,
            "{pad} {} note: {message} ({name}:{}:{})",
            blue("="),
            p.line,
            p.column
        )?;
    }
    writeln!(
        out,
        "{pad} {} spec: {} {} <{}>",
        blue("="),
        v.rule.section.name,
        v.rule.section.title,
        v.rule.section.url
    )?;
    writeln!(out)
}

/// The source line holding the span's start, with the span underlined (to the end of that line).
fn snippet(
    out: &mut impl Write,
    style: &Style,
    src: &[u8],
    lines: &LineIndex,
    span: Span,
    pad: &str,
    color: &str,
) -> io::Result<()> {
    let line = lines.line_of(span.start.min(src.len()));
    let (start, end) = lines.line_span(src, line);
    let text = String::from_utf8_lossy(&src[start..end]);
    let blue = |t: &str| style.paint("1;34", t);
    writeln!(out, "{pad} {}", blue("|"))?;
    writeln!(
        out,
        "{} {} {}",
        blue(&(line + 1).to_string()),
        blue("|"),
        text
    )?;
    let before = String::from_utf8_lossy(&src[start..span.start.clamp(start, end)]);
    let indent: String = before
        .chars()
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let under_end = span.end.clamp(span.start.clamp(start, end), end);
    let width = String::from_utf8_lossy(&src[span.start.clamp(start, end)..under_end])
        .chars()
        .count()
        .max(1);
    writeln!(
        out,
        "{pad} {} {indent}{}",
        blue("|"),
        style.paint(color, &"^".repeat(width))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_parse_as_documented() {
        let o = parse_args(&args(
            "--profile mcp --mcp-version 2025-03-26 --format json a.json -",
        ))
        .unwrap();
        assert_eq!(o.profile, Profile::Mcp(McpVersion::V2025_03_26));
        assert_eq!(o.format, Format::Json);
        assert_eq!(o.files, ["a.json", "-"]);
        assert_eq!(parse_args(&[]).unwrap().files, ["-"]);
        assert_eq!(
            parse_args(&args("--profile=mcp")).unwrap().profile,
            Profile::Mcp(McpVersion::V2025_11_25)
        );
        assert_eq!(
            parse_args(&args("--mcp-version 2026-07-28"))
                .unwrap()
                .profile,
            Profile::Mcp(McpVersion::V2026_07_28)
        );
    }

    #[test]
    fn bad_options_are_usage_errors() {
        assert!(parse_args(&args("--profile soap"))
            .unwrap_err()
            .0
            .contains("unknown profile"));
        assert!(parse_args(&args("--format xml"))
            .unwrap_err()
            .0
            .contains("unknown format"));
        assert!(parse_args(&args("--mcp-version 1999-01-01"))
            .unwrap_err()
            .0
            .contains("unknown MCP protocol version"));
        assert!(parse_args(&args("--format"))
            .unwrap_err()
            .0
            .contains("needs a value"));
        assert!(parse_args(&args("--profile jsonrpc --mcp-version 2025-03-26")).is_err());
        assert!(parse_args(&args("--frobnicate")).is_err());
    }

    #[test]
    fn text_output_underlines_the_span_like_a_compiler() {
        let src = br#"{"jsonrpc": "1.0", "method": "ping", "id": 1}"#;
        let report = check(src, Profile::JsonRpc);
        let mut out = Vec::new();
        render_text(
            &mut out,
            "msg.json",
            src,
            &LineIndex::new(src),
            &report,
            false,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let expected = r#"error[jsonrpc-not-2-0]: "jsonrpc" must be exactly "2.0"; found "1.0"
 --> msg.json:1:13
  |
1 | {"jsonrpc": "1.0", "method": "ping", "id": 1}
  |             ^^^^^
  = at /jsonrpc
  = spec: JSON-RPC 2.0 §4 Request object <https://www.jsonrpc.org/specification#request_object>

msg.json: 1 document (invalid): 1 error, 0 warnings
"#;
        assert_eq!(text, expected);
    }
}
