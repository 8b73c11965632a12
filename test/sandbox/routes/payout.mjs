// Bank payout on the partner path (permission `bank-payouts`): quote, creation with a beneficiary
// checked against its schema, and status. Each payout gets a fresh deposit address on the source
// chain; the routing layer watches that chain's token transfers (anvil logs) and moves the payout
// from pending to converting when the funding transfer really lands. Controls under
// /__sandbox/bank/payout/* drive sent → settled, rejected and returned (a real refund on chain);
// /__sandbox/control takes `hostilePayout` (one broken answer) and `payoutUnseen` (a lagging service).
// The card payout (cardPayout.mjs) is funded, watched and moved by the same ledger (`ledger` below).
// Both ask for a higher verification tier (422 requires_action) from HIGHER_TIER_UNITS on, or for
// every payout while `requiresAction` is on, of an account the identity provider did not raise.
import { randomBytes } from 'node:crypto'
import { createWalletClient, encodeFunctionData, erc20Abi, getAddress, http, parseAbiItem } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import { HttpError, invalid } from '../http.mjs'
import { parseStrict } from './bankDeposit.mjs'
import { identityNotApproved } from './fiat.mjs'
import { RAILS, USDC_RATES, cents, createKeyring, fiat, payoutRails, toFiat, toUsdc, usdc } from './reference.mjs'

export const PAYOUT_CHAIN = 8453

/**
 * A hostile or buggy service (issue 28): each answer the widget must hold to the buyer's ask, broken
 * once (`POST /__sandbox/control {"hostilePayout": "<name>"}`). The answer is otherwise the real one.
 */
export const HOSTILE_PAYOUT = {
  // The quote would have the wallet send ten times the crypto the buyer asked to send.
  'quote.crypto': (answer, { units }) => ({ ...answer, cryptoAmount: usdc(units * 10n) }),
  // The quote pays in one cent less than the fiat the buyer asked to arrive (or than it priced).
  'quote.fiat': (answer, { fiatAmount }) => ({ ...answer, fiatAmount: fiat(cents(fiatAmount ?? answer.fiatAmount) - 1n) }),
  // The payout asks for ten times the quote's cryptoAmount (only this answer: the payout keeps the quoted amount).
  'create.amount': (answer, { units }) => ({ ...answer, depositAmount: usdc(units * 10n) }),
}
const OUR_FEE_BPS = 50n // the operator's markup: 0.5 % of the converted fiat
/** From 1000 USDC on, a payout needs the higher verification tier (an account raised by tier=higher). */
export const HIGHER_TIER_UNITS = 1_000_000_000n
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

