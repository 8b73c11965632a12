// @vitest-environment happy-dom
// The by-address form asks the buyer for an address to receive at only where one is delivered to:
// where the partner's backend is the kit (walletLink) and no address is fixed, the deposit settles at
// the partner's address (the kit's depositDestination) and is credited to the signed-in buyer, so no
// address is asked, and the form says where it goes. Elsewhere, the buyer's own address as before.
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WidgetConfig } from '../../../../src/config/config'
import type { ByAddress } from '../../../../src/flows/deposit/machine'
import { ByAddressScreen } from '../../../../src/screens/deposit/ByAddressScreen'
import { depositConfig } from '../../helpers/deposit'

afterEach(cleanup)

const kitMode: WidgetConfig = { ...depositConfig, partnerBase: 'https://shop.example.com/api', partnerToken: 'pt_buyer', walletLink: true }
const form: ByAddress = { tag: 'byAddress', form: { amount: '12.5', source: 0 }, receiver: '', locked: false, stage: 'form' }

describe('the by-address form: where the deposit goes', () => {
  it('with the kit and no fixed address: no receiving address is asked, and the form says the site credits it to the account', () => {
    render(<ByAddressScreen state={{ ...form, kit: true }} dispatch={vi.fn()} config={kitMode} />)
    expect(screen.queryByLabelText(/Your address to receive/)).toBeNull()
    expect(screen.queryByText('The deposit is delivered to this address.')).toBeNull()
    expect(screen.getAllByRole('textbox').map((e) => e.id)).toEqual(['amount'])
    expect(screen.getByText(/paid to this site, not to an address of yours/)).toBeTruthy()
    expect(screen.getByText(/This site gives the deposit address to the account you are signed in with on it/)).toBeTruthy()
  })

  it('without the kit, the buyer’s own address to receive at is asked as before', () => {
    render(<ByAddressScreen state={form} dispatch={vi.fn()} config={{ ...kitMode, walletLink: false }} />)
    expect(screen.getByLabelText(/Your address to receive USDC/)).toBeTruthy()
    expect(screen.queryByText(/paid to this site/)).toBeNull()
  })

  it('a fixed address is said as before, with the kit too', () => {
    const treasury = '0x5555555555555555555555555555555555555555'
    render(<ByAddressScreen state={{ ...form, receiver: treasury, locked: true }} dispatch={vi.fn()} config={kitMode} />)
    expect(screen.getByText(/as the site set it/)).toBeTruthy()
    expect(screen.queryByLabelText(/Your address to receive/)).toBeNull()
  })
})
