// One-off bank deposit on the partner path (permission `bank`): POST /v1/bank/deposit and
// POST /v1/bank/deposit/status, with bank details per rail, the partner's `reference` as the
// idempotency key, the contract's statuses, and settlement that really mints on the destination
// chain. Controls under /__sandbox/bank/deposit/* make transfers arrive, expire details and step.
// While `requiresAction` is on, a deposit of an account the identity provider did not raise (tier=higher)
// answers 422 requires_action, as the contract lets POST /v1/bank/deposit do (and as the payouts do).
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { HttpError, invalid } from '../http.mjs'
import { identityNotApproved, makeIban } from './fiat.mjs'
import { DEPOSIT_RAILS, RAILS, USDC_RATES, cents, createKeyring, fiat, toUsdc, usdc } from './reference.mjs'

const FEE_BPS = 100n // the operator's fee on a one-off deposit, taken from the converted amount
const decimal = z.string().regex(/^\d{1,15}(\.\d{1,2})?$/, 'must be a decimal string with at most 2 decimals, like "25.50"')
const createRequest = z.strictObject({
  accountId: z.string().min(1, 'must not be empty').max(128),
  walletId: z.string().min(1, 'must not be empty').max(128),
  fiatCurrency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code like "EUR"'),
  fiatAmount: decimal,
  reference: z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters').optional(),
})
const idRequest = z.strictObject({ id: z.string().min(1, 'must not be empty').max(128) })

/** zod → invalid_request naming the field (a field the request does not define is named too). */
export function parseStrict(schema, body) {
  const parsed = schema.safeParse(body ?? {})
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  if (issue.code === 'unrecognized_keys') throw invalid([...issue.path, issue.keys[0]].join('.'), 'not a field of this request')
  const field = issue.path.length ? issue.path.join('.') : 'body'
  let given = body
  for (const key of issue.path) given = given?.[key]
  if (issue.code === 'invalid_type') throw invalid(field, given === undefined ? 'required' : `expected a ${issue.expected}`)
  throw invalid(field, issue.message)
}

/** A valid 18-digit CLABE (weights 3, 7, 1). */
export function makeClabe(seed) {
  const body = `646180${String(seed).padStart(11, '0').slice(-11)}`
  const sum = [...body].reduce((s, d, i) => s + ((Number(d) * [3, 7, 1][i % 3]) % 10), 0)
  return `${body}${(10 - (sum % 10)) % 10}`
}

/** A static PIX "BR Code" (EMV QR payload) with its CRC16-CCITT. */
export function makePixPayload({ key, amount, name, city, txid }) {
  const f = (id, value) => `${id}${String(value.length).padStart(2, '0')}${value}`
  const body = [
    f('00', '01'),
    f('26', f('00', 'br.gov.bcb.pix') + f('01', key)),
    f('52', '0000'),
    f('53', '986'),
    f('54', amount),
    f('58', 'BR'),
    f('59', name.slice(0, 25)),
    f('60', city.slice(0, 15)),
    f('62', f('05', txid.slice(0, 25))),
  ].join('')
  const data = `${body}6304`
  let crc = 0xffff
  for (const byte of Buffer.from(data, 'utf8')) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return data + crc.toString(16).toUpperCase().padStart(4, '0')
}

function detailsFor(rail, { serial, reference, amount }) {
  const accountName = 'Stablecoin Sandbox Ltd'
  switch (rail) {
    case 'sepa_instant':
      return { iban: makeIban(serial), bic: 'SBXBDEFFXXX', bankName: 'Sandbox Bank AG', accountName, reference }
    case 'faster_payments':
      return { accountNumber: String(40_000_000 + serial).slice(-8), sortCode: '040004', bankName: 'Sandbox Bank UK', accountName, reference }
    case 'spei':
      return { clabe: makeClabe(serial), bankName: 'Sandbox Banco MX', accountName, reference }
    case 'pix': {
      const pixKey = `deposits+${serial}@sandbox.example`
      return {
        pixKey,
        pixPayload: makePixPayload({ key: pixKey, amount, name: accountName, city: 'SAO PAULO', txid: reference.replace(/[^A-Za-z0-9]/g, '') }),
        accountName,
        reference,
      }
    }
    default:
      throw new Error(`no details for rail ${rail}`)
  }
}

