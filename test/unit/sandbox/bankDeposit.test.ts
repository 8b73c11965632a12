// The sandbox's one-off bank deposit (/v1/bank/deposit, /v1/bank/deposit/status) as the contract
// states it: details per rail, the reference as idempotency key, every status, and a settlement
// that really mints on the destination chain.
import { parseUnits, type Address } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { makePixPayload } from '../../sandbox/routes/bankDeposit.mjs'
import { type BankStack, KEY, startBankStack, until } from './bankStack'

let s: BankStack
let user: { accountId: string; walletId: string }
let wallet: Address
beforeAll(async () => {
  s = await startBankStack()
  wallet = s.config.accounts[8]
  const { accountId, walletId } = await s.onboard(wallet)
  user = { accountId, walletId }
}, 30_000)
afterAll(() => s?.stop())
beforeEach(async () => {
  await s.reset()
  await s.control('/control', { bankDepositStepMs: 30 })
})

const create = (extra: Record<string, unknown> = {}) => s.v1('/bank/deposit', { ...user, fiatCurrency: 'EUR', fiatAmount: '250.00', ...extra })
const status = async (id: string) => (await s.v1('/bank/deposit/status', { id })).body

describe('creation', () => {
  it('answers id, details, rail, expiresAt and awaiting_funds, exactly', async () => {
    const { status: code, body } = await create()
    expect(code).toBe(200)
    expect(Object.keys(body).sort()).toEqual(['details', 'expiresAt', 'id', 'rail', 'status'])
    expect(body.status).toBe('awaiting_funds')
    expect(body.rail).toBe('sepa_instant')
    expect(body.details).toMatchObject({ iban: expect.stringMatching(/^DE\d{20}$/), bic: 'SBXBDEFFXXX', reference: expect.stringMatching(/^SBX-/) })
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now())
  })

  it('gives the details of each rail: UK sort code, CLABE, PIX key and payload', async () => {
    const gbp = (await create({ fiatCurrency: 'GBP' })).body
    expect(gbp.rail).toBe('faster_payments')
    expect(gbp.details).toMatchObject({ accountNumber: expect.stringMatching(/^\d{8}$/), sortCode: expect.stringMatching(/^\d{6}$/) })
    const mxn = (await create({ fiatCurrency: 'MXN' })).body
    expect(mxn.rail).toBe('spei')
    expect(mxn.details.clabe).toMatch(/^\d{18}$/)
    const brl = (await create({ fiatCurrency: 'BRL', fiatAmount: '120.5' })).body
    expect(brl.rail).toBe('pix')
    expect(brl.details.pixPayload).toContain('br.gov.bcb.pix')
    expect(brl.details.pixPayload).toContain('5406120.50')
    // The CRC closes the payload: recomputing it over everything before gives the same.
    const payload: string = brl.details.pixPayload
    expect(payload.slice(-8, -4)).toBe('6304')
    expect(payload).toMatch(/^000201/)
    expect(
      makePixPayload({
        key: brl.details.pixKey,
        amount: '120.50',
        name: 'Stablecoin Sandbox Ltd',
        city: 'SAO PAULO',
        txid: brl.details.reference.replace(/-/g, ''),
      }),
    ).toBe(payload)
  })

  it('refuses: no one-off rail (422 no_route), unknown account (404), over the rail maximum, an undefined field', async () => {
    expect(await create({ fiatCurrency: 'USD' })).toMatchObject({ status: 422, body: { error: { code: 'no_route' } } })
    expect(await create({ accountId: 'acc_nope' })).toMatchObject({ status: 404, body: { error: { code: 'account_not_found' } } })
    expect(await create({ walletId: 'wal_other' })).toMatchObject({ status: 404, body: { error: { code: 'account_not_found' } } })
    expect(await create({ fiatAmount: '100000.01' })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringContaining('fiatAmount') } },
    })
    expect(await create({ fiatAmount: '25.505' })).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
    expect(await create({ reference: 'x'.repeat(65) })).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('reference') } } })
    expect(await create({ walletAddress: wallet })).toMatchObject({ status: 400, body: { error: { message: 'walletAddress: not a field of this request' } } })
  })

  it('a repeat with the same reference returns the same deposit; without it, a new one', async () => {
    const first = (await create({ reference: 'order-17' })).body
    const again = (await create({ reference: 'order-17' })).body
    expect(again).toEqual(first)
    // The widget's path: the partner backend forwards it with the key, the reference scoped to its
    // user: a repeat through it is one deposit, and never the one another caller made under the same words.
    const viaKit = await s.partner('/bank/deposit', { ...user, fiatCurrency: 'EUR', fiatAmount: '250.00', reference: 'order-17' })
    expect(await s.partner('/bank/deposit', { ...user, fiatCurrency: 'EUR', fiatAmount: '250.00', reference: 'order-17' })).toMatchObject({
      status: 200,
      body: { id: viaKit.body.id },
    })
    expect(viaKit.body.id).not.toBe(first.id)
    expect((await create()).body.id).not.toBe(first.id)
  })

  it('needs the key and the bank permission', async () => {
    expect(await s.v1('/bank/deposit', { ...user, fiatCurrency: 'EUR', fiatAmount: '10' }, { 'Content-Type': 'application/json' })).toMatchObject({
      status: 401,
      body: { error: { code: 'unauthorized' } },
    })
    expect(await s.v1('/bank/deposit/status', { id: 'x' }, { Authorization: `Bearer ${KEY}x`, 'Content-Type': 'application/json' })).toMatchObject({
      status: 401,
    })
    await s.control('/control', { keyPermissions: ['bank-payouts'] })
    expect(await create()).toMatchObject({ status: 403, body: { error: { code: 'permission_denied' } } })
    expect(await s.partner('/bank/deposit', { ...user, fiatCurrency: 'EUR', fiatAmount: '10' })).toMatchObject({
      status: 403,
      body: { error: { code: 'permission_denied' } },
    })
  })
})

