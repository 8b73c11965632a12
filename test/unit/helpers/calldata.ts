// Calldata the guard tests build: the ERC-20 calls, the sandbox Depositor's deposit, and the
// grants a hostile quote hides (Permit2's approve, an attacker's execute), encoded by viem.
import { encodeFunctionData, erc20Abi, parseAbi } from 'viem'

type Address = `0x${string}`

/** The sandbox Depositor's one entry point. */
export const depositorAbi = parseAbi(['function deposit(address token, uint256 amount, bytes32 quoteId)'])

/** Calls that grant an allowance or an operator without ERC-20's approve. */
export const grantAbi = parseAbi([
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
  'function setApprovalForAll(address operator, bool approved)',
  'function increaseApproval(address spender, uint256 amount)',
  'function authorizeOperator(address operator)',
])

/** An attacker's contract that calls `target` with `data` on the buyer's behalf. */
export const executeAbi = parseAbi(['function execute(address target, bytes data)'])

export const transferData = (to: string, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Address, amount] })

export const transferFromData = (from: string, to: string, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [from as Address, to as Address, amount] })

export const approveData = (spender: string, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender as Address, amount] })

export const depositData = (token: string, amount: bigint, quoteId: Address) =>
  encodeFunctionData({ abi: depositorAbi, functionName: 'deposit', args: [token as Address, amount, quoteId] })

/** Permit2's approve(token, spender, 2^160-1, 2^48-1): a standing Permit2 allowance handed over, unlimited. */
export const permit2ApproveData = (token: string, spender: string) =>
  encodeFunctionData({ abi: grantAbi, functionName: 'approve', args: [token as Address, spender as Address, 2n ** 160n - 1n, 2 ** 48 - 1] })
