// The one-off bank deposit's form and what it keeps, as the machine (machine.ts) and its higher-tier
// detour (higherTier.ts) both name them. Types only.
import type { BankDepositDetails, BankDepositStatus } from '../../api/bankDeposit'
import type { LimitEntry, PaymentMethods } from '../../api/reference'
import type { Applicant, BuyerAccount } from '../../identity/machine'
import type { Problem, Work } from '../../kernel/types'
import type { AmountProblem } from '../../lib/decimal'
import type { LimitCheck } from '../../lib/limits'

export type DepositForm = { country: string; currency: string; amount: string }

/** What the service says about paying here: where the one-off deposit is offered, and the rails' limits. */
export type ReferenceData = { methods: PaymentMethods; limits: LimitEntry[] }

export type AmountError = { kind: 'country' } | { kind: 'amount'; problem: AmountProblem } | { kind: 'limit'; check: Extract<LimitCheck, { ok: false }> }

/** What is kept once the deposit exists: enough to show its details and follow it, nothing personal. */
export type StoredDeposit = {
  id: string
  rail: string
  expiresAt: string
  details: BankDepositDetails
  /** What the buyer asked to send (the details are for this amount). */
  currency: string
  amount: string
  /** Where the buyer said their bank account is: a new deposit starts there. */
  country?: string
  /** Whose it is (the wallet it settles to): resumed only for that buyer. */
  wallet: string
  createdAt: number
}

export type StatusView = Omit<BankDepositStatus, 'updatedAt'>

export type FormState = {
  tag: 'form'
  account: BuyerAccount
  form: DepositForm
  reference?: ReferenceData
  /** Loading the reference data failed; RELOAD tries again. */
  loadProblem?: Problem
  loads: number
  error?: AmountError
  /** The create request failed (the buyer may retry: the same reference gets the same deposit). */
  problem?: Problem
  /** The amount as sent (a decimal string with a dot), once checked. */
  checked?: string
  /** A partner's reference already sent once: a retry must ask for the same amount, so it is fixed. */
  pinned?: boolean
  /** Asked before the ways to pay and their limits came: checked (and sent) once they do. */
  submitted?: boolean
  /** The buyer chose the country on this form: kept as it is, route or not (the screen says what is offered). */
  picked?: boolean
  /** The applicant's details typed in this page: a higher tier asked later onboards with them again. */
  applicant?: Applicant
  work: Work<'creating'>
}
