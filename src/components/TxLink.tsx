import { type ChainConfig, explorerTxUrl } from '../config/config'
import { t } from '../i18n/i18n'

export function shortHash(hash: string): string {
  return hash.length > 14 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash
}

/** A transaction hash, as a link where the chain has an explorer. */
export function TxLink({ chain, hash, label }: { chain: ChainConfig; hash: string; label?: string }) {
  const url = explorerTxUrl(chain, hash)
  const text = (
    <>
      {label ?? t('steps.viewTx')}: <code title={hash}>{shortHash(hash)}</code>
    </>
  )
  return url ? (
    <a href={url} target="_blank" rel="noopener noreferrer" class="tx">
      {text}
    </a>
  ) : (
    <span class="tx">{text}</span>
  )
}
