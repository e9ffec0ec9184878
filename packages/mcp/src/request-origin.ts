/**
 * The `Origin` check the MCP specification's Streamable HTTP transport requires of servers ("Servers MUST validate the
 * Origin header on all incoming connections to prevent DNS rebinding attacks. If the Origin header is present and
 * invalid, servers MUST respond with HTTP 403 Forbidden"). MCP clients that are processes send no `Origin` and are
 * served; a browser always sends one, and only the server's own origin and the configured ones are served.
 */

function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "::1" || host === "localhost";
}

/** `scheme://host[:port]` normalised as a browser sends it (lower case, no default port), or undefined. */
export function normalizedOrigin(origin: string): string | undefined {
  if (origin === "null") return "null";
  try {
    const url = new URL(origin);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || url.username !== "") return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * The origins served: the server's own (`http://host:port`; on loopback also `localhost`, `127.0.0.1` and `[::1]` at
 * that port) and `configured` (exact origins such as `https://assistant.example.com`; `null` admits `Origin: null`).
 * Throws `TypeError` for a configured entry that is not an origin.
 */
export function allowedOrigins(host: string, port: number, configured: readonly string[] = []): Set<string> {
  const hosts = isLoopback(host) ? ["127.0.0.1", "localhost", "[::1]"] : [host.includes(":") ? `[${host}]` : host];
  const allowed = new Set(hosts.map((name) => normalizedOrigin(`http://${name}:${port}`) ?? ""));
  for (const entry of configured) {
    const origin = normalizedOrigin(entry.trim());
    if (origin === undefined) throw new TypeError(`not an origin (scheme://host[:port]): ${JSON.stringify(entry)}`);
    allowed.add(origin);
  }
  allowed.delete("");
  return allowed;
}

/** Why a request's `Origin` header is refused (403), or undefined: absent, or one of `allowed`. */
export function originRefusal(origin: string | string[] | undefined, allowed: ReadonlySet<string>): string | undefined {
  if (origin === undefined) return undefined;
  const given = Array.isArray(origin) ? origin.join(", ") : origin;
  const normalized = Array.isArray(origin) ? undefined : normalizedOrigin(origin);
  if (normalized !== undefined && allowed.has(normalized)) return undefined;
  return `Origin ${JSON.stringify(given)} is not allowed: this MCP server serves only its own origin and those given with --allowed-origin`;
}
