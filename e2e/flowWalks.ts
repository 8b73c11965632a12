// Each of the six flows walked as a newcomer walks it, from its first screen to its end state, with
// the sandbox's own wallet, identity provider, card page and bank: for the example pages' spec
// (e2e/example-flows.spec.ts) and the walk that counts screens and clicks (e2e/flow-walks.spec.ts).
// A walk runs in the widget where it is (`root`: the hosted page, or the partner page's #widget) and
// on the sandbox's own pages in between; it records each heading the buyer saw, in order, and each
// click (a button or a link pressed: typing and choosing in a list are not counted).
import type { Locator, Page } from '@playwright/test'
import { expect, fillDetails } from './helpers'
import { type StackConfig, sandbox } from './stack'

export type Flow = 'deposit' | 'card' | 'onboarding' | 'bankDeposit' | 'payout' | 'cardPayout'
export const FLOWS: Flow[] = ['deposit', 'card', 'onboarding', 'bankDeposit', 'payout', 'cardPayout']

/** The flow's end state: the heading its last screen shows. */
export const END: Record<Flow, string> = {
  deposit: 'Deposit delivered',
  card: 'Purchase complete',
  onboarding: 'Your money arrived',
  bankDeposit: 'Your payment is complete',
  payout: 'Paid out',
  cardPayout: 'Paid to the card',
}

export class Walk {
  /** The screens the buyer met, in order: each the walk waited for (the widget's, and the sandbox's own pages between). */
  readonly headings: string[] = []
  clicks = 0

  /** `inPage`: the widget is mounted in the partner's page (#widget); else it is the page. */
  constructor(
    readonly page: Page,
    readonly stack: StackConfig,
    readonly inPage: boolean,
  ) {}

  /** Where the widget is: its screen's controls and heading. */
  root(): Page | Locator {
    return this.inPage ? this.page.locator('#widget') : this.page
  }

  h1(): Locator {
    return this.root().getByRole('heading', { level: 1 })
  }

  private met(text: string) {
    if (this.headings.at(-1) !== text) this.headings.push(text)
  }

  async click(target: Locator) {
    await target.click()
    this.clicks++
  }

  /** The widget's screen with this heading (recorded as the buyer read it). */
  async see(heading: string | RegExp, timeout?: number) {
    await expect(this.h1()).toHaveText(heading, timeout ? { timeout } : undefined)
    this.met(((await this.h1().textContent()) ?? '').trim())
  }

  /** One of the sandbox's own pages (identity provider, card page), a full page of its own. */
  async seePage(heading: string) {
    await expect(this.page.getByRole('heading', { name: heading })).toBeVisible()
    this.met(heading)
  }

  /** A button in the widget. */
  button(name: string | RegExp, exact?: boolean): Locator {
    return this.root().getByRole('button', { name, exact })
  }

  summary(flow: string): string {
    return `${flow}: ${this.headings.length} screens, ${this.clicks} clicks\n  ${this.headings.join(' → ')}`
  }
}

/** The sandbox's identity provider and back to the details form, filled and sent. */
async function identity(w: Walk, send: string | RegExp) {
  await w.see('Verify your identity')
  await w.click(w.root().getByRole('link', { name: 'Verify with our identity partner' }))
  await w.seePage('Sandbox identity provider')
  await w.click(w.page.getByRole('button', { name: 'Verify my identity' }))
  await w.see('Your details')
  await fillDetails(w.root())
  await w.click(w.button(send))
}

/** A bank flow's first screen for a buyer the service does not know: the receiving wallet, then identity. */
async function walletThenIdentity(w: Walk, wallet: string, send: string | RegExp) {
  await w.see('Where should your stablecoins go?')
  await w.root().getByLabel('Wallet address').fill(wallet)
  await w.click(w.button('Continue'))
  await identity(w, send)
}

async function deposit(w: Walk) {
  await w.see('Connect your wallet')
  await w.click(w.button('Sandbox wallet'))
  await w.see('How much do you want to deposit?')
  await w.root().getByLabel('Amount').fill('1.5')
  await w.click(w.button('See the price'))
  await w.see('Check your deposit')
  await w.click(w.button('Confirm and send'))
  await w.see(END.deposit, 60_000)
}

