export type CorsOptions = {
  /** Exact origins (`https://shop.example`) whose pages may call the handler. */
  allowedOrigins: readonly string[]
  /** Answer `Access-Control-Allow-Credentials: true` (only if the widget sends cookies: `partnerCookies`). */
  allowCredentials?: boolean
}

/**
 * The CORS headers for a request from `origin`: none at all unless it is one of `allowedOrigins`,
 * exactly. `preflight` adds what an OPTIONS answer needs. Exported for servers that answer OPTIONS
 * themselves before the handler sees the request.
 */
export function partnerCorsHeaders(origin: string | null | undefined, options: CorsOptions, preflight = false): Record<string, string> {
  if (!origin || !options.allowedOrigins.includes(origin)) return {}
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Retry-After',
  }
  if (options.allowCredentials === true) headers['Access-Control-Allow-Credentials'] = 'true'
  if (preflight) {
    headers['Access-Control-Allow-Methods'] = 'GET, POST, OPTIONS'
    headers['Access-Control-Allow-Headers'] = 'Authorization, Content-Type'
    headers['Access-Control-Max-Age'] = '600'
  }
  return headers
}
