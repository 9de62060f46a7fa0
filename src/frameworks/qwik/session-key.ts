/** The `sharedMap` key under which the binding's request hook leaves the session (Session or null) for the app. */
export const sessionKey = 'session'
