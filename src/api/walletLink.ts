// Linking the buyer's wallet to the partner's user, through the partner's kit (src/server/walletLink.ts):
// POST {partnerBase}/deposit/wallet asks whether it is linked, or the message to sign with it;
// POST {partnerBase}/deposit/wallet/link hands the signed message back.
import { depositSchemas } from './deposit'
import type { PartnerHttp } from './partnerHttp'

const walletChallenge = depositSchemas.schema('walletChallenge')
const walletLinked = depositSchemas.schema('walletLinked')

export function askWalletLink(http: PartnerHttp, wallet: { address: string; chainId: number }, signal?: AbortSignal) {
  return http.post('/deposit/wallet', wallet, walletChallenge, signal)
}

export function sendWalletLink(http: PartnerHttp, signed: { message: string; signature: string }, signal?: AbortSignal) {
  return http.post('/deposit/wallet/link', signed, walletLinked, signal)
}
