import { render } from 'preact'
import { App } from './App'
import { readConfig } from './config/config'
import { t } from './i18n/i18n'
import './styles.css'

const result = readConfig(location.search, navigator.language)
const root = document.getElementById('app')
if (root) {
  if (result.ok) document.documentElement.lang = result.config.locale
  if (result.ok && result.config.sandbox) {
    // Sandbox only, and loaded on demand: the production bundle never runs this code.
    const { config } = result
    import('./wallet/sandboxWallet').then(({ announceSandboxWallet }) =>
      announceSandboxWallet(window, config.chains, t('wallet.sandbox')),
    )
  }
  render(<App result={result} />, root)
}
