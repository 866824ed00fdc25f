"""Drives `JRPC_BINARY serve` with the official MCP Python SDK (pinned in run.sh) over stdio.

Two connections: mode="auto" (the SDK probes `server/discover` and adopts 2026-07-28) and
mode="legacy" (the `initialize` handshake, which settles on 2025-11-25). On each: list tools,
call add(2, 3) and expect "5", divide by zero (a tool error), an unknown tool (-32602), read a
resource, a missing resource (-32002; -32602 in 2026-07-28), get a prompt. Two more connections
("asks": the handshake, and "asks auto": 2026-07-28, where the asking is an input-required result)
register sampling, elicitation and roots callbacks and run the tools that ask the client during a
call (summarize: sampling/createMessage; ask_name: elicitation/create; list_roots: roots/list),
checking what the server asked and the results it finished with; each also subscribes to
mock://notes (resources/subscribe in the handshake, subscriptions/listen in 2026-07-28) and hears
add_note change it. Prints one PASS/FAIL line per check and a summary; exits 1 on any
failure.
"""

import asyncio
import os
import sys

import anyio

from mcp import Client, types
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

failures: list[str] = []


def check(label: str, ok: bool, detail: object = "") -> None:
    print(f"{'PASS' if ok else 'FAIL'} {label}" + (f": {detail}" if detail != "" and not ok else ""))
    if not ok:
        failures.append(label)


def text_of(result) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def server_params(binary: str, label: str) -> StdioServerParameters:
    # With JRPC_TAP=DIR the same session runs through `jrpc tap` (a transcript and a findings log
    # per session label in DIR): the client must see exactly the same results.
    tap = os.environ.get("JRPC_TAP")
    args = ["serve"]
    if tap:
        args = ["tap", "--transcript", f"{tap}/{label}.txt", "--log", f"{tap}/{label}.log", "--", binary, "serve"]
    return StdioServerParameters(command=binary, args=args)


async def session(binary: str, mode: str, expected_version: str) -> None:
    server = server_params(binary, mode)
    async with Client(server, mode=mode, read_timeout_seconds=10) as client:
        p = f"[{mode}]"
        check(f"{p} negotiated protocol version {expected_version}", client.protocol_version == expected_version, client.protocol_version)
        info = client.server_info
        check(f"{p} server name jrpc-mock", info is not None and info.name == "jrpc-mock", info)

        tools = await client.list_tools()
        names = [t.name for t in tools.tools]
        check(f"{p} tools/list has add, echo, divide", {"add", "echo", "divide"} <= set(names), names)

        added = await client.call_tool("add", {"a": 2, "b": 3})
        check(f"{p} add(2, 3) is \"5\"", text_of(added) == "5" and not added.is_error, added)

        echoed = await client.call_tool("echo", {"text": "héllo"})
        check(f"{p} echo returns its text", text_of(echoed) == "héllo", echoed)

        divided = await client.call_tool("divide", {"a": 1, "b": 0})
        check(f"{p} divide by zero is a tool error (isError)", divided.is_error is True, divided)

        # One tool per content type, parsed into the SDK's own content types.
        kinds = {}
        for tool in ("show_image", "play_sound", "embed_readme", "link_resources", "mixed_content"):
            if tool in names:
                result = await client.call_tool(tool, {})
                kinds[tool] = [c.type for c in result.content]
        check(f"{p} content types: image, audio, embedded resource, resource links, mixed",
              kinds.get("show_image") == ["image"] and kinds.get("play_sound") == ["audio"]
              and kinds.get("embed_readme") == ["resource"] and kinds.get("mixed_content") == ["text", "image", "resource"]
              and set(kinds.get("link_resources", [])) == {"resource_link"}, kinds)
        # structuredContent, validated by the SDK against the tool's outputSchema.
        structured = await client.call_tool("add_structured", {"a": 2, "b": 3})
        check(f"{p} add_structured returns structuredContent {{sum: 5}}", structured.structured_content == {"sum": 5}, structured)

        try:
            await client.call_tool("no_such_tool", {})
            check(f"{p} unknown tool is -32602", False, "no error")
        except MCPError as e:
            check(f"{p} unknown tool is -32602", e.code == -32602 and "no_such_tool" in e.error.message, e.error)

        resources = await client.list_resources()
        uris = [str(r.uri) for r in resources.resources]
        check(f"{p} resources/list", "mock://readme" in uris, uris)
        read = await client.read_resource("mock://readme")
        check(f"{p} resources/read", any("jrpc-mock" in getattr(c, "text", "") for c in read.contents), read)
        # A missing resource: -32002 in the handshake versions, -32602 in 2026-07-28 (SEP-2164).
        missing_code = -32002 if mode == "legacy" else -32602
        try:
            await client.read_resource("mock://missing")
            check(f"{p} missing resource is {missing_code}", False, "no error")
        except MCPError as e:
            check(f"{p} missing resource is {missing_code}", e.code == missing_code, e.error)

        logo = await client.read_resource("mock://logo.png")
        check(f"{p} a binary resource reads as a blob", getattr(logo.contents[0], "blob", "").startswith("iVBOR"), logo)

        prompts = await client.list_prompts()
        check(f"{p} prompts/list", "explain-error" in [x.name for x in prompts.prompts], prompts)
        carried = [(await client.get_prompt(name, {})).messages[1].content.type for name in ("review-readme", "describe-image")]
        check(f"{p} prompts with an embedded resource and an image", carried == ["resource", "image"], carried)
        prompt = await client.get_prompt("explain-error", {"code": "-32601"})
        check(f"{p} prompts/get", "Method not found" in prompt.messages[0].content.text, prompt)

        templates = await client.list_resource_templates()
        check(f"{p} resources/templates/list", [t.uri_template for t in templates.resource_templates] == ["mock://error-codes/{code}"], templates)
        code = await client.read_resource("mock://error-codes/-32601")
        check(f"{p} a template's URI reads", code.contents[0].text.startswith("-32601 Method not found"), code)

        from mcp.types import PromptReference, ResourceTemplateReference

        completed = await client.complete(PromptReference(type="ref/prompt", name="explain-error"), {"name": "code", "value": "-3260"})
        check(f"{p} completion/complete for a prompt argument", completed.completion.values == ["-32600", "-32601", "-32602", "-32603"], completed)
        completed = await client.complete(ResourceTemplateReference(type="ref/resource", uri="mock://error-codes/{code}"), {"name": "code", "value": "-327"})
        check(f"{p} completion/complete for a template variable", completed.completion.values == ["-32700"], completed)

        # The tools that ask the client; this client declared neither sampling nor elicitation.
        if mode == "legacy":
            check(f"{p} summarize and ask_name are listed", {"summarize", "ask_name"} <= set(names), names)
            refused = await client.call_tool("summarize", {"text": "x"})
            check(f"{p} summarize without the sampling capability is a tool error naming it",
                  refused.is_error is True and '"sampling"' in text_of(refused), refused)
        else:
            # 2026-07-28 asks inside an input-required result: the tools are listed, and one that
            # needs a capability this client did not declare is -32021.
            check(f"{p} summarize and ask_name are listed in 2026-07-28", {"summarize", "ask_name"} <= set(names), names)
            try:
                await client.call_tool("summarize", {"text": "x"})
                check(f"{p} summarize without the sampling capability is -32021 in 2026-07-28", False, "no error")
            except MCPError as e:
                check(f"{p} summarize without the sampling capability is -32021 in 2026-07-28", e.code == -32021, e.error)

        if mode == "legacy":
            await client.set_logging_level("warning")
            check(f"{p} logging/setLevel", True, None)
        else:
            # 2026-07-28 replaced logging/setLevel with a per-request _meta log level.
            try:
                await client.set_logging_level("warning")
                check(f"{p} logging/setLevel is -32601 in 2026-07-28", False, "no error")
            except MCPError as e:
                check(f"{p} logging/setLevel is -32601 in 2026-07-28", e.code == -32601, e.error)


