// Paying by address where the partner's backend is the kit (walletLink): the quote is asked of the
// kit (POST {partnerBase}/deposit/address), which records its deposit address to the signed-in
// buyer before the widget shows it, so that the transfer counts as theirs whatever sends it. The
// service's widget path is not asked then; without walletLink it is, as before.
import '../../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import { createPartnerHttp } from '../../../../src/api/partnerHttp'
import type { WidgetConfig } from '../../../../src/config/config'
import { quoteByAddress } from '../../../../src/flows/deposit/byAddressEffects'
import { startByAddress } from '../../../../src/flows/deposit/effects'
import { type DepositContext, depositContext } from '../../../../src/flows/deposit/context'
import type { ByAddress, DepositEvent } from '../../../../src/flows/deposit/machine'
import { depositStore } from '../../../../src/flows/deposit/persisted'
import { depositConfig, depositWorld } from '../../helpers/deposit'
import { memoryStorage } from '../../helpers/memoryStorage'
import { byAddressCreditKey } from '../../../../src/errors/byAddressWords'

const PARTNER = 'https://shop.example.com/api'
const RECEIVER = '0x3333333333333333333333333333333333333333'
const kitMode: WidgetConfig = { ...depositConfig, partnerBase: PARTNER, partnerToken: 'pt_buyer', walletLink: true }
const quoting: ByAddress = { tag: 'byAddress', form: { amount: '12.5', source: 0 }, receiver: RECEIVER, locked: false, stage: 'quoting', amount: '12.5' }
/** With the kit and no fixed address: no receiving address asked (flows/deposit/effects.ts starts so). */
const unasked: ByAddress = { ...quoting, receiver: '', kit: true }

/** Asks for the by-address quote; the kit answers `kit` (status, body). Answers what reached whom and the events. */
async function ask(config: WidgetConfig, kit: { status: number; body: unknown }, events = 0, state: ByAddress = quoting) {
  const { api, clock, target } = depositWorld()
  api.answer('/deposit/quote', () => {
    throw new Error('the service was asked')
  })
  const toKit: Array<{ url: string; body: unknown; auth: string | null }> = []
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    toKit.push({ url: String(url), body: JSON.parse(String(init?.body)), auth: new Headers(init?.headers).get('Authorization') })
    return new Response(JSON.stringify(kit.body), { status: kit.status, headers: { 'Content-Type': 'application/json' } })
  }) as typeof globalThis.fetch
  const told: DepositEvent[] = []
  const ctx: DepositContext = depositContext(
    {
      config,
      api,
      partner: async () => createPartnerHttp({ base: PARTNER, token: config.partnerToken, fetch }),
      store: depositStore(memoryStorage()),
      target,
      clock,
      // The chain's code fails to load: the request is what this test looks at.
      loadChainActions: () => new Promise(() => {}),
    },
    (e) => told.push(e),
  )
  void quoteByAddress(ctx, state, () => true)
  // Until the events expected are told (the by-address part is fetched first), or a while.
  for (let i = 0; i < 100 && told.length < events; i++) await new Promise((r) => setTimeout(r, 50))
  await new Promise((r) => setTimeout(r, 50))
  return { api, toKit, events: told }
}

