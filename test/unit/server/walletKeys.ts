// anvil's default accounts with their keys (the well-known test mnemonic), for signing a wallet
// link as the wallet itself would: `personal_sign` of the kit's message by the account's own key.
import { mnemonicToAccount } from 'viem/accounts'

const MNEMONIC = 'test test test test test test test test test test test junk'

/** The dev account `index` (the same address as DEV_ACCOUNTS[index]) with its private key. */
export const devKey = (index: number) => mnemonicToAccount(MNEMONIC, { addressIndex: index })

type Reply = { status: number; body: any }

/**
 * Links the dev account to the user behind `post`, through the kit's routes: the challenge, then
 * the message signed by the account's key. Answers the last reply.
 */
export async function linkWallet<R extends Reply>(post: (path: string, body: unknown) => Promise<R>, index: number, chainId: number): Promise<R> {
  const account = devKey(index)
  const challenge = await post('/deposit/wallet', { address: account.address, chainId })
  if (challenge.status !== 200 || challenge.body.linked) return challenge
  const signature = await account.signMessage({ message: challenge.body.message })
  return post('/deposit/wallet/link', { message: challenge.body.message, signature })
}
