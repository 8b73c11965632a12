// Issue 15, item 7: a message from the trusted peer is checked whole; a malformed one is ignored,
// never thrown on inside the listener.
import { describe, expect, it } from 'vitest'
import { GUEST, HOST, VERSION, isGuestMessage, isHostMessage } from '../../../src/config/protocol'

const host = (m: object) => ({ source: HOST, version: VERSION, ...m })
const guest = (m: object) => ({ source: GUEST, version: VERSION, ...m })

describe('messages between a frame and its parent', () => {
  it.each([
    ['update with options: null', host({ kind: 'update', options: null })],
    ['update without options', host({ kind: 'update' })],
    ['update with options as a string', host({ kind: 'update', options: 'amount=1' })],
    ['authCode without a code', host({ kind: 'authCode' })],
    ['authCode with a number', host({ kind: 'authCode', code: 42 })],
    ['theme with brand: null', host({ kind: 'theme', brand: null })],
    ['an unknown kind', host({ kind: 'navigate', url: 'https://evil.example' })],
    ['another version', { source: HOST, version: 2, kind: 'hello' }],
    ['null', null],
    ['an array', [HOST]],
  ])('the frame ignores %s', (_name, message) => {
    expect(isHostMessage(message)).toBe(false)
  })

  it.each([
    ['an event with no event', guest({ kind: 'event' })],
    ['an event with event: null', guest({ kind: 'event', event: null })],
    ['an event without a payload', guest({ kind: 'event', event: { name: 'ready' } })],
    ['a resize with no height', guest({ kind: 'resize' })],
    ['a resize with an endless height', guest({ kind: 'resize', height: Number.POSITIVE_INFINITY })],
    ['a resize with a string height', guest({ kind: 'resize', height: '9999' })],
  ])('the parent ignores %s', (_name, message) => {
    expect(isGuestMessage(message)).toBe(false)
  })

  it('well-formed messages pass both ways', () => {
    expect(isHostMessage(host({ kind: 'update', options: { amount: '5' } }))).toBe(true)
    expect(isHostMessage(host({ kind: 'authCode', code: 'ac_1' }))).toBe(true)
    expect(isHostMessage(host({ kind: 'theme', theme: 'dark' }))).toBe(true)
    expect(isHostMessage(host({ kind: 'hello' }))).toBe(true)
    expect(isGuestMessage(guest({ kind: 'event', event: { name: 'ready', payload: {} } }))).toBe(true)
    expect(isGuestMessage(guest({ kind: 'resize', height: 480 }))).toBe(true)
    expect(isGuestMessage(guest({ kind: 'hello' }))).toBe(true)
  })
})
