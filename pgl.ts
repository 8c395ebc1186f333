import { PGlite } from '@electric-sql/pglite';
const t0 = Date.now();
const pg = await PGlite.create();
await pg.exec('create table a(x int); insert into a values (1)');
const dump = await pg.dumpDataDir('none');
console.log('create', Date.now() - t0, dump.size);
const t1 = Date.now();
const pg2 = await PGlite.create({ loadDataDir: dump });
console.log((await pg2.query('select * from a')).rows, 'load', Date.now() - t1);