export const fiatDecimal = z.string().regex(/^\d{1,15}(\.\d{1,2})?$/, 'must be a decimal string with at most 2 decimals, like "25.50"')
export const cryptoDecimal = z.string().regex(/^\d{1,15}(\.\d{1,6})?$/, 'must be a decimal string with at most 6 decimals, like "25.5"')
export const text = (max = 256) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`)
const quoteRequest = z.strictObject({
  cryptoCurrency: z.string().min(1),
  chain: z.number().int('must be a chain id'),
  fiatCurrency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code like "EUR"'),
  country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code like "DE"'),
  cryptoAmount: cryptoDecimal.optional(),
  fiatAmount: fiatDecimal.optional(),
  rail: z.string().min(1).optional(),
})
const payoutRequest = z.strictObject({
  quoteId: text(128),
  accountId: text(128),
  beneficiary: z.record(z.string(), z.unknown(), 'must be an object'),
  purpose: text(512).optional(),
  reference: text(64).optional(),
})
export const idRequest = z.strictObject({ id: text(128) })

// --- Beneficiary schemas. Names the contract does not show (bank_uk, bank_br_pix, bank_mexico,
// momo_africa, the parts of beneficiaryAddress) are assumed-contract.md's, with its formats. ---
const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/
function ibanValid(value) {
  if (!IBAN.test(value)) return false
  const moved = value.slice(4) + value.slice(0, 4)
  const digits = moved.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))
  return BigInt(digits) % 97n === 1n
}
function abaValid(value) {
  if (!/^\d{9}$/.test(value)) return false
  const d = [...value].map(Number)
  return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0
}
function clabeValid(value) {
  if (!/^\d{18}$/.test(value)) return false
  const sum = [...value.slice(0, 17)].reduce((s, d, i) => s + ((Number(d) * [3, 7, 1][i % 3]) % 10), 0)
  return (10 - (sum % 10)) % 10 === Number(value[17])
}
/** CPF (11 digits) and CNPJ (14 digits): two mod-11 check digits each; one repeated digit is no number. */
function cpfCnpjValid(value) {
  if (!/^(\d{11}|\d{14})$/.test(value) || /^(\d)\1+$/.test(value)) return false
  const digit = (body, weights) => {
    const rest = [...body].reduce((s, d, i) => s + Number(d) * weights[i], 0) % 11
    return rest < 2 ? 0 : 11 - rest
  }
  const n = value.length - 2
  const weights = (len) =>
    value.length === 11 ? Array.from({ length: len }, (_, i) => len + 1 - i) : Array.from({ length: len }, (_, i) => ((len - 1 - i) % 8) + 2)
  const first = digit(value.slice(0, n), weights(n))
  return first === Number(value[n]) && digit(value.slice(0, n + 1), weights(n + 1)) === Number(value[n + 1])
}
const E164 = /^\+[1-9]\d{6,14}$/
/** A PIX key (assumed-contract.md): a CPF or CNPJ, an e-mail, a +55 E.164 phone, or a random key (a UUID). */
function pixKeyValid(value) {
  if (/^\d+$/.test(value)) return cpfCnpjValid(value)
  if (value.startsWith('+')) return /^\+55\d{10,11}$/.test(value)
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
}
const str = (check, problem) => ({ check, problem })
const any = str(() => true)
const SCHEMAS = {
  bank_sepa: { accountType: any, firstName: any, lastName: any, IBAN: str(ibanValid, 'not a valid IBAN (checksum)') },
  bank_uk: { accountNumber: str((v) => /^\d{8}$/.test(v), 'must be 8 digits'), sortCode: str((v) => /^\d{6}$/.test(v), 'must be 6 digits') },
  bank_us: {
    bankName: any,
    accountName: any,
    accountNumber: str((v) => /^\d{4,17}$/.test(v), 'must be 4 to 17 digits'),
    routingNumber: str(abaValid, 'not a valid ABA routing number (checksum)'),
    beneficiaryAddress: {
      street: any,
      city: any,
      postalCode: any,
      country: str((v) => /^[A-Z]{2}$/.test(v), 'must be an ISO 3166-1 alpha-2 code'),
      state: any,
    },
  },
  bank_swift: {
    accountType: any,
    companyName: any,
    bankName: any,
    swiftCode: str((v) => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(v), 'not a SWIFT/BIC code (8 or 11 characters)'),
    accountNumber: any,
    currency: str((v) => /^[A-Z]{3}$/.test(v), 'must be an ISO 4217 code'),
  },
  bank_br_pix: { pixKey: str(pixKeyValid, 'not a PIX key (a CPF or CNPJ of digits only, an e-mail, a +55 phone, or a random key)') },
  bank_mexico: { clabe: str(clabeValid, 'not a valid CLABE (18 digits, checksum)') },
  bank_africa: { financialInstitutionId: any, accountNumber: any, accountName: any },
  momo_africa: { walletIdentifier: str((v) => E164.test(v), 'must be an E.164 phone number, like +2348031234567') },
  evm: { address: str((v) => /^0x[0-9a-fA-F]{40}$/.test(v), 'must be a 0x address of 40 hex digits') },
}
export const BENEFICIARY_SCHEMAS = Object.fromEntries(
  Object.entries(SCHEMAS).map(([name, fields]) => [name, Object.entries(fields).map(([f, spec]) => (spec.check ? f : { [f]: Object.keys(spec) }))]),
)

/** Every field required; a field the schema does not define is refused, not ignored. */
function checkFields(fields, value, at) {
  for (const key of Object.keys(value)) if (!Object.hasOwn(fields, key)) throw invalid(`${at}.${key}`, 'not a field of this beneficiary schema')
  for (const [key, spec] of Object.entries(fields)) {
    const v = value[key]
    const path = `${at}.${key}`
    if (v === undefined || v === null || v === '') throw invalid(path, 'required')
    if (!spec.check) {
      if (typeof v !== 'object' || Array.isArray(v)) throw invalid(path, 'must be an object')
      checkFields(spec, v, path)
      continue
    }
    if (typeof v !== 'string') throw invalid(path, 'must be a string')
    if (v.length > 256) throw invalid(path, 'must be at most 256 characters')
    if (!spec.check(v)) throw invalid(path, spec.problem)
  }
}

export function checkBeneficiary(beneficiary, rail) {
  const { name, schema, ...rest } = beneficiary
  if (typeof schema !== 'string' || !schema) throw invalid('beneficiary.schema', 'required')
  const fields = SCHEMAS[schema]
  if (!fields) throw invalid('beneficiary.schema', `unknown schema "${schema}" (one of ${Object.keys(SCHEMAS).join(', ')})`)
  if (typeof name !== 'string' || !name.trim()) throw invalid('beneficiary.name', 'required')
  if (name.length > 256) throw invalid('beneficiary.name', 'must be at most 256 characters')
  checkFields(fields, rest, 'beneficiary')
  if (RAILS[rail].schema !== schema) throw invalid('beneficiary.schema', `${schema} does not match the quote's rail ${rail} (it takes ${RAILS[rail].schema})`)
}

