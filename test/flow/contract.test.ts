/**
 * The closed contract between each machine and its handlers. Types make a handler return only the events listed for
 * its command (machines/contract.ts); this test holds the lists equal to the machines. That every listed event is
 * really returned by some handler, so "every transition covered" means transitions that can happen, the compiler
 * checks (test/flow/contract-types.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { backchannelLogoutContract } from '../../machines/backchannel-logout.js'
import { credentialsContract } from '../../machines/credentials.js'
import { emailContract } from '../../machines/email.js'
import { machineRegistry } from '../../machines/index.js'
import { oauthContract } from '../../machines/oauth.js'
import { sessionContract } from '../../machines/session.js'
import { tokenRefreshContract } from '../../machines/token-refresh.js'
import { webAuthnContract } from '../../machines/webauthn.js'
import { contractProblems } from './contract-check.js'
import { orphanContract, orphanMachine } from './fixtures/orphan-machine.js'

/** Per built-in machine: its contract and the events the HTTP layer sends (no command answers those). */
const contracts: Record<
  string,
  { contract: Readonly<Record<string, readonly string[]>>; requests: readonly string[] }
> = {
  credentials: { contract: credentialsContract, requests: ['CREDENTIALS_SUBMITTED', 'SECOND_FACTOR_SUBMITTED'] },
  oauth: { contract: oauthContract, requests: ['SIGNIN_STARTED', 'CALLBACK_RECEIVED', 'SECOND_FACTOR_SUBMITTED'] },
  session: {
    contract: sessionContract,
    requests: ['SESSION_REQUESTED', 'SESSION_UPDATE_REQUESTED', 'SIGNOUT_REQUESTED'],
  },
  email: {
    contract: emailContract,
    requests: ['SIGNIN_REQUESTED', 'LINK_FOLLOWED', 'LINK_CONFIRMED', 'SECOND_FACTOR_SUBMITTED'],
  },
  webauthn: {
    contract: webAuthnContract,
    requests: ['OPTIONS_REQUESTED', 'RESPONSE_RECEIVED', 'SECOND_FACTOR_SUBMITTED'],
  },
  tokenRefresh: { contract: tokenRefreshContract, requests: ['ACCESS_TOKEN_REQUESTED'] },
  backchannelLogout: { contract: backchannelLogoutContract, requests: ['LOGOUT_TOKEN_RECEIVED'] },
}

describe('command contracts', () => {
  it('every registered machine has a contract', () => {
    expect(Object.keys(contracts).sort()).toEqual(Object.keys(machineRegistry).sort())
  })

  for (const [id, { contract, requests }] of Object.entries(contracts)) {
    it(`${id}: the machine accepts exactly what its handlers may answer, where they answer it`, () => {
      expect(contractProblems(machineRegistry[id].machine, contract, requests)).toEqual([])
    })
  }

  it('catches an orphaned event and an answer the machine does not accept (a fixture built wrong on purpose)', () => {
    expect(contractProblems(orphanMachine, orphanContract, ['START'])).toEqual([
      'orphan.looking accepts LOOKUP_FAILED, which no lookUp handler may answer',
      'orphan.looking: a lookUp handler may answer RETRY, which the state does not accept',
    ])
  })
})
