// What a compromised partner backend (or anything answering for it) could hand the widget as "the
// kit's message" to have the buyer sign: the widget shows the wallet only a sign-in of the kit's
// exact form, in plain printable ASCII (what the kit writes), short, and expiring; never a line the
// wallet might render as two, a right-to-left override, look-alike letters, or an unbounded text.
import { createSiweMessage } from 'viem/siwe'
import { describe, expect, it } from 'vitest'
import { isKitMessage } from '../../../../src/flows/deposit/linkWallet'
import type { PaymentStore } from '../../../../src/server/store/paymentStore'
import { walletChallenge } from '../../../../src/server/walletLink'

const PAGE = new URL('https://widget.example/pay')
/** The partner backend this widget is given (the registry's partnerBase): the kit's publicUrl. */
const KIT = 'https://shop.example/api/partner'
const BUYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const
const fields = {
  scheme: 'https',
  domain: PAGE.host,
  uri: KIT,
  address: BUYER,
  chainId: 8453,
  nonce: '0123456789abcdef0123456789abcdef',
  version: '1' as const,
  issuedAt: new Date('2030-01-01T00:00:00Z'),
  expirationTime: new Date('2030-01-01T00:10:00Z'),
}
const message = (statement: string, change: Partial<Parameters<typeof createSiweMessage>[0]> = {}) => createSiweMessage({ ...fields, statement, ...change })
const STATEMENT = 'Confirm this wallet is yours. Signing costs nothing and moves no money.'

describe("the widget's check of the kit's message", () => {
  it("accepts the kit's own message, as src/server/walletLink.ts writes it", async () => {
    expect(isKitMessage(message(STATEMENT), BUYER, 8453, PAGE, KIT)).toBe(true)
    const kept: unknown[] = []
    const store = { addressHolder: async () => undefined, recordChallenge: async (c: unknown) => void kept.push(c) } as unknown as PaymentStore
    const answer = await walletChallenge(store, { user: 'bob', origin: PAGE.origin, kit: KIT, now: new Date(), address: BUYER, chainId: 8453 })
    expect(answer).toMatchObject({ status: 200, body: { linked: false } })
    expect(kept).toHaveLength(1)
    expect(isKitMessage((answer as { body: { message: string } }).body.message, BUYER, 8453, PAGE, KIT)).toBe(true)
  })

  it.each([
    ['a carriage return (a second line in wallets that break on CR)', `${STATEMENT}\rResources: - https://evil.example/grant-all`],
    ['a Unicode line separator', `${STATEMENT}\u2028Transfer all funds: approved`],
    ['a right-to-left override', `${STATEMENT} \u202egnivorppa`],
    ['a zero-width space', `Confirm\u200b this wallet`],
    ['Cyrillic look-alike letters', 'Соnfirm this wаllet is yours.'],
    ['a NUL and other controls', `${STATEMENT}\u0000\u001b[2J`],
  ])('refuses a statement with %s', (_name, statement) => {
    expect(isKitMessage(message(statement), BUYER, 8453, PAGE, KIT)).toBe(false)
  })

  it('refuses a URI line that hides a right-to-left override or a carriage return behind the right kit', () => {
    const base = message(STATEMENT)
    expect(isKitMessage(base.replace(`URI: ${KIT}`, `URI: ${KIT}/\u202elanigiro`), BUYER, 8453, PAGE, KIT)).toBe(false)
    expect(isKitMessage(base.replace(`URI: ${KIT}`, `URI: ${KIT}\rChain ID: 1`), BUYER, 8453, PAGE, KIT)).toBe(false)
  })

  // Every partner's hosted page shares the widget's origin: the page alone does not tell one
  // partner's kit from another's, so another partner's backend could relay its kit's message here.
  it("refuses a message another partner's kit wrote for this page, account and chain", () => {
    for (const uri of [
      'https://other-partner.example/api/partner',
      'https://shop.example/api',
      'https://shop.example/api/partner/other',
      'https://shop.example',
      PAGE.origin,
    ]) {
      expect(isKitMessage(message(STATEMENT, { uri }), BUYER, 8453, PAGE, KIT)).toBe(false)
    }
    // A second URI in resources is a line the kit never writes.
    expect(isKitMessage(message(STATEMENT, { resources: [KIT] }), BUYER, 8453, PAGE, KIT)).toBe(false)
    // Without a partner backend, no message is the kit's.
    expect(isKitMessage(message(STATEMENT), BUYER, 8453, PAGE, undefined)).toBe(false)
    expect(isKitMessage(message(STATEMENT, { uri: PAGE.href.replace(/\/+$/, '') }), BUYER, 8453, PAGE, '')).toBe(false)
  })

  it('takes partnerBase as a fetch of it goes: relative to the page, without trailing slashes', () => {
    expect(isKitMessage(message(STATEMENT, { uri: 'https://widget.example/partner' }), BUYER, 8453, PAGE, '/partner/')).toBe(true)
    expect(isKitMessage(message(STATEMENT), BUYER, 8453, PAGE, `${KIT}/`)).toBe(true)
    expect(isKitMessage(message(STATEMENT, { uri: 'https://shop.example' }), BUYER, 8453, PAGE, 'https://shop.example/')).toBe(true)
  })

  it('refuses a sign-in that never expires (the kit always writes an expiry)', () => {
    expect(isKitMessage(message(STATEMENT, { expirationTime: undefined }), BUYER, 8453, PAGE, KIT)).toBe(false)
  })

  it('refuses a very long message (the kit takes at most 2048 characters back)', () => {
    expect(isKitMessage(message('Confirm this wallet is yours. '.repeat(100_000)), BUYER, 8453, PAGE, KIT)).toBe(false)
  })
})
