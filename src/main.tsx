// The hosted page: the partner's entry from the registry inlined in this page (`?partner=ID`),
// plus what the link may say (buyer-facing options, and signed ones under a valid signature).
import { readRegistry } from './config/link'
import { readPageLink } from './config/pageLink'
import { mountLinkProblem, mountWidget } from './embed/widgetMount'
import type { Emit } from './config/protocol'
import { offerSandboxWallet } from './wallet/sandboxOffer'

// The hosted page has no embedding to call back: its events are DOM events on the window.
const emit: Emit = (name, payload) => window.dispatchEvent(new CustomEvent('stablecoin-widget', { detail: { name, payload } }))

async function start(root: HTMLElement) {
  const link = await readPageLink(readRegistry(document))
  if (!link.ok) {
    mountLinkProblem(root, link, emit, new URLSearchParams(location.search).get('locale') ?? navigator.language)
    return
  }
  // Sandbox builds only (a production build has no sandbox wallet code at all), and only where a
  // wallet may send (a deposit, a payout's funding): the card and other bank pages do not fetch it.
  if (__SANDBOX_BUILD__ && link.entry.environment === 'sandbox') offerSandboxWallet(window, link.options.flow, link.entry.chains)
  // The page's own history only where it is the top page: framed, the history is the framing page's.
  mountWidget(root, link.options, { shadow: false, ownsPage: true, history: window.parent === window, emit })
}

const root = document.getElementById('app')
if (root) void start(root)
