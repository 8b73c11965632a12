// The service's status endpoints as the reconciler sees them: a status per payment that the test
// moves on, and every request counted with its time.
import { cryptoDepositId, paymentKinds, type FetchStatus, type PaymentKind, type PaymentStore } from '../../../../src/server/index'

export type FakeStatuses = {
  fetchStatus: FetchStatus
  set(kind: string, id: string, status: string, extra?: Record<string, unknown>): void
  requests: Array<{ at: number; kind: string; id: string }>
}

export function fakeStatuses(): FakeStatuses {
  const current = new Map<string, Record<string, unknown>>()
  const requests: FakeStatuses['requests'] = []
  return {
    requests,
    set(kind, id, status, extra = {}) {
      current.set(`${kind}:${id}`, { id, status, ...extra })
    },
    async fetchStatus(kind, id) {
      requests.push({ at: Date.now(), kind, id })
      const record = current.get(`${kind}:${id}`)
      if (!record) throw new Error(`no such ${kind} ${id}`)
      return { ...record }
    },
  }
}

/** The most requests that started within any window of `windowMs`. */
export function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b)
  let most = 0
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= windowMs) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}

export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Each kind's way from the status it is created with to a final one, with statuses the contract names. */
export const PATHS = {
  card: ['pending', 'processing', 'completed'],
  bankDeposit: ['awaiting_funds', 'received', 'converting', 'settled'],
  payout: ['pending', 'converting', 'sent', 'settled'],
  cardPayout: ['pending', 'converting', 'sent', 'settled'],
  deposit: ['pending', 'done'],
} as const satisfies Record<PaymentKind, readonly string[]>

type Kind = keyof typeof PATHS

/**
 * `perKind` payments of every kind, each moved by the service one status further only once its
 * last change was delivered, so that no status goes unseen: every payment's changes are its path's.
 */
export function everyKind(perKind = 2) {
  const payments = paymentKinds.flatMap((kind) =>
    Array.from({ length: perKind }, (_, i) => ({
      kind,
      id: kind === 'deposit' ? cryptoDepositId('relay', `0x${(i + 1).toString(16).padStart(64, '0')}`) : `${kind}_${i}`,
    })),
  )
  const step = new Map(payments.map((p) => [`${p.kind}:${p.id}`, 1]))
  const path = (kind: string) => PATHS[kind as Kind] as readonly string[]
  return {
    payments,
    /** The changes each payment goes through, `a→b`, to its final status. */
    expected: (kind: string) =>
      path(kind)
        .slice(1)
        .map((status, i) => `${path(kind)[i]}→${status}`),
    total: payments.reduce((n, p) => n + path(p.kind).length - 1, 0),
    async record(store: PaymentStore, userId: string) {
      for (const { kind, id } of payments) {
        const details = kind === 'deposit' ? { provider: 'relay', receipt: { txHash: id.slice('relay:'.length), logs: [] } } : undefined
        await store.recordPayment({ kind, id, userId, status: path(kind)[0], details })
      }
    },
    /** The service's answer now, valid under the kind's schema (the card's carries its environment). */
    answer(kind: string, id: string): Record<string, unknown> {
      const status = path(kind)[step.get(`${kind}:${id}`)!]
      return kind === 'card' ? { id, status, environment: 'sandbox' } : kind === 'deposit' ? { status } : { id, status }
    },
    /** After a delivery of `status`: the service moves that payment on (a little later, as a service does). */
    delivered(kind: string, id: string, status: string) {
      const at = step.get(`${kind}:${id}`)!
      if (path(kind)[at] === status && at < path(kind).length - 1) setTimeout(() => step.set(`${kind}:${id}`, at + 1), Math.random() * 20)
    },
  }
}

/** The line the closing note quotes: the changes the store recorded, those onUpdate took, and repeats. */
export async function exactlyOnceFigures(engine: string, db: PaymentStore['db'], ids: string[], deliveredChangeIds: string[]) {
  const { rows } = await db.query<{ n: number; open: number }>(
    'SELECT count(*)::int AS n, count(*) FILTER (WHERE delivered_at IS NULL)::int AS open FROM stablecoin_widget.changes WHERE id = ANY($1)',
    [ids],
  )
  const figures = {
    seen: rows[0].n,
    delivered: deliveredChangeIds.length,
    duplicates: deliveredChangeIds.length - new Set(deliveredChangeIds).size,
    undelivered: rows[0].open,
  }
  console.log(`exactly once, ${engine}: changes seen ${figures.seen}, delivered ${figures.delivered}, duplicates ${figures.duplicates}`)
  return figures
}
