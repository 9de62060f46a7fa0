import { describe, expect, it } from 'vitest'
import { FlowStoreUnavailable } from '../../../src/errors.js'
import { CookieFlowStore } from '../../../src/flow/stores/cookie.js'
import { flowStoreConformance, sampleRecord } from './conformance.js'

function configured(secrets: string[], cookieName = 'authjs.flow'): CookieFlowStore {
  const store = new CookieFlowStore()
  store.configure({ secrets, cookieName })
  return store
}

flowStoreConformance(
  'cookie',
  async () => ({
    store: configured(['conformance secret, at least thirty-two chars long']),
    foreign: configured(['another app entirely, with its own long secret']),
  }),
  { singleUse: false },
)

describe('CookieFlowStore beyond the shared suite', () => {
  it('a ref sealed under the previous secret still opens after rotation; one sealed for another cookie name does not', async () => {
    const old = configured(['the old secret, rotated out this morning'])
    const record = sampleRecord()
    const ref = await old.save(record)
    expect(
      await configured(['the new secret, rotated in this morning', 'the old secret, rotated out this morning']).load(
        ref,
      ),
    ).toEqual(record)
    expect(await configured(['the old secret, rotated out this morning'], 'other.flow').load(ref)).toBeNull()
  })

  it('used before configure(): save fails with FlowStoreUnavailable', async () => {
    await expect(new CookieFlowStore().save(sampleRecord())).rejects.toBeInstanceOf(FlowStoreUnavailable)
  })
})
