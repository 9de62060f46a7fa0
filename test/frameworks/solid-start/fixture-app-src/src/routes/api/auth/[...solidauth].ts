import { SolidAuth } from 'authchart/solid-start'
import { authConfig } from '../../../lib/auth'

export const { GET, POST } = SolidAuth(authConfig)
