// Verifying is a full navigation to the identity provider and back. What the buyer typed (the
// wallet first, and after a refusal their details and what the bank said) waits in this tab's
// sessionStorage meanwhile, and is taken (read once, then removed) on the way back. A link's
// walletAddress is honoured only under the partner's signature, so the widget never writes one.
import { StoredCheckPending, lazyCheck } from '../storage/storedCheck'
import { DRAFT_KEY as KEY, identityChecks } from './checks'
import type { Applicant, ServerMessage } from './machine'

const check = lazyCheck(identityChecks, (m) => m.identityDraft)

export type IdentityDraft = { form: Applicant; serverMessage?: ServerMessage }

export function identityDraft(storage: Storage | undefined) {
  return {
    put(value: IdentityDraft) {
      try {
        storage?.setItem(KEY, JSON.stringify(value))
      } catch {
        // without storage the buyer types the details again after verifying
      }
    },
    take(): IdentityDraft | undefined {
      try {
        const raw = storage?.getItem(KEY)
        // Its check first: a draft is never dropped for want of it (the flow waits: storage/storedCheck.ts).
        if (raw && !identityChecks.get()) throw new StoredCheckPending()
        storage?.removeItem(KEY)
        return raw ? check(JSON.parse(raw)) : undefined
      } catch (error) {
        if (error instanceof StoredCheckPending) throw error
        return undefined
      }
    },
  }
}
