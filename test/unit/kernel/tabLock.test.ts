// One tab at a time on a transfer (Web Locks): who holds, who waits, and what happens without locks.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { exclusive, holdTabLock } from '../../../src/kernel/tabLock'
import { settle } from '../helpers/fakeClock'
import { fakeLocks } from '../helpers/fakeLocks'

afterEach(() => vi.unstubAllGlobals())

/** Locks installed, another tab holding `name`, and this tab asking for it; `seen` is what it reports. */
function waitBehindAnotherTab(name: string) {
  const locks = fakeLocks()
  locks.install()
  const letGo = locks.holdElsewhere(name)
  const seen: string[] = []
  const release = holdTabLock(name, (s) => seen.push(s))
  return { letGo, seen, release }
}

describe('holdTabLock', () => {
  it('without Web Locks, this tab holds at once', () => {
    vi.stubGlobal('navigator', {})
    const seen: string[] = []
    holdTabLock('x', (s) => seen.push(s))()
    expect(seen).toEqual(['held'])
  })

  it('a free lock is held until released; then another can take it', async () => {
    const locks = fakeLocks()
    locks.install()
    const seen: string[] = []
    const release = holdTabLock('a', (s) => seen.push(s))
    await settle()
    expect(seen).toEqual(['held'])
    expect(locks.held('a')).toBe(true)
    release()
    await settle()
    expect(locks.held('a')).toBe(false)
  })

  it('a lock another tab holds: elsewhere, then held once that tab lets go', async () => {
    const { letGo, seen, release } = waitBehindAnotherTab('b')
    await settle()
    expect(seen).toEqual(['elsewhere'])
    letGo()
    await settle()
    expect(seen).toEqual(['elsewhere', 'held'])
    release()
  })

  it('cancelled while waiting: never reports held', async () => {
    const { letGo, seen, release } = waitBehindAnotherTab('c')
    await settle()
    release()
    letGo()
    await settle()
    expect(seen).toEqual(['elsewhere'])
  })
})

describe('exclusive', () => {
  it('runs the work when no other tab does it, else answers elsewhere without running it', async () => {
    const locks = fakeLocks()
    locks.install()
    expect(await exclusive('send', async () => 'sent')).toBe('sent')
    locks.holdElsewhere('send')
    const work = vi.fn(async () => 'sent')
    expect(await exclusive('send', work)).toBe('elsewhere')
    expect(work).not.toHaveBeenCalled()
  })
})
