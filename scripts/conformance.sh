#!/usr/bin/env bash
# npm run conformance: the official MCP conformance suite against our /mcp endpoint and the authorization
# server of /mcp/account.
#
# The suite's CLI needs Node 22 (it calls fs.globSync); the service runs on Node 20 (uWS and better-sqlite3
# are built for it). So the CLI and a Node 22 binary (npm's `node` package) are installed into an isolated
# folder, .tools/conformance, and that binary runs only the CLI: it is never put on PATH.
#
# The server under test is ours, built from this checkout, on a free loopback port, over a really imported
# extract (Monaco). Only the scenarios that apply to a public, read-only, stateless server with two tools
# run; docs/MCP.md lists them and says why the others do not apply. Exits non-zero on any failure not in
# the baseline below.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_PACKAGE_VERSION=22.23.3
CONFORMANCE_VERSION=0.2.0-alpha.12 # the first line with 2026-07-28 scenarios
TOOLS_DIR=.tools/conformance
NODE22="$TOOLS_DIR/node_modules/node/bin/node"
CLI="$TOOLS_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"

installed_version() { # package directory → its version, or nothing
  node -e 'try { process.stdout.write(require(require("path").resolve(process.argv[1], "package.json")).version) } catch {}' "$1"
}

if [ "$(installed_version "$TOOLS_DIR/node_modules/node")" != "$NODE_PACKAGE_VERSION" ] ||
  [ "$(installed_version "$TOOLS_DIR/node_modules/@modelcontextprotocol/conformance")" != "$CONFORMANCE_VERSION" ] ||
  [ ! -x "$NODE22" ]; then
  echo "installing node@$NODE_PACKAGE_VERSION and @modelcontextprotocol/conformance@$CONFORMANCE_VERSION into $TOOLS_DIR"
  mkdir -p "$TOOLS_DIR"
  # The node package fetches its platform binary in a preinstall script, which npm runs only when allowed.
  echo '{ "name": "conformance-tools", "private": true, "allowScripts": { "node": true } }' > "$TOOLS_DIR/package.json"
  npm install --prefix "$TOOLS_DIR" --no-audit --no-fund --loglevel=error \
    "node@$NODE_PACKAGE_VERSION" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
fi
"$NODE22" --version | grep -q '^v22\.' || { echo "the Node 22 binary in $TOOLS_DIR does not run" >&2; exit 1; }

# A build of this checkout: made here, unless CONFORMANCE_DIST names one already made (e.g. by npm ci).
DIST="${CONFORMANCE_DIST:-dist}"
if [ -z "${CONFORMANCE_DIST:-}" ]; then npm run --silent build; fi

WORK_DIR="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK_DIR"
}
trap cleanup EXIT

extracts=(../shared/data/osm/monaco-*.osm.pbf)
node "$DIST/importer/cli.js" "${extracts[0]}" --db "$WORK_DIR/toilets.db" --quiet

PORT="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
URL="http://localhost:$PORT/mcp"
# The suite sends far more than 60 requests a minute: the rate limit is lifted for the run. The Origin
# allowlist is set to the loopback names so dns-rebinding-protection can see it refuse a foreign page
# (the default admits any origin: the endpoint is public and read-only).
# A cheap human check: the authorization scenario's person creates an account (test/oauth/conformance-consent.ts).
PORT="$PORT" HOST=127.0.0.1 BASE_URL="http://localhost:$PORT" TOILETS_DB="$WORK_DIR/toilets.db" RATE_LIMIT_PER_MINUTE=0 \
  ACCOUNT_RATE_LIMIT_PER_MINUTE=0 ALTCHA_ALGORITHM=SHA-256 ALTCHA_COST=1 ALTCHA_MAX_COUNTER=20 \
  MCP_ALLOWED_ORIGINS='localhost,127.0.0.1,[::1]' node "$DIST/src/main.js" > "$WORK_DIR/server.log" 2>&1 &
