import type { ComponentChildren } from 'preact'
import type { BankDepositKey } from '../i18n/en-bankDeposit'
import { type MessageKey, type Params, t } from '../i18n/i18n'
import { type KnownDetailKey, detailRows, groupIban } from '../lib/bank'
import { formatAmount } from '../lib/decimal'
import { CopyField } from './CopyField'
import { QrCode } from './QrCode'

const LABELS: Record<Exclude<KnownDetailKey, 'reference'>, BankDepositKey> = {
  iban: 'bankDeposit.iban',
  bic: 'bankDeposit.bic',
  swiftCode: 'bankDeposit.swiftCode',
  bankName: 'bankDeposit.bankName',
  accountName: 'bankDeposit.accountName',
  accountNumber: 'bankDeposit.accountNumber',
  sortCode: 'bankDeposit.sortCode',
  routingNumber: 'bankDeposit.routingNumber',
  clabe: 'bankDeposit.clabe',
  pixKey: 'bankDeposit.pixKey',
  pixPayload: 'bankDeposit.pixPayload',
}

// The flow's English strings are added with its chunk; the catalogs' key type lists them later.
const text = (key: BankDepositKey, params?: Params) => t(key as string as MessageKey, params)

/** A label for a key we do not know: "beneficiaryBank" → "Beneficiary bank", "bank_code" → "Bank code". */
export function labelFromKey(key: string): string {
  const words = key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * The one-off deposit's details: the reference first with its warning, the exact amount, then
 * every string field the service sent (labelled when known, never dropped), each with a copy
 * button, and a PIX payload as a QR code. The deadline comes in as `countdown`.
 */
export function BankDetails({
  details,
  amount,
  currency,
  locale,
  countdown,
}: {
  details: { reference: string; pixPayload?: unknown; [key: string]: unknown }
  amount: string
  currency: string
  locale: string
  countdown?: ComponentChildren
}) {
  const formatted = formatAmount(amount, locale, currency)
  const pix = typeof details.pixPayload === 'string' && details.pixPayload !== '' ? details.pixPayload : undefined
  return (
    <div class="bank-deposit-details">
      <dl class="bank-details">
        <CopyField label={text('bankDeposit.reference')} value={details.reference} large />
      </dl>
      <p class="reference-warning">{text('bankDeposit.referenceWarning')}</p>
      <dl class="bank-details">
        <CopyField label={text('bankDeposit.amount')} value={amount} display={formatted} large />
      </dl>
      <p class="hint">{text('bankDeposit.amountHint')}</p>
      {countdown}
      <dl class="bank-details">
        {detailRows(details).map(([key, value]) => {
          const known = Object.hasOwn(LABELS, key) ? LABELS[key as keyof typeof LABELS] : undefined
          const iban = key === 'iban'
          return (
            <CopyField
              key={key}
              label={known ? text(known) : labelFromKey(key)}
              value={iban ? value.replace(/\s+/g, '').toUpperCase() : value}
              display={iban ? groupIban(value) : undefined}
            />
          )
        })}
      </dl>
      {pix && (
        <figure class="qr-figure">
          <QrCode value={pix} label={text('bankDeposit.pixQr', { amount: formatted })} />
          <figcaption class="hint">{text('bankDeposit.pixQrHint')}</figcaption>
        </figure>
      )}
    </div>
  )
}