describe('paying by address with the kit', () => {
  it("asks the kit for the quote (POST {partnerBase}/deposit/address, the buyer's token), never the service's widget path", async () => {
    const { api, toKit } = await ask(kitMode, { status: 200, body: {} })
    expect(api.to('/deposit/quote')).toHaveLength(0)
    expect(toKit).toEqual([
      {
        url: `${PARTNER}/deposit/address`,
        auth: 'Bearer pt_buyer',
        body: { source: { chainId: 8453, token: depositConfig.sources[0].token, address: RECEIVER }, amount: '12.5', method: 'crypto' },
      },
    ])
  })

  it("with no address asked, sends the kit no sender (source.address): the kit names the partner's own, where the deposit settles", async () => {
    const { toKit } = await ask(kitMode, { status: 200, body: {} }, 0, unasked)
    expect(toKit.map((t) => t.body)).toEqual([{ source: { chainId: 8453, token: depositConfig.sources[0].token }, amount: '12.5', method: 'crypto' }])
  })

  it("sends the kit no destination of the buyer's: the kit settles where the partner set (depositDestination); a fixed address (registry, signed link) is sent as is", async () => {
    const dest = { chainId: 42161, token: '0x4444444444444444444444444444444444444444', symbol: 'USDC', decimals: 6 }
    // A destination without an address would be the buyer's own receiving address: left out, the kit fills in the partner's.
    const open = await ask({ ...kitMode, destination: dest }, { status: 200, body: {} })
    expect(open.toKit.map((t) => t.body)).toEqual([
      { source: { chainId: 8453, token: depositConfig.sources[0].token, address: RECEIVER }, amount: '12.5', method: 'crypto' },
    ])
    const treasury = '0x5555555555555555555555555555555555555555'
    const fixed = await ask({ ...kitMode, destination: { ...dest, address: treasury } }, { status: 200, body: {} })
    expect(fixed.toKit.map((t) => (t.body as { destination?: unknown }).destination)).toEqual([{ chainId: 42161, token: dest.token, address: treasury }])
  })

  it("the kit's 400 destination_not_allowed and destination_not_configured are the shop's setup, said as a refusal on the form, nothing shown to pay", async () => {
    for (const code of ['destination_not_allowed', 'destination_not_configured']) {
      const { events } = await ask(kitMode, { status: 400, body: { error: { code, message: 'Not here.' } } }, 1)
      expect(events, code).toEqual([
        { type: 'BY_ADDRESS', event: { type: 'QUOTE_FAILED', problem: expect.objectContaining({ code, key: 'partner.refused' }) } },
      ])
    }
  })

  it('without walletLink (no kit that links deposits), the service is asked as before and the kit hears nothing', async () => {
    const { api, toKit } = await ask({ ...kitMode, walletLink: false }, { status: 200, body: {} })
    expect(api.to('/deposit/quote')).toHaveLength(1)
    expect(toKit).toEqual([])
  })

  it("the kit's 409 deposit_address_taken is said in its own words on the form, nothing shown to pay", async () => {
    const { events } = await ask(
      kitMode,
      {
        status: 409,
        body: { error: { code: 'deposit_address_taken', message: 'The payment service gave a deposit address this backend already gave someone.' } },
      },
      1,
    )
    expect(events).toEqual([
      { type: 'BY_ADDRESS', event: { type: 'QUOTE_FAILED', problem: expect.objectContaining({ key: 'partner.addressTaken', code: 'deposit_address_taken' }) } },
    ])
  })
})

describe('whether a receiving address is asked', () => {
  const started = async (config: WidgetConfig) => {
    const told: DepositEvent[] = []
    await startByAddress(config, (e) => told.push(e))
    return told
  }
  const dest = { chainId: 42161, token: '0x4444444444444444444444444444444444444444', symbol: 'USDC', decimals: 6 }
  const treasury = '0x5555555555555555555555555555555555555555'

  it('with the kit and no fixed address, none: the kit settles at the partner’s and credits the buyer', async () => {
    expect(await started(kitMode)).toEqual([{ type: 'BY_ADDRESS', event: { type: 'START', receiver: undefined, kit: true } }])
    expect(await started({ ...kitMode, destination: dest })).toEqual([{ type: 'BY_ADDRESS', event: { type: 'START', receiver: undefined, kit: true } }])
  })

  it('a fixed address (registry, signed link) is taken as before; without the kit, the buyer’s own is asked as before', async () => {
    expect(await started({ ...kitMode, destination: { ...dest, address: treasury } })).toEqual([
      { type: 'BY_ADDRESS', event: { type: 'START', receiver: treasury, kit: false } },
    ])
    expect(await started({ ...kitMode, walletLink: false })).toEqual([{ type: 'BY_ADDRESS', event: { type: 'START', receiver: undefined, kit: false } }])
  })
})

describe('what the buyer is told about crediting, before sending', () => {
  it('with the kit: the address is their account’s, on the form and beside the address; without: nothing said', () => {
    expect(byAddressCreditKey(kitMode, 'form')).toBe('byAddress.kit')
    expect(byAddressCreditKey(kitMode, 'watch')).toBe('byAddress.kitWatch')
    expect(byAddressCreditKey({ ...kitMode, walletLink: false }, 'form')).toBeUndefined()
    expect(byAddressCreditKey({ ...kitMode, walletLink: false }, 'watch')).toBeUndefined()
  })
})