/**
 * chains.src: the source chain's clients (public for the watcher, wallet for transfers);
 * addresses.sourceToken: the USDC paid out with; accounts(accountId): the onboarded users.
 */
export function payoutRoutes({ chains, addresses, accounts }) {
  // payoutUnseen: the routing layer is behind the chain (transfers land, the payout stays pending until it catches up).
  // requiresAction: every payout of an account of the basic tier answers 422 requires_action.
  const defaults = {
    payoutQuoteTtlSeconds: 7200,
    payoutStepMs: 1000,
    payoutHold: false,
    payoutWatchMs: 200,
    closedRails: [],
    hostilePayout: undefined,
    hostileCardPayout: undefined,
    payoutUnseen: false,
    requiresAction: false,
  }
  let settings = { ...defaults, closedRails: [] }
  const keys = createKeyring()
  const quotes = new Map()
  const payouts = new Map()
  const byAddress = new Map()
  let byReference = new Map()
  const orphans = [] // transfers to a spent address: money without an order
  const timers = new Set()
  let watcher
  let nextBlock
  let ticking = false

  const now = () => new Date().toISOString()
  const move = (p, status, extra = {}) => Object.assign(p, { status, updatedAt: now() }, extra)

  /** Fiat cents that arrive for USDC units on a rail: after the provider's flat fee and ours. */
  function net(units, rail, rate) {
    const gross = toFiat(units, rate)
    return gross - cents(RAILS[rail].fee) - (gross * OUR_FEE_BPS) / 10_000n
  }
  function price(units, rail, rate) {
    const gross = toFiat(units, rate)
    const ourFee = (gross * OUR_FEE_BPS) / 10_000n
    return { providerFee: cents(RAILS[rail].fee), ourFee, arrives: gross - cents(RAILS[rail].fee) - ourFee }
  }

  function quote({ body, req }) {
    keys.check(req, 'bank-payouts')
    const input = checkSource(parseStrict(quoteRequest, body))
    const rate = USDC_RATES[input.fiatCurrency]
    if (!rate) throw invalid('fiatCurrency', `${input.fiatCurrency} is not supported`)
    const serving = payoutRails(input.fiatCurrency, input.country)
    let rail
    if (input.rail !== undefined) {
      if (!RAILS[input.rail]) throw invalid('rail', `unknown rail "${input.rail}"`)
      if (!serving.includes(input.rail)) throw new HttpError(422, 'no_route', `${input.rail} does not serve ${input.fiatCurrency} to ${input.country}`)
      if (settings.closedRails.includes(input.rail)) throw new HttpError(422, 'no_route', `${input.rail} is closed right now`)
      rail = input.rail
    } else {
      const open = serving.filter((r) => !RAILS[r].forcedOnly && !settings.closedRails.includes(r))
      if (!open.length) throw new HttpError(422, 'no_route', `No rail pays out ${input.fiatCurrency} in ${input.country}`)
      const cost = (r) => cents(RAILS[r].fee)
      rail = open.reduce((best, r) => (cost(r) < cost(best) ? r : best))
    }
    let units
    if (input.cryptoAmount !== undefined) {
      units = parseUnitsSafe(input.cryptoAmount)
    } else {
      // Solved backwards: the least USDC whose converted amount, after both fees, is the fiatAmount.
      const target = cents(input.fiatAmount)
      units = toUsdc(((target + cents(RAILS[rail].fee)) * 10_000n) / (10_000n - OUR_FEE_BPS), rate, true)
      while (units > 0n && net(units - 1n, rail, rate) >= target) units--
      while (net(units, rail, rate) < target) units++
    }
    const p = price(units, rail, rate)
    const r = RAILS[rail]
    checkWindow(p.arrives, input, r)
    const quoteId = `bq_${randomBytes(8).toString('hex')}`
    const q = {
      quoteId,
      cryptoAmount: usdc(units),
      fiatAmount: fiat(p.arrives),
      rate: usdc(rate),
      rail,
      estimatedSettlement: r.estimated,
      providerFee: fiat(p.providerFee),
      ourFee: fiat(p.ourFee),
      expiresAt: new Date(Date.now() + settings.payoutQuoteTtlSeconds * 1000).toISOString(),
    }
    quotes.set(quoteId, { ...q, units, rateValue: rate, fiatCurrency: input.fiatCurrency, expiresAtMs: Date.parse(q.expiresAt) })
    return { body: hostile('bank', 'quote.', q, { units, fiatAmount: input.fiatAmount }) }
  }

  /** The creation answer (a card payout adds its card), hostile once if asked. */
  const created = (p) =>
    hostile(
      p.kind,
      'create.',
      {
        id: p.id,
        depositAddress: p.depositAddress,
        depositAmount: usdc(p.depositUnits),
        chain: PAYOUT_CHAIN,
        status: p.status,
        expiresAt: p.expiresAt,
        ...p.answer,
      },
      { units: p.depositUnits },
    )
  /**
   * The one hostile answer asked for (`hostilePayout` for bank payouts, `hostileCardPayout` for
   * card payouts), if it is of this kind (`quote.`, `create.`): spent once used.
   */
  function hostile(payoutKind, kind, answer, facts) {
    const setting = payoutKind === 'card' ? 'hostileCardPayout' : 'hostilePayout'
    const name = settings[setting]
    if (!name?.startsWith(kind)) return answer
    settings[setting] = undefined
    return HOSTILE_PAYOUT[name](answer, facts)
  }
  /**
   * The paying user, onboarded and approved, of the tier the amount needs: 404 account_not_found,
   * or 422 requires_action (an identity check not approved, or the basic tier where the higher one
   * is needed). `beforeTier` runs between the two (a request's own fields are refused first).
   */
  function authorise(accountId, units, beforeTier = () => {}) {
    const account = accounts(accountId)
    if (!account) throw new HttpError(404, 'account_not_found', 'No such accountId under the key.')
    const kyc = account.kycStatus === 'pending' && Date.now() >= (account.approveAt ?? Infinity) ? 'approved' : account.kycStatus
    // Not a higher tier (requires_action): the banking partner's own word on the check, as /fiat/account says it.
    if (kyc !== 'approved') throw identityNotApproved(kyc)
    beforeTier()
    if (account.tier !== 'higher' && (settings.requiresAction || units >= HIGHER_TIER_UNITS)) {
      throw new HttpError(
        422,
        'requires_action',
        'The user needs a higher verification tier: verify again with the identity provider (tier=higher), then repeat the request.',
      )
    }
  }
  /** A new payout (kind, id, depositUnits, accountId, fiatCurrency, expiresAt, net, min, cost, ...): a fresh deposit address, watched. */
  async function open(fields) {
    const key = generatePrivateKey()
    if (nextBlock === undefined) nextBlock = (await chains.src.public.getBlockNumber()) + 1n
    const p = { ...fields, key, depositAddress: privateKeyToAccount(key).address, status: 'pending', updatedAt: now() }
    payouts.set(p.id, p)
    byAddress.set(p.depositAddress.toLowerCase(), p)
    watch()
    return p
  }
  function record(p) {
    const out = { id: p.id, status: p.status }
    if (p.fiatAmount !== undefined) out.fiatAmount = p.fiatAmount
    out.fiatCurrency = p.fiatCurrency
    if (p.kind === 'bank') Object.assign(out, { rail: p.rail, bankReference: p.bankReference })
    if (p.depositTxHash) out.depositTxHash = p.depositTxHash
    if (p.reason) out.reason = p.reason
    // Not in the contract's record (extra fields are ignored by clients): the sandbox's refund.
    if (p.refundTxHash) out.refundTxHash = p.refundTxHash
    out.updatedAt = p.updatedAt
    return out
  }

  async function create({ body, req }) {
    keys.check(req, 'bank-payouts')
    const input = parseStrict(payoutRequest, body)
    if (input.reference !== undefined && byReference.has(input.reference)) return { body: created(byReference.get(input.reference)) }
    const q = quotes.get(input.quoteId)
    if (!q) throw invalid('quoteId', 'no such quote')
    if (Date.now() >= q.expiresAtMs) throw new HttpError(409, 'quote_expired', 'The quote is past its expiresAt: quote again.')
    authorise(input.accountId, q.units, () => checkBeneficiary(input.beneficiary, q.rail))
    const p = await open({
      kind: 'bank',
      id: `bp_${randomBytes(8).toString('hex')}`,
      depositUnits: q.units,
      accountId: input.accountId,
      beneficiary: input.beneficiary,
      purpose: input.purpose,
      fiatCurrency: q.fiatCurrency,
      rail: q.rail,
      bankReference: `SBXPO${randomBytes(5).toString('hex').toUpperCase()}`,
      expiresAt: q.expiresAt,
      // What arrives for what was received (at the rate on arrival, the same in the sandbox), its
      // rail's minimum, and a return's default cost (the rail's fee at the quote's rate).
      net: (units) => net(units, q.rail, q.rateValue),
      min: cents(RAILS[q.rail].min),
      cost: () => toUsdc(cents(RAILS[q.rail].fee), q.rateValue, true),
    })
    if (input.reference !== undefined) byReference.set(input.reference, p)
    return { body: created(p) }
  }

  // --- The routing layer: from the first payout on, it watches the source chain's token transfers
  // (every one: a transfer to a spent address is seen too, and left without an order). ---
  function watch() {
    if (watcher) return
    watcher = setInterval(tick, settings.payoutWatchMs)
  }
  async function tick() {
    if (ticking) return
    ticking = true
    try {
      if (settings.payoutUnseen) return
      const latest = await chains.src.public.getBlockNumber()
      if (nextBlock === undefined || latest < nextBlock) return
      const logs = await chains.src.public.getLogs({ address: addresses.sourceToken, event: TRANSFER, fromBlock: nextBlock, toBlock: latest })
      nextBlock = latest + 1n
      for (const log of logs) funded(log)
    } catch (error) {
      console.error('[sandbox] payout watcher', error)
    } finally {
      ticking = false
    }
  }
  function funded(log) {
    const p = byAddress.get(log.args.to.toLowerCase())
    if (!p) return
    // A spent address, or a payout rejected before its money came: money without an order.
    if (p.depositTxHash || p.status !== 'pending') {
      orphans.push({ payout: p.id, depositAddress: p.depositAddress, from: log.args.from, value: usdc(log.args.value), txHash: log.transactionHash })
      return
    }
    p.depositTxHash = log.transactionHash
    p.sender = getAddress(log.args.from)
    p.received = log.args.value
    // What arrived converts (at the rate on arrival, the same in the sandbox), after both fees.
    const arrives = p.net(p.received)
    if (arrives < p.min) {
      move(p, 'rejected', { reason: 'below_minimum' })
      refund(p, p.received).catch((error) => console.error('[sandbox] payout refund failed', error))
      return
    }
    move(p, 'converting', { fiatAmount: fiat(arrives) })
    later(p, () => advance(p))
  }

  function later(p, fn) {
    if (settings.payoutHold) return
    const timer = setTimeout(() => {
      timers.delete(timer)
      fn()
    }, settings.payoutStepMs)
    timers.add(timer)
  }
  /** converting → sent → settled, one step. */
  function advance(p) {
    if (p.status === 'converting') {
      move(p, 'sent')
      later(p, () => advance(p))
    } else if (p.status === 'sent') move(p, 'settled')
    return p
  }

  /** A real ERC-20 transfer from the payout's deposit address back to the sending wallet. */
  async function refund(p, units) {
    if (units <= 0n || !p.sender) return
    const account = privateKeyToAccount(p.key)
    await chains.src.public.request({ method: 'anvil_setBalance', params: [account.address, '0x16345785D8A0000'] })
    const wallet = createWalletClient({ chain: chains.src.public.chain, transport: http(chains.src.public.transport.url), account })
    const hash = await wallet.sendTransaction({
      to: addresses.sourceToken,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [p.sender, units] }),
    })
    await chains.src.public.waitForTransactionReceipt({ hash })
    p.refundTxHash = hash
    p.refundAmount = usdc(units)
    return hash
  }

  const find = (id, kind) => {
    const p = payouts.get(id)
    if (!p || p.kind !== kind) throw new HttpError(404, 'not_found', 'id: no such payout')
    return p
  }
  const internal = (p) => ({
    accountId: p.accountId,
    depositAddress: p.depositAddress,
    depositAmount: usdc(p.depositUnits),
    sender: p.sender,
    received: p.received === undefined ? undefined : usdc(p.received),
    refundTxHash: p.refundTxHash,
    refundAmount: p.refundAmount,
    beneficiary: p.beneficiary,
    purpose: p.purpose,
  })
  const control =
    (kind, fn) =>
    async ({ body }) => {
      const { id, ...rest } = body ?? {}
      const p = find(id, kind)
      await fn(p, rest)
      return { body: { ...record(p), internal: internal(p) } }
    }
  const only = (p, from, to) => {
    if (!from.includes(p.status)) throw new HttpError(409, 'invalid_request', `payout is ${p.status}: ${to} only from ${from.join(' or ')}`)
  }

  /**
   * The test controls of one kind of payout under `prefix` (/__sandbox/bank/payout, /__sandbox/card/payout),
   * each answering the payout's record and what the service knows besides (`internal`).
   */
  function controls(prefix, kind, quotesOfKind) {
    return {
      // {"id", "from"?, "amount"?}: a real transfer to the deposit address from an unlocked dev
      // account (default: the account's wallet), as the buyer's wallet would send it.
      [`POST ${prefix}/fund`]: control(kind, async (p, { from, amount }) => {
        const sender = from ?? accounts(p.accountId)?.wallet
        const units = amount === undefined ? p.depositUnits : parseUnitsSafe(String(amount))
        watch()
        const hash = await chains.src.wallet.sendTransaction({
          account: sender,
          to: addresses.sourceToken,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [p.depositAddress, units] }),
        })
        await chains.src.public.waitForTransactionReceipt({ hash })
        await waitFor(() => p.depositTxHash === hash || orphans.some((o) => o.txHash === hash))
      }),
      // {"id"}: one step now (converting → sent, sent → settled).
      [`POST ${prefix}/advance`]: control(kind, (p) => {
        only(p, ['converting', 'sent'], 'advance')
        advance(p)
      }),
      [`POST ${prefix}/settle`]: control(kind, (p) => {
        only(p, ['sent'], 'settled')
        move(p, 'settled')
      }),
      // {"id", "reason"?}: refused before it left (funds that arrived go back in full).
      [`POST ${prefix}/reject`]: control(kind, async (p, { reason }) => {
        only(p, ['pending', 'converting'], 'rejected')
        move(p, 'rejected', { reason: typeof reason === 'string' && reason ? reason : 'compliance_check' })
        if (p.received) await refund(p, p.received)
      }),
      // {"id", "reason"?, "cost"?}: the receiving bank (or card issuer) bounces it; the value comes
      // back to the sending wallet as USDC minus the cost (default: the payout's fee at the quote's rate).
      [`POST ${prefix}/return`]: control(kind, async (p, { reason, cost }) => {
        only(p, ['sent'], 'returned')
        const fee = cost === undefined ? p.cost() : parseUnitsSafe(String(cost))
        move(p, 'returned', { reason: typeof reason === 'string' && reason ? reason : kind === 'card' ? 'card_closed' : 'beneficiary_name_mismatch' })
        await refund(p, p.received > fee ? p.received - fee : 0n)
      }),
      // {"quoteId"}: the quote expires now.
      [`POST ${prefix}/expire-quote`]: ({ body }) => {
        const q = quotesOfKind.get(body?.quoteId)
        if (!q) throw new HttpError(404, 'not_found', 'quoteId: no such quote')
        q.expiresAtMs = Date.now()
        return { body: { quoteId: q.quoteId, expiresAt: new Date(q.expiresAtMs).toISOString() } }
      },
      [`GET ${prefix}s`]: () => {
        const mine = [...payouts.values()].filter((p) => p.kind === kind)
        return {
          body: { payouts: mine.map((p) => ({ ...record(p), internal: internal(p) })), orphans: orphans.filter((o) => payouts.get(o.payout)?.kind === kind) },
        }
      },
    }
  }

  return {
    routes: {
      'POST /v1/bank/payout/quote': quote,
      'POST /v1/bank/payout': create,
      'POST /v1/bank/payout/status': ({ body, req }) => {
        keys.check(req, 'bank-payouts')
        const p = payouts.get(parseStrict(idRequest, body).id)
        if (p?.kind !== 'bank') throw new HttpError(404, 'not_found', 'No such payout under the key.')
        return { body: record(p) }
      },
    },
    control: {
      set(body) {
        keys.set(body)
        if (Number.isFinite(body.payoutQuoteTtlSeconds)) settings.payoutQuoteTtlSeconds = body.payoutQuoteTtlSeconds
        if (Number.isFinite(body.payoutStepMs)) settings.payoutStepMs = body.payoutStepMs
        if (typeof body.payoutHold === 'boolean') settings.payoutHold = body.payoutHold
        if (Array.isArray(body.closedRails)) settings.closedRails = body.closedRails.filter((r) => typeof r === 'string')
        if (typeof body.payoutUnseen === 'boolean') settings.payoutUnseen = body.payoutUnseen
        if (typeof body.requiresAction === 'boolean') settings.requiresAction = body.requiresAction
        for (const setting of ['hostilePayout', 'hostileCardPayout']) {
          if (typeof body[setting] !== 'string') continue
          if (!HOSTILE_PAYOUT[body[setting]]) throw new HttpError(400, 'invalid_request', `${setting}: one of ${Object.keys(HOSTILE_PAYOUT).join(', ')}`)
          settings[setting] = body[setting]
        }
      },
      reset() {
        keys.reset()
        settings = { ...defaults, closedRails: [] }
        byReference = new Map()
      },
      routes: controls('/__sandbox/bank/payout', 'bank', quotes),
    },
    /** What the card payout (cardPayout.mjs) shares: one watcher, one set of statuses and controls. */
    ledger: { open, find, record, created, hostile, authorise, controls },
    close() {
      if (watcher) clearInterval(watcher)
      watcher = undefined
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
  }
}