describe('statuses', () => {
  it('exact amount: awaiting_funds → received → converting → settled, minted to the wallet on the destination chain', async () => {
    await s.control('/control', { bankDepositHold: true })
    const { id } = (await create()).body
    const before = await s.balance(s.dstPublic, s.config.destination.token, wallet)
    expect((await s.control('/bank/deposit/transfer', { id })).body).toMatchObject({ status: 'received', fiatAmount: '250.00' })
    expect(await status(id)).toMatchObject({ status: 'received', fiatAmount: '250.00' })
    await s.control('/bank/deposit/advance', { id })
    expect((await status(id)).status).toBe('converting')
    await s.control('/bank/deposit/advance', { id })
    const done = await status(id)
    expect(Object.keys(done).sort()).toEqual(['cryptoAmount', 'cryptoCurrency', 'fiatAmount', 'id', 'settlementTxHash', 'status', 'updatedAt'])
    expect(done).toMatchObject({ status: 'settled', fiatAmount: '250.00', cryptoCurrency: 'USDC' })
    // 250 EUR at 0.92 EUR per USDC, less 1 %.
    expect(done.cryptoAmount).toBe('269.021739')
    const receipt = await s.dstPublic.getTransactionReceipt({ hash: done.settlementTxHash })
    expect(receipt.status).toBe('success')
    expect((await s.balance(s.dstPublic, s.config.destination.token, wallet)) - before).toBe(parseUnits(done.cryptoAmount, 6))
  })

  it('a different amount still settles, for what arrived (on the short timer)', async () => {
    const { id } = (await create()).body
    await s.control('/bank/deposit/transfer', { id, amount: '180.40' })
    const done = await until(
      () => status(id),
      (d) => d.status === 'settled',
    )
    // 180.40 / 0.92 = 196.086956 USDC, less 1 %.
    expect(done).toMatchObject({ fiatAmount: '180.40', cryptoAmount: '194.126087' })
  })

  it('below the rail minimum: returned, with the reason', async () => {
    const { id } = (await create()).body
    await s.control('/bank/deposit/transfer', { id, amount: '0.50' })
    expect(await status(id)).toMatchObject({ status: 'returned', fiatAmount: '0.50', reason: 'below_minimum' })
    expect((await s.control('/bank/deposit/transfer', { id })).status).toBe(409)
  })

  it('details expire (expired), then a transfer in flight lands: expired → received → settled', async () => {
    const { id } = (await create()).body
    expect((await s.control('/bank/deposit/expire', { id })).body.status).toBe('expired')
    expect(await status(id)).toMatchObject({ status: 'expired' })
    expect((await s.control('/bank/deposit/transfer', { id })).body.status).toBe('received')
    expect(
      (
        await until(
          () => status(id),
          (d) => d.status === 'settled',
        )
      ).fiatAmount,
    ).toBe('250.00')
  })

  it('details expire on their own at expiresAt', async () => {
    await s.control('/control', { bankDepositTtlSeconds: 0.05 })
    const { id } = (await create()).body
    await new Promise((r) => setTimeout(r, 80))
    expect((await status(id)).status).toBe('expired')
  })

  it('status of an unknown id is 404 not_found', async () => {
    expect(await s.v1('/bank/deposit/status', { id: 'bd_none' })).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })
    expect(await s.v1('/bank/deposit/status', {})).toMatchObject({ status: 400, body: { error: { message: 'id: required' } } })
  })
})
