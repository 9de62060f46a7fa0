import { Cluster } from 'ioredis'
const c = new Cluster([{ host: '127.0.0.1', port: 7711 }])
c.on('error', (e) => console.log('err', e.message))
c.on('node error', (e) => console.log('node err', e.message))
setTimeout(async () => { console.log(c.status); try { console.log(await c.set('a{x}', '1')) } catch (e) { console.log('E', e) } c.disconnect() }, 1500)
