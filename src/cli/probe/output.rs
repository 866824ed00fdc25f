//! The verdict written out: compiler-style text (each finding drawn on the transcript's line, then
//! the table of checks), `--format json` (the engine's report: the documents as `jrpc check --format
//! json` writes them, plus the table of checks), or `--format junit` (one test case per check, for CI).

use std::io::{self, Write};

use codespan_reporting::term::termcolor::{Color, ColorSpec, WriteColor};

use crate::cli::diagnostic;
use crate::cli::FailOn;
use crate::json::LineIndex;
use crate::probe::{self, source_name, Status, Verdict};
use crate::rpc::{Profile, Severity};

pub fn text(
    out: &mut dyn WriteColor,
    verdict: &Verdict,
    target: &str,
    transcript: Option<&str>,
) -> io::Result<()> {
    let src = verdict.transcript.as_bytes();
    let lines = LineIndex::new(src);
    diagnostic::render(out, source_name(transcript), src, &lines, &verdict.report)?;
    writeln!(out)?;
    writeln!(
        out,
        "probe of {}: profile {}",
        diagnostic::printable(target),
        profile_name(verdict.report.profile)
    )?;
    // A check's id may hold a name the peer chose (`openrpc/NAME`, from its `rpc.discover`).
    let ids: Vec<String> = verdict
        .checks
        .iter()
        .map(|c| diagnostic::printable(&c.id))
        .collect();
    let width = ids.iter().map(|id| id.chars().count()).max().unwrap_or(0);
    for (check, id) in verdict.checks.iter().zip(&ids) {
        let (label, color) = match check.status {
            Status::Pass => ("pass", Color::Green),
            Status::Fail => ("FAIL", Color::Red),
            Status::Skipped => ("skip", Color::Yellow),
        };
        write!(out, "  ")?;
        out.set_color(ColorSpec::new().set_fg(Some(color)).set_bold(true))?;
        write!(out, "{label}")?;
        out.reset()?;
        write!(out, "  {id:width$}")?;
        match verdict.lines(check) {
            Some((a, b)) if a == b => write!(out, "  line {a}")?,
            Some((a, b)) => write!(out, "  lines {a}-{b}")?,
            None => {}
        }
        if !check.detail.is_empty() {
            write!(out, "  {}", diagnostic::printable(&check.detail))?;
        }
        writeln!(out)?;
    }
    if let Some(why) = &verdict.stopped {
        writeln!(out, "stopped early: {}", diagnostic::printable(why))?;
    }
    let (passed, failed, skipped) = (
        verdict.count(Status::Pass),
        verdict.count(Status::Fail),
        verdict.count(Status::Skipped),
    );
    out.set_color(ColorSpec::new().set_bold(true))?;
    write!(out, "result:")?;
    out.reset()?;
    writeln!(
        out,
        " {passed} passed, {failed} failed, {skipped} skipped (not declared or nothing to do)"
    )
}

fn profile_name(profile: Profile) -> String {
    match profile {
        Profile::JsonRpc => "jsonrpc".into(),
        Profile::Mcp(v) => format!("mcp {v}"),
    }
}

/// The JSON report (the engine's: the page's Probe exports the same).
pub fn json(
    out: &mut dyn Write,
    verdict: &Verdict,
    target: &str,
    transcript: Option<&str>,
) -> io::Result<()> {
    probe::write_report_json(out, verdict, target, transcript)
}

/// One test case per check. A check's warnings are written in its `<system-out>`: the element
/// JUnit readers show beside a test case (GitLab's test report as "System output", Jenkins, the
/// GitHub test-report actions) while the case stays passed, as a warning does not fail a check.
/// With `--fail-on warning` a passed check with a warning is a `<failure>` instead, as the exit
/// status says.
pub fn junit(
    out: &mut dyn Write,
    verdict: &Verdict,
    target: &str,
    fail_on: FailOn,
) -> io::Result<()> {
    let tests = verdict.checks.len();
    let warnings: Vec<Vec<String>> = verdict
        .checks
        .iter()
        .map(|check| {
            verdict
                .findings(check)
                .filter(|v| v.severity == Severity::Warning)
                .map(|v| format!("warning[{}]: {} (at {})", v.rule.id, v.message, v.path))
                .collect()
        })
        .collect();
    let failing = |check: &probe::Check, warned: &[String]| {
        check.status == Status::Fail
            || (check.status == Status::Pass
                && !warned.is_empty()
                && fail_on.fails(Severity::Warning))
    };
    let failures = verdict
        .checks
        .iter()
        .zip(&warnings)
        .filter(|(c, w)| failing(c, w))
        .count();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites><testsuite name="jrpc probe {}" tests="{tests}" failures="{failures}" skipped="{}">"#,
        xml(target),
        verdict.count(Status::Skipped)
    )?;
    for (check, warned) in verdict.checks.iter().zip(&warnings) {
        write!(
            out,
            r#"  <testcase classname="jrpc.probe" name="{}">"#,
            xml(&check.id)
        )?;
        match check.status {
            Status::Skipped => write!(out, r#"<skipped message="{}"/>"#, xml(&check.detail))?,
            _ if failing(check, warned) => write!(
                out,
                r#"<failure message="{}">{} ({})</failure>"#,
                xml(&check.detail),
                xml(&check.title),
                xml(check.spec)
            )?,
            _ => {}
        }
        if !warned.is_empty() {
            write!(out, "<system-out>{}</system-out>", xml(&warned.join("\n")))?;
        }
        writeln!(out, "</testcase>")?;
    }
    if let Some(why) = &verdict.stopped {
        writeln!(
            out,
            r#"  <testcase classname="jrpc.probe" name="probe/completed"><failure message="{}"/></testcase>"#,
            xml(why)
        )?;
    }
    writeln!(out, "</testsuite></testsuites>")
}

/// `s` escaped for XML text and attributes; characters XML 1.0 cannot hold, and the other control
/// characters (DEL, C1), become U+FFFD.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::xml;

    #[test]
    fn xml_escapes_markup_and_control_characters() {
        assert_eq!(
            xml(r#"<a b="c">&'"#),
            "&lt;a b=&quot;c&quot;&gt;&amp;&apos;"
        );
        assert_eq!(xml("a\u{1b}b"), "a\u{fffd}b");
        assert_eq!(xml("a\u{7f}\u{9b}b"), "a\u{fffd}\u{fffd}b");
    }
}