async function card(w: Walk, wallet: string) {
  await w.see('How much do you want to pay?')
  await w.root().getByLabel('Total to pay').fill('50')
  await w.click(w.button('See what you get'))
  await w.see('Check your purchase')
  await w.root().getByLabel('Wallet address that receives the crypto').fill(wallet)
  await w.click(w.button('Continue to payment'))
  await w.seePage('Sandbox card page')
  await w.click(w.page.getByRole('button', { name: 'Pay', exact: true }))
  await w.see(END.card, 30_000)
}

async function onboarding(w: Walk, wallet: string) {
  // Named 'Open my account' before issue 39's truth sweep (the walk also runs on older trees).
  await walletThenIdentity(w, wallet, /^(Get the bank details|Open my account)$/)
  await w.see('Send a bank transfer')
  await sandbox(w.stack, '/__sandbox/control', { fundAccount: { virtualAccountId: await lastVirtualAccount(w.stack), amount: '99.5' } })
  await w.see(END.onboarding, 40_000)
}

async function lastVirtualAccount(stack: StackConfig) {
  const state = (await sandbox(stack, '/__sandbox/fiat')) as { virtuals: Array<[string, unknown]> }
  return state.virtuals.at(-1)?.[0]
}

async function bankDeposit(w: Walk, wallet: string) {
  await walletThenIdentity(w, wallet, 'Continue')
  await w.see('How much do you want to pay?')
  await w.root().getByLabel('Amount you send').fill('120.00')
  await w.click(w.button('Get bank details'))
  await w.see('Send your bank transfer')
  const deposits = (await sandbox(w.stack, '/__sandbox/bank/deposits')) as Array<{ id: string }>
  await sandbox(w.stack, '/__sandbox/bank/deposit/transfer', { id: deposits.at(-1)?.id })
  await w.see(END.bankDeposit, 30_000)
}

/** A cash-out priced, its wallet connected, and (a buyer the service does not know) verified. */
async function pricedThenVerified(w: Walk) {
  await w.click(w.button('See the price'))
  await w.see('Check your cash-out')
  await w.click(w.button('Continue'))
  await w.see('Connect the wallet that pays')
  await w.click(w.button('Sandbox wallet'))
  await identity(w, 'Continue')
}

/** The cash-out's send step: the wallet connected at the start, or chosen again after a page that reloaded. */
async function send(w: Walk, end: string) {
  await w.see('Send the stablecoins')
  const send = w.button(/^Send [\d.]+ USDC$/)
  const choose = w.button('Sandbox wallet')
  await expect(send.or(choose)).toBeVisible()
  if (await choose.isVisible()) await w.click(choose)
  await w.click(send)
  await w.see(end, 45_000)
}

async function payout(w: Walk) {
  // Once the routes are in (the rails' line shows, and the heading names where the money lands):
  // euros to Germany, whatever the form started on.
  await expect(
    w
      .root()
      .getByText(/usually/)
      .first(),
  ).toBeVisible()
  await w.see(/^Cash out/)
  await w.root().locator('#payout-currency').selectOption('EUR')
  await w.root().locator('#payout-country').selectOption('DE')
  await w.root().locator('#payout-amount').fill('20')
  await pricedThenVerified(w)
  await w.see('Who receives the money?')
  await w.root().getByLabel('Account holder name').fill('Ada Lovelace')
  await w.root().getByLabel('First name').fill('Ada')
  await w.root().getByLabel('Last name').fill('Lovelace')
  await w.root().getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00')
  await w.click(w.button('Create the payout'))
  await send(w, END.payout)
}

async function cardPayout(w: Walk) {
  await w.see('Cash out to a card')
  await w.root().getByLabel('Lands on the card', { exact: true }).fill('20')
  await pricedThenVerified(w)
  await w.see('The card that receives the money')
  await w.click(w.button('Enter the card on the secure page'))
  await w.seePage('Sandbox card page')
  await w.click(w.page.getByRole('button', { name: 'Use this card' }))
  await send(w, END.cardPayout)
}

/** Walks `flow` from its first screen (already open) to its end state. `wallet`: where a bank or card flow delivers. */
export async function walkFlow(w: Walk, flow: Flow, wallet: string) {
  if (flow === 'deposit') return deposit(w)
  if (flow === 'card') return card(w, wallet)
  if (flow === 'onboarding') return onboarding(w, wallet)
  if (flow === 'bankDeposit') return bankDeposit(w, wallet)
  if (flow === 'payout') return payout(w)
  return cardPayout(w)
}
