import { PGlite } from '@electric-sql/pglite'
let t=Date.now(); const a = await PGlite.create(); await a.query('select 1'); console.log('first create', Date.now()-t)
t=Date.now(); const b = await PGlite.create(); await b.query('select 1'); console.log('second create', Date.now()-t)
t=Date.now(); const c = await b.clone(); await c.query('select 1'); console.log('clone', Date.now()-t)
