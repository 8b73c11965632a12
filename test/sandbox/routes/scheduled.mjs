// A scheduled status progression (issue 37, the reconciler's bench; beyond the contract, see
// docs/sandbox.md): `POST /__sandbox/scheduled/seed` makes a world of payments of every kind, each
// with the moments its status moves, drawn from a seeded generator; the status endpoints of the
// partner path answer those payments, with the key, as they stand at the time on the sandbox's
// clock for this world. That clock is the caller's, named per request in `X-Sandbox-Clock` (ms),
// when the world is seeded with `clock: 'header'` (a simulated clock: the key's rate is then
// counted on it too, server.mjs), else real time run `scale` times faster from the seed.
//
// The durations are the sandbox's own choice, not the contract's: the buyer's part (a card page, a
// funding transfer, a bank transfer) takes seconds to hours; the service's part (conversion,
// routing) minutes; a bank payout lands within its rail's settlement label of GET /v1/limits
// (RAILS: `instant` in seconds, `t+1` between 14 and 34 hours…), 3 % of them late (up to twice
// that), 1 % returned after one to three days; a card payout in minutes to five days.
import { invalid } from '../http.mjs'
import { createKeyLimiter } from '../rateLimit.mjs'
import { DEPOSIT_RAILS, RAILS, createKeyring } from './reference.mjs'

const S = 1000
const MIN = 60 * S
const H = 60 * MIN
const D = 24 * H

/** Which kinds a world holds, and how often. */
const MIX = [
  ['card', 0.25],
  ['deposit', 0.15],
  ['bankDeposit', 0.15],
  ['payout', 0.35],
  ['cardPayout', 0.1],
]
/** Payout rails, by how often a payout takes each (all of RAILS that pay out, but the forced-only one). */
const PAYOUT_RAILS = [
  ['sepa_instant', 0.25],
  ['sepa', 0.15],
  ['faster_payments', 0.15],
  ['ach', 0.12],
  ['wire', 0.05],
  ['swift', 0.05],
  ['pix', 0.08],
  ['spei', 0.07],
  ['nip', 0.04],
  ['mobile_money', 0.02],
  ['mpesa', 0.02],
]
/** After a bank payout is sent, when it lands, per settlement label (log-uniform between the two). */
const LANDS = {
  instant: [2 * S, 2 * MIN],
  under_2h: [5 * MIN, 2 * H],
  't+0': [20 * MIN, 10 * H],
  't+1': [14 * H, 34 * H],
  't+1..t+3': [14 * H, 80 * H],
}
/** A bank deposit's transfer, once the buyer sends it, arrives in: */
const ARRIVES = { instant: [2 * S, MIN], under_2h: [5 * MIN, 2 * H] }

const STATUS_PATHS = {
  'POST /v1/card/status': 'card',
  'POST /v1/bank/deposit/status': 'bankDeposit',
  'POST /v1/bank/payout/status': 'payout',
  'POST /v1/card/payout/status': 'cardPayout',
  'POST /v1/deposit/status': 'deposit',
}
const PERMISSION = { bankDeposit: 'bank', payout: 'bank-payouts', cardPayout: 'card-payouts' }

/** mulberry32: a small seeded generator, so that one seed is one world. */
function generator(seed) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    /** Log-uniform between lo and hi: as many payments take seconds as minutes as hours. */
    between: (lo, hi) => Math.round(lo * (hi / lo) ** next()),
    pick(weighted) {
      let r = next() * weighted.reduce((sum, [, w]) => sum + w, 0)
      for (const [value, w] of weighted) if ((r -= w) < 0) return value
      return weighted.at(-1)[0]
    },
  }
}

