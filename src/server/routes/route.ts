// A route of the partner backend: the widget-facing path, the service's partner path it forwards
// to, the request it may carry (a strict schema: a field the contract does not define is refused by
// name) and its own handler, which decides what the kit checks and records. One file per kind of
// route declares them (card.ts, bankDeposit.ts, payout.ts, cardPayout.ts, deposit.ts, reference.ts).
import type * as z from 'zod/mini'
import type { OnSuccess, Upstream } from '../forward'
import type { Kit } from '../kit'
import type { Answerer } from '../kitCodes'

/** One request, checked against its route's schema, and the ways to answer it. */
export type Call = Answerer & {
  kit: Kit
  route: Route
  /** The page that asks (its Origin), or null for a caller that is not a browser. */
  origin: string | null
  /** The partner's user; undefined only on an anonymous route's call without a token. */
  user: string | undefined
  /** The same answer to another user's payment as to one that does not exist. */
  notFound(): Response
  /** Forwards the fields with the key (../forward.ts). */
  forward(route: Upstream, data: Record<string, unknown>, onSuccess?: OnSuccess): Promise<Response>
}

export type Handle = (call: Call, data: Record<string, unknown>) => Promise<Response>

export type Route = Upstream & {
  /** The widget-facing path under the handler's basePath. */
  path: string
  /** The JSON body (POST) or the query (GET). */
  schema: z.ZodMiniType
  /** Reference data, the same for everyone: served to anonymous callers when `allowAnonymous`. */
  anonymous?: true
  handle: Handle
}

/** Needs a user, creates and reads nothing of the user's: forwarded as checked. */
export const forwardOnly: Handle = (call, data) => call.forward(call.route, data)

export const post = (path: string, schema: z.ZodMiniType, handle: Handle = forwardOnly): Route => ({
  method: 'POST',
  path,
  upstream: `/v1${path}`,
  schema,
  handle,
})
export const get = (path: string, schema: z.ZodMiniType): Route => ({
  method: 'GET',
  path,
  upstream: `/v1${path}`,
  schema,
  anonymous: true,
  handle: forwardOnly,
})

/** The user of a route that needs one (the dispatcher authenticated it). */
export function userOf(call: Call): string {
  if (!call.user) throw new Error(`${call.route.path}: no user`)
  return call.user
}
