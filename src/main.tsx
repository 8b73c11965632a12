// The hosted page: the partner's entry from the registry inlined in this page (`?partner=ID`),
// plus what the link may say (buyer-facing options, and signed ones under a valid signature).
import { readRegistry } from './config/link'
import { readPageLink } from './config/pageLink'
import { mountLinkProblem, mountWidget } from './embed/widgetMount'
import type { Emit } from './config/protocol'
import { t } from './i18n/i18n'

// The hosted page has no embedding to call back: its events are DOM events on the window.
const emit: Emit = (name, payload) => window.dispatchEvent(new CustomEvent('stablecoin-widget', { detail: { name, payload } }))

async function start(root: HTMLElement) {
  const link = await readPageLink(readRegistry(document))
  if (!link.ok) {
    mountLinkProblem(root, link, emit, new URLSearchParams(location.search).get('locale') ?? navigator.language)
    return
  }
  const flow = link.options.flow
  if (__SANDBOX_BUILD__ && link.entry.environment === 'sandbox' && (flow === undefined || flow === 'deposit' || flow === 'payout' || flow === 'cardPayout')) {
    // Sandbox builds only (a production build has no sandbox wallet code at all), and only where a
    // wallet may send (a deposit, a payout's funding): the card and other bank pages do not fetch it.
    const chains = link.entry.chains
    import('./wallet/sandboxWallet').then(({ announceSandboxWallet }) => announceSandboxWallet(window, chains, t('wallet.sandbox')))
  }
  mountWidget(root, link.options, { shadow: false, ownsPage: true, history: true, emit })
}

const root = document.getElementById('app')
if (root) void start(root)
