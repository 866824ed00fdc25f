#!/usr/bin/env bash
# `jrpc probe` as the conformance suite's client command (tests/conformance/run.sh, client.sh): the
# suite runs `bash tests/conformance/probe-client.sh PATH/TO/jrpc URL` for each client scenario and
# judges what the probe sent. The probe's exit status 1 says the scenario's small test server
# failed some of the probe's own checks (those servers serve only what their scenario needs): that
# is the probe's verdict on the server, not a client failure, so it exits 0 then. Exit 2 (the
# server could not be probed) stays a failure. The probe's report goes to the suite's log (stdout).
#
# The scenario's context (MCP_CONFORMANCE_CONTEXT, JSON), read with the Node the suite runs on
# ($JRPC_CONFORMANCE_NODE, set by client.sh; without it the context is not read): each of its
# `toolCalls` becomes a `--call tools/call {"name": …, "arguments": …}`; `client_id` and
# `client_secret` (a pre-registered client) become JRPC_CLIENT_ID and JRPC_CLIENT_SECRET.
set -uo pipefail
jrpc="$1"
shift
calls=()
# The probe's Client ID Metadata Document, as the suite's scenarios name it (a real client hosts
# its own: --client-metadata-url is used only when the authorization server supports them).
cimd=(--client-metadata-url https://conformance-test.local/client-metadata.json)
if [ -n "${MCP_CONFORMANCE_CONTEXT:-}" ] && [ -x "${JRPC_CONFORMANCE_NODE:-}" ]; then
  # One line per value: call params (JSON), or id=/secret= lines.
  while IFS= read -r line; do
    case "$line" in
      call=*) calls+=(--call tools/call "${line#call=}") ;;
      id=*) export JRPC_CLIENT_ID="${line#id=}" ;;
      secret=*) export JRPC_CLIENT_SECRET="${line#secret=}" ;;
    esac
  done < <("$JRPC_CONFORMANCE_NODE" -e '
    const c = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT);
    for (const t of c.toolCalls || []) console.log("call=" + JSON.stringify({name: t.name, arguments: t.arguments || {}}));
    if (typeof c.client_id === "string") console.log("id=" + c.client_id);
    if (typeof c.client_secret === "string") console.log("secret=" + c.client_secret);
  ')
fi
"$jrpc" probe --timeout 5 --total-timeout 60 "${calls[@]}" "${cimd[@]}" "$@"
status=$?
[ "$status" -eq 1 ] && exit 0
exit "$status"
