import { describe, expect, it, vi } from 'vitest'
import { type DepositEvent, type DepositState, transition } from '../../../../src/flows/deposit/machine'
import { createEffectRunner } from '../../../../src/kernel/effects'
import { plainQuote, plainSession, plainTracking } from '../../helpers/deposit'

const ctx = { sourceDecimals: [6], decimalMark: '.' as const }
const tracking = plainTracking(`0x${'b'.repeat(64)}`, '1', '0.99', '0.01')
const session = plainSession
const form = { amount: '1', source: 0 }
const run = (s: DepositState, ...events: DepositEvent[]) => events.reduce((x, e) => transition(x, e, ctx), s)
const quote = plainQuote('1', '0.99', '0.01')

describe('a deposit in two tabs', () => {
  it('a tab that has not sent adopts the deposit another tab sent', () => {
    const atForm: DepositState = { tag: 'form', form, session }
    expect(run(atForm, { type: 'ADOPT', tracking })).toEqual({ tag: 'tracking', tracking, phase: 'confirming', attempt: 0 })
    const idle: DepositState = { tag: 'quote', form, session, amount: '1', quote, quotedAt: 0, work: 'idle' }
    expect(run(idle, { type: 'ADOPT', tracking })).toMatchObject({ tag: 'tracking' })
  })

  it('a tab in the middle of sending, or already following, is not taken over', () => {
    const sending: DepositState = { tag: 'quote', form, session, amount: '1', quote, quotedAt: 0, work: 'sending' }
    expect(run(sending, { type: 'ADOPT', tracking })).toBe(sending)
    const own: DepositState = { tag: 'tracking', tracking: { ...tracking, txHash: `0x${'c'.repeat(64)}` }, phase: 'delivering', attempt: 0 }
    expect(run(own, { type: 'ADOPT', tracking })).toBe(own)
  })

  it('records which tab follows, and "elsewhere" as a notice when sending is taken', () => {
    const t: DepositState = { tag: 'tracking', tracking, phase: 'confirming', attempt: 0 }
    expect(run(t, { type: 'ELSEWHERE', tab: 'elsewhere' })).toMatchObject({ tab: 'elsewhere' })
    const held = run(t, { type: 'ELSEWHERE', tab: 'held' })
    expect(run(held, { type: 'ELSEWHERE', tab: 'held' })).toBe(held)
    const checking: DepositState = { tag: 'quote', form, session, amount: '1', quote, quotedAt: 0, work: 'checking' }
    expect(run(checking, { type: 'BLOCKED', notice: { kind: 'elsewhere' } })).toMatchObject({ work: 'idle', notice: { kind: 'elsewhere' } })
  })

  it('a transaction the chain lost can be let go only once it is reported missing', () => {
    const t: DepositState = { tag: 'tracking', tracking, phase: 'confirming', attempt: 0 }
    expect(run(t, { type: 'STOP_FOLLOWING' })).toBe(t)
    const missing = run(t, { type: 'MISSING', missing: true })
    expect(run(missing, { type: 'STOP_FOLLOWING' })).toMatchObject({ tag: 'result', outcome: 'dropped' })
    expect(run(missing, { type: 'MISSING', missing: false })).toMatchObject({ missing: false })
  })
})

describe('effect runner', () => {
  it('keeps effects whose key stays, stops those whose key goes, starts new ones', () => {
    const log: string[] = []
    const effect = (key: string) => ({ key, start: () => (log.push(`start ${key}`), () => log.push(`stop ${key}`)) })
    const runner = createEffectRunner((keys: string[]) => keys.map(effect))
    runner.run(['lock'])
    runner.run(['lock', 'poll'])
    runner.run(['lock', 'poll'])
    runner.run(['lock'])
    runner.dispose()
    expect(log).toEqual(['start lock', 'start poll', 'stop poll', 'stop lock'])
  })

  it('tells a stopped effect it is no longer alive, and aborts its signal', () => {
    const seen = vi.fn()
    let alive: () => boolean = () => true
    let signal: AbortSignal | undefined
    const runner = createEffectRunner((on: boolean) => (on ? { key: 'a', start: (a, s) => void ((alive = a), (signal = s)) } : undefined))
    runner.run(true)
    seen(alive(), signal?.aborted)
    runner.run(false)
    seen(alive(), signal?.aborted)
    expect(seen.mock.calls).toEqual([
      [true, false],
      [false, true],
    ])
  })

  it('starts nothing once disposed: an answer that arrives after unmount runs no effect', () => {
    const log: string[] = []
    const runner = createEffectRunner((key: string) => ({ key, start: () => void log.push(`start ${key}`) }))
    runner.run('send')
    runner.dispose()
    runner.run('receipt')
    expect(log).toEqual(['start send'])
  })
})