async def asking_session(binary: str, mode: str = "legacy") -> None:
    """The tools that ask the client during a call, answered by this client's callbacks: in the
    handshake (mode="legacy") the server sends sampling/createMessage, elicitation/create and
    roots/list requests mid-call; in 2026-07-28 (mode="auto") the call's result is input_required,
    the SDK answers its inputRequests with the same callbacks and retries with inputResponses and
    the requestState. The results must be the same."""
    asked: list[tuple[str, object]] = []
    answers = {"sampling": "model", "elicitation": "accept"}

    async def sampling(context, params: types.CreateMessageRequestParams):
        asked.append(("sampling", params))
        if answers["sampling"] == "refuse":
            return types.ErrorData(code=-1, message="User rejected sampling")
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="A short summary."),
            model="test-model",
            stop_reason="endTurn",
        )

    async def elicitation(context, params):
        asked.append(("elicitation", params))
        if answers["elicitation"] == "decline":
            return types.ElicitResult(action="decline")
        schema = params.requested_schema["properties"]
        # What a form would show filled in: the name's default, one of the offered colours.
        colour = schema["colour"]["oneOf"][1]["const"]
        return types.ElicitResult(action="accept", content={"name": schema["name"]["default"], "colour": colour})

    async def roots(context):
        asked.append(("roots", None))
        return types.ListRootsResult(roots=[types.Root(uri="file:///home/ada/project", name="project")])

    heard: list[str] = []

    async def messages(message) -> None:
        uri = getattr(getattr(message, "params", None), "uri", None)
        if getattr(message, "method", None) == "notifications/resources/updated":
            heard.append(str(uri))

    p = "[asks]" if mode == "legacy" else f"[asks {mode}]"
    async with Client(server_params(binary, "asks" if mode == "legacy" else f"asks-{mode}"), mode=mode,
                      read_timeout_seconds=10, sampling_callback=sampling, elicitation_callback=elicitation,
                      list_roots_callback=roots, message_handler=messages) as client:
        if mode == "legacy":
            # A resource subscription: add_note changes mock://notes, the subscriber hears it.
            await client.subscribe_resource("mock://notes")
            await client.call_tool("add_note", {"text": "bring the milk"})
            notes = await client.read_resource("mock://notes")
            check(f"{p} subscribed to mock://notes, add_note sends notifications/resources/updated",
                  heard == ["mock://notes"] and notes.contents[0].text == "1. bring the milk\n", (heard, notes))
            await client.unsubscribe_resource("mock://notes")
            await client.call_tool("add_note", {"text": "and bread"})
            check(f"{p} after resources/unsubscribe no update is sent", heard == ["mock://notes"], heard)
        else:
            check(f"{p} negotiated protocol version 2026-07-28", client.protocol_version == "2026-07-28", client.protocol_version)
            # 2026-07-28's subscriptions/listen instead of resources/subscribe: acknowledged with the
            # resources the server has, then add_note's change to mock://notes arrives on the stream.
            async with client.listen(resource_subscriptions=["mock://notes"]) as sub:
                await client.call_tool("add_note", {"text": "bring the milk"})
                with anyio.fail_after(10):
                    event = await sub.__anext__()
                uri = str(getattr(event, "uri", "") or getattr(getattr(event, "params", None), "uri", ""))
                check(f"{p} subscriptions/listen on mock://notes hears add_note change it",
                      uri == "mock://notes", event)
            notes = await client.read_resource("mock://notes")
            check(f"{p} the notes read back what was added", notes.contents[0].text == "1. bring the milk\n", notes)

        summary = await client.call_tool("summarize", {"text": "JSON-RPC 2.0 is a stateless, light-weight remote procedure call protocol."})
        kind, params = asked[-1] if asked else (None, None)
        check(f"{p} summarize asks sampling/createMessage with the text and maxTokens",
              kind == "sampling" and params.max_tokens == 100
              and "light-weight" in params.messages[0].content.text, params)
        check(f"{p} summarize returns what the client's model wrote",
              text_of(summary) == "Summary by test-model: A short summary." and not summary.is_error, summary)

        if mode == "legacy":
            answers["sampling"] = "refuse"
            refused = await client.call_tool("summarize", {"text": "x"})
            check(f"{p} a sampling request the client refuses is the call's tool error",
                  refused.is_error is True and "User rejected sampling" in text_of(refused), refused)

        greeting = await client.call_tool("ask_name", {})
        kind, params = asked[-1]
        check(f"{p} ask_name asks elicitation/create with a default and titled choices",
              kind == "elicitation" and params.requested_schema["properties"]["name"].get("default") == "Ada"
              and [o["const"] for o in params.requested_schema["properties"]["colour"]["oneOf"]] == ["red", "green", "blue"], params)
        check(f"{p} ask_name greets with the accepted form",
              text_of(greeting) == "Hello, Ada! Your favourite colour is green." and not greeting.is_error, greeting)

        answers["elicitation"] = "decline"
        declined = await client.call_tool("ask_name", {})
        check(f"{p} a declined form is a result, not an error",
              not declined.is_error and "declined" in text_of(declined), declined)

        listed = await client.call_tool("list_roots", {})
        check(f"{p} list_roots asks roots/list and names the client's roots",
              asked[-1][0] == "roots" and "file:///home/ada/project" in text_of(listed) and not listed.is_error, listed)

        if mode != "legacy":
            # 2026-07-28: an input the client refuses never reaches the server (an input response
            # is a result); the SDK ends the call with the callback's error instead of retrying.
            answers["sampling"] = "refuse"
            try:
                await client.call_tool("summarize", {"text": "x"})
                check(f"{p} a sampling request the client refuses ends the call with its error", False, "no error")
            except BaseException as e:  # the SDK raises it through its task group
                errors = e.exceptions if isinstance(e, BaseExceptionGroup) else [e]
                while errors and isinstance(errors[0], BaseExceptionGroup):
                    errors = errors[0].exceptions
                check(f"{p} a sampling request the client refuses ends the call with its error",
                      any(isinstance(x, MCPError) and "User rejected sampling" in str(x) for x in errors), repr(e))


async def main(binary: str) -> None:
    for mode, version in (("auto", "2026-07-28"), ("legacy", "2025-11-25")):
        try:
            await session(binary, mode, version)
        except Exception as e:  # a crash in one mode is a failure, not the end of the run
            check(f"[{mode}] session ran without an exception", False, repr(e))
    for mode in ("legacy", "auto"):
        try:
            await asking_session(binary, mode)
        except Exception as e:
            check(f"[asks {mode}] session ran without an exception", False, repr(e))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: client.py JRPC_BINARY")
    import mcp

    asyncio.run(main(sys.argv[1]))
    sdk = getattr(mcp, "__version__", None) or __import__("importlib.metadata").metadata.version("mcp")
    if failures:
        print(f"mcp-sdk: FAIL ({len(failures)} check(s) failed) with the Python SDK mcp {sdk}")
        sys.exit(1)
    print(f"mcp-sdk: PASS with the Python SDK mcp {sdk}")