/** One payment: its kind, id, creation and the moments its status moves, to a final one. */
function makePayment(rand, index, createdAt) {
  const kind = rand.pick(MIX)
  const steps = [[createdAt, undefined]]
  let t = createdAt
  const then = (status, wait) => {
    t += Math.max(1, wait)
    steps.push([t, status])
  }
  const n = String(index).padStart(6, '0')
  let id
  let currency
  let rail
  let details
  let status = null
  if (kind === 'card') {
    id = `sch_card_${n}`
    currency = rand.pick([
      ['EUR', 2],
      ['USD', 1],
      ['GBP', 1],
    ])
    steps[0][1] = 'pending'
    // 10 % leave the card page: the purchase expires after 30 minutes.
    if (rand.next() < 0.1) then('expired', 30 * MIN)
    else {
      then('processing', rand.between(20 * S, 15 * MIN))
      then(rand.next() < 0.03 ? 'failed' : 'completed', rand.between(3 * S, 2 * MIN))
    }
  } else if (kind === 'deposit') {
    const txHash = `0x${(0x5c4ed000000 + index).toString(16).padStart(64, '0')}`
    id = `relay:${txHash}`
    currency = 'USD'
    details = { provider: 'relay', receipt: { txHash, logs: [] } }
    steps[0][1] = 'pending'
    then(rand.next() < 0.02 ? 'failed' : 'done', rand.between(15 * S, 10 * MIN))
  } else if (kind === 'bankDeposit') {
    id = `sch_bd_${n}`
    currency = rand.pick(Object.keys(DEPOSIT_RAILS).map((c) => [c, 1]))
    rail = DEPOSIT_RAILS[currency]
    status = steps[0][1] = 'awaiting_funds'
    const [lo, hi] = ARRIVES[RAILS[rail].settlement] ?? ARRIVES.under_2h
    then('received', rand.between(2 * MIN, D) + rand.between(lo, hi))
    then('converting', rand.between(30 * S, 5 * MIN))
    then('settled', rand.between(MIN, 10 * MIN))
  } else {
    const card = kind === 'cardPayout'
    id = `sch_${card ? 'cp' : 'po'}_${n}`
    rail = card ? undefined : rand.pick(PAYOUT_RAILS)
    currency = card
      ? rand.pick([
          ['EUR', 2],
          ['USD', 1],
          ['GBP', 1],
        ])
      : RAILS[rail].currency
    status = steps[0][1] = 'pending'
    // The buyer's funding transfer: mostly within minutes, some within the hour, a few later.
    const r = rand.next()
    then('converting', r < 0.8 ? rand.between(20 * S, 5 * MIN) : r < 0.95 ? rand.between(5 * MIN, H) : rand.between(H, 12 * H))
    if (rand.next() < 0.01) then('rejected', rand.between(30 * S, 10 * MIN))
    else {
      then('sent', rand.between(30 * S, 10 * MIN))
      if (card) then('settled', rand.between(2 * MIN, 5 * D))
      else if (rand.next() < 0.01) then('returned', rand.between(D, 3 * D))
      else {
        const [lo, hi] = LANDS[RAILS[rail].settlement] ?? LANDS['t+1..t+3']
        then('settled', Math.round(rand.between(lo, hi) * (rand.next() < 0.03 ? 1 + rand.next() : 1)))
      }
    }
  }
  const amount = kind === 'payout' || kind === 'cardPayout' ? '100.00' : '50.00'
  return { kind, id, createdAt, status, currency, amount, ...(details ? { details } : {}), ...(rail ? { rail } : {}), steps }
}

