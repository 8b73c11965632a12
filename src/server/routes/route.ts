// A route of the partner backend: the widget-facing path, the service's partner path it forwards
// to, the request it may carry (a strict schema: a field the contract does not define is refused by
// name) and its own handler, which decides what the kit checks and records. One file per kind of
// route declares them (card.ts, bankDeposit.ts, payout.ts, cardPayout.ts, deposit.ts, reference.ts),
// with the handlers below for what a route does with the user's payments: reads one the user
// created, records a quote the user was given, or creates one (its own checks first, the account
// bound, the limit checked, then forwarded, then recorded against the user).
import type * as z from 'zod/mini'
import type { OnSuccess, Upstream } from '../forward'
import type { Kit } from '../kit'
import type { Answerer } from '../kitCodes'
import { scopedReference } from '../scopedReference'
import type { PaymentKind } from '../store/kinds'
import type { PaymentStore } from '../store/paymentStore'
import { overLimit } from '../userLimits'

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

const DECIMAL = /^\d{1,18}(\.\d{1,18})?$/

/** A status read or follow-up of the payment `id`: only its owner reaches the service. */
export function reads(kind: PaymentKind): Handle {
  return async (call, data) => {
    const payments = await call.kit.store()
    if ((await payments.ownerOf(kind, data.id as string)) !== userOf(call)) return call.notFound()
    return call.forward(call.route, data)
  }
}

/** Records the quote's amount for the user, for a payout's amount ceiling. */
export const quotes: Handle = async (call, data) => {
  const user = userOf(call)
  const payments = await call.kit.store()
  return call.forward(call.route, data, async (answer) => {
    const { quoteId, fiatAmount } = answer as { quoteId?: unknown; fiatAmount?: unknown }
    if (typeof quoteId === 'string' && quoteId && typeof fiatAmount === 'string' && DECIMAL.test(fiatAmount)) {
      await payments.recordQuote({ id: quoteId, userId: user, amount: fiatAmount, currency: data.fiatCurrency as string })
    }
    return undefined
  })
}

type Amount = { amount: string; currency: string }
type Owned = { call: Call; data: Record<string, unknown>; user: string; payments: PaymentStore }

export type CreateRules = {
  /** A check of the route's own, before the account is bound: an answer refuses. */
  check?: (owned: Owned) => Promise<Response | undefined>
  /** The amount the user's limits count (none: only the number of payments), or a refusal. */
  amount: (owned: Owned) => Promise<Amount | undefined | Response>
  /**
   * Its `reference` is scoped to the user before the service hears it (scopedReference.ts); the
   * user's own is kept with the payment, beside what was sent, and given back where the service echoes it.
   */
  scopesReference?: true
}

/** The amount the request names, in its fiatCurrency. */
export const fiatAmount: CreateRules['amount'] = async ({ data }) =>
  typeof data.fiatAmount === 'string' ? { amount: data.fiatAmount, currency: data.fiatCurrency as string } : undefined

/** A payout names its quote, not its amount: the amount of the quote this kit gave this user. */
export function quotedAmount(kind: PaymentKind): CreateRules['amount'] {
  return async ({ call, data, user, payments }) => {
    const quote = await payments.quoteOf(data.quoteId as string)
    if (quote && quote.userId === user) return { amount: quote.amount, currency: quote.currency }
    // Another user's quote is never this user's to pay out on, limits or none: refused in the words
    // a quote this backend never gave gets under a limit. (A quote it never gave is forwarded
    // without limits: the partner's own server may have asked it.)
    if (quote || call.kit.config.userLimits[kind]?.maxAmount) return call.fail(400, 'invalid_field', 'quoteId: not a quote this backend gave this user')
    return undefined
  }
}

/** Creates a payment of this kind, recorded against the user from the service's answer. */
export function creates(kind: PaymentKind, rules: CreateRules): Handle {
  return async (call, data) => {
    const owned = { call, data, user: userOf(call), payments: await call.kit.store() }
    const { user, payments } = owned
    const refused = await rules.check?.(owned)
    if (refused) return refused
    // Bound before anything is forwarded, so that of two users racing with one account only one
    // reaches the service. A creation the service then refuses leaves the binding: that user
    // did present the account (docs/server-store.md).
    if (typeof data.accountId === 'string') {
      const walletId = typeof data.walletId === 'string' ? data.walletId : undefined
      if (!(await payments.bindAccount(user, data.accountId, walletId)))
        return call.fail(403, 'account_not_owned', "accountId: this account is another user's.")
    }
    const reference = rules.scopesReference && typeof data.reference === 'string' ? data.reference : undefined
    const sentReference = reference === undefined ? undefined : await scopedReference(user, reference)
    const sent = reference === undefined ? data : { ...data, reference: sentReference }
    const details = reference === undefined ? undefined : { reference, sentReference }
    return call.kit.oneAtATime(user, async () => {
      const amount = await rules.amount(owned)
      if (amount instanceof Response) return amount
      const over = await limitRefusal(call, payments, user, kind, amount)
      if (over) return over
      return call.forward(call.route, sent, async (answer) => {
        const { id, status } = answer as { id?: unknown; status?: unknown }
        const where = `${call.route.method} ${call.route.upstream}`
        if (typeof id !== 'string' || id === '') {
          call.kit.log(`${where}: the service answered without an id; nothing was recorded`)
          return call.fail(502, 'service_unreadable', 'The payment service sent an answer that could not be read.')
        }
        const mine = await payments.recordPayment({ kind, id, userId: user, details, status: typeof status === 'string' ? status : undefined, ...amount })
        if (!mine) {
          // The service handed back a payment another user holds (a reused reference no longer
          // does it: each is scoped to its user): its details are not this user's to see.
          call.kit.log(`${where}: the service answered ${kind} ${id}, which another user holds; not handed over`)
          return call.notFound()
        }
        // Answered as it came (forward replies with this object), but with the user's own reference.
        if (reference !== undefined && (answer as { reference?: unknown }).reference === sentReference)
          (answer as { reference?: unknown }).reference = reference
        return undefined
      })
    })
  }
}

/** 429 user_limit_reached where the user's limit for `kind` is reached (with `amount`, if it has one); else nothing. */
export async function limitRefusal(call: Call, payments: PaymentStore, user: string, kind: PaymentKind, amount?: { amount: string; currency: string }) {
  const over = await overLimit(payments, call.kit.config.userLimits, user, kind, amount)
  return over ? call.fail(429, 'user_limit_reached', `This user's limit is reached: ${over}.`) : undefined
}
