// The sandbox's bank payout (/v1/bank/payout/quote, /v1/bank/payout, /v1/bank/payout/status) as
// the contract states it: exactly one amount, expired quotes refused, beneficiaries checked per
// schema, the reference as idempotency key, a watcher that sees the real funding transfer on the
// source chain, and a real refund when the receiving bank returns the payout.
import { parseUnits, type Address, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { type BankStack, KEY, payoutStackForFile, until } from './bankStack'
import { expectHostileCreateOnce, expectHostileQuoteOnce, expectOrphanedSecondTransfer, expectRejectedRefund, fund, settled } from './payoutFunding'

let s: BankStack
let accountId: string
let wallet: Address
payoutStackForFile(7, (ready) => ({ s, wallet, accountId } = ready), 60_000)

const SEPA = { name: 'Ada Lovelace', schema: 'bank_sepa', accountType: 'individual', firstName: 'Ada', lastName: 'Lovelace', IBAN: 'DE89370400440532013000' }
const US = {
  name: 'Grace Hopper',
  schema: 'bank_us',
  bankName: 'Sandbox Bank',
  accountName: 'Grace Hopper',
  accountNumber: '000123456789',
  routingNumber: '011000015',
  beneficiaryAddress: { street: '1 Main St', city: 'Arlington', postalCode: '22201', country: 'US', state: 'VA' },
}
const quote = async (extra: Record<string, unknown> = {}) =>
  s.v1('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '100.00', ...extra })
async function payout(extra: Record<string, unknown> = {}, quoteExtra: Record<string, unknown> = {}) {
  const q = (await quote(quoteExtra)).body
  return s.v1('/bank/payout', { quoteId: q.quoteId, accountId, beneficiary: SEPA, ...extra })
}
const status = async (id: string) => (await s.v1('/bank/payout/status', { id })).body

describe('quote', () => {
  it('solves a fiatAmount backwards: rate, both fees, what arrives, rail, settlement, two hours', async () => {
    const { status: code, body } = await quote()
    expect(code).toBe(200)
    expect(Object.keys(body).sort()).toEqual([
      'cryptoAmount',
      'estimatedSettlement',
      'expiresAt',
      'fiatAmount',
      'ourFee',
      'providerFee',
      'quoteId',
      'rail',
      'rate',
    ])
    expect(body).toMatchObject({
      fiatAmount: '100.00',
      rate: '0.92',
      rail: 'sepa_instant',
      estimatedSettlement: 'instant',
      providerFee: '0.25',
      ourFee: '0.50',
    })
    // cryptoAmount × rate = what arrives + both fees.
    expect(Math.abs(Number(body.cryptoAmount) * 0.92 - 100.75)).toBeLessThan(0.01)
    const hours = (Date.parse(body.expiresAt) - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(1.99)
    expect(hours).toBeLessThanOrEqual(2)
  })

  it('prices a cryptoAmount forwards', async () => {
    const { body } = await quote({ fiatAmount: undefined, cryptoAmount: '50', fiatCurrency: 'GBP', country: 'GB' })
    // 50 USDC at 0.79 = 39.50 GBP, less 0.20 and 0.19.
    expect(body).toMatchObject({ cryptoAmount: '50', fiatAmount: '39.11', rail: 'faster_payments', providerFee: '0.20', ourFee: '0.19' })
  })

  it('refuses both amounts or none, another chain, no rail, a closed forced rail', async () => {
    expect(await quote({ cryptoAmount: '10' })).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
    expect(await quote({ fiatAmount: undefined })).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
    expect(await quote({ chain: 42161 })).toMatchObject({ status: 403, body: { error: { code: 'chain_not_allowed' } } })
    expect(await quote({ country: 'US' })).toMatchObject({ status: 422, body: { error: { code: 'no_route' } } })
    expect((await quote({ rail: 'sepa' })).body.rail).toBe('sepa')
    await s.control('/control', { closedRails: ['sepa'] })
    expect(await quote({ rail: 'sepa' })).toMatchObject({ status: 422, body: { error: { code: 'no_route' } } })
    expect(await quote({ fiatAmount: '0.50' })).toMatchObject({ status: 400 })
  })

  it('needs the bank-payouts permission, also through the partner backend', async () => {
    expect((await s.partner('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '20' })).status).toBe(
      200,
    )
    await s.control('/control', { keyPermissions: ['bank'] })
    expect(await quote()).toMatchObject({ status: 403, body: { error: { code: 'permission_denied' } } })
    expect(await s.partner('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '20' })).toMatchObject({
      status: 403,
      body: { error: { code: 'permission_denied' } },
    })
    expect(await s.v1('/bank/payout/quote', {}, { 'Content-Type': 'application/json', Authorization: 'Bearer nope' })).toMatchObject({ status: 401 })
  })
})

describe('creation', () => {
  it('answers a fresh deposit address on chain 8453 with the exact amount, pending', async () => {
    const q = (await quote()).body
    const { status: code, body } = await s.v1('/bank/payout', { quoteId: q.quoteId, accountId, beneficiary: SEPA, purpose: 'rent' })
    expect(code).toBe(200)
    expect(Object.keys(body).sort()).toEqual(['chain', 'depositAddress', 'depositAmount', 'expiresAt', 'id', 'status'])
    expect(body).toMatchObject({ chain: 8453, status: 'pending', depositAmount: q.cryptoAmount, depositAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) })
    const other = (await s.v1('/bank/payout', { quoteId: q.quoteId, accountId, beneficiary: SEPA })).body
    expect(other.depositAddress).not.toBe(body.depositAddress)
    expect(await status(body.id)).toMatchObject({
      id: body.id,
      status: 'pending',
      fiatCurrency: 'EUR',
      rail: 'sepa_instant',
      bankReference: expect.any(String),
    })
  })

  it('a repeat with the same reference returns the same payout (also through the partner backend, which scopes it to its user)', async () => {
    const q = (await quote()).body
    const first = (await s.v1('/bank/payout', { quoteId: q.quoteId, accountId, beneficiary: SEPA, reference: 'cashout-1' })).body
    expect((await s.v1('/bank/payout', { quoteId: q.quoteId, accountId, beneficiary: SEPA, reference: 'cashout-1' })).body).toEqual(first)
    // The kit sends its user's own derivation of the reference: a repeat through it is one payout,
    // and never the one another caller made under the same words.
    const viaKit = (await s.partner('/bank/payout', { quoteId: q.quoteId, accountId, beneficiary: SEPA, reference: 'cashout-1' })).body
    expect((await s.partner('/bank/payout', { quoteId: q.quoteId, accountId, beneficiary: SEPA, reference: 'cashout-1' })).body).toEqual(viaKit)
    expect(viaKit.id).not.toBe(first.id)
  })

  it('refuses a beneficiary field the schema does not define, a bank_us without its full address, a schema off the rail', async () => {
    const refused = async (beneficiary: unknown, quoteExtra = {}) => (await payout({ beneficiary }, quoteExtra)).body.error?.message
    expect(await refused({ ...SEPA, bic: 'DEUTDEFF' })).toBe('beneficiary.bic: not a field of this beneficiary schema')
    expect(await refused({ ...SEPA, iban: SEPA.IBAN })).toBe('beneficiary.iban: not a field of this beneficiary schema')
    expect(await refused({ ...SEPA, IBAN: 'DE89370400440532013001' })).toMatch(/^beneficiary\.IBAN: not a valid IBAN/)
    expect(await refused({ ...SEPA, lastName: undefined })).toBe('beneficiary.lastName: required')
    const usQuote = { fiatCurrency: 'USD', country: 'US' }
    expect((await payout({ beneficiary: US }, usQuote)).status).toBe(200)
    const { beneficiaryAddress, ...noAddress } = US
    expect(await refused(noAddress, usQuote)).toBe('beneficiary.beneficiaryAddress: required')
    expect(await refused({ ...US, beneficiaryAddress: { ...beneficiaryAddress, state: undefined } }, usQuote)).toBe(
      'beneficiary.beneficiaryAddress.state: required',
    )
    expect(await refused({ ...US, beneficiaryAddress: { ...beneficiaryAddress, county: 'X' } }, usQuote)).toBe(
      'beneficiary.beneficiaryAddress.county: not a field of this beneficiary schema',
    )
    expect(await refused({ ...US, routingNumber: '011000016' }, usQuote)).toMatch(/^beneficiary\.routingNumber: not a valid ABA/)
    expect(await refused(US)).toMatch(/^beneficiary\.schema: bank_us does not match the quote's rail sepa_instant/)
    expect(await refused({ ...SEPA, schema: 'bank_moon' })).toMatch(/^beneficiary\.schema: unknown schema/)
  })

  it('refuses an expired quote (409 quote_expired), an unknown account (404 account_not_found)', async () => {
    const q = (await quote()).body
    await s.control('/bank/payout/expire-quote', { quoteId: q.quoteId })
    expect(await s.v1('/bank/payout', { quoteId: q.quoteId, accountId, beneficiary: SEPA })).toMatchObject({
      status: 409,
      body: { error: { code: 'quote_expired' } },
    })
    expect(await payout({ accountId: 'acc_none' })).toMatchObject({ status: 404, body: { error: { code: 'account_not_found' } } })
  })
})

describe('funding and statuses', () => {
  const funded = async (extra = {}) => fund(s, wallet, (await payout(extra)).body, status)
  /** Funded while the sandbox holds payouts at converting (until a control moves them on). */
  const heldFunded = async () => {
    await s.control('/control', { payoutHold: true })
    return funded()
  }

  it('the watcher sees the real transfer: pending → converting → sent → settled', async () => {
    const { created, hash, seen } = await heldFunded()
    expect(seen).toMatchObject({ status: 'converting', depositTxHash: hash, fiatAmount: '100.00' })
    expect(await s.balance(s.srcPublic, s.config.payout.token, created.depositAddress)).toBe(parseUnits(created.depositAmount, 6))
    expect((await s.control('/bank/payout/advance', { id: created.id })).body.status).toBe('sent')
    expect((await s.control('/bank/payout/settle', { id: created.id })).body.status).toBe('settled')
    expect((await status(created.id)).status).toBe('settled')
  })

  it('on the short timer it goes on to settled by itself', async () => {
    const { created } = await funded()
    expect((await settled(status, created.id)).fiatAmount).toBe('100.00')
  })

  it('returned: a real refund to the sending wallet, minus the rail cost, with its tx hash', async () => {
    const { created } = await heldFunded()
    await s.control('/bank/payout/advance', { id: created.id })
    const before = await s.balance(s.srcPublic, s.config.payout.token, wallet)
    const answer = (await s.control('/bank/payout/return', { id: created.id, reason: 'account_closed' })).body
    expect(answer).toMatchObject({ status: 'returned', reason: 'account_closed' })
    const back = (await s.balance(s.srcPublic, s.config.payout.token, wallet)) - before
    // The deposit less the rail's 0.25 EUR at 0.92 (0.271740 USDC).
    expect(back).toBe(parseUnits(created.depositAmount, 6) - 271_740n)
    expect(answer.internal.refundAmount).toBe((Number(back) / 1e6).toString())
    const receipt = await s.srcPublic.getTransactionReceipt({ hash: answer.refundTxHash as Hex })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(created.depositAddress.toLowerCase())
    expect(await status(created.id)).toMatchObject({ status: 'returned', reason: 'account_closed', refundTxHash: answer.refundTxHash })
    // returned only from sent
    expect((await s.control('/bank/payout/return', { id: created.id })).status).toBe(409)
  })

  it('rejected, with its reason; what arrived goes back in full', async () => {
    const { created } = await heldFunded()
    await expectRejectedRefund(s, 'bank', wallet, created, status, 'compliance_check')
  })

  it('a second transfer to a spent address leaves money without an order', async () => {
    await expectOrphanedSecondTransfer(s, 'bank', wallet, await heldFunded(), status)
  })

  it('the fund control makes the same real transfer from the account wallet', async () => {
    await s.control('/control', { payoutHold: true })
    const created = (await payout()).body
    const answer = (await s.control('/bank/payout/fund', { id: created.id })).body
    expect(answer).toMatchObject({ status: 'converting', depositTxHash: expect.stringMatching(/^0x/) })
    expect(answer.internal.sender).toBe(wallet)
  })

  it('status: 404 for an unknown id, and the key is needed', async () => {
    expect(await s.v1('/bank/payout/status', { id: 'bp_none' })).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })
    expect(await s.v1('/bank/payout/status', { id: 'bp_none' }, { 'Content-Type': 'application/json', Authorization: `Basic ${KEY}` })).toMatchObject({
      status: 401,
    })
  })
})

describe('hostile answers: each once, the next answer honest again', () => {
  it('quote.crypto: a cryptoAmount that is not the crypto ask', async () => {
    await expectHostileQuoteOnce(s, 'hostilePayout', 'quote.crypto', quote, { fiatAmount: undefined, cryptoAmount: '100' }, 'cryptoAmount', ['1000', '100'])
  })

  it('quote.fiat: a fiatAmount below the fiat ask', async () => {
    await expectHostileQuoteOnce(s, 'hostilePayout', 'quote.fiat', quote, { fiatAmount: '20.00' }, 'fiatAmount', ['19.99', '20.00'])
  })

  it('create.amount: a depositAmount that is not the quote cryptoAmount (the payout itself keeps the quoted amount)', async () => {
    const q = (await quote({ fiatAmount: undefined, cryptoAmount: '100' })).body
    await s.control('/control', { hostilePayout: 'create.amount' })
    await expectHostileCreateOnce(() => s.v1('/bank/payout', { quoteId: q.quoteId, accountId, beneficiary: SEPA, reference: 'hostile-1' }))
  })

  it('refuses a name it does not know', async () => {
    expect(await s.control('/control', { hostilePayout: 'nope' })).toMatchObject({ status: 400 })
  })
})

describe('a service behind the chain (payoutUnseen)', () => {
  it('a real transfer stays unseen (pending) until the service catches up, then it is seen', async () => {
    await s.control('/control', { payoutHold: true, payoutUnseen: true })
    const created = (await payout()).body
    await s.transfer(wallet, created.depositAddress, parseUnits(created.depositAmount, 6))
    await new Promise((r) => setTimeout(r, 600))
    expect(await status(created.id)).toMatchObject({ status: 'pending' })
    expect((await status(created.id)).depositTxHash).toBeUndefined()
    await s.control('/control', { payoutUnseen: false })
    expect(
      await until(
        () => status(created.id),
        (p) => p.status !== 'pending',
      ),
    ).toMatchObject({ status: 'converting' })
  })
})
