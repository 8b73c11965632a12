// What a buyer needs to pay an address from another wallet or an exchange: the exact amount, the
// token and the chain, the address, each with a copy button, and an EIP-681 payment request as a QR
// code for a wallet app. Used by the deposit paid by address and by the payout's funding step.
import { enByAddress } from '../i18n/byAddress/en'
import { addEnglish, t } from '../i18n/i18n'
import { CopyField } from './CopyField'
import { QrCode } from './QrCode'

addEnglish(enByAddress)

export type PayByAddressProps = {
  /** The address to pay. */
  address: string
  /** The ERC-20 token's contract and symbol. */
  token: string
  symbol: string
  chainId: number
  chainName: string
  /** The exact amount, in the token's base units (the request's), and as the buyer reads it. */
  units: string
  amount: string
  /** What the contract says of this transfer, said under it (the deposit's by default: another amount or token is not followed). */
  terms?: string
}

/** EIP-681: `ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<base units>`. */
export const erc681 = ({ token, chainId, address, units }: Pick<PayByAddressProps, 'token' | 'chainId' | 'address' | 'units'>) =>
  `ethereum:${token}@${chainId}/transfer?address=${address}&uint256=${BigInt(units).toString()}`

export function PayByAddress(props: PayByAddressProps) {
  const { address, token, symbol, chainName, amount } = props
  const request = erc681(props)
  return (
    <div class="pay-by-address">
      <QrCode value={request} label={t('byAddress.qr', { amount, token: symbol, chain: chainName })} />
      <dl class="bank-details">
        <CopyField label={t('byAddress.amount')} value={amount} display={`${amount} ${symbol}`} large />
        <CopyField label={t('byAddress.address')} value={address} />
        <CopyField label={t('byAddress.chain')} value={chainName} display={`${chainName} (${props.chainId})`} />
        <CopyField label={t('byAddress.token', { token: symbol })} value={token} />
        <CopyField label={t('byAddress.request')} value={request} />
      </dl>
      <p class="muted">{props.terms ?? t('byAddress.exact', { token: symbol, chain: chainName })}</p>
    </div>
  )
}
