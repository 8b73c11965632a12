// What is wrong with a beneficiary field, as data: the checks (beneficiary.ts, accountChecks.ts)
// and the service's refusal (creating.ts) name it, errors/payoutWords.ts words it. errors/ imports
// no flow, so it names the same shapes; the form hands one to the other, and the compiler holds
// the two together there.

/** A problem said without numbers. */
export type PlainProblem = {
  kind:
    | 'required'
    | 'choose'
    | 'country'
    | 'currency'
    | 'refused'
    | 'ibanFormat'
    | 'ibanChecksum'
    | 'routingFormat'
    | 'routingChecksum'
    | 'swift'
    | 'evmAddress'
    | 'evmChecksum'
    | 'evmZero'
    | 'sortCode'
    | 'ukAccount'
    | 'clabeFormat'
    | 'clabeChecksum'
    | 'cpfChecksum'
    | 'cnpjChecksum'
    | 'pixKey'
    | 'pixPhone'
    | 'phone'
}

export type FieldProblem =
  | PlainProblem
  | { kind: 'tooLong' | 'accountText'; max: number }
  | { kind: 'accountDigits'; min: number; max: number }
  | { kind: 'ibanCountry'; country: string }
  | { kind: 'ibanLength'; country: string; length: number; actual: number }
