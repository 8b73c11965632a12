import { maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import type { DepositQuote, DepositQuoteRequest } from '../../../../src/api/schemas'
import { parseOptions } from '../../../../src/config/config'
import { type GuardRule, guardQuote } from '../../../../src/flows/deposit/guard'
// @ts-expect-error: plain ESM module of the sandbox
import { HOSTILE_RULES } from '../../../../test/sandbox/routes/deposit.mjs'
import { approveData, depositData, transferData, transferFromData } from '../../helpers/calldata'
import { configFrom } from '../../helpers/links'
import { BUYER, DEAD, DEPOSITOR, USDC, WETH } from '../../helpers/fakeChain'

const DEST_USDC = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const ROUTER = '0x2222222222222222222222222222222222222222'
const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

const config = configFrom({
  apiBase: 'http://127.0.0.1:8787',
  chains: [{ id: 8453, name: 'Base', rpcUrl: 'http://127.0.0.1:8545', routers: [ROUTER, DEPOSITOR] }],
  sources: [
    { chainId: 8453, token: USDC, symbol: 'USDC', decimals: 6 },
    { chainId: 8453, token: NATIVE, symbol: 'ETH', decimals: 18 },
  ],
})

const request: DepositQuoteRequest = {
  source: { chainId: 8453, token: USDC, address: BUYER },
  destination: { chainId: 42161, token: DEST_USDC, address: BUYER },
  amount: '25.50',
  method: 'crypto',
}
const nativeRequest: DepositQuoteRequest = { ...request, source: { ...request.source, token: NATIVE }, amount: '0.5' }

const quoteId = `0x${'ab'.repeat(32)}` as const
const deposit = (amount: bigint) => depositData(USDC, amount, quoteId)
const transfer = transferData
const transferFrom = (from: string, amount: bigint) => transferFromData(from, DEPOSITOR, amount)

const UNITS = 25_500_000n

/** Exactly the quote the sandbox answers for 25.50 USDC: with an approval, deposit on the Depositor. */
const good: DepositQuote = {
  provider: 'sandbox-relay',
  amountIn: '25.5',
  amountOut: '25.4745',
  fee: '0.0255',
  expiresAt: '2026-11-23T12:00:00.000Z',
  approval: { token: USDC, spender: DEPOSITOR, amount: UNITS.toString() },
  transaction: { chainId: 8453, to: DEPOSITOR, data: deposit(UNITS), value: '0' },
}
const tx = (patch: Partial<DepositQuote['transaction']>): DepositQuote => ({ ...good, transaction: { ...good.transaction, ...patch } })
const approval = (patch: Partial<NonNullable<DepositQuote['approval']>>): DepositQuote => ({ ...good, approval: { ...good.approval!, ...patch } })
const direct = (data: string, to = USDC): DepositQuote => ({ ...good, approval: undefined, transaction: { ...good.transaction, to, data } })

const hostile: Array<[string, DepositQuote, GuardRule, DepositQuoteRequest?]> = [
  ['another chain (mainnet)', tx({ chainId: 1 }), 'chain'],
  ['another chain (the destination)', tx({ chainId: 42161 }), 'chain'],
  ['amountIn one base unit higher', { ...good, amountIn: '25.500001' }, 'amount'],
  ['amountIn one base unit lower', { ...good, amountIn: '25.499999' }, 'amount'],
  ['amountIn with more decimals than the token has', { ...good, amountIn: '25.5000001' }, 'amount'],
  ['amountIn a thousand times higher', { ...good, amountIn: '25500' }, 'amount'],
  ['value > 0 on an ERC-20 deposit', tx({ value: '500000000000000000' }), 'value'],
  ['value of one wei on an ERC-20 deposit', tx({ value: '1' }), 'value'],
  ['a target at the zero address', tx({ to: '0x0000000000000000000000000000000000000000' }), 'target'],
  ["a target at the buyer's own address", tx({ to: BUYER.toLowerCase() }), 'target'],
  ['an approval for another token (WETH)', approval({ token: WETH }), 'approval.token'],
  ['an unlimited approval (2^256-1)', approval({ amount: maxUint256.toString() }), 'approval.amount'],
  ['an approval of amountIn + 1', approval({ amount: (UNITS + 1n).toString() }), 'approval.amount'],
  ['an approval below amountIn', approval({ amount: (UNITS - 1n).toString() }), 'approval.amount'],
  ['a spender that is neither the target nor a router', approval({ spender: DEAD }), 'approval.spender'],
  [
    'the whole hostile quote of the issue',
    {
      ...good,
      approval: { token: WETH, spender: DEAD, amount: maxUint256.toString() },
      transaction: { chainId: 1, to: DEAD, data: '0x', value: '500000000000000000' },
    },
    'chain',
  ],
  ['a transfer in data, on another token', direct(transfer(DEPOSITOR, UNITS), WETH), 'transfer.token'],
  ['a transfer in data, of twice the amount', direct(transfer(DEPOSITOR, UNITS * 2n)), 'transfer.amount'],
  ['a transfer in data, of one base unit more', direct(transfer(DEPOSITOR, UNITS + 1n)), 'transfer.amount'],
  ['a transferFrom in data, of another amount', direct(transferFrom(BUYER, UNITS + 1n)), 'transfer.amount'],
  ['a transferFrom in data, from someone else', direct(transferFrom(DEAD, UNITS)), 'transfer.from'],
  ['an unlimited approve hidden in data', direct(approveData(DEAD, maxUint256)), 'data.approve'],
  ['an approve in data on another contract', direct(approveData(DEAD, UNITS), WETH), 'data.approve'],
  ['a transfer selector with truncated arguments', direct('0xa9059cbb0000'), 'data.malformed'],
  ["another call on the buyer's token (a permit)", direct('0xd505accf'), 'data.token'],
  ['a source token the embedding never offered', good, 'source', { ...request, source: { ...request.source, token: WETH } }],
  [
    'a native deposit carrying an approval',
    {
      ...good,
      amountIn: '0.5',
      approval: { token: NATIVE, spender: DEPOSITOR, amount: '500000000000000000' },
      transaction: { ...good.transaction, value: '500000000000000000' },
    },
    'approval.native',
    nativeRequest,
  ],
  [
    'a native deposit whose value is not amountIn',
    { ...good, amountIn: '0.5', approval: undefined, transaction: { ...good.transaction, value: '500000000000000001' } },
    'value',
    nativeRequest,
  ],
]

describe('guardQuote refuses hostile quotes, each with its rule', () => {
  it('has at least 15 of them', () => expect(hostile.length).toBeGreaterThanOrEqual(15))

  it.each(hostile)('%s → %s', (_name, quote, rule, req = request) => {
    expect(guardQuote(req, quote, config)).toEqual({ ok: false, rule })
  })
})

describe('guardQuote lets honest quotes through', () => {
  it("the sandbox's quote, with an approval", () => {
    expect(guardQuote(request, good, config)).toEqual({ ok: true })
  })

  it("the sandbox's quote without an approval (an allowance already in place)", () => {
    expect(guardQuote(request, { ...good, approval: undefined }, config)).toEqual({ ok: true })
  })

  it('amounts written differently but equal ("25.50" asked, "25.500000" quoted), addresses in any case', () => {
    const quote = { ...approval({ token: USDC.toLowerCase(), spender: DEPOSITOR.toUpperCase().replace('0X', '0x') }), amountIn: '25.500000' }
    expect(guardQuote(request, quote, config)).toEqual({ ok: true })
  })

  it("a spender on the chain's routers allowlist", () => {
    expect(guardQuote(request, approval({ spender: ROUTER }), config)).toEqual({ ok: true })
  })

  it('a direct transfer of exactly amountIn of the source token to a deposit address', () => {
    expect(guardQuote(request, direct(transfer(DEPOSITOR, UNITS)), config)).toEqual({ ok: true })
  })

  it('a native deposit of exactly amountIn in value, without an approval', () => {
    const quote = { ...good, amountIn: '0.5', approval: undefined, transaction: { ...good.transaction, value: '500000000000000000' } }
    expect(guardQuote(nativeRequest, quote, config)).toEqual({ ok: true })
  })
})

describe("the sandbox's hostileQuote control breaks exactly the rule it names", () => {
  // As on the sandbox's two anvil chains: both tokens are their deployer's first contract, one address.
  const addresses = { sourceToken: USDC, destToken: USDC, depositor: DEPOSITOR }
  const guardRules = Object.keys(HOSTILE_RULES).filter((r) => !r.startsWith('simulation.'))
  it.each(guardRules)('%s', (rule) => {
    const broken = HOSTILE_RULES[rule](good, { units: UNITS, deposit, addresses }) as DepositQuote
    expect(guardQuote(request, broken, config)).toEqual({ ok: false, rule })
  })
  it.each(['simulation.outflow', 'simulation.revert'])('%s passes the guard (the simulation catches it)', (rule) => {
    const broken = HOSTILE_RULES[rule](good, { units: UNITS, deposit, addresses }) as DepositQuote
    expect(guardQuote(request, broken, config)).toEqual({ ok: true })
  })
})

describe('grants, permits and bundles are refused on any contract, each with its rule', () => {
  const OTHER = '0x3333333333333333333333333333333333333333'
  it.each([
    ['0x87517c45', 'data.permit2'],
    ['0x2b67b570', 'data.permit2'],
    ['0xd505accf', 'data.permit'],
    ['0x8fcbaf0c', 'data.permit'],
    ['0xa22cb465', 'data.approvalForAll'],
    ['0xd73dd623', 'data.increaseApproval'],
    ['0x959b8c3f', 'data.operator'],
    ['0xac9650d8', 'data.multicall'],
    ['0x5ae401dc', 'data.multicall'],
    ['0x1f0464d1', 'data.multicall'],
    ['0xf242432a', 'data.nftTransfer'],
  ])('%s → %s', (selector, rule) => {
    expect(guardQuote(request, direct(`${selector}${'00'.repeat(64)}`, ROUTER), config)).toEqual({ ok: false, rule })
    expect(guardQuote(request, direct(`${selector}${'00'.repeat(64)}`, OTHER), config)).toEqual({ ok: false, rule })
  })

  it("with a routers allowlist, a target that is neither a router nor the approval's spender is refused", () => {
    const strict = parseOptions({
      apiBase: 'http://127.0.0.1:8787',
      chains: [{ id: 8453, name: 'Base', rpcUrl: 'http://127.0.0.1:8545', routers: [ROUTER] }],
      sources: [{ chainId: 8453, token: USDC, symbol: 'USDC', decimals: 6 }],
    })
    if (!strict.ok) throw new Error(strict.problem)
    expect(guardQuote(request, { ...good, approval: undefined }, strict.config)).toEqual({ ok: false, rule: 'target.router' })
    expect(guardQuote(request, direct(deposit(UNITS), OTHER), strict.config)).toEqual({ ok: false, rule: 'target.router' })
    expect(guardQuote(request, good, strict.config)).toEqual({ ok: true })
    expect(guardQuote(request, direct(deposit(UNITS), ROUTER), strict.config)).toEqual({ ok: true })
  })
})
