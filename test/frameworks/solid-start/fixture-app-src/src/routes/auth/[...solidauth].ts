// The same handlers mounted at /auth: the app served with AUTH_PREFIX=/auth uses this route, and the one served
// with the default prefix shows how a route mounted at the wrong path is reported.
import { SolidAuth } from 'authchart/solid-start'
import { authConfig } from '../../lib/auth'

export const { GET, POST } = SolidAuth(authConfig)