export function scheduledPayments() {
  const keys = createKeyring()
  // The key's rate (KEY_RATE) counted on this world's clock: a new world starts its count afresh.
  let keyLimiter = createKeyLimiter()
  let world = new Map()
  let clock

  function now(req) {
    if (!clock) return Date.now()
    if (clock.header) {
      const named = Number(req.headers['x-sandbox-clock'])
      if (!Number.isFinite(named)) throw invalid('X-Sandbox-Clock', "required while the scheduled world runs on the caller's clock (milliseconds)")
      return named
    }
    return clock.start + (Date.now() - clock.seededAt) * clock.scale
  }

  function record(p, at) {
    let i = 0
    while (i + 1 < p.steps.length && p.steps[i + 1][0] <= at) i++
    const [since, status] = p.steps[i]
    const updatedAt = new Date(since).toISOString()
    switch (p.kind) {
      case 'card':
        return { id: p.id, status, environment: 'sandbox', ...(status === 'completed' ? { cryptoAmount: '0.01500000', cryptoCurrency: 'ETH' } : {}) }
      case 'deposit':
        return { status, txHashes: { origin: p.details.receipt.txHash } }
      case 'bankDeposit':
        return { id: p.id, status, fiatAmount: p.amount, updatedAt, ...(status === 'settled' ? { cryptoAmount: p.amount, cryptoCurrency: 'USDC' } : {}) }
      default:
        return {
          id: p.id,
          status,
          fiatAmount: p.amount,
          fiatCurrency: p.currency,
          ...(p.rail ? { rail: p.rail } : {}),
          ...(status === 'rejected' || status === 'returned' ? { reason: 'sandbox schedule' } : {}),
          updatedAt,
        }
    }
  }

  return {
    /** A request on this world's clock, counted against the key's rate: 0, or the seconds until a slot frees. */
    takeKey: (key, at) => keyLimiter.take(key, at),
    /** The time a request names on this world's clock, or undefined (the key's rate is then counted on it). */
    clockOf(req) {
      return clock?.header && req.headers['x-sandbox-clock'] !== undefined ? Number(req.headers['x-sandbox-clock']) : undefined
    },
    /** The answer for a scheduled payment, or undefined (not one of this world's: the route's own). */
    answer(route, { body, req }) {
      const kind = STATUS_PATHS[route]
      if (!kind || world.size === 0) return undefined
      const id =
        kind === 'deposit'
          ? typeof body?.provider === 'string' && typeof body?.receipt?.txHash === 'string'
            ? `${body.provider}:${body.receipt.txHash.toLowerCase()}`
            : undefined
          : body?.id
      const p = typeof id === 'string' ? world.get(`${kind}:${id}`) : undefined
      if (!p) return undefined
      keys.check(req, PERMISSION[kind])
      return { body: record(p, now(req)) }
    },
    handles: (route) => Object.hasOwn(STATUS_PATHS, route),
    controlRoutes: {
      'POST /__sandbox/scheduled/seed': ({ body = {} }) => {
        const { count = 10_000, seed = 1, start = Date.now(), createOverMs = 12 * H, clock: kind = 'header', scale = 1 } = body
        if (!Number.isInteger(count) || count < 1 || count > 1_000_000) throw invalid('count', 'must be an integer from 1 to 1000000')
        if (!Number.isFinite(start) || !Number.isFinite(createOverMs) || createOverMs < 0) throw invalid('start', 'start and createOverMs must be milliseconds')
        if (kind !== 'header' && kind !== 'scaled') throw invalid('clock', '"header" (X-Sandbox-Clock names the time) or "scaled" (real time × scale)')
        if (!(scale > 0)) throw invalid('scale', 'must be a positive number')
        const rand = generator(seed)
        const created = Array.from({ length: count }, () => start + rand.next() * createOverMs).sort((a, b) => a - b)
        const payments = created.map((at, i) => makePayment(rand, i, Math.round(at)))
        world = new Map(payments.map((p) => [`${p.kind}:${p.id}`, p]))
        clock = { header: kind === 'header', start, seededAt: Date.now(), scale }
        keyLimiter = createKeyLimiter()
        return { body: { payments } }
      },
      'GET /__sandbox/scheduled': () => ({ body: { payments: world.size, clock: clock ?? null } }),
      // The world alone, leaving every other control as it is (a bench section that is done).
      'POST /__sandbox/scheduled/clear': () => {
        world = new Map()
        clock = undefined
        keyLimiter = createKeyLimiter()
        return { body: { ok: true } }
      },
    },
    reset() {
      world = new Map()
      clock = undefined
      keyLimiter = createKeyLimiter()
      keys.reset()
    },
    set: keys.set,
  }
}
