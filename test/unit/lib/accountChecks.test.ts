// Issue 31: the checks of the four schemas the contract names only in words (assumed-contract.md,
// "Bank payout"), each against published examples where they exist.
import { describe, expect, it } from 'vitest'
import {
  checkClabe,
  checkCnpj,
  checkCpf,
  checkE164,
  checkPixKey,
  checkSortCode,
  checkUkAccount,
  clabeCheckDigit,
  normalisePhone,
  normalisePixKey,
} from '../../../src/lib/accountChecks'

describe('CLABE (18 digits, weights 3, 7, 1, mod 10)', () => {
  // 032180000118359719: the worked example of Wikipedia's "CLABE" article (Control digit);
  // 002010077777777771: the example of center-key/clabe-validator's README (Banamex).
  it.each(['032180000118359719', '002010077777777771'])('%s is valid', (clabe) => {
    expect(checkClabe(clabe)).toBeUndefined()
  })

  it('the control digit of the worked example is 9', () => {
    expect(clabeCheckDigit('03218000011835971')).toBe(9)
    expect(clabeCheckDigit('00000000000000000')).toBe(0)
  })

  it('a wrong last digit, or two digits swapped, is a typo said as one', () => {
    expect(checkClabe('032180000118359718')).toEqual({ kind: 'clabeChecksum' })
    expect(checkClabe('032180000118539719')).toEqual({ kind: 'clabeChecksum' })
    expect(checkClabe('002010077777777770')).toEqual({ kind: 'clabeChecksum' })
  })

  it('not 18 digits is a length problem, before any checksum', () => {
    expect(checkClabe('03218000011835971')).toEqual({ kind: 'clabeFormat' })
    expect(checkClabe('0321800001183597190')).toEqual({ kind: 'clabeFormat' })
    expect(checkClabe('03218000011835971A')).toEqual({ kind: 'clabeFormat' })
  })
})

describe('CPF and CNPJ (mod 11, two check digits)', () => {
  // 111.444.777-35: the worked example of the CPF's check digits (pt.wikipedia "Cadastro de
  // Pessoas Físicas"; ClaudineiOlSantos/validadores Validadores.java lists it with 328.782.170-98).
  it.each(['11144477735', '32878217098', '89400942044'])('CPF %s is valid', (cpf) => {
    expect(checkCpf(cpf)).toBeUndefined()
  })

  it('a CPF with a wrong check digit, or the same digit eleven times, is refused', () => {
    expect(checkCpf('11144477734')).toEqual({ kind: 'cpfChecksum' })
    expect(checkCpf('11144477725')).toEqual({ kind: 'cpfChecksum' })
    // Passes the arithmetic, never issued.
    expect(checkCpf('11111111111')).toEqual({ kind: 'cpfChecksum' })
    expect(checkCpf('00000000000')).toEqual({ kind: 'cpfChecksum' })
  })

  // 11.222.333/0001-81: the textbook example; 14.572.457/0001-85: the worked example of
  // JSaints-Dev/validaCNPJ's README; both in ClaudineiOlSantos/validadores Validadores.java.
  it.each(['11222333000181', '14572457000185', '03984842000113'])('CNPJ %s is valid', (cnpj) => {
    expect(checkCnpj(cnpj)).toBeUndefined()
  })

  it('a CNPJ with a wrong check digit, or all zeros, is refused', () => {
    expect(checkCnpj('11222333000180')).toEqual({ kind: 'cnpjChecksum' })
    expect(checkCnpj('11222333000191')).toEqual({ kind: 'cnpjChecksum' })
    expect(checkCnpj('00000000000000')).toEqual({ kind: 'cnpjChecksum' })
  })
})

describe('PIX key: CPF, CNPJ, e-mail, +55 phone or random key (EVP)', () => {
  it.each([
    ['111.444.777-35', '11144477735'],
    ['11.222.333/0001-81', '11222333000181'],
    [' Ana.Souza@Example.com.br ', 'ana.souza@example.com.br'],
    ['+55 (11) 98765-4321', '+5511987654321'],
    ['123E4567-E89B-12D3-A456-426614174000', '123e4567-e89b-12d3-a456-426614174000'],
  ])('%s is sent as %s, and is valid', (typed, sent) => {
    expect(normalisePixKey(typed)).toBe(sent)
    expect(checkPixKey(sent)).toBeUndefined()
  })

  it('a CPF or CNPJ key is held to its check digits', () => {
    expect(checkPixKey(normalisePixKey('111.444.777-34'))).toEqual({ kind: 'cpfChecksum' })
    expect(checkPixKey(normalisePixKey('11.222.333/0001-80'))).toEqual({ kind: 'cnpjChecksum' })
  })

  it('a phone key is Brazilian (+55, area code, 8 or 9 digits)', () => {
    expect(checkPixKey('+14155552671')).toEqual({ kind: 'pixPhone' })
    expect(checkPixKey('+55119876543')).toEqual({ kind: 'pixPhone' })
    expect(checkPixKey('+5501987654321')).toEqual({ kind: 'pixPhone' })
  })

  it('anything else is no PIX key', () => {
    for (const key of ['ana@', 'ana@example', '12345', '123456789012', 'hello', '123e4567-e89b-12d3-a456-42661417400']) {
      expect(checkPixKey(normalisePixKey(key)), key).toEqual({ kind: 'pixKey' })
    }
  })
})

describe('UK sort code and account number', () => {
  // 08-99-99 / 66374958: test case 1 of Vocalink's "Validating account numbers" (modulus checking);
  // only the format is checked here, the bank's modulus tables are the service's.
  it('six digits, typed with dashes or spaces', () => {
    expect(checkSortCode('089999')).toBeUndefined()
    expect(checkUkAccount('66374958')).toBeUndefined()
  })

  it('anything but six (or eight) digits is refused', () => {
    for (const v of ['08999', '0899990', '08999A']) expect(checkSortCode(v), v).toEqual({ kind: 'sortCode' })
    for (const v of ['6637495', '663749581', '6637495A']) expect(checkUkAccount(v), v).toEqual({ kind: 'ukAccount' })
  })
})

describe('E.164 (mobile money)', () => {
  it.each([
    ['+254 712 345 678', '+254712345678'],
    ['+234 (803) 123-4567', '+2348031234567'],
    ['00233 24 123 4567', '+233241234567'],
    // The national trunk prefix written beside the country code, as many print their numbers: never dialled after it.
    ['+234 (0)803 123 4567', '+2348031234567'],
    ['+234 (0) 803 123 4567', '+2348031234567'],
    ['00254 (0)712 345 678', '+254712345678'],
  ])('%s is sent as %s', (typed, sent) => {
    expect(normalisePhone(typed)).toBe(sent)
    expect(checkE164(sent)).toBeUndefined()
  })

  it('a number without its country code, too long, or not a number is refused', () => {
    for (const v of ['0712345678', '712345678', '+0712345678', '+1234567890123456', '+25471234567x', '+123']) {
      expect(checkE164(normalisePhone(v)), v).toEqual({ kind: 'phone' })
    }
  })
})
