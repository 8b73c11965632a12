// The hosted page (and, with the same bundle, the iframe's page): options from the query string.
import { isSandboxApi, optionsFromParams } from './config/config'
import { mountWidget } from './embed/mount'
import { t } from './i18n/i18n'

const root = document.getElementById('app')
if (root) {
  const options = optionsFromParams(new URLSearchParams(location.search))
  const sandbox = options.sandbox === true || isSandboxApi(String(options.apiBase ?? ''))
  if (sandbox && Array.isArray(options.chains)) {
    // Sandbox only, and loaded on demand: the production path never runs this code.
    const chains = options.chains
    import('./wallet/sandboxWallet').then(({ announceSandboxWallet }) => announceSandboxWallet(window, chains, t('wallet.sandbox')))
  }
  // The hosted page has no embedding to call back: its events are DOM events on the window.
  mountWidget(root, options, {
    shadow: false,
    ownsPage: true,
    emit: (name, payload) => window.dispatchEvent(new CustomEvent('stablecoin-widget', { detail: { name, payload } })),
  })
}
