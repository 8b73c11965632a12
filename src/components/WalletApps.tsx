// "Open in your wallet app": this same page in a wallet app's own browser, where its wallet is
// injected. Each app's link carries the page's address as it is (so a signed link verifies there
// too), less any partnerToken (a bearer token never travels to a third party). Offered on a narrow
// touch screen with no injected wallet.
import { withoutPairs } from '../config/signedLink'
import { fullPageHref as framedFullPage } from './fullPage'
import { enByAddress } from '../i18n/byAddress/en'
import { addEnglish, t } from '../i18n/i18n'

addEnglish(enByAddress)

/**
 * The apps' documented in-app browser links (checked 2026-11-27 in each vendor's docs, quoted in
 * docs/embedding.md): MetaMask's `https://link.metamask.io/dapp/{dappUrl}` (its docs' current domain;
 * metamask.app.link is the older one) with the URL unencoded and without its scheme; Coinbase
 * Wallet's `https://go.cb-w.com/dapp?cb_url=` and Trust's `https://link.trustwallet.com/open_url?coin_id=60&url=`,
 * each with the URL percent-encoded.
 */
export function walletAppLinks(pageUrl: string): Array<{ name: string; href: string }> {
  const url = new URL(pageUrl)
  const encoded = encodeURIComponent(url.href)
  return [
    { name: 'MetaMask', href: `https://link.metamask.io/dapp/${url.href.slice(url.protocol.length + 2)}` },
    { name: 'Coinbase Wallet', href: `https://go.cb-w.com/dapp?cb_url=${encoded}` },
    { name: 'Trust Wallet', href: `https://link.trustwallet.com/open_url?coin_id=60&url=${encoded}` },
  ]
}

/**
 * The page the apps open (their link services see it): less any partnerToken, less the pairs the
 * identity provider and the card page add on the way back (authCode, cardSession, result), and less
 * its fragment, which the widget reads nothing from and where a page may keep a token (an OAuth
 * implicit grant's #access_token).
 */
export const walletAppsPage = (href: string): string => ['partnerToken', 'authCode', 'cardSession', 'result'].reduce(withoutPairs, href.replace(/#.*$/s, ''))

/** Only on a phone (narrow, touch), where the wallet is an app. */
const phone = () => matchMedia('(pointer: coarse) and (max-width: 600px)').matches

/** In a frame, the full page's link (the widget's own, whoever renders this); else this page's; either as walletAppsPage leaves it. */
export default function WalletApps({ fullPageHref }: { fullPageHref?: string }) {
  if (!phone()) return null
  const pageUrl = walletAppsPage(fullPageHref ?? framedFullPage() ?? location.href)
  return (
    <section class="wallet-apps" aria-labelledby="wallet-apps-heading">
      <h2 id="wallet-apps-heading">{t('walletApps.heading')}</h2>
      <p>{t('walletApps.body')}</p>
      <ul class="choices">
        {walletAppLinks(pageUrl).map((app) => (
          <li>
            <a class="choice" href={app.href} rel="noopener noreferrer">
              {t('walletApps.open', { wallet: app.name })}
            </a>
          </li>
        ))}
      </ul>
      <p class="muted">{t('walletApps.carries')}</p>
    </section>
  )
}
