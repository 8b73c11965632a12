import { describe, expect, it } from 'vitest'
import { depositEvents } from '../../../../src/flows/deposit/hostEvents'
import type { DepositState, Tracking } from '../../../../src/flows/deposit/machine'
import { enDeposit } from '../../../../src/i18n/en-deposit'
import { addEnglish } from '../../../../src/i18n/i18n'
import { configFrom } from '../../helpers/links'
import { plainQuote, plainSession, summaryOf } from '../../helpers/deposit'

addEnglish(enDeposit)
const config = configFrom({ apiBase: 'https://api.example.com' })
const session = plainSession
const form = { amount: '10', source: 0 }
const quote = plainQuote('10', '9.99', '0.01')

describe('deposit events: refused quote, preview, batch and unreadable chain', () => {
  const quoting: DepositState = { tag: 'quoting', form, session, amount: '10', requote: false }

  it('a refused quote is one error event with code quote_rejected, the rule as detail, and what the buyer read', () => {
    const refused: DepositState = { tag: 'form', form, session, error: { kind: 'rejected', rejection: { rule: 'approval.amount' } } }
    const events = depositEvents(quoting, refused, config)
    expect(events).toContainEqual({
      name: 'error',
      payload: {
        flow: 'deposit',
        code: 'quote_rejected',
        detail: 'approval.amount',
        message: 'We could not check this price, so nothing was sent. Get a new price to continue.',
      },
    })
    expect(depositEvents(refused, { ...refused }, config)).toEqual([])
  })

  it('a simulation that takes more says how much, in the event as on screen', () => {
    const sending: DepositState = { tag: 'quote', form, session, amount: '10', quote, quotedAt: 1, work: 'checking' }
    const refused: DepositState = {
      tag: 'form',
      form,
      session,
      error: { kind: 'rejected', rejection: { rule: 'simulation.outflow', taken: '20 USDC', asked: '10 USDC' } },
    }
    const [, error] = depositEvents(sending, refused, config)
    expect(error.payload).toMatchObject({
      code: 'quote_rejected',
      detail: 'simulation.outflow',
      message: expect.stringContaining('would take 20 USDC from your wallet, not the 10 USDC'),
    })
  })

  it('a batch is named by its calls id until the wallet tells the hash', () => {
    const tracking: Tracking = {
      provider: 'p',
      chainId: 8453,
      txHash: '',
      callsId: '0xbatch',
      summary: summaryOf('10', '9.99', '0.01'),
      createdAt: 0,
    }
    const sending: DepositState = { tag: 'quote', form, session, amount: '10', quote, quotedAt: 1, work: 'batching' }
    const batching: DepositState = { tag: 'tracking', tracking, phase: 'batching', attempt: 0, session }
    expect(depositEvents(sending, batching, config)).toContainEqual({ name: 'submitted', payload: { flow: 'deposit', id: '0xbatch' } })
  })
})
