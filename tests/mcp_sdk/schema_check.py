"""Checks every result of `JRPC_BINARY serve` against the published MCP JSON Schema of the version
it was answered in (tests/data/mcp-schema/<version>/schema.json in the repository), with the
`jsonschema` package the SDK's venv already holds.

For each handshake version: initialize at that version, then every method; for 2026-07-28: the
same methods in the per-request `_meta` envelope, plus server/discover and a -32022. Then, for each
handshake version, the tools that ask the client (summarize, and ask_name from 2025-06-18): the
server's own requests against CreateMessageRequest / ElicitRequest, and the results they finish
with. Prints one PASS/FAIL line per version and exits 1 on any failure.
"""

import json
import subprocess
import sys
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "tests" / "data" / "mcp-schema"
MODERN = "2026-07-28"

# (method, params, schema definition of the result)
CALLS = [
    ("ping", {}, "EmptyResult"),
    ("tools/list", {}, "ListToolsResult"),
    ("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}}, "CallToolResult"),
    ("tools/call", {"name": "echo", "arguments": {"text": "hi"}}, "CallToolResult"),
    ("tools/call", {"name": "divide", "arguments": {"a": 1, "b": 0}}, "CallToolResult"),
    ("tools/call", {"name": "add", "arguments": {"a": "x"}}, "CallToolResult"),
    # one tool per content type (those a version lacks are in SINCE below)
    ("tools/call", {"name": "show_image", "arguments": {}}, "CallToolResult"),
    ("tools/call", {"name": "play_sound", "arguments": {}}, "CallToolResult"),
    ("tools/call", {"name": "embed_readme", "arguments": {}}, "CallToolResult"),
    ("tools/call", {"name": "link_resources", "arguments": {}}, "CallToolResult"),
    ("tools/call", {"name": "mixed_content", "arguments": {}}, "CallToolResult"),
    ("tools/call", {"name": "add_structured", "arguments": {"a": 2, "b": 3}}, "CallToolResult"),
    ("resources/list", {}, "ListResourcesResult"),
    ("resources/templates/list", {}, "ListResourceTemplatesResult"),
    ("resources/read", {"uri": "mock://readme"}, "ReadResourceResult"),
    ("resources/read", {"uri": "mock://error-codes"}, "ReadResourceResult"),
    ("resources/read", {"uri": "mock://logo.png"}, "ReadResourceResult"),
    ("prompts/list", {}, "ListPromptsResult"),
    ("prompts/get", {"name": "explain-error", "arguments": {"code": "-32601"}}, "GetPromptResult"),
    ("prompts/get", {"name": "write-request", "arguments": {"method": "sum"}}, "GetPromptResult"),
    ("prompts/get", {"name": "review-readme", "arguments": {}}, "GetPromptResult"),
    ("prompts/get", {"name": "describe-image", "arguments": {}}, "GetPromptResult"),
    # errors: checked against the error response definition
    ("tools/call", {"name": "nope", "arguments": {}}, None),
    ("resources/read", {"uri": "mock://nope"}, None),
    ("prompts/get", {"name": "explain-error", "arguments": {}}, None),
]


# The first version each of these tools exists in; before it the call is an unknown tool (-32602).
SINCE = {"play_sound": "2025-03-26", "link_resources": "2025-06-18", "add_structured": "2025-06-18"}


def validator(version: str, definition: str):
    schema = json.loads((SCHEMAS / version / "schema.json").read_text())
    defs = "$defs" if "$defs" in schema else "definitions"
    root = dict(schema)
    root["$ref"] = f"#/{defs}/{definition}"
    return jsonschema.validators.validator_for(schema)(root)


def exchange(binary: str, requests: list[dict]) -> dict:
    text = "".join(json.dumps(r) + "\n" for r in requests)
    out = subprocess.run([binary, "serve"], input=text, capture_output=True, text=True, timeout=30, check=True)
    replies = [json.loads(line) for line in out.stdout.splitlines()]
    return {r.get("id"): r for r in replies}


def check_version(binary: str, version: str) -> list[str]:
    problems = []
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "schema-check", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    requests, expect = [], {}
    if version == MODERN:
        requests.append({"jsonrpc": "2.0", "id": "discover", "method": "server/discover", "params": {"_meta": meta}})
        expect["discover"] = "DiscoverResult"
        bad = dict(meta, **{"io.modelcontextprotocol/protocolVersion": "1900-01-01"})
        requests.append({"jsonrpc": "2.0", "id": "old", "method": "tools/list", "params": {"_meta": bad}})
        expect["old"] = "UnsupportedProtocolVersionError"
    else:
        init = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "schema-check", "version": "1"}}
        requests.append({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": init})
        requests.append({"jsonrpc": "2.0", "method": "notifications/initialized"})
        expect["init"] = "InitializeResult"
    for i, (method, params, definition) in enumerate(CALLS):
        if version == MODERN and method == "ping":
            continue  # 2026-07-28 has no ping
        if version == MODERN:
            params = dict(params, _meta=meta)
        requests.append({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        since = SINCE.get(params.get("name", ""), "")
        expect[i] = None if version < since else definition
    replies = exchange(binary, requests)
    error_def = "JSONRPCErrorResponse" if version >= "2025-11-25" else "JSONRPCError"
    for id_, definition in expect.items():
        reply = replies.get(id_)
        if reply is None:
            problems.append(f"no reply to {id_}")
            continue
        if definition is None or definition.endswith("Error"):
            if "error" not in reply:
                problems.append(f"{id_}: expected an error, got {reply}")
                continue
            instance, definition = reply, (error_def if definition is None else definition)
        elif "result" not in reply:
            problems.append(f"{id_}: expected a result, got {reply}")
            continue
        else:
            instance = reply["result"]
        if version == "2024-11-05" and definition == "InitializeResult" and reply["result"]["protocolVersion"] != version:
            problems.append(f"initialize answered {reply['result']['protocolVersion']}")
        for error in validator(version, definition).iter_errors(instance):
            problems.append(f"{id_} ({definition}) at {'/'.join(map(str, error.absolute_path))}: {error.message}")
    return problems


def check_asks(binary: str, version: str) -> list[str]:
    """The server's requests to the client and the results of the calls that waited for them."""
    caps = {"sampling": {}, "elicitation": {}}
    init = {"protocolVersion": version, "capabilities": caps, "clientInfo": {"name": "schema-check", "version": "1"}}
    sampled = {"role": "assistant", "content": {"type": "text", "text": "Short."}, "model": "m", "stopReason": "endTurn"}
    requests = [
        {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "summarize", "method": "tools/call", "params": {"name": "summarize", "arguments": {"text": "x"}}},
        {"jsonrpc": "2.0", "id": "mock-1", "result": sampled},
    ]
    asked = {"mock-1": "CreateMessageRequest"}
    if version >= "2025-06-18":
        requests += [
            {"jsonrpc": "2.0", "id": "ask_name", "method": "tools/call", "params": {"name": "ask_name", "arguments": {}}},
            {"jsonrpc": "2.0", "id": "mock-2", "result": {"action": "accept", "content": {"name": "Bo", "colour": "red"}}},
        ]
        asked["mock-2"] = "ElicitRequest"
    replies = exchange(binary, requests)
    problems = []
    for id_, definition in asked.items():
        request = replies.get(id_)
        if request is None or "method" not in request:
            problems.append(f"the server sent no request {id_}")
            continue
        for error in validator(version, definition).iter_errors(request):
            problems.append(f"{id_} ({definition}) at {'/'.join(map(str, error.absolute_path))}: {error.message}")
    for id_ in ("summarize", "ask_name")[: len(asked)]:
        reply = replies.get(id_)
        if reply is None or "result" not in reply or reply["result"].get("isError"):
            problems.append(f"{id_}: expected a result, got {reply}")
            continue
        for error in validator(version, "CallToolResult").iter_errors(reply["result"]):
            problems.append(f"{id_} (CallToolResult) at {'/'.join(map(str, error.absolute_path))}: {error.message}")
    return problems


def main(binary: str) -> int:
    failed = False
    for version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", MODERN):
        problems = check_version(binary, version)
        print(f"{'PASS' if not problems else 'FAIL'} [schema {version}] every result matches the MCP schema")
        for p in problems:
            print(f"     {p}")
        failed |= bool(problems)
    for version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"):
        problems = check_asks(binary, version)
        print(f"{'PASS' if not problems else 'FAIL'} [schema {version}] the server's requests to the client and the results after them match the MCP schema")
        for p in problems:
            print(f"     {p}")
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: schema_check.py JRPC_BINARY")
    sys.exit(main(sys.argv[1]))
