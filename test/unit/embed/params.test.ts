import { describe, expect, it } from 'vitest'
import { camel, optionsFromParams, paramsFromOptions } from '../../../src/config/params'
import { parseOptions } from '../../../src/config/config'
import { isGuestMessage, isHostMessage } from '../../../src/config/protocol'

describe('options ⇄ parameters', () => {
  it('round-trips objects, lists and booleans', () => {
    const options = {
      flow: 'card',
      apiBase: 'https://api.example.com',
      brand: { color: '#123456', radius: 4 },
      currencies: ['EUR', 'USD'],
      lockAmount: true,
      sandbox: false,
      amount: '12.50',
    }
    expect(optionsFromParams(paramsFromOptions(options))).toEqual(options)
  })

  it('a broken JSON option is kept as a readable bad value, so validation names it', () => {
    const options = optionsFromParams(new URLSearchParams('apiBase=https://api.example.com&chains=[{oops'))
    const result = parseOptions(options)
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.problem).toMatch(/^chains/)
  })

  it('maps attribute names to option names', () => {
    expect(camel('api-base')).toBe('apiBase')
    expect(camel('lock-amount')).toBe('lockAmount')
    expect(camel('flow')).toBe('flow')
  })

  it('refuses a bad option with a message naming it', () => {
    expect(parseOptions({ apiBase: 'https://api.example.com', theme: 'neon' })).toMatchObject({ ok: false, problem: expect.stringMatching(/^theme/) })
    expect(parseOptions({ apiBase: 'https://api.example.com', brand: { color: 'red;}' } })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^brand\.color/),
    })
    expect(parseOptions({ apiBase: 'javascript:alert(1)' })).toMatchObject({ ok: false, problem: expect.stringMatching(/^apiBase/) })
    expect(parseOptions({ apiBase: 'https://api.example.com', parentOrigin: '*' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^parentOrigin/),
    })
  })
})

describe('protocol', () => {
  it('accepts only tagged, versioned messages of the right direction', () => {
    expect(isGuestMessage({ source: 'stablecoin-widget', version: 1, kind: 'resize', height: 10 })).toBe(true)
    expect(isGuestMessage({ source: 'stablecoin-widget', version: 2, kind: 'resize', height: 10 })).toBe(false)
    expect(isGuestMessage({ source: 'stablecoin-widget-host', version: 1, kind: 'update', options: {} })).toBe(false)
    expect(isHostMessage({ source: 'stablecoin-widget-host', version: 1, kind: 'update', options: {} })).toBe(true)
    expect(isHostMessage({ source: 'stablecoin-widget-host', version: 1, kind: 'eval', code: '1' })).toBe(false)
    expect(isHostMessage(null)).toBe(false)
    expect(isHostMessage('update')).toBe(false)
  })
})
