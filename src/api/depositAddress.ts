// A deposit paid by address, where the partner's backend is the kit (walletLink): the quote is
// asked of the kit (POST {partnerBase}/deposit/address, the quote request as the service takes it),
// which asks the service with its key and records the deposit address to the signed-in buyer before
// answering (src/server/depositAddress.ts). The answer is the service's quote, as it came.
import { depositSchemas } from './deposit'
import type { PartnerHttp } from './partnerHttp'
import type { DepositAddressRequest } from './schemas-deposit'

const depositQuote = depositSchemas.schema('depositQuote')

export function quoteDepositAddress(http: PartnerHttp, request: DepositAddressRequest, signal?: AbortSignal) {
  return http.post('/deposit/address', request, depositQuote, signal)
}
