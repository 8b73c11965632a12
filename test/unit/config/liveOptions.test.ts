// Live options (update(), a frame parent's postMessage): nothing but a live option gets in, not
// even a key Object.prototype has, and a bad value under a live key is still refused.
import { describe, expect, it } from 'vitest'
import { parseLiveOptions } from '../../../src/config/live'

describe('live options: a key that is not an option is refused, even one Object.prototype has', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'])('%s', (key) => {
    // An own property, as JSON.parse or a structured clone (postMessage) makes it.
    const options = JSON.parse(`{${JSON.stringify(key)}:"x"}`)
    expect(parseLiveOptions(options)).toMatchObject({ ok: false })
  })
})

describe('live options: nothing but the live options gets in', () => {
  it.each(['constructor', 'toString', '__proto__', '__defineGetter__', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__lookupGetter__'])(
    '%s (own, as a structured clone makes it)',
    (key) => {
      expect(parseLiveOptions(JSON.parse(`{${JSON.stringify(key)}:"x"}`))).toMatchObject({ ok: false })
    },
  )
  it('a registry-only option under a live one, or with a different case, is refused', () => {
    for (const key of ['apiBase', 'Amount', 'AMOUNT', 'lockAmount', 'returnUrl', 'amount ', 'theme\u0000']) {
      expect(parseLiveOptions({ [key]: 'x' }), key).toMatchObject({ ok: false })
    }
  })
  it('what comes out holds the live options only, whatever else the object had', () => {
    const options = Object.create(null) as Record<string, unknown>
    options.theme = 'dark'
    Object.defineProperty(options, 'apiBase', { value: 'https://evil.test', enumerable: false })
    options[Symbol('x') as unknown as string] = 'y'
    const result = parseLiveOptions(options)
    expect(result.ok).toBe(true)
    if (result.ok) expect(Object.keys(result.update).sort()).toEqual(['theme'])
  })
  it('a bad value under a live key is still refused', () => {
    expect(parseLiveOptions({ amount: '1e9' })).toMatchObject({ ok: false })
    expect(parseLiveOptions({ locale: '../../x' })).toMatchObject({ ok: false })
  })
})
