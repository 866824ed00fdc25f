//! The quiz bank covers every rule and every kind, and the engine grades answers.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use jsonrpc_playground::rpc::{catalogue, McpVersion, Profile};
use jsonrpc_playground::teach::quiz::{bank, grade, item, order, Answer, Choice};

/// The teaching text the bank is built from (the native build's own).
fn text() -> &'static jsonrpc_playground::teach::text::Teaching {
    jsonrpc_playground::teach::text::Teaching::builtin()
}

#[test]
fn every_rule_has_an_item_that_breaks_it() {
    let items = bank(crate::text());
    for rule in catalogue::all() {
        let it = items
            .iter()
            .find(|i| i.id == format!("rule:{}", rule.id))
            .unwrap_or_else(|| panic!("no item for {}", rule.id));
        let key = it.key();
        let hit = key
            .rules
            .iter()
            .chain(key.warnings.iter())
            .any(|r| r.id == rule.id);
        assert!(hit, "{}: its item does not break it", rule.id);
    }
}

#[test]
fn the_bank_has_valid_items_of_every_kind() {
    let kinds: Vec<Choice> = bank(crate::text()).iter().map(|i| i.key().choice).collect();
    for c in [
        Choice::Request,
        Choice::Notification,
        Choice::Response,
        Choice::Batch,
        Choice::Invalid,
        Choice::Valid,
    ] {
        assert!(kinds.contains(&c), "no item whose answer is {c:?}");
    }
    assert!(bank(crate::text())
        .iter()
        .any(|i| matches!(i.profile, Profile::Mcp(_)) && i.key().choice == Choice::Request));
}

#[test]
fn the_seed_lab_is_in_the_bank_with_the_articles_answers() {
    let answer = |id: &str| {
        let it = item(id, crate::text()).unwrap();
        assert_eq!(it.profile, Profile::Mcp(McpVersion::V2025_11_25));
        let key = it.key();
        (
            key.choice,
            key.rules.iter().map(|r| r.id).collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        answer("own:seed-lab-1"),
        (Choice::Invalid, vec!["mcp-request-without-id"])
    );
    assert_eq!(
        answer("own:seed-lab-2"),
        (Choice::Invalid, vec!["jsonrpc-not-2-0"])
    );
    assert_eq!(
        answer("own:seed-lab-3"),
        (Choice::Invalid, vec!["mcp-param-missing"])
    );
    assert_eq!(answer("own:seed-lab-4"), (Choice::Request, vec![]));
}

#[test]
fn grading_checks_the_kind_then_the_rule_or_the_place() {
    let it = item("rule:jsonrpc-not-2-0", crate::text()).unwrap();
    let right = grade(
        &it,
        &Answer {
            choice: Some(Choice::Invalid),
            rule: Some("jsonrpc-not-2-0".into()),
            click: None,
        },
        crate::text(),
    );
    assert!(right.correct);
    assert_eq!(right.located, Some(true));
    assert!(
        right
            .explanation
            .contains("\"jsonrpc\" must be exactly the string \"2.0\"."),
        "{}",
        right.explanation
    );
    let wrong_rule = grade(
        &it,
        &Answer {
            choice: Some(Choice::Invalid),
            rule: Some("method-not-string".into()),
            click: None,
        },
        crate::text(),
    );
    assert!(!wrong_rule.correct);
    assert_eq!(wrong_rule.located, Some(false));
    let at = it.text.find("\"1.0\"").unwrap();
    assert!(
        grade(
            &it,
            &Answer {
                choice: Some(Choice::Invalid),
                rule: None,
                click: Some(at + 1)
            },
            crate::text()
        )
        .correct
    );
    assert!(
        !grade(
            &it,
            &Answer {
                choice: Some(Choice::Invalid),
                rule: None,
                // The opening brace: outside the broken member (its name counts, see below).
                click: Some(0)
            },
            crate::text()
        )
        .correct
    );
    let kind_only = grade(
        &it,
        &Answer {
            choice: Some(Choice::Invalid),
            ..Answer::default()
        },
        crate::text(),
    );
    assert!(kind_only.correct && kind_only.located.is_none());
    let wrong_kind = grade(
        &it,
        &Answer {
            choice: Some(Choice::Request),
            ..Answer::default()
        },
        crate::text(),
    );
    assert!(!wrong_kind.correct);
    assert_eq!(wrong_kind.expected, Choice::Invalid);
    assert_eq!(wrong_kind.spans.len(), 1);
}

#[test]
fn a_valid_request_is_graded_as_a_request() {
    let it = item("own:subtract", crate::text()).unwrap();
    assert_eq!(
        it.choices(),
        [
            Choice::Request,
            Choice::Notification,
            Choice::Response,
            Choice::Batch,
            Choice::Invalid
        ]
    );
    assert!(
        grade(
            &it,
            &Answer {
                choice: Some(Choice::Request),
                ..Answer::default()
            },
            crate::text()
        )
        .correct
    );
    let g = grade(
        &it,
        &Answer {
            choice: Some(Choice::Notification),
            ..Answer::default()
        },
        crate::text(),
    );
    assert!(!g.correct);
    assert!(g.explanation.starts_with("It is a request"));
}

#[test]
fn transcripts_are_answered_valid_or_invalid() {
    let it = item("rule:response-unmatched", crate::text()).unwrap();
    assert!(it.transcript);
    assert_eq!(it.choices(), [Choice::Valid, Choice::Invalid]);
    assert!(
        grade(
            &it,
            &Answer {
                choice: Some(Choice::Invalid),
                rule: Some("response-unmatched".into()),
                click: None
            },
            crate::text()
        )
        .correct
    );
    let ok = item("valid:response-unmatched", crate::text()).unwrap();
    assert!(
        grade(
            &ok,
            &Answer {
                choice: Some(Choice::Valid),
                ..Answer::default()
            },
            crate::text()
        )
        .correct
    );
}

#[test]
fn ids_are_unique_and_orders_reproduce() {
    let items = bank(crate::text());
    let mut ids: Vec<&str> = items.iter().map(|i| i.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), items.len());
    assert_eq!(order(items.len(), 7), order(items.len(), 7));
    assert_ne!(order(items.len(), 7), order(items.len(), 8));
    let mut o = order(items.len(), 7);
    o.sort();
    assert_eq!(o, (0..items.len()).collect::<Vec<_>>());
}

