// The words the screens and the `error` event share, picked in errors/words.ts alone (issue 30).
import { describe, expect, it } from 'vitest'
import { connectProblemText, linkProblemText } from '../../../src/errors/words'
import { enDeposit } from '../../../src/i18n/en-deposit'
import { addEnglish, t } from '../../../src/i18n/i18n'

addEnglish(enDeposit)

describe('errors/words', () => {
  it.each(['rejected', 'pending', 'unsupportedChain', 'disconnected', 'unknown', 'noAccount'] as const)(
    "a wallet's failed connection (%s) reads as a sentence, never a key",
    (problem) => {
      const text = connectProblemText(problem)
      expect(text).not.toMatch(/^wallet\./)
      expect(text).toBe(t(`wallet.problem.${problem}`))
    },
  )

  it('a changed link and an invalid one each have their heading and body', () => {
    expect(linkProblemText({ code: 'bad_signature' })).toEqual({ title: t('link.changed'), body: t('link.changedBody') })
    for (const code of ['invalid_link', 'forbidden_option'])
      expect(linkProblemText({ code })).toEqual({ title: t('link.invalid'), body: t('link.invalidBody') })
    expect(t('link.changed')).not.toBe(t('link.invalid'))
  })
})
