import { describe, expect, it } from 'vitest'
import { type BankDepositState, formState, transition } from '../../../../src/flows/bankDeposit/machine'
import { hasRoute, routeCountry } from '../../../../src/flows/bankDeposit/route'

const entry = (currency: string, rail: string) => ({ currency, rail, direction: 'both' as const, min: '1.00', max: '1000.00', settlement: 'instant' })
const method = (currency: string, bank_deposit: boolean) => ({ currency, bank_deposit, virtual_account: true, card: true })
const data = {
  methods: { countries: { US: method('USD', false), AT: method('EUR', true), DE: method('EUR', true), GB: method('GBP', true), MX: method('MXN', true) } },
  limits: [entry('EUR', 'sepa_instant'), entry('GBP', 'faster_payments')],
}
const account = { accountId: 'acc_1', walletId: 'w_1', wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
const ctx = (currencies: string[]) => ({ decimalMark: '.' as const, currencies, form: () => ({ country: '', currency: currencies[0], amount: '' }) })
const opened = (country: string, currencies: string[], pinned?: boolean) =>
  transition(formState(account, { country, currency: currencies[0], amount: '' }, pinned), { type: 'REFERENCE', data }, ctx(currencies)) as Extract<
    BankDepositState,
    { tag: 'form' }
  >

describe('the one-off deposit opens on a route that exists', () => {
  it('a route: offered there, in a currency the partner takes, named by the limits for paying in', () => {
    expect(hasRoute(data, 'DE', ['EUR'])).toBe(true)
    expect(hasRoute(data, 'US', ['USD', 'EUR'])).toBe(false) // not offered
    expect(hasRoute(data, 'GB', ['EUR'])).toBe(false) // GBP not taken
    expect(hasRoute(data, 'MX', ['MXN'])).toBe(false) // no limits for paying in MXN
  })

  it('the country given where it has a route; else the first with one in the partner’s first currency, then its others; else none', () => {
    expect(routeCountry(data, 'DE', ['EUR'])).toBe('DE')
    expect(routeCountry(data, 'US', ['EUR', 'GBP'])).toBe('AT')
    expect(routeCountry(data, 'US', ['GBP', 'EUR'])).toBe('GB')
    expect(routeCountry(data, '', ['USD', 'GBP'])).toBe('GB')
    expect(routeCountry(data, 'US', ['USD'])).toBe('')
  })

  it('the form: a default without a route is replaced (with the country’s currency); a country the buyer picked is kept', () => {
    expect(opened('US', ['EUR', 'USD', 'GBP']).form).toMatchObject({ country: 'AT', currency: 'EUR' })
    expect(opened('GB', ['EUR', 'USD', 'GBP']).form).toMatchObject({ country: 'GB', currency: 'GBP' })
    const picked = transition(opened('DE', ['EUR', 'USD']), { type: 'EDIT', country: 'US' }, ctx(['EUR', 'USD']))
    expect(transition(picked, { type: 'REFERENCE', data }, ctx(['EUR', 'USD']))).toMatchObject({ form: { country: 'US' } })
  })

  it('a pinned retry keeps its currency: the default moves only to a route in it', () => {
    expect(opened('US', ['GBP', 'EUR'], true).form).toMatchObject({ country: 'GB', currency: 'GBP' })
  })

  it('an amount asked for before the ways to pay came is not sent when the country it was asked under was replaced', () => {
    const c = ctx(['EUR'])
    const asked = transition(formState(account, { country: 'US', currency: 'EUR', amount: '10' }), { type: 'SUBMIT' }, c)
    expect(transition(asked, { type: 'REFERENCE', data }, c)).toMatchObject({ form: { country: 'AT' }, work: 'idle' })
  })
})