mod lessons {
    use super::Profile;
    use jsonrpc_playground::mock::MockServer;
    use jsonrpc_playground::rpc::check;
    use jsonrpc_playground::teach::lessons::{lesson, LESSONS};
    use jsonrpc_playground::teach::quiz::item;

    #[test]
    fn the_path_runs_from_request_to_mcp() {
        let ids: Vec<&str> = LESSONS.iter().map(|l| l.id).collect();
        assert_eq!(
            ids,
            [
                "request",
                "notification",
                "response",
                "error",
                "batch",
                "mcp",
                "mcp-content",
                "mcp-tool-errors",
                "mcp-resources",
                "mcp-prompts",
                "mcp-progress",
                "mcp-subscriptions",
                "mcp-sampling",
                "mcp-elicitation",
                "mcp-cancellation",
                "mcp-versions",
            ]
        );
        assert!(lesson("batch").is_some() && lesson("nope").is_none());
    }

    /// The lessons' runs go to the mock's small worker, the one without a JSON Schema engine,
    /// unless the mock serves the conformance fixtures (src/web/kit/mock_client.rs,
    /// `SchemaChecks::ConformanceOnly`): that is right only if no run ever meets a schema check.
    /// Run here with the engine (`mcp-schemas` is on natively), as the page runs them (a fresh
    /// session each, the friendly fixtures, the cooperative client's answers to the server's
    /// requests and input-required rounds), no reply or answer breaks a schema the mock checks.
    #[test]
    fn every_lesson_run_keeps_the_schemas_the_mock_checks() {
        use jsonrpc_playground::exchange::mock_worker::{
            MockAnswer, MockRequest, MockSessions, Session,
        };
        use jsonrpc_playground::json::split_stream;
        use jsonrpc_playground::mock::Fixtures;
        let mut clock = 0.0;
        let mut runs = 0;
        for l in LESSONS
            .iter()
            .filter(|l| matches!(l.profile, Profile::Mcp(_)))
        {
            let mut sessions = MockSessions::new();
            let stream = split_stream(l.example.as_bytes());
            let mut fresh = Some(Fixtures::Friendly);
            for segment in &stream.segments {
                let doc = &l.example[segment.span.start..segment.span.end];
                let request = MockRequest::new(
                    Session::Lesson,
                    fresh.take(),
                    l.profile,
                    true,
                    doc.to_string(),
                );
                let answer = sessions.answer(request, &mut || {
                    clock += 1.0;
                    clock
                });
                let MockAnswer::Exchanged { records, .. } = answer else {
                    panic!("lesson {}: the mock refused {doc}: {answer:?}", l.id);
                };
                for r in records {
                    for refusal in [
                        "breaks the tool's inputSchema",
                        "breaks the requestedSchema",
                    ] {
                        assert!(!r.raw.contains(refusal), "lesson {}: {}", l.id, r.raw);
                    }
                }
            }
            runs += 1;
        }
        assert!(runs >= 10, "only {runs} MCP lessons ran");
    }