SERVER_PID=$!
node -e '
  const url = process.argv[1];
  const deadline = Date.now() + 30000;
  (async () => {
    while (Date.now() < deadline) {
      try { if ((await fetch(url)).ok) return; } catch {}
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.error(`the server did not answer ${url} within 30 s`);
    process.exit(1);
  })();
' "$URL/server-card" || { cat "$WORK_DIR/server.log" >&2; exit 1; }

# Checks of applicable scenarios that need diagnostic tools or features this server does not have
# (the suite's own test server has them). Each is excused alone; any other failure still fails the run.
cat > "$WORK_DIR/expected-failures.yml" <<'YAML'
server:
  # server-stateless probes with the suite's tools test_missing_capability, test_streaming_elicitation
  # and test_logging_tool: "Not testable" against a server without them.
  - server-stateless:sep-2575-server-rejects-undeclared-capability
  - server-stateless:sep-2575-missing-capability-http-400
  - server-stateless:sep-2575-http-server-no-independent-requests-on-stream
  - server-stateless:sep-2575-server-no-log-without-loglevel
  # caching also lists prompts and resources, which this server does not offer (-32601).
  - caching:sep-2549-prompts-list-caching-hints
  - caching:sep-2549-resources-list-caching-hints
  - caching:sep-2549-resources-templates-list-caching-hints
YAML

# scenario@spec-version: the 2025-11-25 handshake (served by the stateless fallback) and 2026-07-28.
SCENARIOS=(
  server-initialize@2025-11-25
  ping@2025-11-25
  tools-list@2025-11-25
  tools-list@2026-07-28
  server-stateless@2026-07-28
  caching@2026-07-28
  http-header-validation@2026-07-28
  dns-rebinding-protection@2026-07-28
)
failed=()
for entry in "${SCENARIOS[@]}"; do
  scenario="${entry%@*}"
  version="${entry#*@}"
  echo "=== $scenario ($version)"
  if ! "$NODE22" "$CLI" server --url "$URL" --scenario "$scenario" --spec-version "$version" \
    --expected-failures "$WORK_DIR/expected-failures.yml"; then
    failed+=("$entry")
  fi
done

# The authorization server of /mcp/account (docs/MCP.md, "Conformance"): its metadata, and the code grant
# with PKCE, for which the suite waits for a person to approve: Chromium with a virtual authenticator does.
BASE="http://localhost:$PORT"
CALLBACK_PORT="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
CLIENT_ID="$(node -e '
  fetch(process.argv[1] + "/oauth/register", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "MCP conformance suite", redirect_uris: [process.argv[2]] }) })
    .then((r) => r.json()).then((c) => console.log(c.client_id));
' "$BASE" "http://127.0.0.1:$CALLBACK_PORT/callback")"
# Both scenarios in one run: the code grant reads the metadata the first one fetched.
echo "=== authorization-server-metadata-endpoint, authorization-code-grant"
"$NODE22" "$CLI" authorization --url "$BASE" --client-id "$CLIENT_ID" --resource "$BASE/mcp/account" \
  --port "$CALLBACK_PORT" > "$WORK_DIR/grant.log" 2>&1 &
GRANT_PID=$!
AUTHORIZATION_URL=""
for _ in $(seq 1 100); do
  AUTHORIZATION_URL="$(grep -m1 "^$BASE/oauth/authorize?" "$WORK_DIR/grant.log" || true)"
  [ -n "$AUTHORIZATION_URL" ] && break
  sleep 0.2
done
if [ -z "$AUTHORIZATION_URL" ] || ! node "$DIST/test/oauth/conformance-consent.js" "$BASE" "$AUTHORIZATION_URL"; then
  kill "$GRANT_PID" 2>/dev/null || true
fi
if ! wait "$GRANT_PID"; then failed+=(authorization); fi
cat "$WORK_DIR/grant.log"

if [ "${#failed[@]}" -gt 0 ]; then
  echo "conformance failed: ${failed[*]}" >&2
  exit 1
fi
echo "conformance passed: ${#SCENARIOS[@]} scenario runs and 2 authorization server scenarios"
