// @vitest-environment happy-dom
// What the iframe page keeps for a parent that has not said hello yet (a loader that comes late).
import { describe, expect, it } from 'vitest'
import { keep } from '../../../src/embed/guest'
import { GUEST, type GuestMessage, VERSION } from '../../../src/config/protocol'

const event = (n: number): GuestMessage => ({ source: GUEST, version: VERSION, kind: 'event', event: { name: 'quote', payload: { n } } as never })
const resize = (height: number): GuestMessage => ({ source: GUEST, version: VERSION, kind: 'resize', height })
const fill = (messages: GuestMessage[], limit?: number) => messages.reduce<GuestMessage[]>((q, m) => keep(q, m, limit), [])

describe('keep: the frame’s messages before its parent’s hello', () => {
  it('keeps every event in order, and only the latest height, after them', () => {
    const queue = fill([resize(300), event(1), resize(420), event(2), resize(510)])
    expect(queue).toEqual([event(1), event(2), resize(510)])
  })

  it('past the limit it keeps the newest: the last events (a final quote, complete) are never the ones lost', () => {
    const queue = fill(
      Array.from({ length: 30 }, (_, i) => event(i)),
      10,
    )
    expect(queue).toHaveLength(10)
    expect(queue.at(-1)).toEqual(event(29))
    expect(queue[0]).toEqual(event(20))
  })

  it('does not change the queue it is given', () => {
    const queue = [event(1)]
    keep(queue, event(2))
    expect(queue).toEqual([event(1)])
  })
})
