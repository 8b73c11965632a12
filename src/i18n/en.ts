// Every buyer-facing string shared by the flows, in English. {name} is replaced by a parameter;
// keys are stable across locales. Each flow's own strings are in en-<flow>.ts (or <flow>/), loaded with the
// flow; the words several flows share but not every one shows are in shared/ (the amount field's, the limits line's).
import type { enCard } from './en-card'
import type { enAmount } from './shared/en-amount'
import type { enCopy } from './en-copy'
import type { enWalletConnect } from './en-walletConnect'
import type { enIdentityWallet } from './en-identityWallet'
import type { enCardLater } from './en-cardLater'
import type { enDeposit } from './en-deposit'
import type { enOnboarding } from './en-onboarding'
import type { enOnboardingLater } from './en-onboardingLater'
import type { enPartner } from './en-partner'
import type { enRefusals } from './en-refusals'
import type { BankDepositKey } from './en-bankDeposit'
import type { LimitsKey } from './shared/en-limits'
import type { PayoutKey } from './en-payout'
import type { ByAddressKey } from './byAddress/en'

export const en = {
  'app.title': 'Stablecoin widget',
  'app.sandbox': 'Sandbox',
  'app.sandboxHint': 'Test network: no real money moves',
  'app.waiting': 'Waiting for the network…',
  'app.step': 'Step {n} of {total}',
  'app.back': 'Back',
  'app.close': 'Close',
  'app.returnToSite': 'Return to the site',
  'app.configError': 'This widget is not set up correctly',
  'app.configErrorBody': 'The page that opened it passed a setting we cannot use: {detail}. Please tell the site you came from.',
  'app.elsewhere': 'This is being followed in another tab or window. This one takes over if you close it there.',
  'app.loading': 'Loading…',
  'link.invalid': 'This payment link is not valid',
  'link.invalidBody': 'Go back to the site you came from and start the payment again there.',
  'link.changed': 'This payment link was changed or has expired',
  'link.changedBody': 'For your safety it was not opened. Go back to the site you came from and start again there to get a fresh link.',
  'app.loadFailed': 'This part of the widget did not load. Check your connection and reload the page.',
  'app.crashed': 'This step could not be shown',
  'app.crashedBody':
    'Something went wrong on our side while showing this step. Your progress is saved: reload the page to continue where you left off. If it happens again, tell the site you came from.',

  'start.heading': 'What would you like to do?',
  'start.deposit': 'Deposit crypto',
  'start.depositHint': 'Send stablecoins from your wallet to another chain',
  'start.card': 'Pay by card',
  'start.cardHint': 'Buy crypto with a card (Apple Pay on supported Apple devices)',
  'start.onboarding': 'Bank transfer',
  'start.onboardingHint': 'Get a virtual account and pay by bank transfer',
  'start.bankDeposit': 'Pay an exact amount by bank transfer',
  'start.bankDepositHint': 'Get bank details for this payment, with a deadline',
  'start.payout': 'Cash out to an account',
  'start.payoutHint': 'Send stablecoins; receive money by bank, mobile money or wallet',
  'bankDeposit.name': 'Bank transfer payment',
  'payout.name': 'Cash out',
  'start.cardPayout': 'Cash out to a card',
  'start.cardPayoutHint': 'Receive money on your card from your wallet',
  'cardPayout.name': 'Cash out to a card',

  'deposit.name': 'Deposit crypto',
  'wallet.sandbox': 'Sandbox wallet',

  'quote.loading': 'Getting a price…',
  'quote.held': 'Price held for {time}',
  'quote.refreshing': 'The price ran out; getting a new one…',
  'quote.refreshed': 'New price: check the figures again.',
  'quote.noRoute': 'No route can carry this deposit right now. This is usually temporary: try again in a few minutes or with a different amount.',
  'quote.tryAgain': 'Try again',

  'steps.heading': 'Progress',
  'steps.todo': 'to do',
  'steps.active': 'in progress',
  'steps.done': 'done',
  'steps.failed': 'failed',
  'steps.viewTx': 'View transaction',

  'track.closeOk': 'You can close this page: open it again later to see where it is.',
  'error.network': 'We could not reach the service. Check your connection and try again.',
  'error.server': 'The service had a problem. Try again in a moment.',
  'error.upstream': 'A partner of the service is unavailable. Try again later.',
  'error.invalid': 'The service did not accept this: {detail}',
  'error.chainNotAllowed': 'This network is not available for this site. Choose another one.',
  'error.shape': 'The service answered in a way we did not expect. Try again in a moment.',
  'error.code': 'Code: {code}',
  'error.unknown': 'Something went wrong. Try again.',
  'error.busy': 'Too many requests went out from here in a short time. Wait a moment, then try again; nothing was lost.',
  'error.accountNotFound': 'The bank partner does not know this account. Verify your identity again to continue; nothing was sent.',
  'error.partnerUnreachable': "The shop's payment service did not answer. Try again in a moment; if it keeps happening, tell the site you came from.",
  'error.noRail': 'No route pays this currency in this country. Try another currency or country, or another way to pay.',
  'error.quoteExpired': 'This price has expired. Get a new price to continue; nothing was sent.',

  'card.name': 'Pay by card',
  'error.requiresAction': 'Your verification level does not allow this payment. Complete a higher level of verification, then try again.',

  'onboarding.name': 'Bank transfer',
} as const

/** The keys every locale file lists itself. */
export type CoreKey =
  | keyof typeof en
  | keyof typeof enDeposit
  | keyof typeof enCard
  | keyof typeof enCardLater
  | keyof typeof enOnboarding
  | keyof typeof enOnboardingLater
  | keyof typeof enPartner
  | keyof typeof enRefusals
  | keyof typeof enCopy
  | keyof typeof enWalletConnect
  | keyof typeof enIdentityWallet
  | keyof typeof enAmount
export type MessageKey = CoreKey | BankDepositKey | LimitsKey | PayoutKey | ByAddressKey