/**
 * accounts(accountId) → { walletId, wallet, kycStatus, approveAt? } of an onboarded user (the
 * /fiat stand-in's records), or undefined. chains.dst and addresses.destToken: where it mints.
 */
export function bankDepositRoutes({ chains, artifacts, addresses, accounts }) {
  const defaults = { bankDepositTtlSeconds: 3600, bankDepositStepMs: 1000, bankDepositHold: false, requiresAction: false }
  let settings = { ...defaults }
  const keys = createKeyring()
  const deposits = new Map()
  let byReference = new Map()
  const timers = new Set()
  let serial = 5000

  const now = () => new Date().toISOString()
  const move = (d, status, extra = {}) => Object.assign(d, { status, updatedAt: now() }, extra)

  /** Details stop accepting money at expiresAt. */
  function current(d) {
    if (d.status === 'awaiting_funds' && Date.now() >= d.expiresAt) move(d, 'expired', { updatedAt: new Date(d.expiresAt).toISOString() })
    return d
  }

  const created = (d) => ({ id: d.id, details: d.details, rail: d.rail, expiresAt: new Date(d.expiresAt).toISOString(), status: current(d).status })
  function record(d) {
    current(d)
    const out = { id: d.id, status: d.status }
    if (d.arrived !== undefined) out.fiatAmount = d.arrived
    if (d.status === 'settled') Object.assign(out, { cryptoAmount: d.cryptoAmount, cryptoCurrency: 'USDC', settlementTxHash: d.settlementTxHash })
    if (d.reason) out.reason = d.reason
    out.updatedAt = d.updatedAt
    return out
  }

  function find(id) {
    const d = deposits.get(id)
    if (!d) throw new HttpError(404, 'not_found', 'No such deposit under the key.')
    return d
  }

  function later(fn) {
    if (settings.bankDepositHold) return
    const timer = setTimeout(() => {
      timers.delete(timer)
      fn()
    }, settings.bankDepositStepMs)
    timers.add(timer)
  }

  /** received → converting → settled, one step; settling mints first and waits for the receipt. */
  async function step(d) {
    if (d.status === 'received') {
      move(d, 'converting')
      later(() => step(d))
    } else if (d.status === 'converting' && !d.minting) {
      d.minting = (async () => {
        const rate = USDC_RATES[d.fiatCurrency]
        const gross = toUsdc(cents(d.arrived), rate)
        const units = gross - (gross * FEE_BPS) / 10_000n
        try {
          const hash = await chains.dst.wallet.writeContract({
            address: addresses.destToken,
            abi: artifacts.TestUSDC.abi,
            functionName: 'mint',
            args: [d.wallet, units],
          })
          await chains.dst.public.waitForTransactionReceipt({ hash })
          move(d, 'settled', { cryptoAmount: usdc(units), settlementTxHash: hash })
        } catch (error) {
          console.error('[sandbox] bank deposit settlement failed', error)
          d.minting = undefined
        }
      })()
      await d.minting
    }
    return d
  }

  /** A transfer lands: below the rail minimum it goes back; otherwise any amount is received. */
  function arrive(d, amount) {
    current(d)
    if (d.status !== 'awaiting_funds' && d.status !== 'expired') {
      throw new HttpError(409, 'invalid_request', `deposit is ${d.status}: a transfer lands only while awaiting_funds or expired (in flight)`)
    }
    const rail = RAILS[d.rail]
    if (cents(amount) < cents(rail.min)) {
      const back = cents(amount) - cents(rail.fee) > 0n ? cents(amount) - cents(rail.fee) : 0n
      return move(d, 'returned', { arrived: amount, reason: 'below_minimum', returnedAmount: fiat(back) })
    }
    move(d, 'received', { arrived: amount })
    later(() => step(d))
    return d
  }

  function create({ body, req }) {
    keys.check(req, 'bank')
    const input = parseStrict(createRequest, body)
    if (input.reference !== undefined && byReference.has(input.reference)) return { body: created(byReference.get(input.reference)) }
    const account = accounts(input.accountId)
    if (!account || account.walletId !== input.walletId) throw new HttpError(404, 'account_not_found', 'No such accountId and walletId under the key.')
    const kyc = account.kycStatus === 'pending' && Date.now() >= (account.approveAt ?? Infinity) ? 'approved' : account.kycStatus
    // Not a higher tier (requires_action): the banking partner's own word on the check, as /fiat/account says it.
    if (kyc !== 'approved') throw identityNotApproved(kyc)
    const rail = DEPOSIT_RAILS[input.fiatCurrency]
    if (!rail) throw new HttpError(422, 'no_route', `No one-off deposit rail for ${input.fiatCurrency}: open a virtual account instead.`)
    const r = RAILS[rail]
    const amount = cents(input.fiatAmount)
    if (amount < cents(r.min)) throw invalid('fiatAmount', `below the ${r.label} minimum of ${r.min} ${input.fiatCurrency}`)
    if (r.max !== null && amount > cents(r.max)) throw invalid('fiatAmount', `above the ${r.label} maximum of ${r.max} ${input.fiatCurrency}`)
    // The request's own fields first, then the tier: nothing is created, and the same request goes again once verified.
    if (settings.requiresAction && account.tier !== 'higher') {
      throw new HttpError(
        422,
        'requires_action',
        'The user needs a higher verification tier: verify again with the identity provider (tier=higher), then repeat the request.',
      )
    }
    const id = `bd_${randomBytes(8).toString('hex')}`
    const paymentReference = `SBX-${randomBytes(4).toString('hex').toUpperCase()}`
    const d = {
      id,
      accountId: input.accountId,
      wallet: account.wallet,
      fiatCurrency: input.fiatCurrency,
      fiatAmount: fiat(amount),
      rail,
      details: detailsFor(rail, { serial: serial++, reference: paymentReference, amount: fiat(amount) }),
      expiresAt: Date.now() + settings.bankDepositTtlSeconds * 1000,
      status: 'awaiting_funds',
      updatedAt: now(),
    }
    deposits.set(id, d)
    if (input.reference !== undefined) byReference.set(input.reference, d)
    return { body: created(d) }
  }

  const control =
    (fn) =>
    async ({ body }) => {
      const { id, ...rest } = body ?? {}
      const d = deposits.get(id)
      if (!d) throw new HttpError(404, 'not_found', 'id: no such deposit')
      await fn(d, rest)
      return { body: { ...record(d), internal: internal(d) } }
    }
  const internal = (d) => ({
    accountId: d.accountId,
    wallet: d.wallet,
    fiatCurrency: d.fiatCurrency,
    requested: d.fiatAmount,
    rail: d.rail,
    returnedAmount: d.returnedAmount,
  })

  return {
    routes: {
      'POST /v1/bank/deposit': create,
      'POST /v1/bank/deposit/status': ({ body, req }) => {
        keys.check(req, 'bank')
        return { body: record(find(parseStrict(idRequest, body).id)) }
      },
    },
    control: {
      set(body) {
        keys.set(body)
        if (Number.isFinite(body.bankDepositTtlSeconds)) settings.bankDepositTtlSeconds = body.bankDepositTtlSeconds
        if (Number.isFinite(body.bankDepositStepMs)) settings.bankDepositStepMs = body.bankDepositStepMs
        if (typeof body.bankDepositHold === 'boolean') settings.bankDepositHold = body.bankDepositHold
        if (typeof body.requiresAction === 'boolean') settings.requiresAction = body.requiresAction
      },
      reset() {
        keys.reset()
        settings = { ...defaults }
        byReference = new Map()
      },
      routes: {
        // {"id", "amount"?}: a transfer lands, for `amount` (default: the amount requested).
        'POST /__sandbox/bank/deposit/transfer': control((d, { amount }) => {
          if (amount !== undefined && (typeof amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(amount))) throw invalid('amount', 'must be a decimal string')
          arrive(d, amount === undefined ? d.fiatAmount : fiat(cents(amount)))
        }),
        // {"id"}: the details expire now (awaiting_funds → expired).
        'POST /__sandbox/bank/deposit/expire': control((d) => {
          if (current(d).status !== 'awaiting_funds') return
          d.expiresAt = Date.now()
          current(d)
        }),
        // {"id"}: one step now (received → converting, converting → settled, after the mint).
        'POST /__sandbox/bank/deposit/advance': control((d) => step(d)),
        'GET /__sandbox/bank/deposits': () => ({ body: [...deposits.values()].map((d) => ({ ...record(d), internal: internal(d) })) }),
      },
    },
    close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
  }
}
