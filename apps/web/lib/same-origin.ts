import { CrossOriginRequestError } from "./web-errors";

/**
 * CSRF check for state-changing requests (with the SameSite=Lax cookie): the browser's `Origin` header must name the
 * host the request was sent to (`Host`, or `X-Forwarded-Host` behind a proxy); `Sec-Fetch-Site: cross-site` is
 * refused too. A request with neither header (curl, server-to-server) carries no browser cookie on its own and passes.
 * Throws `CrossOriginRequestError`.
 */
export function checkSameOrigin(request: Request): void {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite === "cross-site" || fetchSite === "same-site") throw new CrossOriginRequestError();
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new CrossOriginRequestError();
  }
  if (host === null || originHost !== host) throw new CrossOriginRequestError();
}

/** True when the request came over HTTPS (directly or through a proxy that says so): cookies then get `Secure`. */
export function isSecureRequest(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto");
  if (forwarded !== null) return forwarded.split(",")[0]?.trim() === "https";
  return new URL(request.url).protocol === "https:";
}
