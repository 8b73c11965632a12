import { describe, expect, it } from 'vitest'
import { type BankDepositState, formState, transition } from '../../../../src/flows/bankDeposit/machine'
import type { RouteDefaults } from '../../../../src/lib/routeDefaults'
import { startRoute } from '../../../../src/flows/bankDeposit/reference'

const entry = (currency: string, rail: string) => ({ currency, rail, direction: 'both' as const, min: '1.00', max: '1000.00', settlement: 'instant' })
const method = (currency: string, bank_deposit: boolean) => ({ currency, bank_deposit, virtual_account: true, card: true })
const data = {
  methods: { countries: { US: method('USD', false), AT: method('EUR', true), DE: method('EUR', true), GB: method('GBP', true), MX: method('MXN', true) } },
  limits: [entry('EUR', 'sepa_instant'), entry('GBP', 'faster_payments')],
}
const account = { accountId: 'acc_1', walletId: 'w_1', wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
const ctx = (currencies: string[]) => ({ decimalMark: '.' as const, currencies, form: () => ({ country: '', currency: currencies[0], amount: '' }) })
/** The form as the data arrives: the effect picks the route (reference.ts startRoute), the machine applies it. */
const opened = (country: string, currencies: string[], pinned?: boolean, defaults?: RouteDefaults, locale?: string) =>
  transition(
    formState(account, { country, currency: currencies[0], amount: '' }, pinned),
    { type: 'REFERENCE', data, route: startRoute(data, pinned ? [currencies[0]] : currencies, country, defaults, locale) ?? null },
    ctx(currencies),
  ) as Extract<BankDepositState, { tag: 'form' }>

describe('the one-off deposit opens on a route that exists', () => {
  it('a route: offered there, in a currency the partner takes, named by the limits for paying in', () => {
    expect(opened('DE', ['EUR']).form.country).toBe('DE')
    expect(opened('US', ['USD', 'EUR']).form.country).toBe('AT') // not offered in the US
    expect(opened('GB', ['EUR']).form.country).toBe('AT') // GBP not taken
    expect(opened('MX', ['MXN']).form.country).toBe('') // no limits for paying in MXN: no route, no default
  })

  it('one rule with the payout (lib/routeDefaults.ts): the registry’s defaults, the buyer’s country, the region, the first route the limits allow', () => {
    expect(opened('GB', ['EUR', 'GBP'], false, { currency: 'EUR', country: 'DE' }, 'en-GB').form).toMatchObject({ country: 'DE', currency: 'EUR' })
    expect(opened('US', ['EUR', 'GBP'], false, { currency: 'GBP' }, 'en-US').form).toMatchObject({ country: 'GB', currency: 'GBP' })
    expect(opened('GB', ['EUR', 'GBP'], false, {}, 'de-AT').form).toMatchObject({ country: 'GB', currency: 'GBP' })
    expect(opened('', ['EUR', 'GBP'], false, {}, 'en-GB').form).toMatchObject({ country: 'GB', currency: 'GBP' })
    // A registry country without the one-off deposit is never the default.
    expect(opened('', ['EUR', 'GBP'], false, { country: 'US' }, 'ja-JP').form).toMatchObject({ country: 'AT', currency: 'EUR' })
    // The limits' order, not the partner's: EUR's SEPA first.
    expect(opened('US', ['GBP', 'EUR']).form).toMatchObject({ country: 'AT', currency: 'EUR' })
    expect(opened('US', ['USD']).form.country).toBe('')
  })

  it('the form: a default without a route is replaced (with the country’s currency); a country the buyer picked is kept', () => {
    expect(opened('US', ['EUR', 'USD', 'GBP']).form).toMatchObject({ country: 'AT', currency: 'EUR' })
    expect(opened('GB', ['EUR', 'USD', 'GBP']).form).toMatchObject({ country: 'GB', currency: 'GBP' })
    const picked = transition(opened('DE', ['EUR', 'USD']), { type: 'EDIT', country: 'US' }, ctx(['EUR', 'USD']))
    const route = startRoute(data, ['EUR', 'USD'], 'US') ?? null
    expect(transition(picked, { type: 'REFERENCE', data, route }, ctx(['EUR', 'USD']))).toMatchObject({ form: { country: 'US' } })
  })

  it('a pinned retry keeps its currency: the default moves only to a route in it', () => {
    expect(opened('US', ['GBP', 'EUR'], true).form).toMatchObject({ country: 'GB', currency: 'GBP' })
  })

  it('an amount asked for before the ways to pay came is not sent when the country it was asked under was replaced', () => {
    const c = ctx(['EUR'])
    const asked = transition(formState(account, { country: 'US', currency: 'EUR', amount: '10' }), { type: 'SUBMIT' }, c)
    expect(transition(asked, { type: 'REFERENCE', data, route: startRoute(data, ['EUR'], 'US') ?? null }, c)).toMatchObject({
      form: { country: 'AT' },
      work: 'idle',
    })
  })
})