/** What a quote pays out (cents) inside a window ({ label, min, max }, major units, max null = none), else invalid_request naming the amount asked with. */
export function checkWindow(arrives, input, { label, min, max }) {
  const field = input.cryptoAmount !== undefined ? 'cryptoAmount' : 'fiatAmount'
  if (arrives <= 0n) throw invalid(field, 'too small to cover the fees')
  if (arrives < cents(min)) throw invalid(field, `what arrives is below the ${label} minimum of ${min} ${input.fiatCurrency}`)
  if (max !== null && arrives > cents(max)) throw invalid(field, `what arrives is above the ${label} maximum of ${max} ${input.fiatCurrency}`)
}

/** The source of a payout quote: exactly one amount, the key's source chain, its USDC. */
export function checkSource(input) {
  if ((input.cryptoAmount === undefined) === (input.fiatAmount === undefined))
    throw invalid('cryptoAmount', 'send cryptoAmount or fiatAmount, never both and not neither')
  if (input.chain !== PAYOUT_CHAIN) throw new HttpError(403, 'chain_not_allowed', `chain: ${input.chain} is not enabled as a source on the key`)
  if (input.cryptoCurrency !== 'USDC') throw invalid('cryptoCurrency', `${input.cryptoCurrency} is not supported on chain ${PAYOUT_CHAIN} (USDC)`)
  return input
}

export function parseUnitsSafe(value) {
  if (!/^\d+(\.\d{1,6})?$/.test(value)) throw invalid('amount', 'must be a decimal string with at most 6 decimals')
  const [whole, part = ''] = value.split('.')
  return BigInt(whole) * 10n ** 6n + BigInt(part.padEnd(6, '0'))
}

async function waitFor(condition, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new HttpError(504, 'internal', 'the watcher did not see the transfer in time')
    await new Promise((r) => setTimeout(r, 50))
  }
}
