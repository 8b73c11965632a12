// @vitest-environment happy-dom
// Issue 28, item 8: the start screen offers the partner's flows only, and the bank deposit offers
// the virtual account only where the partner offers that flow.
import { readFileSync } from 'node:fs'
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '../../../src/App'
import { parseOptions, readConfig } from '../../../src/config/config'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'
import { formState, transition, type BankDepositState } from '../../../src/flows/bankDeposit/machine'
import { enBankDepositAmount } from '../../../src/i18n/bankDeposit/en-amount'
import { addEnglish } from '../../../src/i18n/i18n'
import { AmountScreen } from '../../../src/screens/bankDeposit/AmountScreen'
import { createServices } from '../../../src/services'

addEnglish(enBankDepositAmount)
afterEach(() => {
  cleanup()
  localStorage.clear()
})

const entry: RegistryEntry = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))[0]
const choices = () => screen.getAllByRole('button').map((b) => b.querySelector('strong')?.textContent)

async function startScreen(registry: RegistryEntry[]) {
  const link = await resolveLink('?partner=acme-shop&locale=en', registry, Date.UTC(2026, 10, 23, 12))
  if (!link.ok) throw new Error(link.detail)
  const result = parseOptions(link.options)
  if (!result.ok) throw new Error(result.problem)
  render(<App result={result} services={createServices(result.config, () => {})} />)
  await screen.findByRole('heading', { name: 'What would you like to do?' })
}

describe('the start screen lists only the partner’s flows', () => {
  it('a production partner that names none: every flow but the virtual account', async () => {
    await startScreen([entry])
    expect(choices()).toEqual(['Deposit crypto', 'Pay by card', 'Pay an exact amount by bank transfer', 'Cash out to an account', 'Cash out to a card'])
  })

  it('a partner that names two: those two', async () => {
    await startScreen([{ ...entry, flows: ['onboarding', 'deposit'] }])
    expect(choices()).toEqual(['Deposit crypto', 'Bank transfer'])
  })
})

describe('the bank deposit offers the virtual account only where the partner offers it', () => {
  const config = (flows: string) => {
    const result = readConfig(`?apiBase=https://api.example.com&partnerBase=https://p.example.com&identityUrl=https://id.example.com&locale=en&flows=${flows}`)
    if (!result.ok) throw new Error(result.problem)
    return result.config
  }
  const account = { accountId: 'acc_1', walletId: 'w_1', wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
  const data = { methods: { countries: { US: { currency: 'USD', bank_deposit: false, virtual_account: true, card: true } } }, limits: [] }
  const ctx = {
    decimalMark: '.' as const,
    currencies: ['USD'],
    form: () => ({ country: 'US', currency: 'USD', amount: '' }),
  }
  // The buyer picks the United States (a default without a route would be replaced).
  const state = transition(
    transition(formState(account, { country: 'US', currency: 'USD', amount: '' }), { type: 'REFERENCE', data }, ctx),
    { type: 'EDIT', country: 'US' },
    ctx,
  ) as Extract<BankDepositState, { tag: 'form' }>

  it('not offered: no account to open, and the page says nothing can be taken from there', () => {
    const { container, queryByRole } = render(<AmountScreen state={state} dispatch={() => {}} config={config('bankDeposit')} onVirtualAccount={() => {}} />)
    expect(queryByRole('button', { name: 'Get standing bank details' })).toBeNull()
    expect(container.textContent).toContain('We cannot take bank transfers from United States yet.')
  })

  it('offered: the account to open', () => {
    const { getByRole } = render(<AmountScreen state={state} dispatch={() => {}} config={config('bankDeposit,onboarding')} onVirtualAccount={() => {}} />)
    expect(getByRole('button', { name: 'Get standing bank details' })).toBeTruthy()
  })
})
