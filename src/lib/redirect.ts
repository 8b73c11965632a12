// A redirect target from the network is followed only when it is exactly what we expect.

import { carriesCredentials } from './credentials'

export type RedirectProblem = 'malformed' | 'scheme' | 'credentials' | 'host'
export type RedirectResult = { ok: true; url: string } | { ok: false; problem: RedirectProblem }

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * `https:` only (or `http:` on a loopback host when `allowLoopbackHttp`, for the sandbox); no
 * user or password; the host and port exactly on the allowlist (an entry without a port allows
 * the default port only). Whitespace or control characters anywhere refuse the URL outright, because URL
 * parsers strip them ("\njavascript:") and would hide what was sent.
 */
export function validateRedirect(raw: string, allowedHosts: readonly string[], allowLoopbackHttp = false): RedirectResult {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (typeof raw !== 'string' || raw === '' || /[\u0000-\u0020\u007f-\u00a0\u2028\u2029\\]/.test(raw)) {
    return { ok: false, problem: 'malformed' }
  }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, problem: 'malformed' }
  }
  const loopback = LOOPBACK.has(url.hostname)
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && allowLoopbackHttp && loopback))) {
    return { ok: false, problem: 'scheme' }
  }
  if (carriesCredentials(url, raw)) return { ok: false, problem: 'credentials' }
  // `url.host` carries the port only when it is not the scheme's default, so an entry without a
  // port matches the default port only, and `host:port` that port only.
  const allowed = allowedHosts.some((entry) => url.host === entry.toLowerCase())
  return allowed ? { ok: true, url: url.href } : { ok: false, problem: 'host' }
}