    /// The page runs every lesson on its one mock server, in order: each still gets the replies
    /// it promises (a lesson under another MCP version starts a new session).
    #[test]
    fn the_lessons_run_in_order_on_one_server_as_in_the_page() {
        let mut server = MockServer::new();
        let mut replies = std::collections::HashMap::new();
        for l in LESSONS {
            server.set_profile(l.profile);
            let mut got = Vec::new();
            for exchange in server.handle_stream(l.example.as_bytes()) {
                got.extend(server.take_sent());
                got.extend(exchange.reply);
            }
            replies.insert(l.id, got.join("\n"));
        }
        for (id, expected) in [
            ("request", r#""result":19"#),
            ("mcp", r#""text":"5""#),
            ("mcp-versions", "sampling/createMessage"),
            ("mcp-content", "structuredContent"),
            ("mcp-tool-errors", r#""isError":true"#),
            ("mcp-resources", r#""blob""#),
            ("mcp-prompts", r#""messages""#),
            ("mcp-progress", "Liftoff!"),
            ("mcp-subscriptions", "notifications/resources/updated"),
            ("mcp-sampling", "input_required"),
            ("mcp-elicitation", "elicitation/create"),
            (
                "mcp-cancellation",
                "notifications/subscriptions/acknowledged",
            ),
        ] {
            assert!(replies[id].contains(expected), "{id}: {}", replies[id]);
        }
    }

    #[test]
    fn every_lesson_question_is_in_the_bank() {
        for l in LESSONS {
            assert!(
                item(l.question, crate::text()).is_some(),
                "{}: no quiz item {}",
                l.id,
                l.question
            );
        }
    }

    #[test]
    fn every_example_gets_the_replies_the_lesson_promises() {
        let replies = |id: &str| {
            let l = lesson(id).unwrap();
            let mut server = MockServer::new();
            server.set_profile(l.profile);
            server
                .handle_stream(l.example.as_bytes())
                .into_iter()
                .filter_map(|e| e.reply)
                .collect::<Vec<String>>()
        };
        assert_eq!(
            replies("request"),
            [r#"{"jsonrpc":"2.0","result":19,"id":1}"#]
        );
        assert!(replies("notification").is_empty());
        assert_eq!(
            replies("response"),
            [r#"{"jsonrpc":"2.0","result":19,"id":4}"#]
        );
        let errors = replies("error");
        assert_eq!(errors.len(), 3);
        assert!(
            errors[0].contains("-32601")
                && errors[1].contains("-32602")
                && errors[2].contains("-32700")
        );
        assert_eq!(replies("batch").len(), 1);
        let mcp = replies("mcp");
        assert_eq!(mcp.len(), 3, "server/discover, tools/list, tools/call");
        assert!(mcp[0].contains("supportedVersions"), "{}", mcp[0]);
        assert!(mcp[2].contains(r#""text":"5""#), "{}", mcp[2]);
        let content = replies("mcp-content");
        assert!(content[0].contains(r#""type":"image""#), "{}", content[0]);
        assert!(content[2].contains("structuredContent"), "{}", content[2]);
        let tool_errors = replies("mcp-tool-errors");
        assert!(
            tool_errors[0].contains(r#""isError":true"#) && tool_errors[0].contains("result"),
            "{}",
            tool_errors[0]
        );
        assert!(tool_errors[1].contains("-32602"), "{}", tool_errors[1]);
        // Every list and read result says how long it stays fresh.
        let resources = replies("mcp-resources");
        assert_eq!(resources.len(), 4);
        for r in &resources {
            assert!(
                r.contains(r#""ttlMs""#) && r.contains(r#""cacheScope""#),
                "{r}"
            );
        }
        assert!(resources[3].contains(r#""blob""#), "{}", resources[3]);
        let prompts = replies("mcp-prompts");
        assert!(prompts[1].contains(r#""-32601""#), "{}", prompts[1]);
        assert!(prompts[2].contains("messages"), "{}", prompts[2]);
        // The countdown's log lines (asked in _meta) and progress come before its result.
        let l = lesson("mcp-progress").unwrap();
        let mut server = MockServer::new();
        server.set_profile(l.profile);
        let mut said = Vec::new();
        for exchange in server.handle_stream(l.example.as_bytes()) {
            said.extend(server.take_sent());
            said.extend(exchange.reply);
        }
        let progress = said
            .iter()
            .filter(|m| m.contains("notifications/progress"))
            .count();
        let logs = said
            .iter()
            .filter(|m| m.contains("notifications/message"))
            .count();
        assert!(progress >= 3 && logs >= 3, "{said:#?}");
        assert!(said.last().unwrap().contains("Liftoff!"), "{said:#?}");
        // The listen request is acknowledged, never answered; the update comes on it before the
        // tool's result, and the read shows the note.
        let l = lesson("mcp-subscriptions").unwrap();
        let mut server = MockServer::new();
        server.set_profile(l.profile);
        let mut said = Vec::new();
        for exchange in server.handle_stream(l.example.as_bytes()) {
            said.extend(server.take_sent());
            said.extend(exchange.reply);
        }
        assert!(
            said[0].contains("notifications/subscriptions/acknowledged"),
            "{said:#?}"
        );
        assert!(
            said[1].contains("notifications/resources/updated"),
            "{said:#?}"
        );
        assert!(said[2].contains(r#""id":2"#), "{said:#?}");
        assert!(said[3].contains("JSON-RPC ids echo exactly"), "{said:#?}");
        assert!(!said.iter().any(|m| m.contains(r#""id":1"#)), "{said:#?}");
        // The server asks in an input-required result; the retry round::retry builds finishes it.
        for (id, tool_says) in [
            ("mcp-sampling", "An automatic answer"),
            ("mcp-elicitation", "Hello"),
        ] {
            let l = lesson(id).unwrap();
            let mut server = MockServer::new();
            server.set_profile(l.profile);
            let asked = server.handle(l.example.as_bytes()).unwrap();
            assert!(asked.contains("input_required"), "{id}: {asked}");
            let retry = jsonrpc_playground::exchange::round::retry(l.example, &asked, 2).unwrap();
            let done = server.handle(retry.as_bytes()).unwrap();
            assert!(
                done.contains(r#""resultType":"complete""#) && done.contains(tool_says),
                "{id}: {done}"
            );
        }
        // Cancelled: the listen request never gets a reply.
        let cancelled = replies("mcp-cancellation");
        assert!(cancelled.is_empty(), "{cancelled:?}");
        // The handshake of the earlier revisions: the server's own request waits for the client.
        let l = lesson("mcp-versions").unwrap();
        let mut server = MockServer::new();
        server.set_profile(l.profile);
        let replies: Vec<_> = server
            .handle_stream(l.example.as_bytes())
            .into_iter()
            .filter_map(|e| e.reply)
            .collect();
        assert!(
            replies.len() == 1 && replies[0].contains(r#""protocolVersion":"2025-11-25""#),
            "only initialize is answered: {replies:?}"
        );
        // Two calls ask the client's model; the second is cancelled, and the server cancels the
        // request it had sent for it (that one is never answered).
        let asked = server.take_sent();
        assert_eq!(asked.len(), 3, "{asked:#?}");
        assert!(
            asked[1].contains(r#""id":"mock-2""#)
                && asked[2].contains("notifications/cancelled")
                && asked[2].contains(r#""requestId":"mock-2""#),
            "{asked:#?}"
        );
        let answer = jsonrpc_playground::client::reply_to(&asked[0]).unwrap();
        assert_eq!(server.handle(answer.as_bytes()), None);
        let finished = server.take_sent();
        assert!(
            finished.len() == 1 && finished[0].contains(r#""id":2"#),
            "{finished:#?}"
        );
        // The examples that teach valid messages are valid under their profile: every lesson's
        // but the error object's (the batch's one invalid element is checked below).
        for id in LESSONS.iter().map(|l| l.id).filter(|id| *id != "error") {
            let l = lesson(id).unwrap();
            let errors: Vec<_> = check(l.example.as_bytes(), l.profile)
                .violations()
                .filter(|v| v.severity == jsonrpc_playground::rpc::Severity::Error)
                .map(|v| v.rule.id)
                .collect();
            if id == "batch" {
                assert_eq!(
                    errors,
                    ["jsonrpc-missing", "method-result-or-error-required"],
                    "the {{\"foo\": \"boo\"}} element"
                );
            } else {
                assert!(errors.is_empty(), "{id}: {errors:?}");
            }
        }
    }
}

#[test]
fn the_learners_own_message_is_graded_like_a_bank_item() {
    use jsonrpc_playground::teach::quiz::custom;
    let mine = custom(r#"{"jsonrpc": "2.0", "method": "ping"}"#, Profile::JsonRpc);
    assert!(!mine.transcript);
    assert!(
        grade(
            &mine,
            &Answer {
                choice: Some(Choice::Notification),
                ..Answer::default()
            },
            crate::text()
        )
        .correct
    );
    let g = grade(
        &mine,
        &Answer {
            choice: Some(Choice::Request),
            ..Answer::default()
        },
        crate::text(),
    );
    assert!(!g.correct);
    assert_eq!(g.expected, Choice::Notification);
    let broken = custom(
        r#"{"jsonrpc": "2.0", "method": "ping", "id": {}}"#,
        Profile::JsonRpc,
    );
    let g = grade(
        &broken,
        &Answer {
            choice: Some(Choice::Invalid),
            ..Answer::default()
        },
        crate::text(),
    );
    assert!(g.correct && !g.spans.is_empty(), "{g:?}");
}

#[test]
fn every_lesson_asks_a_question_from_the_bank_and_its_example_runs_on_the_mock() {
    use jsonrpc_playground::mock::MockServer;
    use jsonrpc_playground::teach::lessons::LESSONS;
    assert_eq!(LESSONS.len(), 16);
    for l in LESSONS {
        assert!(
            item(l.question, crate::text()).is_some(),
            "{}: no item {}",
            l.id,
            l.question
        );
        let exchanges = MockServer::new().handle_stream(l.example.as_bytes());
        assert!(!exchanges.is_empty(), "{}: nothing sent", l.id);
    }
}

#[test]
fn marked_runs_cover_the_text_and_mark_the_spans() {
    use jsonrpc_playground::json::Span;
    use jsonrpc_playground::teach::quiz::marked;
    let runs = |t: &str, s: &[Span]| marked(t, s);
    let own = |v: &[(&str, bool)]| {
        v.iter()
            .map(|(s, m)| (s.to_string(), *m))
            .collect::<Vec<_>>()
    };
    assert_eq!(runs("abcdef", &[]), own(&[("abcdef", false)]));
    assert_eq!(
        runs("abcdef", &[Span::new(1, 3)]),
        own(&[("a", false), ("bc", true), ("def", false)])
    );
    // Overlapping spans merge; an empty span marks the character after it; a span past the end is clamped.
    assert_eq!(
        runs(
            "abcdef",
            &[Span::new(0, 2), Span::new(1, 3), Span::new(5, 5)]
        ),
        own(&[("abc", true), ("de", false), ("f", true)])
    );
    assert_eq!(
        runs("ab", &[Span::new(1, 99)]),
        own(&[("a", false), ("b", true)])
    );
    assert_eq!(runs("ab", &[Span::new(2, 2)]), own(&[("ab", false)]));
    // Multi-byte characters stay whole.
    assert_eq!(
        runs("é\"x\"", &[Span::new(2, 5)]),
        own(&[("é", false), ("\"x\"", true)])
    );
    // The seed lab's broken member, as the quiz marks it.
    let it = item("rule:jsonrpc-not-2-0", crate::text()).unwrap();
    let g = grade(&it, &Answer::default(), crate::text());
    let hit: Vec<String> = marked(&it.text, &g.spans)
        .into_iter()
        .filter(|r| r.1)
        .map(|r| r.0)
        .collect();
    assert_eq!(hit, ["\"1.0\""]);
}

/// A click anywhere in the offending member counts, and for a rule about the conversation,
/// anywhere in the message it concerns (the learner clicked `"b"` in the unanswered request and
/// was told they were wrong; the expected spot was the one character `2`).
#[test]
fn pointing_accepts_the_offending_member_or_message() {
    let at = |it: &jsonrpc_playground::teach::quiz::Item, at: usize| {
        grade(
            it,
            &Answer {
                choice: Some(Choice::Invalid),
                rule: None,
                click: Some(at),
            },
            crate::text(),
        )
        .correct
    };
    let unanswered = item("rule:request-unanswered", crate::text()).unwrap();
    let second = unanswered.text.find("\"b\"").unwrap();
    assert!(
        at(&unanswered, second + 1),
        "the method of the unanswered request"
    );
    assert!(at(&unanswered, unanswered.text.find("\"id\": 2").unwrap()));
    let first = unanswered.text.find("\"a\"").unwrap();
    assert!(
        !at(&unanswered, first + 1),
        "the answered request is not the problem"
    );

    let version = item("rule:jsonrpc-not-2-0", crate::text()).unwrap();
    let name = version.text.find("\"jsonrpc\"").unwrap();
    assert!(at(&version, name + 1), "the member's name");
    let method = version.text.find("\"method\"").unwrap();
    assert!(!at(&version, method + 1), "another member");
}

/// Pointing by keyboard: the parts a learner can choose are every member at any depth and every
/// message without one, in order; choosing a part points where a click on it would.
#[test]
fn every_part_can_be_pointed_at_without_a_mouse() {
    use jsonrpc_playground::teach::quiz::{pointable, pointed_at};
    let text = "{\"jsonrpc\": \"2.0\", \"params\": {\"a\": [1, {\"b\": 2}]}, \"id\": 1}\n[]\nnope";
    let parts: Vec<&str> = pointable(text)
        .into_iter()
        .map(|s| &text[s.start..s.end])
        .collect();
    assert_eq!(
        parts,
        [
            "\"jsonrpc\": \"2.0\"",
            "\"params\": {\"a\": [1, {\"b\": 2}]}",
            "\"a\": [1, {\"b\": 2}]",
            "\"b\": 2",
            "\"id\": 1",
            "[]",
            "nope",
        ]
    );
    for part in pointable(text).into_iter().take(5) {
        assert_eq!(
            pointed_at(text, part.start),
            part,
            "a member's start names it"
        );
    }
    // The keyboard's answer is graded as the click's: the unanswered request's method.
    let unanswered = item("rule:request-unanswered", crate::text()).unwrap();
    let method = pointable(&unanswered.text)
        .into_iter()
        .filter(|s| unanswered.text[s.start..s.end].starts_with("\"method\""))
        .nth(1)
        .unwrap();
    let answer = Answer {
        choice: Some(Choice::Invalid),
        rule: None,
        click: Some(method.start),
    };
    assert!(grade(&unanswered, &answer, crate::text()).correct);
}

/// Severity is taught, and grading follows it: on a message that is valid but breaks a SHOULD,
/// answering invalid and pointing at that part is a right observation, never "Not quite".
mod severity {
    use jsonrpc_playground::teach::quiz::{grade, item, pointable, Answer, Choice};

    #[test]
    fn pointing_at_a_warnings_part_is_a_right_observation() {
        let it = item("rule:member-unknown", crate::text()).unwrap();
        let parms = it.text.find("\"parms\"").unwrap();
        let g = grade(
            &it,
            &Answer {
                choice: Some(Choice::Invalid),
                rule: None,
                click: Some(parms + 2),
            },
            crate::text(),
        );
        assert!(g.correct, "{g:?}");
        assert_eq!(g.noticed.map(|r| r.id), Some("member-unknown"));
        assert!(g
            .verdict()
            .starts_with("Right observation: it is valid, but member-unknown"));
        assert!(!g.verdict().contains("Not quite"));
        assert!(g.explanation.contains("SHOULD"), "{}", g.explanation);
        assert!(!g.spans.is_empty(), "the warning's place is marked");
    }

    #[test]
    fn picking_the_warning_rule_of_a_batch_is_right() {
        let it = item("rule:batch-duplicate-id", crate::text()).unwrap();
        let g = grade(
            &it,
            &Answer {
                choice: Some(Choice::Invalid),
                rule: Some("batch-duplicate-id".into()),
                click: None,
            },
            crate::text(),
        );
        assert!(g.correct && g.verdict().contains("valid, but"), "{g:?}");
    }

    #[test]
    fn answering_invalid_without_finding_the_warning_is_not_quite_with_the_article() {
        let it = item("rule:member-unknown", crate::text()).unwrap();
        let g = grade(
            &it,
            &Answer {
                choice: Some(Choice::Invalid),
                rule: None,
                click: None,
            },
            crate::text(),
        );
        assert!(!g.correct);
        assert_eq!(g.verdict(), "Not quite: it is a request.");
    }

    #[test]
    fn the_inner_array_of_a_nested_batch_can_be_pointed_at_and_is_the_mistake() {
        let it = item("rule:batch-nested", crate::text()).unwrap();
        let parts: Vec<&str> = pointable(&it.text)
            .into_iter()
            .map(|s| &it.text[s.start..s.end])
            .collect();
        assert!(
            parts.iter().any(|p| p.starts_with('[')),
            "the inner [ is a part: {parts:?}"
        );
        let inner = pointable(&it.text)
            .into_iter()
            .find(|s| it.text[s.start..].starts_with('['))
            .unwrap();
        let g = grade(
            &it,
            &Answer {
                choice: Some(Choice::Invalid),
                rule: None,
                click: Some(inner.start),
            },
            crate::text(),
        );
        assert!(g.correct && g.located == Some(true), "{g:?}");
    }
}

/// Each lesson's question tests that lesson: what it breaks, or its kind and method, are among
/// the lesson's declared topics, and what the lesson names it explains.
mod lesson_topics {
    use jsonrpc_playground::rpc::catalogue;
    use jsonrpc_playground::teach::lessons::{rules_taught, LESSONS};
    use jsonrpc_playground::teach::quiz::{item, Choice};

    const KINDS: &[&str] = &["request", "notification", "response", "batch"];

    /// The "method" values of `text`.
    fn methods(text: &str) -> Vec<String> {
        text.split("\"method\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').nth(1).map(str::to_string))
            .collect()
    }

    #[test]
    fn every_topic_is_a_rule_a_method_the_lesson_shows_or_a_kind() {
        for l in LESSONS {
            let words = format!("{} {}", l.text.join(" "), l.example);
            for t in l.topics {
                let known = catalogue::find(t).is_some()
                    || KINDS.contains(t)
                    || (t.contains('/') || t.chars().all(|c| c.is_ascii_lowercase()))
                        && words.contains(t);
                assert!(
                    known,
                    "lesson {}: topic {t} is neither a rule, a kind nor shown",
                    l.id
                );
            }
        }
    }

    #[test]
    fn every_lesson_question_tests_its_lessons_topics() {
        for l in LESSONS {
            let it = item(l.question, crate::text()).unwrap();
            let key = it.key();
            for r in key.rules.iter().chain(&key.warnings) {
                assert!(
                    l.topics.contains(&r.id),
                    "lesson {}: its question breaks {}, which it does not teach",
                    l.id,
                    r.id
                );
            }
            if key.rules.is_empty() {
                let kind = key.choice.as_str();
                assert!(
                    l.topics.contains(&kind) || key.choice == Choice::Valid,
                    "lesson {}: its question is a {kind}, not a topic",
                    l.id
                );
                for m in methods(&it.text) {
                    assert!(
                        l.topics.contains(&m.as_str()),
                        "lesson {}: its question sends {m}, not a topic",
                        l.id
                    );
                }
            }
        }
    }

    #[test]
    fn a_lessons_rule_picker_holds_its_questions_rules_and_only_rules_taught_so_far() {
        for (i, l) in LESSONS.iter().enumerate() {
            let taught = rules_taught(i);
            for r in item(l.question, crate::text()).unwrap().key().rules {
                assert!(
                    taught.contains(&r.id),
                    "lesson {}: {} not offered",
                    l.id,
                    r.id
                );
            }
        }
        let first = rules_taught(0);
        assert!(
            !first.contains(&"json-lone-surrogate") && !first.contains(&"id-beyond-safe-integer")
        );
        assert!(first.contains(&"jsonrpc-not-2-0"));
    }

    #[test]
    fn the_transcript_notation_is_taught_in_the_first_lesson_whose_question_uses_it() {
        let first = LESSONS
            .iter()
            .find(|l| item(l.question, crate::text()).unwrap().transcript)
            .unwrap();
        let text = first.text.join(" ");
        assert!(
            text.contains("-->") && text.contains("<--"),
            "lesson {}",
            first.id
        );
        let before = LESSONS.iter().take_while(|l| l.id != first.id);
        for l in before {
            assert!(!l.text.join(" ").contains("-->"), "taught once: {}", l.id);
        }
    }

    #[test]
    fn must_and_should_are_taught_in_the_first_lesson() {
        let text = LESSONS[0].text.join(" ");
        assert!(text.contains("MUST") && text.contains("SHOULD") && text.contains("warning"));
    }
}

#[test]
fn share_links_are_opaque_and_old_links_still_open() {
    use jsonrpc_playground::teach::route::{QuizRoute, Route};
    for it in bank(crate::text()) {
        let share = it.share_id();
        assert!(share.starts_with("q-") && share.len() == 10, "{share}");
        assert!(!share.contains(':'));
        assert_eq!(
            item(&share, crate::text()).map(|i| i.id),
            Some(it.id.clone())
        );
        assert_eq!(
            item(&it.id, crate::text()).map(|i| i.id),
            Some(it.id.clone()),
            "the old form still opens"
        );
    }
    let mut shares: Vec<String> = bank(crate::text()).iter().map(|i| i.share_id()).collect();
    shares.sort();
    shares.dedup();
    assert_eq!(
        shares.len(),
        bank(crate::text()).len(),
        "share ids are unique"
    );
    let it = item("rule:mcp-request-during-initialization", crate::text()).unwrap();
    let link = Route::Quiz(QuizRoute::Item(it.share_id())).fragment();
    assert!(!link.contains("initialization"), "{link}");
    // Stable: the id of a known item is fixed (links shared today open tomorrow).
    assert_eq!(
        item("rule:batch-empty", crate::text()).unwrap().share_id(),
        "q-085fee61"
    );
}

#[test]
fn the_handshake_lessons_question_is_a_client_sending_the_servers_request() {
    let it = item("own:mcp-sampling-from-client", crate::text()).unwrap();
    let ids: Vec<&str> = it.key().rules.iter().map(|r| r.id).collect();
    assert_eq!(ids, ["mcp-wrong-direction"]);
    let handshake = jsonrpc_playground::teach::lessons::lesson("mcp-versions").unwrap();
    assert_eq!(handshake.question, "own:mcp-sampling-from-client");
}

#[test]
fn a_handshake_era_read_without_its_uri_misses_a_param() {
    let it = item("own:mcp-read-no-uri", crate::text()).unwrap();
    let ids: Vec<&str> = it.key().rules.iter().map(|r| r.id).collect();
    assert_eq!(ids, ["mcp-param-missing"]);
}

mod no_reply_notes {
    use jsonrpc_playground::teach::lessons::{lesson, no_reply_note};

    /// The client's messages of the lesson `id`'s example, one per line.
    fn run(id: &str) -> Vec<String> {
        lesson(id)
            .unwrap()
            .example
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_cancelled_listen_of_lesson_15_says_the_client_cancelled_the_subscription() {
        let run = run("mcp-cancellation");
        let note = no_reply_note(true, &run[0], &run);
        assert!(
            note.contains("the client cancelled this subscription"),
            "{note}"
        );
        assert_eq!(
            no_reply_note(false, &run[1], &run),
            "← no reply: nothing is returned for this message"
        );
    }

    #[test]
    fn an_open_listen_and_a_cancelled_call_each_get_their_own_note() {
        let listen = run("mcp-subscriptions");
        assert!(no_reply_note(true, &listen[0], &listen).contains("the subscription stays open"));
        let handshake = run("mcp-versions");
        let third = handshake
            .iter()
            .position(|m| m.contains("\"id\": 3"))
            .unwrap();
        assert!(no_reply_note(true, &handshake[third], &handshake)
            .contains("the client cancelled this request"));
    }
}
