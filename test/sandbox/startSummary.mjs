// What `npm start` tells a person once everything is up: what runs where, one signed link per flow
// and the example partner pages. The stack's full description goes to a file (or --verbose).
import { demoUrl } from './demoUrl.mjs'

/** Every flow of the widget, by what it does, in the order a newcomer would try them. */
export const DEMO_FLOWS = [
  ['deposit', 'Crypto deposit'],
  ['card', 'Card payment'],
  ['onboarding', 'Bank transfer account'],
  ['bankDeposit', 'One-off bank deposit'],
  ['payout', 'Cash out to a bank'],
  ['cardPayout', 'Cash out to a card'],
]
export const EXAMPLE_MODES = ['script', 'iframe', 'frame', 'element', 'markup', 'csp', 'hosted']

const row = (label, text) => `  ${label.padEnd(22)}${text}`

/**
 * The lines to print. `widgetBase` (the sandbox build's origin) only when the widget is served;
 * `stackFile` is where the stack's JSON was written.
 */
export function startSummary({ config, widgetBase, stackFile }) {
  const lines = [
    '',
    'The sandbox is running (Ctrl+C stops it):',
    ...(widgetBase ? [row('widget pages', `${widgetBase}/ (a sandbox build, in dist-sandbox/)`)] : []),
    row('sandbox service', `${config.apiBase} (the service, the partner's backend, card and identity pages)`),
    ...config.chains.map((chain) => row(chain.name, `${chain.rpcUrl} (chain id ${chain.id})`)),
    row('stack details', `${stackFile} (tokens, contracts, dev accounts; --verbose prints them)`),
    ...(config.walletConnect
      ? [
          row('WalletConnect relay', `${config.walletConnect.relayUrl} (local, offline)`),
          row('phone wallet', `${config.walletConnect.phoneWallet}/state (pair with a wc: URI, approve, reject: docs/sandbox.md)`),
        ]
      : []),
  ]
  if (!widgetBase) return lines.join('\n')
  lines.push('', "One signed link per flow, as the partner's server signs them:")
  for (const [flow, label] of DEMO_FLOWS) lines.push(row(label, demoUrl(config, `${widgetBase}/`, flow)))
  lines.push(row('The buyer picks', demoUrl(config, `${widgetBase}/`)))
  lines.push('', 'Partner pages that embed the widget (add ?flow=card, ?flow=payout, … for another flow):')
  for (const mode of EXAMPLE_MODES) lines.push(row(mode, `${config.apiBase}/examples/${mode}.html`))
  lines.push(row('Payments', `${config.apiBase}/examples/payments.html (the shop's server: a demo user's payments, confirmed by the kit)`))
  return lines.join('\n')
}
