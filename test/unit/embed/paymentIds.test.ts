// Issue 29: every event that ends a payment (and each one past its point of no return) carries the
// ids a server needs to look the payment up; never a secret.
import { describe, expect, it } from 'vitest'
import { bankDepositEvents } from '../../../src/flows/bankDeposit/hostEvents'
import type { BankDepositState } from '../../../src/flows/bankDeposit/machine'
import { cardEvents } from '../../../src/flows/card/hostEvents'
import type { CardState } from '../../../src/flows/card/machine'
import { depositEvents } from '../../../src/flows/deposit/hostEvents'
import type { DepositState, Tracking } from '../../../src/flows/deposit/machine'
import { onboardingEvents } from '../../../src/flows/onboarding/hostEvents'
import type { OnboardingState } from '../../../src/flows/onboarding/machine'
import { payoutEvents } from '../../../src/flows/payout/hostEvents'
import type { PayoutState } from '../../../src/flows/payout/machine'
import type { WidgetEvent } from '../../../src/config/protocol'
import { enDeposit } from '../../../src/i18n/en-deposit'
import { addEnglish } from '../../../src/i18n/i18n'
import { configFrom } from '../helpers/links'

addEnglish(enDeposit)
const TOKEN = 'pt_secret_bearer_token_1234567890'
const config = configFrom({ apiBase: 'https://api.example.com', partnerBase: 'https://shop.example.com/api', partnerToken: TOKEN })

const payloadOf = (events: WidgetEvent[], name: WidgetEvent['name']) => events.find((e) => e.name === name)?.payload as Record<string, unknown> | undefined

