// The sandbox partner's own server, beside the kit it mounts at /partner: a demo sign-in (alice and
// bob, no password: anyone is anyone here), the kit's payment store (PGlite) with its reconciler, and
// GET /partner-demo/payments, the signed-in user's payments that the example Payments page shows.
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { HttpError } from '../http.mjs'
import { KEY_RATE } from '../rateLimit.mjs'

export const DEMO_USERS = ['alice', 'bob']
/** Marks the reconciler's requests to the sandbox (server.mjs leaves them out of its log). */
export const RECONCILER_HEADER = 'x-sandbox-reconciler'

/**
 * The reconciler's pace here: a sixth of the key's rate (the kit's handler spends the rest), and a
 * first look half a second after a payment is created, so a demo or a test sees it move at once.
 * The fixed pace: the sandbox moves statuses within seconds, not in the rails' settlement times
 * that the kit's default schedule reads from GET /v1/limits.
 */
export const RECONCILE = { requestsPerSecond: 5, schedule: 'fixed', pollIntervalMs: 500, maxPollIntervalMs: 5_000, idleMs: 200, followForMs: 2 * 3_600_000 }

/** Final and successful, per the contract: the status after which a partner credits the payment. */
const SUCCESS = { card: 'completed', bankDeposit: 'settled', payout: 'settled', cardPayout: 'settled', deposit: 'done' }

/**
 * dataDir keeps the store across restarts (`npm start`); without it the store is in memory. The
 * store opens on first use (a request to the kit or to the Payments page), or at once with `eager`;
 * with `reconcile`, the reconciler starts with it (npm start and e2e; the unit tests' stacks follow nothing).
 * `report` hears each change the reconciler delivers (onUpdate), `log` its complaints. `kit` is the
 * partner kit the sandbox runs (card.mjs loads it).
 */
export function createPartnerDemo({ kit, apiBase, apiKey, dataDir, eager = false, reconcile = false, report, log }) {
  const sessions = new Map(DEMO_USERS.map((user) => [`demo_${user}_${randomBytes(16).toString('hex')}`, user]))
  const tokens = new Map([...sessions].map(([token, user]) => [user, token]))
  // When each of the reconciler's status requests started (the last 1000), to compare with the key's rate.
  const started = []
  let refused = 0
  // Each change the reconciler delivered to onUpdate (the last 1000), listed by GET /__sandbox/partner-demo.
  const updates = []
  // And what it complained of (the last 100 lines).
  const complaints = []
  const fetchStatus = kit.createStatusFetcher({
    apiBase,
    apiKey,
    fetch: (input, init) => {
      started.push(Date.now())
      if (started.length > 1000) started.shift()
      // Kept out of the sandbox's request log (the tests' view of what the widget and the kit
      // caused); counted against the key all the same, and listed by GET /__sandbox/partner-demo.
      return fetch(input, { ...init, headers: { ...init?.headers, [RECONCILER_HEADER]: '1' } }).then((res) => {
        if (res.status === 429) refused++
        return res
      })
    },
  })
  let opened
  let reconciler

  function store() {
    if (dataDir && !opened) mkdirSync(dataDir, { recursive: true })
    opened ??= kit.openPaymentStore(dataDir ? { dataDir } : {}).then(
      (s) => {
        if (!reconcile) return s
        reconciler = kit.createReconciler({
          store: s,
          fetchStatus,
          ...RECONCILE,
          onUpdate: (payment, previous) => {
            updates.push({
              userId: payment.userId,
              kind: payment.kind,
              id: payment.id,
              previous: previous?.status ?? null,
              status: payment.status,
              confirmed: confirmed(payment),
            })
            if (updates.length > 1000) updates.shift()
            report?.(
              `onUpdate: ${payment.userId}'s ${payment.kind} ${payment.id}: ${previous?.status ?? 'new'} → ${payment.status}${confirmed(payment) ? ' (confirmed)' : ''}`,
            )
          },
          log: (line) => {
            complaints.push(line)
            if (complaints.length > 100) complaints.shift()
            log?.(`reconciler: ${line}`)
          },
        })
        reconciler.start()
        return s
      },
      (error) => {
        opened = undefined
        throw error
      },
    )
    return opened
  }
  if (eager) store().catch((error) => console.error('[sandbox] the partner store did not open:', error))

  const confirmed = (p) => p.final !== false && SUCCESS[p.kind] === p.status

  /** The demo user a partner token names (a session this server handed out), or undefined. */
  const userOf = (token) => (typeof token === 'string' ? sessions.get(token) : undefined)

  function signedIn(req) {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')
    const user = userOf(match?.[1])
    if (!user) throw new HttpError(401, 'unauthenticated', 'Sign in first: a demo session is required.')
    return user
  }

  return {
    userOf,
    /** The session token of a demo user (the partner's page hands it to the widget as partnerToken). */
    tokenFor: (user) => tokens.get(user),
    store,
    routes: {
      // Only the signed-in user's payments, whatever the query says: the session names the user.
      'GET /partner-demo/payments': async ({ req }) => {
        const user = signedIn(req)
        const payments = await (await store()).listPayments(user, { limit: 50 })
        return {
          headers: { 'Cache-Control': 'no-store' },
          body: {
            user,
            payments: payments.map((p) => ({
              kind: p.kind,
              id: p.id,
              amount: p.amount ?? null,
              currency: p.currency ?? null,
              status: p.status ?? null,
              final: p.final,
              confirmed: confirmed(p),
            })),
          },
        }
      },
    },
    control: {
      // A reset makes the service forget every payment; the shop's store forgets them too, so no
      // test inherits another's owners and bindings, and the reconciler asks nothing about payments
      // the service no longer knows (which, growing through a suite, kept it at its full pace).
      async reset() {
        if (!opened) return
        const s = await opened.catch(() => undefined)
        await s?.db.query(
          'TRUNCATE stablecoin_widget.payments, stablecoin_widget.bindings, stablecoin_widget.changes, stablecoin_widget.quotes, stablecoin_widget.wallet_challenges',
        )
      },
      routes: {
        'GET /__sandbox/partner-demo': () => ({
          body: {
            keyRate: KEY_RATE,
            reconciler: { requestsPerSecond: RECONCILE.requestsPerSecond, requests: [...started], refused, complaints: [...complaints] },
            updates: [...updates],
          },
        }),
      },
    },
    async close() {
      if (!opened) return
      const s = await opened.catch(() => undefined)
      await reconciler?.stop()
      await s?.close()
    },
  }
}
