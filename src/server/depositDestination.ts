// Where the crypto deposits the kit hands out addresses for settle: the partner's word
// (depositDestination), never the browser's. A deposit the kit credits to a user must pay the
// partner; one that settles in the buyer's own wallet would be paid once and counted twice.

import { isAddress, isZeroAddress } from '../lib/address'

/** A destination as the contract's quote request names one: a chain, a token and a recipient there. */
export type DepositDestination = { chainId: number; token: string; address: string }

/** The option: one destination for every user, or each user's (asked on every request; undefined: none for this user). */
export type DepositDestinationOption = DepositDestination | ((userId: string) => DepositDestination | undefined | Promise<DepositDestination | undefined>)

/** The destination in the kit's one spelling (lower-case addresses), or undefined if it is not one. */
export function canonicalDestination(value: unknown): DepositDestination | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const { chainId, token, address, ...rest } = value as Record<string, unknown>
  if (Object.keys(rest).length > 0 || !Number.isSafeInteger(chainId) || (chainId as number) <= 0) return undefined
  if (typeof token !== 'string' || typeof address !== 'string' || !isAddress(token) || !isAddress(address)) return undefined
  if (isZeroAddress(token) || isZeroAddress(address)) return undefined
  return { chainId: chainId as number, token: token.toLowerCase(), address: address.toLowerCase() }
}

export const DESTINATION_FORM =
  'depositDestination must be { chainId, token, address } (a chain id, a token and a recipient, 0x addresses, not zero), or a function of the user id that answers one'

/** The option as the kit keeps it (start-up check): a TypeError's words, or the checked option. */
export function checkDepositDestination(option: unknown): DepositDestinationOption | undefined | string {
  if (option === undefined) return undefined
  if (typeof option === 'function') return option as DepositDestinationOption
  return canonicalDestination(option) ?? DESTINATION_FORM
}

/** The user's destination: `none` when the option is not set (or names none for this user), `bad` when its function answered something else. */
export async function destinationOf(option: DepositDestinationOption | undefined, user: string): Promise<DepositDestination | 'none' | 'bad'> {
  if (option === undefined) return 'none'
  if (typeof option !== 'function') return option
  const answer = await option(user)
  if (answer === undefined || answer === null) return 'none'
  return canonicalDestination(answer) ?? 'bad'
}

export const sameDestination = (a: DepositDestination, b: DepositDestination) => a.chainId === b.chainId && a.token === b.token && a.address === b.address