describe('crypto deposit events carry provider, txHash and chainId (and the kit id once the kit answered)', () => {
  const session = { wallet: { kind: 'injected' as const, id: 'w', name: 'W', rdns: 'w' }, account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
  const txHash = `0x${'a'.repeat(64)}`
  const tracking: Tracking = {
    provider: 'relay',
    chainId: 8453,
    txHash,
    summary: { amountIn: '10', amountOut: '9.99', fee: '0.01', sourceChainId: 8453, destChainId: 42161, sourceSymbol: 'USDC', destSymbol: 'USDC' },
    createdAt: 0,
  }
  const sending = { tag: 'quote', form: { amount: '10', source: 0 }, session, amount: '10', quotedAt: 1, work: 'sending' } as unknown as DepositState
  const confirming: DepositState = { tag: 'tracking', tracking, phase: 'confirming', attempt: 0, session }
  const delivering: DepositState = { ...confirming, phase: 'delivering' }
  const lookup = { provider: 'relay', txHash, chainId: 8453 }

  it('submitted, status and complete name the sent transaction as the kit takes it', () => {
    const sent = depositEvents(sending, confirming, config)
    expect(payloadOf(sent, 'submitted')).toEqual({ flow: 'deposit', id: txHash, deposit: lookup })
    expect(payloadOf(sent, 'status')).toMatchObject({ deposit: lookup })
    const done: DepositState = { tag: 'result', outcome: 'done', tracking: { ...tracking, deliveredHash: '0xd' }, session }
    // `txHash` stays the delivery on the destination chain; the deposit's own hash is in `deposit`.
    expect(payloadOf(depositEvents(delivering, done, config), 'complete')).toEqual({
      flow: 'deposit',
      id: txHash,
      outcome: 'done',
      amount: '9.99',
      currency: 'USDC',
      txHash: '0xd',
      deposit: lookup,
    })
  })

  it("the kit's id rides along once the kit answered for this very hash, never for a replaced one", () => {
    const answered: Tracking = { ...tracking, kit: { txHash, id: 'dep_kit_1' } }
    const done: DepositState = { tag: 'result', outcome: 'done', tracking: answered, session }
    expect(payloadOf(depositEvents({ ...delivering, tracking: answered }, done, config), 'complete')).toMatchObject({
      deposit: { ...lookup, kitId: 'dep_kit_1' },
    })
    const repriced: Tracking = { ...tracking, txHash: `0x${'b'.repeat(64)}`, kit: { txHash, id: 'dep_kit_1' } }
    const after = payloadOf(depositEvents(delivering, { tag: 'result', outcome: 'done', tracking: repriced, session }, config), 'complete')
    expect(after?.deposit).toEqual({ provider: 'relay', txHash: repriced.txHash, chainId: 8453 })
  })

  it('a batch without its hash yet is named by its calls id; the status that learns the hash carries the lookup', () => {
    const held: Tracking = { ...tracking, txHash: '', callsId: '0xbatch' }
    const batching: DepositState = { tag: 'tracking', tracking: held, phase: 'batching', attempt: 0, session }
    expect(payloadOf(depositEvents(sending, batching, config), 'submitted')).toEqual({ flow: 'deposit', id: '0xbatch' })
    const known: DepositState = { ...batching, phase: 'confirming', tracking: { ...held, txHash } }
    expect(payloadOf(depositEvents(batching, known, config), 'status')).toEqual({ flow: 'deposit', id: txHash, status: 'confirming', deposit: lookup })
  })

  it('carries no secret: the partner token is in no payload', () => {
    const all = [
      depositEvents(sending, confirming, config),
      depositEvents(confirming, delivering, config),
      depositEvents(delivering, { tag: 'result', outcome: 'done', tracking, session }, config),
    ]
    expect(JSON.stringify(all)).not.toContain(TOKEN)
  })
})

describe('the bank flow names its virtual account as the contract does', () => {
  const record = {
    accountId: 'acc_1',
    walletId: 'wal_1',
    virtualAccountId: 'va_1',
    details: { iban: 'DE89370400440532013000', reference: 'SBX-1' },
    feeBps: 100,
  }
  const ids = { accountId: 'acc_1', walletId: 'wal_1', virtualAccountId: 'va_1' }
  const opening = { tag: 'opening', record: { accountId: 'acc_1', walletId: 'wal_1' }, kycPending: false, attempt: 0 } as OnboardingState
  const account: OnboardingState = { tag: 'tracking', record, attempt: 0 }

  it('submitted (the account is open) and complete (funded) carry accountId, walletId and virtualAccountId', () => {
    expect(payloadOf(onboardingEvents(opening, account), 'submitted')).toEqual({ flow: 'onboarding', id: 'va_1', ...ids })
    const funded: OnboardingState = { tag: 'result', record, deliveredAmount: '100' }
    expect(payloadOf(onboardingEvents(account, funded), 'complete')).toEqual({ flow: 'onboarding', id: 'va_1', outcome: 'funded', amount: '100', ...ids })
  })
})

describe('card, one-off bank deposit and payout: `id` is the service id their status read takes', () => {
  it('card purchase: submitted at the redirect and complete carry the purchase id', () => {
    const purchase = { id: 'cp_1', environment: 'sandbox', currency: 'EUR', total: '50', cryptoAmount: '0.01', cryptoCurrency: 'ETH', createdAt: 0 }
    const redirect = { tag: 'redirect', purchase } as unknown as CardState
    expect(payloadOf(cardEvents({ tag: 'form' } as unknown as CardState, redirect), 'submitted')).toEqual({ flow: 'card', id: 'cp_1' })
    const end = { tag: 'result', purchase, status: { status: 'completed', environment: 'sandbox', cryptoAmount: '0.01', cryptoCurrency: 'ETH' } } as CardState
    expect(payloadOf(cardEvents({ tag: 'tracking', purchase, attempt: 0 }, end), 'complete')).toMatchObject({ id: 'cp_1' })
  })

  it('one-off bank deposit: submitted and complete carry the deposit id', () => {
    const deposit = { id: 'bd_1' }
    const following = { tag: 'tracking', deposit, status: { id: 'bd_1', status: 'awaiting_funds' }, attempt: 0 } as unknown as BankDepositState
    expect(payloadOf(bankDepositEvents({ tag: 'form' } as BankDepositState, following), 'submitted')).toEqual({ flow: 'bankDeposit', id: 'bd_1' })
    const done = {
      tag: 'result',
      deposit,
      status: { id: 'bd_1', status: 'settled', cryptoAmount: '10', cryptoCurrency: 'USDC' },
    } as unknown as BankDepositState
    expect(payloadOf(bankDepositEvents(following, done), 'complete')).toMatchObject({ id: 'bd_1', outcome: 'settled' })
  })

  it('payout: submitted (created, to be funded) and complete carry the payout id', () => {
    const record = { id: 'po_1', fiatAmount: '20.00', fiatCurrency: 'EUR', txHash: `0x${'c'.repeat(64)}` }
    const funding = { tag: 'funding', record, work: 'idle' } as unknown as PayoutState
    expect(payloadOf(payoutEvents({ tag: 'beneficiary' } as unknown as PayoutState, funding, config), 'submitted')).toEqual({ flow: 'payout', id: 'po_1' })
    const result = { tag: 'result', record, status: { id: 'po_1', status: 'settled' } } as unknown as PayoutState
    expect(payloadOf(payoutEvents({ tag: 'tracking', record, attempt: 0 } as unknown as PayoutState, result, config), 'complete')).toMatchObject({
      id: 'po_1',
      outcome: 'settled',
    })
  })
})
