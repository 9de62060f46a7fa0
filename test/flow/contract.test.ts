/**
 * The closed contract between each machine and its handlers. Types make a handler return only the events listed for
 * its command (machines/contract.ts); this test holds the lists equal to the machines, and checks that every listed
 * event is really produced somewhere in the handler code, so "every transition covered" means transitions that can
 * happen.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
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

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourcesUnder(path) : path.endsWith('.ts') ? [path] : []
  })
}

const handlerCode = sourcesUnder('src/effects')
  .map((path) => readFileSync(path, 'utf8'))
  .join('\n')

describe('command contracts', () => {
  it('every registered machine has a contract', () => {
    expect(Object.keys(contracts).sort()).toEqual(Object.keys(machineRegistry).sort())
  })

  for (const [id, { contract, requests }] of Object.entries(contracts)) {
    it(`${id}: the machine accepts exactly what its handlers may answer, where they answer it`, () => {
      expect(contractProblems(machineRegistry[id].machine, contract, requests)).toEqual([])
    })

    // Kept beside the type-level check (contract-types.test.ts) while some handlers' return types are derived from
    // the contract itself (HandlersFor, Answer<K>): for those the types agree by construction, this search does not.
    it(`${id}: every event a handler may answer is produced somewhere in the handler code`, () => {
      const unproduced = Object.values(contract)
        .flat()
        .filter((event) => !handlerCode.includes(`'${event}'`))
      expect(unproduced).toEqual([])
    })
  }

  it('catches an orphaned event and an answer the machine does not accept (a fixture built wrong on purpose)', () => {
    expect(contractProblems(orphanMachine, orphanContract, ['START'])).toEqual([
      'orphan.looking accepts LOOKUP_FAILED, which no lookUp handler may answer',
      'orphan.looking: a lookUp handler may answer RETRY, which the state does not accept',
    ])
  })
})
