"""`jrpc tap` between two official pieces: the MCP Python SDK client (pinned in run.sh) and the
reference server npm @modelcontextprotocol/server-everything (pinned in package.json) on stdio.

The same session runs twice, directly and through `jrpc tap --transcript T --log L -- NODE SERVER
stdio`: initialize, tools/list, echo, get-sum, a sampling request the server sends during a call
(trigger-sampling-request, answered by this client's callback), resources/list and a read,
prompts/list and the simple prompt. The client's results must be identical both ways, the
transcript must hold both directions (as many requests from the client as it made), and the tap's
log must hold no error finding, and `jrpc check` must open the transcript. Prints PASS/FAIL lines; exits 1 on a failure.

    everything_tap.py JRPC NODE SERVER_JS DIR
"""

import asyncio
import json
import subprocess
import sys

from mcp import Client, types
from mcp.client.stdio import StdioServerParameters

failures: list[str] = []


def check(label: str, ok: bool, detail: object = "") -> None:
    print(f"{'PASS' if ok else 'FAIL'} [everything] {label}" + (f": {detail}" if detail != "" and not ok else ""))
    if not ok:
        failures.append(label)


def text_of(result) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


async def sampling(context, params: types.CreateMessageRequestParams):
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text="A fixed answer."),
        model="test-model",
        stop_reason="endTurn",
    )


async def session(params: StdioServerParameters) -> dict:
    """What the client sees of one session, as plain data to compare."""
    seen: dict = {}
    async with Client(params, mode="legacy", read_timeout_seconds=30, sampling_callback=sampling) as client:
        seen["version"] = client.protocol_version
        seen["server"] = client.server_info.name if client.server_info else None
        tools = await client.list_tools()
        seen["tools"] = sorted(t.name for t in tools.tools)
        seen["echo"] = text_of(await client.call_tool("echo", {"message": "through the tap"}))
        seen["sum"] = text_of(await client.call_tool("get-sum", {"a": 2, "b": 3}))
        if "trigger-sampling-request" in seen["tools"]:
            sampled = await client.call_tool("trigger-sampling-request", {"prompt": "Say hello", "maxTokens": 20})
            seen["sampling"] = text_of(sampled)
        resources = await client.list_resources()
        seen["resources"] = [str(r.uri) for r in resources.resources]
        if resources.resources:
            read = await client.read_resource(resources.resources[0].uri)
            seen["read"] = [c.model_dump(mode="json") for c in read.contents]
        prompts = await client.list_prompts()
        seen["prompts"] = sorted(p.name for p in prompts.prompts)
        if "simple-prompt" in seen["prompts"]:
            got = await client.get_prompt("simple-prompt")
            seen["prompt"] = [m.model_dump(mode="json") for m in got.messages]
    return seen


async def main(jrpc: str, node: str, server_js: str, out: str) -> None:
    direct = await session(StdioServerParameters(command=node, args=[server_js, "stdio"]))
    check("the direct session ran", bool(direct.get("tools")) and "through the tap" in direct.get("echo", ""), direct)
    transcript, log = f"{out}/everything.txt", f"{out}/everything.log"
    tapped = await session(StdioServerParameters(
        command=jrpc, args=["tap", "--transcript", transcript, "--log", log, "--", node, server_js, "stdio"]))
    check("the client's results are identical with and without jrpc tap", direct == tapped,
          json.dumps({"direct": direct, "tapped": tapped})[:2000])
    check("the sampling request during a call reached the client", "A fixed answer" in tapped.get("sampling", ""), tapped.get("sampling"))
    lines = open(transcript, encoding="utf-8").read().splitlines()
    sent = [l for l in lines if l.startswith("--> ")]
    received = [l for l in lines if l.startswith("<-- ")]
    # initialize, tools/list, 3 calls, resources/list and read, prompts/list and get: 9 requests
    # and the initialized notification; the server's sampling request and the client's answer.
    check("the transcript holds both directions, every request the client made",
          len(sent) >= 11 and len(received) >= 10 and any('"sampling/createMessage"' in l for l in received),
          f"{len(sent)} sent, {len(received)} received")
    opened = subprocess.run([jrpc, "check", "--profile", "mcp", "--mcp-version", tapped["version"], transcript],
                            capture_output=True, text=True)
    check("jrpc check opens the transcript and finds nothing wrong", opened.returncode == 0, opened.stdout[-500:])
    findings = open(log, encoding="utf-8").read()
    check("no message either way is an error under the version the tap learned", "error[" not in findings, findings)
    print(f"     jrpc tap's findings ({len(findings.splitlines())} lines):")
    for line in findings.splitlines()[:20]:
        print(f"     {line}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    asyncio.run(main(*sys.argv[1:]))
    print(f"everything-tap: {'FAIL' if failures else 'PASS'} ({len(failures)} failed)")
    sys.exit(1 if failures else 0)
