// The pairing code WalletConnect shows while the phone is asked: a QR code for a wallet on another
// device, the link to copy, and on a phone the wallet apps' own links (walletConnect/links.ts).
// A modal <dialog>: the focus stays inside, Escape closes it (the buyer's "no").
import { useEffect, useRef } from 'preact/hooks'
import { CopyField } from '../components/CopyField'
import { QrCode } from '../components/QrCode'
import { t } from '../i18n/i18n'
import { walletLinks } from './walletConnect/links'

/** A phone or tablet: a touch screen with no fine pointer. */
const onPhone = () => typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches

export function Pairing({ uri, onCancel }: { uri?: string; onCancel: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const d = dialog.current
    if (d && !d.open) d.showModal?.()
  }, [])
  const links = uri && onPhone() ? walletLinks(uri) : []
  return (
    <dialog
      ref={dialog}
      class="pairing"
      aria-labelledby="wc-title"
      onCancel={(e) => {
        e.preventDefault()
        onCancel()
      }}
    >
      <h2 id="wc-title">{t('wc.title')}</h2>
      {!uri && <p role="status">{t('wc.preparing')}</p>}
      {uri && (
        <>
          {links.length > 0 && (
            <>
              <p>{t('wc.onPhone')}</p>
              <ul class="choices">
                {links.map((link) => (
                  <li>
                    <a class="button secondary" href={link.href} rel="noopener noreferrer">
                      {link.name === 'Other wallet' ? t('wc.otherWallet') : link.name}
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
          <p>{t('wc.scan')}</p>
          <QrCode value={uri} label={t('wc.qr')} />
          <dl>
            <CopyField label={t('wc.link')} value={uri} display={`${uri.slice(0, 24)}…`} />
          </dl>
          <p role="status">{t('wc.waiting')}</p>
        </>
      )}
      <button type="button" class="secondary" onClick={onCancel}>
        {t('wc.cancel')}
      </button>
    </dialog>
  )
}
