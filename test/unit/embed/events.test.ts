import { describe, expect, it } from 'vitest'
import { cardEvents } from '../../../src/flows/card/hostEvents'
import type { CardState } from '../../../src/flows/card/machine'
import { depositEvents } from '../../../src/flows/deposit/hostEvents'
import type { DepositState } from '../../../src/flows/deposit/machine'
import { enDeposit } from '../../../src/i18n/en-deposit'
import { addEnglish } from '../../../src/i18n/i18n'
import { configFrom } from '../helpers/links'
import { plainQuote, plainSession, plainTracking } from '../helpers/deposit'

addEnglish(enDeposit)
const config = configFrom({
  apiBase: 'https://api.example.com',
  sources: [
    { chainId: 8453, token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 },
    { chainId: 8453, token: '0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42', symbol: 'EURC', decimals: 6 },
  ],
  destination: { chainId: 42161, token: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', symbol: 'USDT', decimals: 6 },
})

const session = plainSession
const quote = plainQuote('10', '9.99', '0.01')
const tracking = plainTracking(`0x${'a'.repeat(64)}`, '10', '9.99', '0.01')
const form = { amount: '10', source: 0 }
const names = (events: { name: string }[]) => events.map((e) => e.name)

describe('deposit events', () => {
  const quoting: DepositState = { tag: 'quoting', form, session, amount: '10', requote: false }
  const quoted: DepositState = { tag: 'quote', form, session, amount: '10', quote, quotedAt: 0, work: 'idle' }
  const sending: DepositState = { ...quoted, work: 'sending' }
  const confirming: DepositState = { tag: 'tracking', tracking, phase: 'confirming', attempt: 0, session }
  const delivering: DepositState = { ...confirming, phase: 'delivering' }
  const done: DepositState = { tag: 'result', outcome: 'done', tracking: { ...tracking, deliveredHash: '0xd' }, session }

  it('tells screen, quote, submitted, status and complete, each once, in order', () => {
    expect(names(depositEvents(quoting, quoted, config))).toEqual(['screen', 'quote'])
    expect(depositEvents(quoted, sending, config)).toEqual([])
    expect(names(depositEvents(sending, confirming, config))).toEqual(['screen', 'submitted', 'status'])
    expect(names(depositEvents(confirming, delivering, config))).toEqual(['status'])
    expect(depositEvents(delivering, { ...delivering, waiting: true }, config)).toEqual([])
    const end = depositEvents(delivering, done, config)
    expect(names(end)).toEqual(['screen', 'status', 'complete'])
    expect(end[2].payload).toEqual({
      flow: 'deposit',
      id: tracking.txHash,
      outcome: 'done',
      amount: '9.99',
      currency: 'USDC',
      txHash: '0xd',
      deposit: { provider: 'p', txHash: tracking.txHash, chainId: 8453 },
    })
  })

  it('reports a problem once, not on every later change', () => {
    const rejected: DepositState = { ...quoted, notice: { kind: 'wallet', problem: 'rejected' } }
    expect(depositEvents(sending, rejected, config)).toEqual([
      {
        name: 'error',
        payload: { flow: 'deposit', code: 'rejected', message: 'You declined in your wallet. Nothing was sent; you can confirm again when ready.' },
      },
    ])
    expect(depositEvents(rejected, { ...rejected }, config)).toEqual([])
  })

  it('a notice is told in the words the buyer read, with the chain and the tokens filled in', () => {
    const wrong: DepositState = { ...quoted, notice: { kind: 'wrongChain' } }
    expect(depositEvents(sending, wrong, config)[0].payload).toMatchObject({
      code: 'wrongChain',
      message: 'Your wallet is on another network. Switch it to Base and confirm again.',
    })
    const short: DepositState = { ...quoted, form: { ...form, source: 1 }, notice: { kind: 'insufficient', balance: '3' } }
    expect(depositEvents(sending, short, config)[0].payload).toMatchObject({
      code: 'insufficient',
      message: 'Your balance is 3 EURC, less than the 10 EURC this deposit needs.',
    })
  })

  it('names the tokens the partner configured in the quote event', () => {
    const fromEurc: DepositState = { ...quoted, form: { ...form, source: 1 } }
    expect(depositEvents(quoting, fromEurc, config)[1].payload).toMatchObject({ currencyIn: 'EURC', currencyOut: 'USDT', amountIn: '10' })
  })
})

describe('card events', () => {
  const purchase = { id: 'cp_1', environment: 'sandbox', currency: 'EUR', total: '50', cryptoAmount: '0.01', cryptoCurrency: 'ETH', createdAt: 0 }
  it('status only when it changes; complete at the end', () => {
    const t0: CardState = { tag: 'tracking', purchase, attempt: 0 }
    const t1: CardState = { ...t0, status: { status: 'pending', environment: 'sandbox' } }
    const t2: CardState = { ...t0, status: { status: 'pending', environment: 'sandbox' }, waiting: true }
    const end: CardState = { tag: 'result', purchase, status: { status: 'completed', environment: 'sandbox', cryptoAmount: '0.01', cryptoCurrency: 'ETH' } }
    expect(names(cardEvents(t0, t1))).toEqual(['status'])
    expect(cardEvents(t1, t2)).toEqual([])
    expect(names(cardEvents(t2, end))).toEqual(['screen', 'status', 'complete'])
  })

  it('an error carries the words the buyer read, with the service’s detail filled in, and keeps code and detail', () => {
    const t0: CardState = { tag: 'tracking', purchase, attempt: 0 }
    const failed: CardState = { ...t0, problem: { key: 'error.invalid', code: 'invalid_request', detail: 'amount must be positive' } }
    expect(cardEvents(t0, failed)).toEqual([
      {
        name: 'error',
        payload: {
          flow: 'card',
          code: 'invalid_request',
          message: 'The service did not accept this: amount must be positive',
          detail: 'amount must be positive',
        },
      },
    ])
  })
})
