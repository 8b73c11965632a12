// The crypto deposit told to the partner's kit: POST {partnerBase}/deposit/sent names the
// transaction the buyer sent (never its receipt: the kit reads that from the chain itself) and the
// kit answers its own id for the deposit.
import { depositSchemas } from './deposit'
import type { PartnerHttp } from './partnerHttp'

export type DepositSent = { provider: string; txHash: string; chainId: number }

const depositSent = depositSchemas.schema('depositSent')

export function reportDepositSent(http: PartnerHttp, sent: DepositSent, signal?: AbortSignal): Promise<{ id: string }> {
  return http.post('/deposit/sent', sent, depositSent, signal)
}
