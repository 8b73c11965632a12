// The partner's backend for the widget: it serves exactly the partner-backend paths the widget
// calls, checks each request against the contract, knows the partner's user by the bearer token
// the widget sends (never by cookies), and hands it to its route (routes/<kind>.ts), which forwards
// to the service's partner path with the API key (forward.ts). Each route records which user
// created each payment and each account a user pays with, and answers 404 to anyone else, without
// asking the service. The key goes into one header of one outgoing request and nowhere else: every
// body and every log line the handler writes is scrubbed of it.
import { authenticateRequest } from './authenticate'
import { partnerCorsHeaders } from './cors'
import { describe } from './describe'
import { createForward, createKeyGuard } from './forward'
import { createKit } from './kit'
import type { KitCode } from './kitCodes'
import { type PartnerHandlerOptions, checkOptions } from './options'
import { readBody, readQuery } from './readInput'
import { type Call, ROUTES, type Route, describeIssue } from './routes/index'

export { KIT_CODES } from './kitCodes'
export { MAX_BODY } from './readInput'
export type { PartnerHandlerOptions, UserId } from './options'
export type PartnerHandler = (request: Request) => Promise<Response>

export function createPartnerHandler(options: PartnerHandlerOptions): PartnerHandler {
  const config = checkOptions(options)
  const guard = createKeyGuard(options.apiKey, options.log)
  const serviceFetch: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init))
  const forward = createForward(config, options.keyRate ? options.keyRate.wrapFetch(serviceFetch) : serviceFetch, guard)
  const kit = createKit(config, options.store, guard)
  const routes = new Map<string, Route>(ROUTES.map((route) => [config.basePath + route.path, route]))

  return async function handlePartnerRequest(request: Request): Promise<Response> {
    const origin = request.headers.get('Origin')
    const cors = partnerCorsHeaders(origin, config)
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new Response(guard.scrub(JSON.stringify(body)), {
        status,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          Vary: 'Origin',
          ...cors,
          ...headers,
        },
      })
    // The envelope is the service's; the codes the kit answers with on its own are not (README,
    // "The kit's own codes"), so that the partner's logs tell a refusal here from the service's.
    const fail = (status: number, code: KitCode, message: string, headers?: Record<string, string>) => reply(status, { error: { code, message } }, headers)

    try {
      // A page of another origin is refused outright, not only left without CORS headers: the
      // request would otherwise still run with the key. Callers without Origin are not browsers.
      if (origin !== null && !config.allowedOrigins.includes(origin)) return fail(403, 'origin_not_allowed', 'origin: not allowed')
      const url = new URL(request.url)
      const route = routes.get(url.pathname)
      if (!route) return fail(404, 'route_not_found', 'No such endpoint in the partner backend.')
      if (request.method === 'OPTIONS') {
        return new Response(null, { status: 204, headers: { Vary: 'Origin', ...partnerCorsHeaders(origin, config, true) } })
      }
      if (request.method !== route.method) {
        return fail(405, 'method_not_allowed', `method: this endpoint takes ${route.method}`, { Allow: `${route.method}, OPTIONS` })
      }
      // The body is read once, with its size capped while it streams in.
      const input = route.method === 'GET' ? readQuery(url) : await readBody(request)
      const user = await authenticateRequest(kit, request, input, route.anonymous === true, { reply, fail })
      if (user instanceof Response) return user
      // One user's own rate, before anything is asked of the store or the service.
      const wait = user === undefined ? 0 : (config.userRate?.take(user) ?? 0)
      if (wait > 0) {
        const seconds = Math.ceil(wait / 1000)
        return fail(429, 'user_rate_limited', `Too many requests from this user: try again in ${seconds} s.`, { 'Retry-After': String(seconds) })
      }
      if ('problem' in input) return fail(input.status, input.code, input.problem)
      const parsed = route.schema.safeParse(input.value)
      if (!parsed.success) return fail(400, 'invalid_field', describeIssue(parsed.error, input.value))
      const call: Call = {
        kit,
        route,
        origin,
        user,
        reply,
        fail,
        notFound: () => fail(404, 'payment_not_found', 'No such payment for this user.'),
        forward: (to, data, onSuccess) => forward({ reply, fail }, to, data, onSuccess),
      }
      return await route.handle(call, parsed.data as Record<string, unknown>)
    } catch (error) {
      kit.log(`unexpected error: ${describe(error)}`)
      return fail(500, 'kit_error', 'Unexpected error in the partner backend.')
    }
  }
}
