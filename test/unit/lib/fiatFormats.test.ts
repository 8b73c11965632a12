import { describe, expect, it } from 'vitest'
import { bpsToPercent, groupIban } from '../../../src/lib/bank'
import { isEmail, normalisePhone } from '../../../src/lib/contact'
import { countryCodes, countryOptions, isCountryCode } from '../../../src/lib/country'

describe('E.164', () => {
  it.each([
    ['+4915123456789', '+4915123456789'],
    ['+49 151 2345 6789', '+4915123456789'],
    ['+1 (202) 555-0143', '+12025550143'],
    ['0049 151 23456789', '+4915123456789'],
    [' +44.20.7946.0958 ', '+442079460958'],
  ])('accepts %j as %s', (input, out) => {
    expect(normalisePhone(input)).toBe(out)
  })

  it.each(['015123456789', '+0151234567', '+49', '+123456', '+1234567890123456', '+49 151 ABC', '++4915123456789', '', '+49/151/234567'])(
    'refuses %j',
    (input) => {
      expect(normalisePhone(input)).toBeUndefined()
    },
  )

  it('checks e-mail shape', () => {
    expect(isEmail('ada@example.com')).toBe(true)
    expect(isEmail('ada@example')).toBe(false)
    expect(isEmail('ada example.com')).toBe(false)
  })
})

describe('ISO 3166-1 alpha-2', () => {
  it('knows the assigned codes and nothing else', () => {
    expect(countryCodes).toHaveLength(249)
    expect(new Set(countryCodes).size).toBe(249)
    for (const code of ['DE', 'US', 'BR', 'GB', 'NG']) expect(isCountryCode(code)).toBe(true)
    for (const code of ['UK', 'EU', 'de', 'DEU', 'XX', '']) expect(isCountryCode(code)).toBe(false)
  })

  it('are exactly the 249 assigned codes, in order', () => {
    const assigned =
      'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
    expect(countryCodes).toEqual(assigned.split(' '))
  })

  it('names them in the locale, sorted by name', () => {
    const en = countryOptions('en')
    expect(en.find(([c]) => c === 'DE')?.[1]).toBe('Germany')
    expect(countryOptions('de').find(([c]) => c === 'DE')?.[1]).toBe('Deutschland')
    const names = en.map(([, n]) => n)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')))
  })
})

describe('bank details', () => {
  it('groups an IBAN in fours for reading', () => {
    expect(groupIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00')
    expect(groupIban('de89 3704 0044 0532 0130 00')).toBe('DE89 3704 0044 0532 0130 00')
    expect(groupIban('GB29NWBK60161331926819')).toBe('GB29 NWBK 6016 1331 9268 19')
  })

  it.each([
    [100, '1'],
    [25, '0.25'],
    [150, '1.5'],
    [0, '0'],
    [1, '0.01'],
    [7.5, '0.075'],
    [10000, '100'],
    ['33', '0.33'],
  ])('turns %j basis points into %s %%', (bps, percent) => {
    expect(bpsToPercent(bps)).toBe(percent)
  })

  it('refuses what is not a basis-point value', () => {
    expect(() => bpsToPercent(-5)).toThrow()
    expect(() => bpsToPercent(Number.NaN)).toThrow()
    expect(() => bpsToPercent(1e21)).toThrow()
  })
})
