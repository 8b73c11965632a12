// Deploys the test token on both chains and the depositor on the source; funds dev accounts.
import { createPublicClient, createWalletClient, defineChain, getAddress, http, parseUnits } from 'viem'
import { compileContracts } from './compile.mjs'

// anvil's default mnemonic accounts; unlocked on the node, so no keys are needed.
export const DEV_ACCOUNTS = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
  '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
  '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
  '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
  '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
  '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
]

export function clientsFor(node) {
  const chain = defineChain({
    id: node.chainId,
    name: `anvil ${node.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [node.url] } },
  })
  const transport = http(node.url)
  return {
    public: createPublicClient({ chain, transport, pollingInterval: 100 }),
    wallet: createWalletClient({ chain, transport, account: DEV_ACCOUNTS[0] }),
  }
}

async function deploy(clients, artifact) {
  const hash = await clients.wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode })
  const receipt = await clients.public.waitForTransactionReceipt({ hash })
  return getAddress(receipt.contractAddress)
}

export async function deployAll(source, destination) {
  const artifacts = compileContracts()
  const src = clientsFor(source)
  const dst = clientsFor(destination)
  // One after another, so fresh chains always give the same addresses.
  const sourceToken = await deploy(src, artifacts.TestUSDC)
  const depositor = await deploy(src, artifacts.Depositor)
  const destToken = await deploy(dst, artifacts.TestUSDC)
  const amount = parseUnits('1000000', 6)
  for (const account of DEV_ACCOUNTS.slice(1)) {
    const hash = await src.wallet.writeContract({ address: sourceToken, abi: artifacts.TestUSDC.abi, functionName: 'mint', args: [account, amount] })
    await src.public.waitForTransactionReceipt({ hash })
  }
  return { artifacts, sourceToken, destToken, depositor, src, dst }
}
