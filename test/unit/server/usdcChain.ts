// A real chain for the kit's deposit tests: anvil (chain 31337) on `port`, TestUSDC deployed by
// DEV_ACCOUNTS[0], 1000 USDC minted to each of `holders`, and a transfer as the buyer's wallet sends it.
import { createPublicClient, createWalletClient, defineChain, encodeFunctionData, getAddress, http, parseUnits, type Address, type Hash } from 'viem'
// @ts-expect-error: plain ESM module of the sandbox
import { startAnvil } from '../../sandbox/anvil.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { compileContracts } from '../../sandbox/compile.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { DEV_ACCOUNTS } from '../../sandbox/deploy.mjs'

export const CHAIN = 31337

export type UsdcChain = Awaited<ReturnType<typeof startUsdcChain>>

export async function startUsdcChain(port: number, holders: Address[] = []) {
  const anvil: { url: string; stop: () => Promise<void> } = await startAnvil({ chainId: CHAIN, port })
  const chain = defineChain({
    id: CHAIN,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.url] } },
  })
  const pub = createPublicClient({ chain, transport: http(), pollingInterval: 50 })
  const { abi, bytecode } = compileContracts().TestUSDC
  const wallet = (account: Address) => createWalletClient({ chain, transport: http(), account })
  /** Sends `tx` from `from` and waits for its receipt. */
  const send = async (from: Address, tx: { to: Address; data?: `0x${string}`; value?: bigint; gas?: bigint }): Promise<Hash> => {
    const hash = await wallet(from).sendTransaction(tx)
    await pub.waitForTransactionReceipt({ hash })
    return hash
  }
  const token: Address = getAddress(
    (await pub.waitForTransactionReceipt({ hash: await wallet(DEV_ACCOUNTS[0]).deployContract({ abi, bytecode }) })).contractAddress!,
  )
  for (const account of holders)
    await send(DEV_ACCOUNTS[0], { to: token, data: encodeFunctionData({ abi, functionName: 'mint', args: [account, parseUnits('1000', 6)] }) })
  /** A real ERC-20 transfer of `amount` USDC to a deposit address (DEV_ACCOUNTS[9]), as the buyer's wallet sends it. */
  const transfer = (from: Address, amount: string) =>
    send(from, { to: token, data: encodeFunctionData({ abi, functionName: 'transfer', args: [DEV_ACCOUNTS[9], parseUnits(amount, 6)] }) })
  return { anvil, pub, abi: abi as unknown[], token, send, transfer }
}
